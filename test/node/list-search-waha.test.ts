/**
 * The pickers with the credential's Gateway set to WAHA: chats, contacts, groups and sessions
 * listed from WAHA's own routes (each request judged by WAHA's published OpenAPI, the key in
 * X-Api-Key), against the simulator playing WAHA 2026.x and a scripted WAHA for the answers of
 * other engines; each value picked is taken by the operations as it is.
 */
import type { INodeParameters } from 'n8n-workflow';

import { checkWaha } from '../compatibility/waha.cts';
import { SEED } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { fromList, outputJson, runGateway } from '../support/gateway-node.cts';
import { runListSearch } from '../support/load-options.cts';
import type { ListSearchMethod } from '../support/load-options.cts';
import { gatewayPickers } from '../support/gateway-pickers.cts';
import { startScriptedServer } from '../support/scripted-server.cts';
import type { ScriptedServer } from '../support/scripted-server.cts';
import { WAHA_KEY, wahaRequestOf } from '../support/scripted-waha.cts';

const SESSION = SEED.instances.connected.name;
const { alice, bruno, bakery, carla } = SEED.contacts;
const { hikers, team } = SEED.groups;

const waha = useSimulator({ gateway: 'waha' });

const { search, expectAllAccepted, pickAndRun } = gatewayPickers(waha, 'waha', SESSION, checkWaha);

describe('pickers on WAHA: what each lists, from which route', () => {
	it.each<[ListSearchMethod, string, Record<string, unknown>, string[]]>([
		[
			'searchContacts',
			'/api/contacts/all',
			{ session: SESSION, limit: '50', offset: '0' },
			[alice.chatId, bruno.chatId, bakery.chatId, carla.chatId].sort(),
		],
		['searchGroups', `/api/${SESSION}/groups`, { exclude: 'participants' }, [hikers.id, team.id]],
	])('%s: GET %s', async (method, path, query, values) => {
		const { results, paginationToken } = await search(method);

		expect(waha.requests.map((request) => [request.method, request.path, request.query])).toEqual([
			['GET', path, query],
		]);
		expectAllAccepted();
		expect(results.map((entry) => entry.value).sort()).toEqual(values.sort());
		expect(paginationToken).toBeUndefined();
	});

	it('searchChats: the chats overview, newest first, 50 a page', async () => {
		const { results } = await search('searchChats');

		expect(waha.requests.map((request) => [request.method, request.path, request.query])).toEqual([
			['GET', `/api/${SESSION}/chats/overview`, { limit: '50', offset: '0' }],
		]);
		expectAllAccepted();
		expect(results.map((entry) => entry.value)).toEqual(
			expect.arrayContaining([hikers.id, alice.chatId, bruno.chatId, bakery.chatId]),
		);
	});

	it.each<[ListSearchMethod, string, string]>([
		['searchGroups', hikers.id, `${hikers.subject} (${hikers.id})`],
		['searchContacts', alice.chatId, `${alice.name} (${alice.chatId})`],
	])('%s shows each entry by name and ID (%s)', async (method, value, name) => {
		const { results } = await search(method);

		expect(results).toContainEqual({ name, value });
	});

	it.each<[ListSearchMethod, string, string[]]>([
		['searchContacts', alice.name.toUpperCase(), [alice.chatId]],
		['searchContacts', carla.number.slice(-6), [carla.chatId]],
		['searchGroups', 'acme', [team.id]],
		['searchGroups', hikers.id, [hikers.id]],
	])('%s filters by name or ID, any case: "%s"', async (method, filter, values) => {
		const { results } = await search(method, { filter });

		expect(results.map((entry) => entry.value).sort()).toEqual(values.sort());
	});

	it.each<ListSearchMethod>(['searchChats', 'searchContacts', 'searchGroups'])(
		'%s asks for a Session first, without a request',
		async (method) => {
			await expect(search(method, { parameters: { session: ' ' } })).rejects.toMatchObject({
				message: 'Pick a Session first',
			});
			expect(waha.requests).toEqual([]);
		},
	);

	it("searchSessions lists GET /api/sessions (stopped ones too) by name, with status and the account's name", async () => {
		const { results } = await search('searchSessions');

		expect(waha.requests.map((request) => [request.method, request.path, request.query])).toEqual([
			['GET', '/api/sessions', { all: 'true' }],
		]);
		expectAllAccepted();
		expect(results.map((entry) => entry.value)).toEqual(
			expect.arrayContaining(Object.values(SEED.instances).map((instance) => instance.name)),
		);
		expect(results.find((entry) => entry.value === SESSION)?.name).toMatch(
			new RegExp(`^${SESSION} \\(WORKING`),
		);
	});
});

describe('pickers on WAHA: pages and answers of other engines (scripted)', () => {
	let server: ScriptedServer;
	beforeAll(async () => {
		server = await startScriptedServer();
	});
	afterAll(async () => {
		await server.stop();
	});
	beforeEach(() => {
		server.requests.length = 0;
	});
	const scriptedSearch = async (method: ListSearchMethod, paginationToken?: string) =>
		await runListSearch({ url: server.url, apiKey: WAHA_KEY }, method, {
			parameters: { session: 'sales desk' },
			paginationToken,
			gateway: 'waha',
		});
	const fullPage = (make: (index: number) => object) =>
		Array.from({ length: 50 }, (_, index) => make(index));

	it.each<[ListSearchMethod, string, (index: number) => object]>([
		[
			'searchChats',
			'/api/sales%20desk/chats/overview',
			(index) => ({ id: `5511900000${String(index).padStart(3, '0')}@c.us`, name: null }),
		],
		[
			'searchContacts',
			'/api/contacts/all',
			(index) => ({ id: `5511900000${String(index).padStart(3, '0')}@c.us`, pushname: 'x' }),
		],
	])(
		'%s pages by offset: a full page gives the next offset as token',
		async (method, path, row) => {
			server.respondWith({ status: 200, body: fullPage(row) }, { status: 200, body: [] });

			const first = await scriptedSearch(method);
			const second = await scriptedSearch(method, first.paginationToken);

			const asked = server.requests.map(wahaRequestOf);
			expect(
				asked.map((request) => [request.path, request.query.offset, request.query.limit]),
			).toEqual([
				[path, '0', '50'],
				[path, '50', '50'],
			]);
			expect(asked.map((request) => checkWaha(request).outcome)).toEqual(['accepted', 'accepted']);
			expect(server.requests.map((request) => request.headers['x-api-key'])).toEqual([
				WAHA_KEY,
				WAHA_KEY,
			]);
			expect(first.results).toHaveLength(50);
			expect(first.paginationToken).toBe('50');
			expect(second).toEqual({ results: [], paginationToken: undefined });
		},
	);

	it('searchContacts lists contacts only (no groups, no LIDs), named by name, else push name', async () => {
		server.respondWith({
			status: 200,
			body: [
				{ id: '5511987650001@c.us', name: 'Alice', pushname: 'Ali' },
				{ id: '5511987650002@c.us', name: null, pushname: 'Bruno B.' },
				{ id: '120363012345678901@g.us', name: 'Hikers' },
				{ id: '123456789012345@lid', pushname: 'Hidden' },
			],
		});

		const { results } = await scriptedSearch('searchContacts');

		expect(results).toEqual([
			{ name: 'Alice (5511987650001@c.us)', value: '5511987650001@c.us' },
			{ name: 'Bruno B. (5511987650002@c.us)', value: '5511987650002@c.us' },
		]);
	});

	it("searchGroups reads WEBJS's list as NOWEB's keyed groups", async () => {
		server.respondWith({
			status: 200,
			body: [{ id: { _serialized: '120363099999999999@g.us' }, name: 'Acme Team' }],
		});

		const { results } = await scriptedSearch('searchGroups');

		expect(results).toEqual([
			{ name: 'Acme Team (120363099999999999@g.us)', value: '120363099999999999@g.us' },
		]);
	});

	it('searchSessions: a WAHA that refuses the list says so in the one entry', async () => {
		server.respondWith({
			status: 401,
			body: { statusCode: 401, message: 'Unauthorized' },
		});

		const { results } = await scriptedSearch('searchSessions');

		expect(server.requests.map((request) => request.url)).toEqual(['/api/sessions?all=true']);
		expect(results).toEqual([
			{
				name: expect.stringMatching(/^Cannot list the sessions \(Gateway error 401: Unauthorized/),
				value: '',
			},
		]);
	});
});

describe('the values picked on WAHA are what the operations take', () => {
	it.each<[string, ListSearchMethod, string, (value: string) => INodeParameters, string]>([
		[
			'a contact, in Contact → Get',
			'searchContacts',
			alice.name,
			(value) => ({ resource: 'contact', operation: 'get', contact: fromList(value) }),
			'jid',
		],
		[
			'a group, in Group → Get',
			'searchGroups',
			'Hikers',
			(value) => ({ resource: 'group', operation: 'get', groupId: fromList(value) }),
			'id',
		],
	])('%s', async (_what, method, filter, run, field) => {
		const { value, output } = await pickAndRun(method, filter, run);

		expect(output).toHaveLength(1);
		expect(output[0][field]).toBe(value);
	});

	it('a session, in Session → Get Connection State', async () => {
		const { results } = await search('searchSessions', { filter: SESSION });
		waha.clearLogs();

		const result = await runGateway(
			waha,
			{ resource: 'session', operation: 'getConnectionState', session: results[0].value },
			{ gateway: 'waha' },
		);

		expectAllAccepted();
		expect(outputJson(result)).toEqual([
			expect.objectContaining({ session: SESSION, state: 'open', status: 'WORKING' }),
		]);
	});
});
