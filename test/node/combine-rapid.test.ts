/**
 * Message → Combine Rapid Messages against the simulator playing Evolution API v2 and WAHA: one
 * node run per received message, as the trigger starts one execution per message. Exactly one run
 * per burst goes on, with every message of the burst in order; every other run outputs nothing;
 * no message is left out or taken twice, whatever order the runs read the history in. The
 * Messaging Gateway API reads Evolution API v1's findMessages; a gateway without it (404) says so.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { checkEvolution } from '../compatibility/evolution.cts';
import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { checkWaha } from '../compatibility/waha.cts';
import type { SentRequest, Verdict } from '../compatibility/verdicts.cts';
import { SEED } from '../simulator/index.cts';
import type { FaultRule, Simulator } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { useFastRetries } from '../support/fast-retries.cts';
import { runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const PEOPLE = Object.values(SEED.contacts);

type HistoryGateway = 'messagingGatewayApi' | 'evolutionV2' | 'waha';

const v2 = useSimulator({ gateway: 'evolution-v2' });
const waha = useSimulator({ gateway: 'waha' });
const spec = useSimulator();
useFastRetries();

/** The Messaging Gateway API reads Evolution API v1's findMessages: 1.8.2's validation judges it. */
const CASES: Record<HistoryGateway, { simulator: Simulator; check: (r: SentRequest) => Verdict }> =
	{
		messagingGatewayApi: { simulator: spec, check: checkEvolution },
		evolutionV2: { simulator: v2, check: checkEvolutionV2 },
		waha: { simulator: waha, check: checkWaha },
	};
const GATEWAYS = Object.keys(CASES) as HistoryGateway[];

async function combine(
	gateway: HistoryGateway,
	messageId: string,
	parameters: INodeParameters = {},
	options: RunGatewayOptions = {},
) {
	const { simulator } = CASES[gateway];
	return await runGateway(
		simulator,
		{
			resource: 'message',
			operation: 'combineRapid',
			session: SESSION,
			messageId,
			silenceSeconds: 1,
			...parameters,
		},
		{ gateway, items: [{ json: { messageId } }], ...options },
	);
}

/** A person's message, stamped `second` seconds after a fixed start (one clock for the whole test). */
async function receive(
	simulator: Simulator,
	from: string,
	text: string,
	second: number,
	extra: IDataObject = {},
) {
	const sent = await simulator.injectInboundMessage({
		from,
		text,
		timestamp: 1_790_000_000 + second,
		...extra,
	});
	return sent.id as string;
}

/** Runs the node for every message at once and keeps what each run output. */
async function runAll(gateway: HistoryGateway, ids: string[], parameters: INodeParameters = {}) {
	const results = await Promise.all(ids.map(async (id) => await combine(gateway, id, parameters)));
	for (const result of results) expect(result.error?.message).toBeUndefined();
	return results.map((result) => result.outputs[0] ?? []);
}

/** Per chat, the bursts the person wrote: texts, in order. */
type Script = Array<{ from: string; bursts: Array<Array<[text: string, second: number]>> }>;

/** 20 chats at once; bursts of 1–8 messages, gaps within a burst under the silence time, between bursts over it. */
function twentyChats(): Script {
	return Array.from({ length: 20 }, (_unused, chat) => {
		const from = `55119${String(8_000_000 + chat).padStart(8, '0')}`;
		let second = 0;
		const bursts = Array.from({ length: 1 + (chat % 3) }, (_burst, burstIndex) => {
			const size = 1 + ((chat + burstIndex * 3) % 8);
			const burst = Array.from({ length: size }, (_message, index): [string, number] => {
				// Gaps of 0 or 1 s stay under a Silence Time of 2 s; 2 s or more start a new burst.
				if (index > 0) second += (chat + index) % 2;
				return [`chat ${chat} burst ${burstIndex} message ${index}`, second];
			});
			second += 2 + (burstIndex % 2);
			return burst;
		});
		return { from, bursts };
	});
}

describe.each(GATEWAYS)('Combine Rapid Messages on %s', (gateway) => {
	const { simulator, check } = CASES[gateway];

	it('goes on once per burst, from 20 chats at once, with every message in order, none lost and none twice', async () => {
		const script = twentyChats();
		// Interleave the chats as they would arrive: by stamp, then chat.
		const arrivals = script
			.flatMap(({ from, bursts }) =>
				bursts.flatMap((burst) => burst.map(([text, second]) => ({ from, text, second }))),
			)
			.sort((a, b) => a.second - b.second);
		const ids: string[] = [];
		for (const { from, text, second } of arrivals)
			ids.push(await receive(simulator, from, text, second));

		const outputs = await runAll(gateway, ids, { silenceSeconds: 2 });
		const turns = outputs.flat();
		const expected = script.flatMap(({ bursts }) =>
			bursts.map((burst) => burst.map(([text]) => text)),
		);
		expect(turns.map((turn) => turn.json.texts).sort()).toEqual(expected.sort());
		// The run that goes on is the one of the burst's last message; all others output nothing.
		outputs.forEach((output, index) => {
			if (output.length === 0) return;
			const messageIds = output[0].json.messageIds as string[];
			expect(messageIds[messageIds.length - 1]).toBe(ids[index]);
			expect(output[0].json.count).toBe(messageIds.length);
			expect(output[0].json.text).toBe((output[0].json.texts as string[]).join('\n'));
		});
		const taken = turns.flatMap((turn) => turn.json.messageIds as string[]);
		expect(taken.sort()).toEqual([...ids].sort());
		expect(simulator.requests.map((request) => check(request).outcome)).toEqual(
			simulator.requests.map(() => 'accepted'),
		);
	}, 60_000);

	it.each([
		['Maximum Messages cuts a long burst', { maxMessages: 3 }, [0, 0, 1, 1, 1, 2, 2], [3, 3, 1]],
		[
			'Maximum Wait cuts a burst that keeps going',
			{ maxWaitSeconds: 4 },
			[0, 1, 2, 3, 4, 5],
			[2, 2, 2],
		],
		['a pause of the Silence Time starts a new burst', {}, [0, 1, 3, 4, 6], [2, 2, 1]],
	])(
		'%s',
		async (_case, options, seconds, sizes) => {
			const from = PEOPLE[0].number;
			const ids: string[] = [];
			for (const [index, second] of seconds.entries()) {
				ids.push(await receive(simulator, from, `message ${index}`, second));
			}
			const turns = (await runAll(gateway, ids, { silenceSeconds: 2, options })).flat();
			expect(turns.map((turn) => turn.json.count)).toEqual(sizes);
			expect(turns.flatMap((turn) => turn.json.messageIds as string[])).toEqual(ids);
		},
		30_000,
	);

	it('waits the silence time in real time: messages under it join, one over it starts a new turn', async () => {
		const from = PEOPLE[1].number;
		const runs: Array<Promise<Awaited<ReturnType<typeof combine>>>> = [];
		const ids: string[] = [];
		// As the trigger does: each message starts its run when it arrives.
		for (const pauseMs of [0, 400, 400, 2600, 300]) {
			if (pauseMs > 0) await sleep(pauseMs);
			const sent = await simulator.injectInboundMessage({ from, text: `after ${pauseMs} ms` });
			ids.push(sent.id as string);
			runs.push(combine(gateway, sent.id as string, { silenceSeconds: 2 }));
		}
		const outputs = (await Promise.all(runs)).map((result) => result.outputs[0] ?? []);
		const turns = outputs.flat();
		expect(turns.map((turn) => turn.json.messageIds)).toEqual([ids.slice(0, 3), ids.slice(3)]);
		expect(outputs.map((output) => output.length)).toEqual([0, 0, 1, 0, 1]);
		expect(turns[1].pairedItem).toEqual({ item: 0 });
	}, 30_000);

	it.each([
		['One Item for the Turn', 'oneItem'],
		['One Item per Message', 'itemPerMessage'],
	])(
		'keeps every file of the turn as binary data (%s)',
		async (_name, output) => {
			const from = PEOPLE[2].number;
			const voice = Buffer.from('OggS voice note of the person').toString('base64');
			const ids = [
				await receive(simulator, from, '', 0, {
					text: undefined,
					media: { mimetype: 'audio/ogg', fileName: 'voice.ogg', base64: voice },
				}),
				await receive(simulator, from, '', 0, {
					text: undefined,
					media: { mimetype: 'image/png', caption: 'and this photo' },
				}),
				await receive(simulator, from, 'where is my order?', 1),
			];
			const outputs = await runAll(gateway, ids, { silenceSeconds: 2, options: { output } });
			const items = outputs[2];
			expect(outputs[0]).toEqual([]);
			expect(outputs[1]).toEqual([]);
			const files =
				output === 'oneItem'
					? Object.values(items[0].binary ?? {})
					: items.map((item) => item.binary?.data).filter(Boolean);
			expect(files.map((file) => file?.mimeType)).toEqual(['audio/ogg', 'image/png']);
			expect(Buffer.from(files[0]?.data ?? '', 'base64').toString('base64')).toBe(voice);
			if (output === 'oneItem') {
				expect(items).toHaveLength(1);
				expect(items[0].json.texts).toEqual(['and this photo', 'where is my order?']);
				const messages = items[0].json.messages as IDataObject[];
				expect(messages.map((message) => message.binaryField)).toEqual([
					'media_1',
					'media_2',
					undefined,
				]);
			} else {
				expect(items.map((item) => item.json.messageId)).toEqual(ids);
				expect(items.map((item) => (item.json.turn as IDataObject).index)).toEqual([0, 1, 2]);
				expect(items.map((item) => item.pairedItem)).toEqual(ids.map(() => ({ item: 0 })));
			}
		},
		30_000,
	);

	it("the session's own message (the bot's reply) ends without output and without a request", async () => {
		const result = await combine(gateway, `true_${PEOPLE[0].chatId}_3EB0C767D26A1D3BB2F1`);
		expect(result.error?.message).toBeUndefined();
		expect(result.outputs[0] ?? []).toEqual([]);
		expect(simulator.requests).toEqual([]);
	});

	it.each([
		['a reset connection', { dropSocket: true, times: 1 }],
		['a 503', { status: 503, body: { message: 'busy' }, times: 1 }],
	])('a history read that meets %s is sent again, and the turn goes on', async (_fault, rule) => {
		const id = await receive(simulator, PEOPLE[3].number, 'hello?', 0);
		simulator.injectFault(rule as FaultRule);
		const result = await combine(gateway, id);
		expect(result.error?.message).toBeUndefined();
		expect(result.outputs[0]?.[0]?.json.messageIds).toEqual([id]);
		expect(simulator.requests.filter((request) => request.faulted)).toHaveLength(1);
	});

	it('a history the gateway answers in a shape it never gives fails with its words', async () => {
		const id = await receive(simulator, PEOPLE[3].number, 'hello?', 0);
		simulator.injectFault({ status: 200, body: { unexpected: 'shape' }, times: 10 });
		const result = await combine(gateway, id);
		expect(result.error?.message).toMatch(
			/^Gateway error: the answer is not .*list.* \(got an object \(\{"unexpected":"shape"\}\)\)$/,
		);
		expect(result.outputs[0] ?? []).toEqual([]);
	});

	it('a message missing from the history fails with what to check, after reading it again', async () => {
		const missing = `false_${PEOPLE[0].chatId}_3EB0AAAAAAAAAAAAAAAA`;
		const result = await combine(gateway, missing);
		expect(result.error?.message).toBe(
			`Message ${missing} is not in the gateway's history of chat ${PEOPLE[0].chatId}`,
		);
		expect((result.error as { description?: string }).description).toMatch(/store|STORE|SAVE/);
	}, 30_000);
});

describe('Combine Rapid Messages on a gateway that keeps no history', () => {
	it('fails with the 404, its words and what to choose instead', async () => {
		const id = await receive(spec, PEOPLE[0].number, 'hello?', 0);
		spec.injectFault({
			match: { path: `/chat/findMessages/${SESSION}` },
			status: 404,
			body: { status: 404, error: 'Not Found', response: { message: ['Cannot POST'] } },
			times: 10,
		});
		const result = await combine('messagingGatewayApi', id);
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(
			/^This gateway keeps no message history the node can read \(it answered 404 to findMessages\): .*Cannot POST/,
		);
		expect((result.error as { description?: string }).description).toMatch(
			/Evolution API v2 and WAHA keep them/,
		);
	});
});

describe('Combine Rapid Messages: Join Texts With', () => {
	it.each([
		['not set (New Line, its default)', {}, 'hello\nwhere is my order?'],
		['New Line', { joinTextsWith: 'newLine' }, 'hello\nwhere is my order?'],
		['Space', { joinTextsWith: 'space' }, 'hello where is my order?'],
		['Custom', { joinTextsWith: 'custom', joinWith: ' | ' }, 'hello | where is my order?'],
		['Custom, left empty', { joinTextsWith: 'custom' }, 'hellowhere is my order?'],
		[
			'Space, a Custom Separator left from before ignored',
			{ joinTextsWith: 'space', joinWith: ' | ' },
			'hello where is my order?',
		],
		// A workflow saved when the separator's text was the only field.
		[
			'a separator saved before the choice existed',
			{ joinWith: ' / ' },
			'hello / where is my order?',
		],
	])('%s', async (_case, options, text) => {
		const from = PEOPLE[1].number;
		const ids = [
			await receive(spec, from, 'hello', 0),
			await receive(spec, from, 'where is my order?', 1),
		];
		const outputs = await runAll('messagingGatewayApi', ids, { silenceSeconds: 2, options });
		expect(outputs[1].map((item) => item.json.text)).toEqual([text]);
	});
});

describe('Combine Rapid Messages: what it refuses before any request', () => {
	const alice = `false_${PEOPLE[0].chatId}_3EB0C767D26A1D3BB2F1`;
	it.each([
		[
			'a Silence Time over a minute',
			'messagingGatewayApi' as const,
			{ silenceSeconds: 61 },
			alice,
			/at most 60/,
		],
		[
			'a Silence Time that is not a number',
			'waha' as const,
			{ silenceSeconds: 'soon' },
			alice,
			/Silence Time/,
		],
		[
			'a Maximum Wait not longer than the Silence Time',
			'evolutionV2' as const,
			{ silenceSeconds: 5, options: { maxWaitSeconds: 5 } },
			alice,
			/Maximum Wait \(Seconds\) must be longer than the Silence Time/,
		],
		[
			'a Join Texts With that is not one of its choices',
			'messagingGatewayApi' as const,
			{ options: { joinTextsWith: 'comma' } },
			alice,
			/Join Texts With must be one of newLine, space, custom \(got "comma"\)/,
		],
		[
			'a message ID that is not a full one',
			'evolutionV2' as const,
			{},
			'3EB0C767D26A1D3BB2F1',
			/full message ID/,
		],
	])('%s', async (_case, gateway, parameters, messageId, message) => {
		const { simulator } = CASES[gateway];
		const result = await combine(gateway, messageId, parameters);
		expect(result.error?.message).toMatch(message);
		expect(simulator.requests).toEqual([]);
	});
});
