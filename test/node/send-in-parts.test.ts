/**
 * Send Text → Split Into Messages against the simulator playing each gateway: the parts arrive in
 * order, each after its typing (the Evolution family's delay in the body, WAHA's presence request
 * and the node's wait), each request valid for the gateway; one output item per input item with
 * every part's message ID; a failed part says which parts went out; Off sends today's request.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { checkEvolution } from '../compatibility/evolution.cts';
import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import type { SentRequest, Verdict } from '../compatibility/verdicts.cts';
import { checkWaha } from '../compatibility/waha.cts';
import { SEED } from '../simulator/index.cts';
import type { RecordedRequest, Simulator } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { byId, jsonItems, runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const { alice, bruno, carla } = SEED.contacts;
const GROUP = SEED.groups.hikers.id;

const TEXT =
	'Hi Alice! Your order #1042 is ready. Pick it up at 6 pm, e.g. after work, at our store on Main Street.\n\nThanks! 🙏';
const PARTS = [
	'Hi Alice!',
	'Your order #1042 is ready.',
	'Pick it up at 6 pm, e.g. after work, at our store on Main Street.',
	'Thanks! 🙏',
];
/** 4 ms per character between 60 and 150 ms: 9, 26, 65 and 9 characters. */
const TYPING = { typingPerCharacter: 4, typingMinimum: 60, typingMaximum: 150 };
const TYPING_MS = [60, 104, 150, 60];

type GatewayChoice = 'messagingGatewayApi' | 'evolutionV2' | 'waha';

interface Case {
	gateway: GatewayChoice;
	simulator: Simulator;
	check: (request: SentRequest) => Verdict;
	/** The text of a send request, or undefined when it is not one. */
	sentText: (request: RecordedRequest) => string | undefined;
	/** The typing the gateway waits itself (the body's delay); undefined where n8n waits. */
	bodyDelay?: (body: IDataObject) => unknown;
}

const evolutionText = (request: RecordedRequest) =>
	request.path.startsWith('/message/sendText/')
		? (((request.body as IDataObject).textMessage as IDataObject | undefined)?.text as string)
		: undefined;

const spec = useSimulator();
const v2 = useSimulator({ gateway: 'evolution-v2' });
const waha = useSimulator({ gateway: 'waha' });

const CASES: Record<GatewayChoice, Case> = {
	messagingGatewayApi: {
		gateway: 'messagingGatewayApi',
		simulator: spec,
		check: checkEvolution,
		sentText: evolutionText,
		bodyDelay: (body) => (body.options as IDataObject | undefined)?.delay,
	},
	evolutionV2: {
		gateway: 'evolutionV2',
		simulator: v2,
		check: checkEvolutionV2,
		sentText: (request) =>
			request.path.startsWith('/message/sendText/')
				? ((request.body as IDataObject).text as string)
				: undefined,
		bodyDelay: (body) => body.delay,
	},
	waha: {
		gateway: 'waha',
		simulator: waha,
		check: checkWaha,
		sentText: (request) =>
			request.path === '/api/sendText' ? ((request.body as IDataObject).text as string) : undefined,
	},
};
const GATEWAYS = Object.keys(CASES) as GatewayChoice[];

async function sendText(
	gateway: GatewayChoice,
	parameters: INodeParameters,
	options: RunGatewayOptions = {},
) {
	const { simulator } = CASES[gateway];
	return await runGateway(
		simulator,
		{
			resource: 'message',
			operation: 'sendText',
			session: SESSION,
			chatId: byId(alice.number),
			text: TEXT,
			...parameters,
		},
		{ gateway, ...options },
	);
}

const sends = (gateway: GatewayChoice) =>
	CASES[gateway].simulator.requests.filter((request) => CASES[gateway].sentText(request));

/** Every request the gateway received is valid for its own validation. */
function expectAllValid(gateway: GatewayChoice) {
	const { simulator, check } = CASES[gateway];
	expect(simulator.requests.length).toBeGreaterThan(0);
	expect(simulator.requests.map((request) => check(request).outcome)).toEqual(
		simulator.requests.map(() => 'accepted'),
	);
}

const bySentence = (extra: IDataObject = {}) => ({
	options: { splitInto: 'sentence', ...TYPING, ...extra },
});

describe.each(GATEWAYS)('Split Into Messages on %s', (gateway) => {
	it('sends the parts in order, each after its typing, and outputs every part with its message ID', async () => {
		const result = await sendText(gateway, bySentence());
		expect(result.error?.message).toBeUndefined();
		expectAllValid(gateway);

		const { simulator, sentText, bodyDelay } = CASES[gateway];
		const sent = sends(gateway);
		expect(sent.map((request) => sentText(request))).toEqual(PARTS);
		if (bodyDelay) {
			// The gateway shows typing while it waits: the delay rides in each body, n8n sends at once.
			expect(sent.map((request) => bodyDelay(request.body as IDataObject))).toEqual(TYPING_MS);
			if (gateway === 'messagingGatewayApi') {
				expect(
					sent.map((request) => ((request.body as IDataObject).options as IDataObject).presence),
				).toEqual(PARTS.map(() => 'composing'));
			}
			expect(simulator.requests.filter((request) => request.path.includes('presence'))).toEqual([]);
			// Each send arrives only once the previous one (and its delay) was answered.
			for (let index = 1; index < sent.length; index++) {
				expect(sent[index].at - sent[index - 1].at).toBeGreaterThanOrEqual(
					TYPING_MS[index - 1] - 2,
				);
			}
		} else {
			// WAHA: typing in the chat, n8n waits the typing time, then the send.
			const log = simulator.requests.filter(
				(request) => request.path === `/api/${SESSION}/presence` || sentText(request),
			);
			expect(log.map((request) => request.path)).toEqual(
				PARTS.flatMap(() => [`/api/${SESSION}/presence`, '/api/sendText']),
			);
			PARTS.forEach((_part, index) => {
				const [presence, send] = [log[2 * index], log[2 * index + 1]];
				expect(presence.body).toEqual({ chatId: alice.chatId, presence: 'typing' });
				expect(send.at - presence.at).toBeGreaterThanOrEqual(TYPING_MS[index] - 2);
			});
		}

		expect(result.outputs[0]).toHaveLength(1);
		const [item] = result.outputs[0];
		const parts = item.json.parts as Array<{ text: string; messageId: string }>;
		expect(parts.map((part) => part.text)).toEqual(PARTS);
		expect(new Set(parts.map((part) => part.messageId)).size).toBe(PARTS.length);
		for (const part of parts) {
			expect(part.messageId).toMatch(new RegExp(`^true_${alice.chatId}_\\w+$`));
			expect(simulator.findMessage(SESSION, part.messageId)).toBeDefined();
		}
		// React or Edit after the reply act on its last message.
		expect(item.json.messageId).toBe(parts[3].messageId);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('with Typing Before Each Part off, each part gets Delay (Ms) as set', async () => {
		const result = await sendText(gateway, {
			text: 'One.\n\nTwo.',
			options: { splitInto: 'paragraph', typingBeforeEachPart: false, delay: 70 },
		});
		expect(result.error?.message).toBeUndefined();
		expectAllValid(gateway);
		const { bodyDelay, simulator, sentText } = CASES[gateway];
		expect(sends(gateway).map((request) => sentText(request))).toEqual(['One.', 'Two.']);
		if (bodyDelay) {
			expect(sends(gateway).map((request) => bodyDelay(request.body as IDataObject))).toEqual([
				70, 70,
			]);
		} else {
			expect(simulator.requests.map((request) => request.path)).toEqual([
				`/api/${SESSION}/presence`,
				'/api/sendText',
				`/api/${SESSION}/presence`,
				'/api/sendText',
			]);
		}
	});

	it.each([
		['Stop Workflow', undefined],
		['Continue', 'continueRegularOutput' as const],
		['Continue (using error output)', 'continueErrorOutput' as const],
	])('a failure on part 3 says parts 1–2 went out and 3–4 did not (%s)', async (_mode, onError) => {
		const { simulator } = CASES[gateway];
		simulator.injectFault({
			match: { method: 'POST', body: 'Pick it up' },
			status: 500,
			body:
				gateway === 'waha'
					? { statusCode: 500, message: 'Connection Closed', error: 'Internal Server Error' }
					: {
							status: 500,
							error: 'Internal Server Error',
							response: { message: ['Connection Closed'] },
						},
		});
		const result = await sendText(gateway, bySentence(), { onError });

		const sent = sends(gateway).filter((request) => !request.faulted);
		expect(sent.map((request) => CASES[gateway].sentText(request))).toEqual(PARTS.slice(0, 2));
		expect(sends(gateway).filter((request) => request.faulted)).toHaveLength(1);

		let error: string;
		let description: string;
		if (onError === undefined) {
			expect(result.status).toBe('error');
			error = String(result.error?.message);
			description = String(result.error?.description);
		} else {
			const output = result.outputs[onError === 'continueErrorOutput' ? 1 : 0];
			expect(output).toHaveLength(1);
			expect(Object.keys(output[0].json).sort()).toEqual(['error', 'message']);
			expect(output[0].pairedItem).toEqual({ item: 0 });
			error = String(output[0].json.error);
			description = String(output[0].json.message);
		}
		expect(error).toContain('(part 3 of 4 failed: parts 1–2 sent, 3–4 not)');
		expect(`${error} ${description}`).toContain('Connection Closed');
		const sentIds = /^Sent: part 1: (\S+), part 2: (\S+)\. Not sent: parts 3–4 of 4\./.exec(
			description,
		);
		expect(sentIds).not.toBeNull();
		for (const messageId of sentIds!.slice(1)) {
			expect(messageId).toMatch(new RegExp(`^true_${alice.chatId}_\\w+$`));
			expect(simulator.findMessage(SESSION, messageId)).toBeDefined();
		}
	});
});

describe("Split Into Messages: Off sends today's request, byte for byte", () => {
	const OFF_OPTIONS = { delay: 300, presence: 'composing', linkPreview: false };
	it.each<[GatewayChoice, string[]]>([
		[
			'messagingGatewayApi',
			[
				JSON.stringify({
					number: alice.number,
					options: { delay: 300, presence: 'composing', linkPreview: false },
					textMessage: { text: TEXT },
				}),
			],
		],
		[
			'evolutionV2',
			[JSON.stringify({ number: alice.number, text: TEXT, delay: 300, linkPreview: false })],
		],
		[
			'waha',
			[
				JSON.stringify({ chatId: alice.chatId, presence: 'typing' }),
				JSON.stringify({ session: SESSION, chatId: alice.chatId, text: TEXT, linkPreview: false }),
			],
		],
	])('%s', async (gateway, expected) => {
		for (const options of [OFF_OPTIONS, { ...OFF_OPTIONS, splitInto: 'off', ...TYPING }]) {
			const result = await sendText(gateway, { options });
			expect(result.error?.message).toBeUndefined();
			expectAllValid(gateway);
			expect(
				CASES[gateway].simulator.requests.map((request) => JSON.stringify(request.body)),
			).toEqual(expected);
			expect(result.outputs[0][0].json.parts).toBeUndefined();
			CASES[gateway].simulator.clearLogs();
		}
	});
});

describe('Split Into Messages: reply, mentions and link preview', () => {
	const QUOTED = SEED.messages.hikersQuestion.id;
	const text = `Hello team!\n\nCarla @${carla.number}, bring water. See https://example.com/trail.`;
	const parameters = {
		chatId: byId(GROUP),
		text,
		options: {
			splitInto: 'paragraph',
			...TYPING,
			replyTo: QUOTED,
			mentionEveryone: true,
			mentionNumbers: `${carla.number}, ${bruno.number}`,
			linkPreview: false,
		},
	};

	it('the Messaging Gateway API: the reply and Mention Everyone on the first part, a number on the part that writes it (the first when none does)', async () => {
		const result = await sendText('messagingGatewayApi', parameters);
		expect(result.error?.message).toBeUndefined();
		expectAllValid('messagingGatewayApi');
		const options = sends('messagingGatewayApi').map(
			(request) => (request.body as IDataObject).options as IDataObject,
		);
		expect(options).toEqual([
			{
				delay: 60,
				presence: 'composing',
				linkPreview: false,
				quoted: { key: expect.objectContaining({ id: SEED.messages.hikersQuestion.shortId }) },
				mentions: { everyOne: true, mentioned: [bruno.number] },
			},
			{
				delay: 150,
				presence: 'composing',
				linkPreview: false,
				mentions: { mentioned: [carla.number] },
			},
		]);
	});

	it('WAHA: reply_to and "all" on the first part, a number on the part that writes it', async () => {
		const result = await sendText('waha', parameters);
		expect(result.error?.message).toBeUndefined();
		expectAllValid('waha');
		const bodies = sends('waha').map((request) => request.body as IDataObject);
		expect(bodies).toEqual([
			{
				session: SESSION,
				chatId: GROUP,
				text: 'Hello team!',
				reply_to: expect.stringContaining(SEED.messages.hikersQuestion.shortId),
				linkPreview: false,
				mentions: ['all', `${bruno.number}@c.us`],
			},
			{
				session: SESSION,
				chatId: GROUP,
				text: `Carla @${carla.number}, bring water. See https://example.com/trail.`,
				linkPreview: false,
				mentions: [`${carla.number}@c.us`],
			},
		]);
	});
});

describe('Split Into Messages with several items', () => {
	const items = () =>
		jsonItems(
			{ number: alice.number, reply: 'A1. A2. A3.' },
			{ number: bruno.number, reply: 'B1. B2. B3.' },
		);
	const parameters = {
		chatId: byId('={{ $json.number }}'),
		// As the AI Agent's tool gets its fields: from expressions ($fromAI resolves the same way).
		text: '={{ $json.reply }}',
		options: { splitInto: '={{ "sentence" }}', ...TYPING },
	};

	it.each<[string, IDataObject]>([
		['Simultaneous Chats', { simultaneousChats: 2 }],
		['Wait Between Items', { waitBetweenItems: 30 }],
	])(
		"%s: each item's parts stay together and in order, one output item per input item",
		async (_name, extra) => {
			const result = await sendText(
				'messagingGatewayApi',
				{
					...parameters,
					options: { ...parameters.options, ...extra },
				},
				{ items: items() },
			);
			expect(result.error?.message).toBeUndefined();
			expectAllValid('messagingGatewayApi');
			const sent = sends('messagingGatewayApi').map((request) => ({
				number: (request.body as IDataObject).number,
				text: evolutionText(request),
			}));
			for (const [number, prefix] of [
				[alice.number, 'A'],
				[bruno.number, 'B'],
			]) {
				expect(sent.filter((send) => send.number === number).map((send) => send.text)).toEqual(
					[1, 2, 3].map((n) => `${prefix}${n}.`),
				);
			}
			if (extra.waitBetweenItems) {
				expect(sent.map((send) => send.text)).toEqual(['A1.', 'A2.', 'A3.', 'B1.', 'B2.', 'B3.']);
			}
			expect(result.outputs[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			expect(
				result.outputs[0].map((item) =>
					(item.json.parts as IDataObject[]).map((part) => part.text),
				),
			).toEqual([
				['A1.', 'A2.', 'A3.'],
				['B1.', 'B2.', 'B3.'],
			]);
		},
	);
});
