/** Chats and contacts in bulk, for tests of paging: one inbound message from each new number. */
import type { Simulator } from '../simulator/index.cts';

/** The number of the `index`-th added sender (`55219` and eight digits). */
export function senderNumber(index: number): string {
	return `55219${String(index).padStart(8, '0')}`;
}

/**
 * Adds `count` chats and contacts to the seeded session, each by one inbound message ("Guest
 * <index>"), then clears the request log so a test sees only its own requests.
 */
export async function addSenders(simulator: Simulator, count: number): Promise<void> {
	for (let index = 0; index < count; index++) {
		await simulator.injectInboundMessage({
			from: senderNumber(index),
			text: 'Hi',
			pushName: `Guest ${index}`,
		});
	}
	simulator.clearLogs();
}
