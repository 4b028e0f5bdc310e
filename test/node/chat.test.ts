import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEED } from '../simulator/index.cts';
import { useSimulator, gatewayClient } from '../simulator/testing.cts';
import { expectOneRequest, outputJson, runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const PAIRING_SESSION = SEED.instances.pairing.name;
const { alice, bruno } = SEED.contacts;
const HIKERS = SEED.groups.hikers.id;
const OVERVIEW_PATH = `/api/${SESSION}/chats/overview`;

const simulator = useSimulator();

async function runGetMany(parameters: INodeParameters = {}, options: RunGatewayOptions = {}) {
	return await runGateway(
		simulator,
		{ resource: 'chat', operation: 'getMany', session: SESSION, ...parameters },
		options,
	);
}

/** What the gateway itself answers for the overview (read after the node ran, then the log is cleared). */
async function overviewFromGateway(query: string): Promise<IDataObject[]> {
	const response = await gatewayClient(simulator).get(`${OVERVIEW_PATH}?${query}`);
	expect(response.status).toBe(200);
	simulator.clearLogs();
	return response.data as IDataObject[];
}

/** Adds chats: one inbound message from each of `count` new contacts. */
async function addChats(count: number): Promise<void> {
	for (let index = 0; index < count; index++) {
		await simulator.injectInboundMessage({
			from: `55219${String(index).padStart(8, '0')}`,
			text: `Hello ${index}`,
		});
	}
}

describe('Chat > Get Many', () => {
	it('gets one page of the overview and outputs one item per chat', async () => {
		const result = await runGetMany();

		expect(result.status).toBe('success');
		expectOneRequest(simulator, {
			method: 'GET',
			path: OVERVIEW_PATH,
			query: { limit: '20', offset: '0' },
		});
		expect(simulator.requests[0].body).toBeUndefined();
		const chats = outputJson(result);
		expect(chats).toEqual(await overviewFromGateway('limit=20'));
		expect(chats.map((chat) => chat.id)).toEqual([
			HIKERS,
			bruno.chatId,
			SEED.contacts.bakery.chatId,
			alice.chatId,
			SEED.groups.team.id,
		]);
		expect(Object.keys(chats[0]).sort()).toEqual(['_chat', 'id', 'lastMessage', 'name', 'picture']);
		expect(chats[0]).toMatchObject({
			id: HIKERS,
			name: 'Weekend Hikers',
			lastMessage: { id: SEED.messages.hikersQuestion.id },
		});
		expect(result.outputs[0].map((item) => item.pairedItem)).toEqual(
			chats.map(() => ({ item: 0 })),
		);
	});

	it('asks for no more than Limit', async () => {
		const result = await runGetMany({ limit: 2 });

		expect(simulator.requests).toHaveLength(1);
		expect(simulator.requests[0].query).toEqual({ limit: '2', offset: '0' });
		expect(outputJson(result).map((chat) => chat.id)).toEqual([HIKERS, bruno.chatId]);
	});

	it('pages with offset in pages of 20 until Limit is reached', async () => {
		await addChats(25);

		const result = await runGetMany({ limit: 25 });

		expect(simulator.requests.map((request) => request.query)).toEqual([
			{ limit: '20', offset: '0' },
			{ limit: '5', offset: '20' },
		]);
		const ids = outputJson(result).map((chat) => chat.id);
		expect(ids).toHaveLength(25);
		expect(new Set(ids).size).toBe(25);
		expect(outputJson(result)).toEqual(await overviewFromGateway('limit=25'));
	});

	it('with Return All, pages until a page comes back short', async () => {
		await addChats(25);

		const result = await runGetMany({ returnAll: true });

		expect(simulator.requests.map((request) => request.query)).toEqual([
			{ limit: '20', offset: '0' },
			{ limit: '20', offset: '20' },
		]);
		expect(outputJson(result)).toHaveLength(30);
		expect(outputJson(result)).toEqual(await overviewFromGateway('limit=100'));
	});

	it('filters by chats given in any accepted form, sent as repeated ids', async () => {
		const result = await runGetMany({
			filters: {
				chats: `+55 (11) 98765-0001, ${HIKERS}; ${bruno.jid}`,
			},
		});

		expect(simulator.requests).toHaveLength(1);
		expect(simulator.requests[0].query).toEqual({
			limit: '20',
			offset: '0',
			ids: [alice.chatId, HIKERS, bruno.chatId],
		});
		expect(outputJson(result).map((chat) => chat.id)).toEqual([HIKERS, bruno.chatId, alice.chatId]);
	});

	it('takes the chat filter as an array from an expression', async () => {
		const result = await runGetMany({
			filters: { chats: `={{ ["${alice.number}", "${SEED.channels.updates.id}"] }}` },
		});

		expect(simulator.requests[0].query.ids).toEqual([alice.chatId, SEED.channels.updates.id]);
		expect(outputJson(result).map((chat) => chat.id)).toEqual([alice.chatId]);
	});

	it('sends a single chat filter as one ids parameter', async () => {
		await runGetMany({ filters: { chats: alice.number } });

		expect(simulator.requests[0].query).toEqual({ limit: '20', offset: '0', ids: alice.chatId });
	});

	it('rejects a chat filter entry that is not a chat before any request', async () => {
		const result = await runGetMany({ filters: { chats: `${alice.number}, Alice` } });

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(/^Chats must be a phone number .*\(got "Alice"\)$/);
		expect(result.error?.description).toMatch(/country code/);
		expect(simulator.requests).toEqual([]);
	});

	it('rejects a Limit below 1 before any request', async () => {
		const result = await runGetMany({ limit: 0 });

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe('Limit must be a whole number of at least 1 (got "0")');
		expect(simulator.requests).toEqual([]);
	});

	it('encodes the session as one path segment and surfaces the unknown session', async () => {
		const result = await runGetMany({ session: 'night shift' });

		expect(simulator.requests).toHaveLength(1);
		expect(simulator.requests[0].path).toBe('/api/night%20shift/chats/overview');
		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(
			"Gateway error 404: We didn't find a session with name 'night shift'. Please start it first by using POST /api/sessions/night shift/start request",
		);
		expect(result.error?.httpCode).toBe('404');
	});

	it('surfaces the 422 of a session that is not connected yet', async () => {
		const result = await runGetMany({ session: PAIRING_SESSION });

		expect(result.error?.message).toBe(
			`Gateway error 422: Session status is not as expected. Try again later or restart the session (session "${PAIRING_SESSION}" is SCAN_QR_CODE, expected WORKING)`,
		);
	});

	it('makes one request per input item and pairs every chat with its item', async () => {
		const result = await runGetMany(
			{ limit: '={{ $json.howMany }}' },
			{ items: [1, 2, 3].map((howMany) => ({ json: { howMany } })) },
		);

		expect(simulator.requests.map((request) => request.query)).toEqual([
			{ limit: '1', offset: '0' },
			{ limit: '2', offset: '0' },
			{ limit: '3', offset: '0' },
		]);
		expect(result.outputs[0].map((item) => [item.json.id, item.pairedItem])).toEqual([
			[HIKERS, { item: 0 }],
			[HIKERS, { item: 1 }],
			[bruno.chatId, { item: 1 }],
			[HIKERS, { item: 2 }],
			[bruno.chatId, { item: 2 }],
			[SEED.contacts.bakery.chatId, { item: 2 }],
		]);
	});

	it('with Continue On Fail, a failing item becomes an error item and the others go on', async () => {
		const result = await runGetMany(
			{ session: '={{ $json.session }}', limit: 1 },
			{
				items: [SESSION, 'ghost', SESSION].map((session) => ({ json: { session } })),
				onError: 'continueRegularOutput',
			},
		);

		expect(result.status).toBe('success');
		expect(simulator.requests.map((request) => request.path)).toEqual([
			OVERVIEW_PATH,
			'/api/ghost/chats/overview',
			OVERVIEW_PATH,
		]);
		expect(result.outputs[0]).toEqual([
			{ json: expect.objectContaining({ id: HIKERS }), pairedItem: { item: 0 } },
			{
				json: {
					error: expect.stringMatching(/^Gateway error 404: We didn't find a session/),
					message: expect.stringContaining('Session name'),
				},
				pairedItem: { item: 1 },
			},
			{ json: expect.objectContaining({ id: HIKERS }), pairedItem: { item: 2 } },
		]);
	});
});
