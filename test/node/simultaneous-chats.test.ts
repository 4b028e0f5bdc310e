/**
 * Options → Simultaneous Chats: items for different chats go side by side, each chat's items one
 * after another in input order, outputs in input order and paired, both "Continue" modes, the
 * gateway's Retry-After honoured by every chat at once, Wait Between Items meaning one at a time.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeExecutionContext } from 'n8n-core/dist/execution-engine/node-execution-context/node-execution-context';

import { SEED } from '../simulator/index.cts';
import type { RecordedRequest } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { byId, expectValidationError, jsonItems, runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
/** Each send waits this long at the gateway, so overlapping sends are visible in arrival times. */
const LATENCY_MS = 80;

const simulator = useSimulator();

/** Four chats, three messages each, interleaved: A1 B1 C1 D1 A2 B2 … */
const CHATS = ['5511987650001', '5511987650002', '5511987650004', '5511987650010'];
const interleavedItems = (rounds: number, chats = CHATS) =>
	jsonItems(
		...Array.from({ length: rounds * chats.length }, (_, index) => ({
			number: chats[index % chats.length],
			text: `message ${Math.floor(index / chats.length) + 1} to ${chats[index % chats.length]}`,
		})),
	);

function sendTextParameters(options: INodeParameters): INodeParameters {
	return {
		resource: 'message',
		operation: 'sendText',
		session: SESSION,
		chatId: byId('={{ $json.number }}'),
		text: '={{ $json.text }}',
		options,
	};
}

async function send(
	items: ReturnType<typeof jsonItems>,
	options: INodeParameters,
	runOptions: RunGatewayOptions = {},
) {
	simulator.injectFault({
		match: { path: '/message/sendText' },
		times: items.length * 2,
		latencyMs: LATENCY_MS,
	});
	return await runGateway(simulator, sendTextParameters(options), { items, ...runOptions });
}

const sends = (): RecordedRequest[] => simulator.requestsTo('/message/sendText', 'POST');
const textOf = (request: RecordedRequest) =>
	((request.body as IDataObject).textMessage as IDataObject).text as string;

/** The most sends the gateway had under way at once (each takes LATENCY_MS). */
function mostAtOnce(requests: RecordedRequest[]): number {
	const arrivals = requests.map((request) => request.at).sort((a, b) => a - b);
	return Math.max(
		...arrivals.map(
			(start) => arrivals.filter((at) => at >= start && at < start + LATENCY_MS / 2).length,
		),
	);
}

describe('Message > Send Text with Simultaneous Chats', () => {
	it.each([
		{ simultaneousChats: 4, atOnce: 4 },
		{ simultaneousChats: 2, atOnce: 2 },
		{ simultaneousChats: 1, atOnce: 1 },
	])(
		'$simultaneousChats at once: each chat in input order, outputs in input order and paired',
		async ({ simultaneousChats, atOnce }) => {
			const items = interleavedItems(3);
			const result = await send(items, { simultaneousChats });

			expect(result.status).toBe('success');
			expect(mostAtOnce(sends())).toBe(atOnce);
			for (const chat of CHATS) {
				const arrived = sends().filter((request) => textOf(request).endsWith(chat));
				expect(arrived.map(textOf)).toEqual([1, 2, 3].map((n) => `message ${n} to ${chat}`));
			}
			const outputs = result.outputs[0];
			expect(outputs.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
			expect(outputs.map((item) => (item.json.message as IDataObject).extendedTextMessage)).toEqual(
				items.map((item) => ({ text: item.json.text })),
			);
		},
	);

	it("evaluates each item's chat once, a Session without expression once per run, and reads each saved value once per run", async () => {
		const reads = jest.spyOn(
			NodeExecutionContext.prototype as unknown as {
				_getNodeParameter: (
					name: string,
					item: number,
					fallback: unknown,
					options?: IDataObject,
				) => unknown;
			},
			'_getNodeParameter',
		);
		try {
			const items = interleavedItems(2);
			const result = await send(items, { simultaneousChats: 4 });

			expect(result.status).toBe('success');
			const evaluated = (parameter: string) =>
				reads.mock.calls.filter(
					([name, , , options]) => name === parameter && options?.rawExpressions !== true,
				);
			const rawReads = (parameter: string) =>
				reads.mock.calls.filter(
					([name, , , options]) => name === parameter && options?.rawExpressions === true,
				);
			expect(evaluated('chatId')).toHaveLength(items.length);
			expect(evaluated('session')).toHaveLength(1);
			// Whether a saved value holds an expression is the run's own: looked at once, not per item.
			expect(rawReads('chatId')).toHaveLength(1);
			expect(rawReads('session')).toHaveLength(1);
			reads.mockClear();
			const oneAtATime = await send(items, {});
			expect(oneAtATime.status).toBe('success');
			expect(evaluated('chatId')).toHaveLength(items.length);
			expect(rawReads('chatId')).toHaveLength(1);
			reads.mockClear();
			const fromItems = items.map((item) => ({ json: { ...item.json, session: SESSION } }));
			const perItem = await runGateway(
				simulator,
				{ ...sendTextParameters({}), session: '={{ $json.session }}' },
				{ items: fromItems },
			);
			expect(perItem.status).toBe('success');
			expect(evaluated('session')).toHaveLength(items.length);
			expect(result.outputs[0].map((item) => item.json.key)).toEqual(
				items.map(() => expect.objectContaining({ fromMe: true })),
			);
		} finally {
			reads.mockRestore();
		}
	});

	it('keeps one chat written in different ways in one lane: one send at a time, in order', async () => {
		const spellings = [
			'+55 11 98765-0001',
			'5511987650001@c.us',
			'5511987650001',
			'55 (11) 98765-0001',
		];
		const items = jsonItems(
			...spellings.map((number, index) => ({ number, text: `message ${index + 1}` })),
		);
		const result = await send(items, { simultaneousChats: 4 });

		expect(result.status).toBe('success');
		expect(mostAtOnce(sends())).toBe(1);
		expect(sends().map(textOf)).toEqual(['message 1', 'message 2', 'message 3', 'message 4']);
	});

	it('sends one item after another when Wait Between Items is set', async () => {
		const result = await send(interleavedItems(1), { simultaneousChats: 4, waitBetweenItems: 10 });

		expect(result.status).toBe('success');
		const arrivals = sends().map((request) => request.at);
		expect(mostAtOnce(sends())).toBe(1);
		for (let index = 1; index < arrivals.length; index++) {
			expect(arrivals[index] - arrivals[index - 1]).toBeGreaterThanOrEqual(LATENCY_MS + 10 - 2);
		}
	});

	it.each([
		{ onError: 'continueRegularOutput' as const, output: 0 },
		{ onError: 'continueErrorOutput' as const, output: 1 },
	])(
		'On Error "$onError": the failing item becomes an error item in its place, the others are sent',
		async ({ onError, output }) => {
			const items = interleavedItems(2);
			items[5].json.number = 'not a number';
			const result = await send(items, { simultaneousChats: 4 }, { onError });

			expect(result.status).toBe('success');
			expect(sends()).toHaveLength(7);
			const failed = result.outputs[output].filter((item) => item.json.error !== undefined);
			expect(failed).toEqual([
				{
					json: expect.objectContaining({ error: expect.stringMatching(/^Chat must be/) }),
					pairedItem: { item: 5 },
				},
			]);
			const all = [...result.outputs[0], ...(result.outputs[1] ?? [])];
			expect(all.map((item) => item.pairedItem)).toEqual(
				expect.arrayContaining(items.map((_, item) => ({ item }))),
			);
			expect(result.outputs[0].map((item) => (item.pairedItem as { item: number }).item)).toEqual(
				output === 0 ? [0, 1, 2, 3, 4, 5, 6, 7] : [0, 1, 2, 3, 4, 6, 7],
			);
		},
	);

	it('stops starting items after a failure and reports the earliest failed item', async () => {
		const items = interleavedItems(3);
		simulator.injectFault({
			match: { body: 'message 2 to 5511987650002' },
			status: 400,
			body: { message: 'bad' },
		});
		const result = await send(items, { simultaneousChats: 4 });

		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('Gateway error 400: bad');
		// Chats already under way finish their current send; nothing starts after the failure.
		expect(sends().length).toBeLessThan(items.length);
		expect(sends().map(textOf)).not.toContain('message 3 to 5511987650002');
	});

	it('pauses every chat when the gateway answers 429 with Retry-After', async () => {
		simulator.injectFault({
			match: { body: 'message 1 to 5511987650001' },
			status: 429,
			headers: { 'Retry-After': '1' },
			body: { message: 'slow down' },
		});
		const result = await send(interleavedItems(2), { simultaneousChats: 4 });

		expect(result.status).toBe('success');
		const refused = sends().findIndex(
			(request) => textOf(request) === 'message 1 to 5511987650001',
		);
		const refusedAt = sends()[refused].at;
		// The other chats' first sends were already under way; every later send waits out the second.
		const duringPause = sends().filter(
			(request, index) => index !== refused && request.at < refusedAt + 900,
		);
		expect(duringPause.map(textOf).every((text) => text.startsWith('message 1 '))).toBe(true);
		// Every second message, in every chat, and the retry went after the pause.
		const afterPause = sends().filter(
			(request, index) => index > refused && !duringPause.includes(request),
		);
		expect(afterPause.map(textOf).sort()).toEqual(
			['message 1 to 5511987650001', ...CHATS.map((chat) => `message 2 to ${chat}`)].sort(),
		);
		expect(afterPause.every((request) => request.at >= refusedAt + 950)).toBe(true);
		expect(sends()).toHaveLength(9);
		expect(result.outputs[0]).toHaveLength(8);
	});

	it.each([
		{ value: 0, message: 'Simultaneous Chats must be a whole number of at least 1 (got "0")' },
		{ value: 51, message: 'Simultaneous Chats must be at most 50 (got 51)' },
		{
			value: 'many',
			message: 'Simultaneous Chats must be a whole number of at least 1 (got "many")',
		},
	])('refuses Simultaneous Chats $value before any request', async ({ value, message }) => {
		const result = await runGateway(simulator, sendTextParameters({ simultaneousChats: value }), {
			items: interleavedItems(1),
			onError: 'continueRegularOutput',
		});
		expectValidationError(simulator, result, message);
	});
});
