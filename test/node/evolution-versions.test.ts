/**
 * Evolution API versions users run now, against the simulator playing each: what a version
 * cannot do with a LID is said before anything is sent (2.3.x answer read receipts for LID chats
 * with success and mark nothing; before 2.3.6 typing to a LID drops the connection), and 2.4.0's
 * licence gate fails at once with what to do, instead of being retried as a busy gateway.
 */
import type { INodeParameters } from 'n8n-workflow';

import { SEED } from '../simulator/index.cts';
import type { EvolutionVersion, Simulator } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { byId, runGateway } from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const { dora } = SEED.lidPeople;

const SIMULATORS: Record<EvolutionVersion, Simulator> = {
	'2.3.0': useSimulator({ gateway: 'evolution-v2', evolutionVersion: '2.3.0' }),
	'2.3.6': useSimulator({ gateway: 'evolution-v2', evolutionVersion: '2.3.6' }),
	'2.3.7': useSimulator({ gateway: 'evolution-v2', evolutionVersion: '2.3.7' }),
	'2.4.0': useSimulator({ gateway: 'evolution-v2', evolutionVersion: '2.4.0' }),
};
const unlicensed = useSimulator({
	gateway: 'evolution-v2',
	evolutionVersion: '2.4.0',
	licensed: false,
});

async function run(simulator: Simulator, parameters: INodeParameters) {
	return await runGateway(
		simulator,
		{ session: SESSION, ...parameters },
		{ gateway: 'evolutionV2' },
	);
}

/** A message a LID person sent, as the gateway stored it: its full ID names their LID chat. */
async function messageFrom(simulator: Simulator, lid: string): Promise<string> {
	const stored = await simulator.injectInboundMessage({ from: lid, text: 'Hello?' });
	simulator.clearLogs();
	return `false_${lid}_${stored.shortId}`;
}

const routes = (simulator: Simulator) =>
	simulator.requests.map(
		(request) => `${request.method} ${request.path.split('/').slice(0, 3).join('/')}`,
	);

type Outcome = 'sent to the LID' | 'sent to the phone number' | 'refused';

describe('Mark as Read in a chat addressed by LID', () => {
	it.each<[EvolutionVersion, 'dora' | 'eli', Outcome]>([
		// 2.3.x's number check never names a LID's phone number after a LID-addressed message.
		['2.3.0', 'dora', 'refused'],
		['2.3.6', 'dora', 'refused'],
		['2.3.6', 'eli', 'refused'],
		['2.3.7', 'dora', 'refused'],
		['2.3.7', 'eli', 'refused'],
		['2.4.0', 'dora', 'sent to the LID'],
		['2.4.0', 'eli', 'sent to the LID'],
	])('Evolution API %s, a message from %s: %s', async (version, who, outcome) => {
		const simulator = SIMULATORS[version];
		const person = SEED.lidPeople[who];
		const messageId = await messageFrom(simulator, person.lid);

		const result = await run(simulator, {
			resource: 'message',
			operation: 'markAsRead',
			messageIds: messageId,
		});

		if (outcome === 'refused') {
			expect(result.status).toBe('error');
			expect(result.error?.name).toBe('NodeOperationError');
			expect(result.error?.message).toBe(
				`Evolution API ${version} marks nothing read in a chat addressed by LID (it answers success and drops the receipt), and it knows no phone number for ${person.lid}: nothing was sent`,
			);
			expect(result.error?.description).toMatch(/^Evolution API 2\.4\.0 marks them\./);
			// The version and the number were asked: no receipt went out.
			expect(routes(simulator)).toEqual(['GET /', 'POST /chat/whatsappNumbers']);
			return;
		}
		expect(result.error?.message).toBeUndefined();
		const receipt = simulator.requests.at(-1);
		expect(routes(simulator).at(-1)).toBe('POST /chat/markMessageAsRead');
		expect(receipt?.body).toEqual({
			readMessages: [
				expect.objectContaining({
					remoteJid: outcome === 'sent to the LID' ? person.lid : `${person.number}@s.whatsapp.net`,
				}),
			],
		});
	});

	it('Evolution API 2.3.6 whose number cache names her phone number: the receipt goes to it', async () => {
		const simulator = SIMULATORS['2.3.6'];
		const messageId = await messageFrom(simulator, dora.lid);
		// The answer of a server that learnt her number from a message addressed by phone number.
		simulator.injectFault({
			match: { path: '/chat/whatsappNumbers/' },
			status: 200,
			body: [{ exists: true, jid: `${dora.number}@s.whatsapp.net`, number: dora.lid }],
		});

		const result = await run(simulator, {
			resource: 'message',
			operation: 'markAsRead',
			messageIds: messageId,
		});

		expect(result.error?.message).toBeUndefined();
		expect(routes(simulator)).toEqual([
			'GET /',
			'POST /chat/whatsappNumbers',
			'POST /chat/markMessageAsRead',
		]);
		expect(simulator.requests[1].body).toEqual({ numbers: [dora.lid] });
		expect(simulator.requests[2].body).toEqual({
			readMessages: [expect.objectContaining({ remoteJid: `${dora.number}@s.whatsapp.net` })],
		});
	});

	it('reads no version for a phone-number chat', async () => {
		const simulator = SIMULATORS['2.3.6'];

		const result = await run(simulator, {
			resource: 'message',
			operation: 'markAsRead',
			messageIds: SEED.messages.aliceText.id,
		});

		expect(result.error?.message).toBeUndefined();
		expect(routes(simulator)).toEqual(['POST /chat/markMessageAsRead']);
	});
});

describe('Send Text with typing to a LID', () => {
	it.each<[EvolutionVersion, 'refused' | 'sent']>([
		['2.3.0', 'refused'],
		['2.3.6', 'sent'],
		['2.4.0', 'sent'],
	])('Evolution API %s: %s', async (version, outcome) => {
		const simulator = SIMULATORS[version];

		const result = await run(simulator, {
			resource: 'message',
			operation: 'sendText',
			chatId: byId(dora.lid),
			text: 'One moment…',
			options: { delay: 200 },
		});

		if (outcome === 'refused') {
			expect(result.error?.message).toBe(
				`Evolution API ${version} cannot show typing or recording to a LID: WhatsApp drops the connection (Baileys #1538), and it knows no phone number for ${dora.lid}: nothing was sent`,
			);
			expect(routes(simulator)).toEqual(['GET /', 'POST /chat/whatsappNumbers']);
		} else {
			expect(result.error?.message).toBeUndefined();
			expect(routes(simulator)).toEqual(['GET /', 'POST /message/sendText']);
		}
	});

	it('Evolution API 2.3.0 sends to a LID without typing, reading no version', async () => {
		const simulator = SIMULATORS['2.3.0'];

		const result = await run(simulator, {
			resource: 'message',
			operation: 'sendText',
			chatId: byId(dora.lid),
			text: 'Hello',
		});

		expect(result.error?.message).toBeUndefined();
		expect(routes(simulator)).toEqual(['POST /message/sendText']);
	});
});

describe('Evolution API 2.4.0 before its server is activated', () => {
	it.each<[string, INodeParameters]>([
		[
			'Send Text',
			{ resource: 'message', operation: 'sendText', chatId: byId(dora.lid), text: 'Hi' },
		],
		['Session Get Many', { resource: 'session', operation: 'getMany' }],
	])(
		'%s fails at once with "activate your Evolution API server" and the activation page',
		async (_name, parameters) => {
			const result = await run(unlicensed, parameters);

			expect(result.status).toBe('error');
			expect(result.error?.message).toBe(
				'Gateway error 503: the Evolution API server is not activated (LICENSE_REQUIRED)',
			);
			expect(result.error?.description).toMatch(
				new RegExp(
					`^Activate your Evolution API server: open ${unlicensed.url.replace(/[.]/g, '\\.')}/manager/login`,
				),
			);
			// One try: waiting does not activate a server.
			expect(unlicensed.requests).toHaveLength(1);
		},
	);

	it('works once the operator activates it', async () => {
		unlicensed.setLicensed(true);
		try {
			const result = await run(unlicensed, { resource: 'session', operation: 'getMany' });

			expect(result.error?.message).toBeUndefined();
		} finally {
			unlicensed.setLicensed(false);
		}
	});
});
