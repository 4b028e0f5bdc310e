import { SEED } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { expectOneRequest, outputJson, runGateway } from '../support/gateway-node.cts';
import { runListSearch } from '../support/load-options.cts';
import type { ListSearchMethod, ListSearchOptions } from '../support/load-options.cts';

const SESSION = SEED.instances.connected.name;
const PAIRING_SESSION = SEED.instances.pairing.name;
const { alice, bruno, bakery, carla } = SEED.contacts;
const { hikers, team } = SEED.groups;

const simulator = useSimulator();

async function search(method: ListSearchMethod, options: Partial<ListSearchOptions> = {}) {
	return await runListSearch(simulator, method, {
		...options,
		parameters: options.parameters ?? { session: SESSION },
	});
}

/** Adds chats and contacts: one inbound message from each of `count` new numbers. */
async function addSenders(count: number): Promise<void> {
	for (let index = 0; index < count; index++) {
		await simulator.injectInboundMessage({
			from: `55219${String(index).padStart(8, '0')}`,
			text: 'Hi',
			pushName: `Guest ${index}`,
		});
	}
}

describe('List search: chats', () => {
	it("lists the session's chats, newest first, by name and chat ID", async () => {
		const result = await search('searchChats');

		expectOneRequest(simulator, {
			method: 'GET',
			path: `/api/${SESSION}/chats/overview`,
			query: { limit: '50', offset: '0' },
		});
		expect(result).toEqual({
			results: [
				{ name: `Weekend Hikers (${hikers.id})`, value: hikers.id },
				{ name: `Bruno Costa (${bruno.chatId})`, value: bruno.chatId },
				{ name: `Padaria Aurora (${bakery.chatId})`, value: bakery.chatId },
				{ name: `Alice Martins (${alice.chatId})`, value: alice.chatId },
				{ name: `Acme Team (${team.id})`, value: team.id },
			],
			paginationToken: undefined,
		});
	});

	it('filters by name or ID, case-insensitively', async () => {
		const byName = await search('searchChats', { filter: 'ALICE' });
		const byId = await search('searchChats', { filter: '650002' });

		expect(byName.results).toEqual([
			{ name: `Alice Martins (${alice.chatId})`, value: alice.chatId },
		]);
		expect(byId.results).toEqual([{ name: `Bruno Costa (${bruno.chatId})`, value: bruno.chatId }]);
	});

	it('pages with the offset as pagination token', async () => {
		await addSenders(55);

		const first = await search('searchChats');
		const second = await search('searchChats', { paginationToken: first.paginationToken });

		expect(simulator.requests.map((request) => request.query)).toEqual([
			{ limit: '50', offset: '0' },
			{ limit: '50', offset: '50' },
		]);
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toBe('50');
		expect(second.results).toHaveLength(10);
		expect(second.paginationToken).toBeUndefined();
		const values = [...first.results, ...second.results].map((chat) => chat.value);
		expect(new Set(values).size).toBe(60);
	});

	it('asks for a Session first, without a request, while Session is empty', async () => {
		await expect(search('searchChats', { parameters: { session: '  ' } })).rejects.toMatchObject({
			message: 'Pick a Session first',
		});
		expect(simulator.requests).toEqual([]);
	});

	it.each([
		['..', 'Session must be a name such as default, not ".."'],
		[{ name: 'x' }, 'Session must be a name such as default (got an object ({"name":"x"}))'],
	])('names an unusable Session %j instead of listing nothing', async (session, message) => {
		await expect(search('searchChats', { parameters: { session } })).rejects.toMatchObject({
			message,
		});
		expect(simulator.requests).toEqual([]);
	});

	it('surfaces the gateway error of a session that is not connected', async () => {
		await expect(
			search('searchChats', { parameters: { session: PAIRING_SESSION } }),
		).rejects.toMatchObject({
			name: 'NodeApiError',
			message: `Gateway error 422: Session status is not as expected. Try again later or restart the session (session "${PAIRING_SESSION}" is SCAN_QR_CODE, expected WORKING)`,
		});
	});

	it('surfaces a wrong API key as the 401 with the credential hint', async () => {
		await expect(search('searchChats', { apiKey: 'wrong-key' })).rejects.toMatchObject({
			message: 'Gateway error 401: Unauthorized',
			description: expect.stringContaining('API Key'),
		});
		expect(simulator.requests[0].auth).toBe('invalid');
	});
});

describe('List search: groups', () => {
	it('lists only the groups among the chats', async () => {
		const result = await search('searchGroups');

		expect(simulator.requests[0].path).toBe(`/api/${SESSION}/chats/overview`);
		expect(result.results).toEqual([
			{ name: `Weekend Hikers (${hikers.id})`, value: hikers.id },
			{ name: `Acme Team (${team.id})`, value: team.id },
		]);
	});
});

describe('List search: contacts', () => {
	it("lists the session's contacts by their best name and JID", async () => {
		const result = await search('searchContacts');

		expectOneRequest(simulator, {
			method: 'GET',
			path: '/api/contacts',
			query: { sessionId: SESSION, limit: '50', offset: '0' },
		});
		expect(result).toEqual({
			results: [
				{ name: `Alice Martins (${alice.jid})`, value: alice.jid },
				{ name: `Bruno Costa (${bruno.jid})`, value: bruno.jid },
				{ name: `Padaria Aurora (${bakery.jid})`, value: bakery.jid },
				// No saved name: the push name stands in.
				{ name: `Carla (${carla.jid})`, value: carla.jid },
			],
			paginationToken: undefined,
		});
	});

	it('filters by any of the names or the JID', async () => {
		const byPushName = await search('searchContacts', { filter: 'carla' });
		const byJid = await search('searchContacts', { filter: '650003@s.messenger' });

		expect(byPushName.results.map((contact) => contact.value)).toEqual([carla.jid]);
		expect(byJid.results.map((contact) => contact.value)).toEqual([bakery.jid]);
	});

	it('pages with the offset as pagination token', async () => {
		await addSenders(55);

		const first = await search('searchContacts');
		const second = await search('searchContacts', { paginationToken: first.paginationToken });

		expect(simulator.requests.map((request) => request.query)).toEqual([
			{ sessionId: SESSION, limit: '50', offset: '0' },
			{ sessionId: SESSION, limit: '50', offset: '50' },
		]);
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toBe('50');
		expect(second.results).toHaveLength(9);
		expect(second.results.at(-1)).toEqual({
			name: 'Guest 54 (5521900000054@s.messenger.net)',
			value: '5521900000054@s.messenger.net',
		});
		expect(second.paginationToken).toBeUndefined();
	});

	it('gives values that Contact > Get takes as they are', async () => {
		const { results } = await search('searchContacts', { filter: 'Padaria' });
		simulator.clearLogs();

		const result = await runGateway(simulator, {
			resource: 'contact',
			operation: 'get',
			session: SESSION,
			contact: { __rl: true, mode: 'list', value: results[0].value },
		});

		expect(simulator.requests[0].query).toEqual({ sessionId: SESSION, jid: bakery.jid });
		expect(outputJson(result)).toEqual([expect.objectContaining({ jid: bakery.jid })]);
	});

	it('asks for a Session first, without a request, while Session is empty', async () => {
		await expect(search('searchContacts', { parameters: {} })).rejects.toMatchObject({
			message: 'Pick a Session first',
		});
		expect(simulator.requests).toEqual([]);
	});

	it('surfaces an unknown session as the gateway error', async () => {
		await expect(
			search('searchContacts', { parameters: { session: 'ghost' } }),
		).rejects.toMatchObject({
			message:
				"Gateway error 404: We didn't find a session with name 'ghost'. Please start it first by using POST /api/sessions/ghost/start request",
			httpCode: '404',
		});
		expect(simulator.requests[0].query).toEqual({ sessionId: 'ghost', limit: '50', offset: '0' });
	});
});
