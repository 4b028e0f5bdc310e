/**
 * The every-operation workflow's cases and what its run must show, shared by the single-process
 * end-to-end test and the queue-mode test, so both hold n8n to the same results.
 */
import type { IDataObject, IRunData } from 'n8n-workflow';

import { resources } from '../../nodes/MessagingGateway/actions/resources';
import { SEED } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { binaryContent } from './e2e-helpers.cts';
import type { N8nInstance } from './n8n-instance.cts';
import { operationCases } from './workflows.cts';
import type { OperationCase } from './workflows.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;

/**
 * Operations that cannot run beside the others in one execution, with the test that runs them:
 * Send and Wait for Response puts the whole execution to wait; Combine Rapid Messages waits for a
 * person's burst of messages, one execution per message.
 */
export const RUN_IN_OWN_TEST: Record<string, string> = {
	'message.sendAndWait': 'test/e2e/send-and-wait.e2e.ts',
	'message.combineRapid': 'test/e2e/combine-rapid.e2e.ts',
};

/**
 * Operations the spec's gateway answers with an error, and the error: it does not implement
 * Profile Get (501), it has no LID map, manages no labels and deletes no status (the node
 * refuses those before any request).
 */
const REFUSED_ON_THE_SPEC_GATEWAY: Record<string, RegExp> = {
	'profile.get': /^Gateway error 501: /,
	'contact.getPhoneOrLid':
		/^Get Phone Number or LID is not available on the Messaging Gateway API: /,
	'label.create': /^Label → Create is not available on the Messaging Gateway API: /,
	'label.delete': /^Label → Delete is not available on the Messaging Gateway API: /,
	'label.getChats': /^Label → Get Chats is not available on the Messaging Gateway API: /,
	'status.delete': /^Status → Delete is not available on the Messaging Gateway API: /,
};

/** Every operation of the action node as resource.operation, sorted: the workflow must run each one. */
export function everyOperation(): string[] {
	return Object.entries(resources)
		.flatMap(([resource, { operations }]) =>
			Object.keys(operations).map((operation) => `${resource}.${operation}`),
		)
		.filter((operation) => !(operation in RUN_IN_OWN_TEST))
		.sort();
}

/** One node per operation, with parameters that work against the simulator's seed. */
export function seededOperationCases(): OperationCase[] {
	return operationCases({
		session: SESSION,
		pairingSession: SEED.instances.pairing.name,
		alice: ALICE,
		lidPerson: SEED.lidPeople.dora.lid,
		bruno: SEED.contacts.bruno,
		bakery: SEED.contacts.bakery,
		hikersGroup: SEED.groups.hikers.id,
		teamGroup: SEED.groups.team.id,
		aliceTextId: SEED.messages.aliceText.id,
		aliceImageId: SEED.messages.aliceImage.id,
	});
}

/**
 * Checks a run of the every-operation workflow: each operation ran without an error item (Profile
 * Get is the gateway's 501), the outputs that matter look right, and the binary outputs hold the
 * files the gateway served (read back from n8n as the editor does, whatever its binary data mode).
 */
export async function expectEveryOperationResults(
	n8n: N8nInstance,
	simulator: Simulator,
	runData: IRunData,
	cases: OperationCase[],
): Promise<void> {
	const firstItem = (name: string) => runData[name]?.[0]?.data?.main?.[0]?.[0];
	for (const { name } of cases) {
		expect({ name, ran: runData[name] !== undefined }).toEqual({ name, ran: true });
		if (name in REFUSED_ON_THE_SPEC_GATEWAY) continue;
		expect({ name, error: firstItem(name)?.json?.error }).toEqual({ name, error: undefined });
	}
	// With "continue" these are error items that say why.
	for (const [name, error] of Object.entries(REFUSED_ON_THE_SPEC_GATEWAY)) {
		expect({ name, error: String(firstItem(name)?.json.error) }).toEqual({
			name,
			error: expect.stringMatching(error),
		});
	}
	expect(firstItem('message.sendText')?.json).toEqual(
		expect.objectContaining({
			messageId: expect.stringMatching(new RegExp(`^true_${ALICE.chatId}_[A-Z0-9]{20}$`)),
		}),
	);
	for (const name of ['message.downloadMedia', 'session.connect', 'contact.getProfilePicture']) {
		expect({ name, binary: firstItem(name)?.binary?.data }).toEqual({
			name,
			binary: expect.objectContaining({ mimeType: 'image/png' }),
		});
	}
	// The downloaded image is the one the gateway has for that message, byte for byte.
	const downloaded = await binaryContent(
		n8n,
		firstItem('message.downloadMedia')!.binary!.data as unknown as IDataObject,
	);
	const media = simulator.findMessage(SESSION, SEED.messages.aliceImage.id)?.evolution as
		| { message: { imageMessage: { url: string } } }
		| undefined;
	const served = await fetch(media!.message.imageMessage.url, {
		headers: { apikey: simulator.apiKey },
	});
	expect(downloaded.equals(Buffer.from(await served.arrayBuffer()))).toBe(true);
	expect(firstItem('session.getConnectionState')?.json).toEqual({
		session: SESSION,
		state: 'open',
	});
	expect(firstItem('session.logout')?.json).toMatchObject({ loggedOut: true });
	expect(firstItem('group.get')?.json).toEqual(
		expect.objectContaining({ id: SEED.groups.hikers.id, subject: SEED.groups.hikers.subject }),
	);
	expect(firstItem('session.requestPairingCode')?.json).toEqual(
		expect.objectContaining({ code: expect.any(String) }),
	);
	expect((runData['contact.getMany']?.[0]?.data?.main?.[0] ?? []).length).toBeGreaterThanOrEqual(4);
	// What reached the gateway: one authenticated request per operation at least (but those the node
	// refuses before any request), never an unauthenticated one.
	const sending = cases.filter(
		({ name }) => !String(REFUSED_ON_THE_SPEC_GATEWAY[name] ?? '').includes('is not available'),
	);
	expect(simulator.requests.length).toBeGreaterThanOrEqual(sending.length);
	expect(simulator.requests.every((request) => request.auth === 'valid')).toBe(true);
	expect(simulator.requestsTo('/message/sendText/', 'POST').at(-1)?.body).toEqual({
		number: ALICE.number,
		textMessage: { text: 'Hello from n8n' },
	});
}
