/**
 * The catch-up under way holds the trigger's other deliveries in this process until n8n holds its
 * execution: a delivery meanwhile waits, so that its message runs after the missed ones of its
 * chat, or is found among them (catch-up.ts).
 */
import { sleep } from 'n8n-workflow';

import type { WatchedResponse } from './delivery-memory';

/** Per trigger, the catch-up under way in this process, settled once n8n answered its delivery. */
const CATCHING_UP = new Map<string, { settled: Promise<void>; startedAt: number }>();
/** The longest a delivery waits for a catch-up's execution to be stored. */
export const CATCH_UP_WAIT_MS = 60_000;

/**
 * The catch-up under way for a trigger in this process, to wait for (at most a minute: n8n answers
 * every delivery, but a delivery must not hang on one); none most of the time.
 */
export function catchUpUnderWay(trigger: string): Promise<void> | undefined {
	const underWay = heldBy(trigger);
	if (!underWay) return undefined;
	const left = CATCH_UP_WAIT_MS - (Date.now() - underWay.startedAt);
	return Promise.race([underWay.settled, sleep(left)]);
}

/**
 * The catch-up holding a trigger's deliveries, if any: for a minute at most, so a delivery n8n
 * never answers holds no later one, nor keeps the next catch-up from running.
 */
export function heldBy(trigger: string) {
	const underWay = CATCHING_UP.get(trigger);
	if (underWay && Date.now() - underWay.startedAt >= CATCH_UP_WAIT_MS) {
		CATCHING_UP.delete(trigger);
		return undefined;
	}
	return underWay;
}

/**
 * Marks a trigger's catch-up under way until n8n has answered `response`'s delivery, or `release`
 * is called, or a minute has passed (heldBy).
 */
export function catchUpStarts(trigger: string, response: WatchedResponse): () => void {
	let release = () => {};
	const settled = new Promise<void>((resolve) => {
		release = () => {
			if (CATCHING_UP.get(trigger)?.settled === settled) CATCHING_UP.delete(trigger);
			resolve();
		};
	});
	CATCHING_UP.set(trigger, { settled, startedAt: Date.now() });
	response.once?.('finish', release);
	response.once?.('close', release);
	return release;
}
