/**
 * The pickers with the credential's Gateway set to Evolution API v2: chats, contacts, groups and
 * sessions listed from v2's own routes (each request judged by 2.3.6's own validation), against
 * the simulator playing 2.3.6; each value picked is taken by the operations as it is.
 */
import type { INodeParameters } from 'n8n-workflow';

import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { EVOLUTION_V2_SEED as SEED } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { fromList } from '../support/gateway-node.cts';
import { addSenders } from '../support/senders.cts';
import { runListSearch } from '../support/load-options.cts';
import type { ListSearchMethod } from '../support/load-options.cts';
import { gatewayPickers } from '../support/gateway-pickers.cts';
import { EVOLUTION_V2_KEY, useScriptedEvolutionV2 } from '../support/scripted-evolution-v2.cts';

const SESSION = SEED.instances.connected.name;
const { alice, bruno, bakery, carla } = SEED.contacts;
const { hikers, team } = SEED.groups;
const { aliceImage, bakeryDocument, hikersQuestion, thanksToBruno } = SEED.messages;

const v2 = useSimulator({ gateway: 'evolution-v2' });

const { search, expectAllAccepted, pickAndRun } = gatewayPickers(
	v2,
	'evolutionV2',
	SESSION,
	checkEvolutionV2,
);

describe('pickers on Evolution API v2: what each lists, from which route', () => {
	it.each<[ListSearchMethod, string, string, unknown, string[]]>([
		[
			'searchChats',
			'POST',
			`/chat/findChats/${SESSION}`,
			{ take: 50, skip: 0 },
			// Chats with messages, newest first (the team group has none).
			[hikersQuestion.chatId, thanksToBruno.chatId, bakeryDocument.chatId, aliceImage.chatId],
		],
		[
			'searchContacts',
			'POST',
			`/chat/findContacts/${SESSION}`,
			{ page: 1, offset: 50 },
			[alice.jid, bruno.jid, bakery.jid, carla.jid],
		],
		['searchGroups', 'GET', `/group/fetchAllGroups/${SESSION}`, undefined, [hikers.id, team.id]],
	])('%s: %s %s', async (method, httpMethod, path, body, values) => {
		const { results, paginationToken } = await search(method);

		expect(v2.requests.map((request) => [request.method, request.path, request.body])).toEqual([
			[httpMethod, path, body],
		]);
		expectAllAccepted();
		expect(results.map((entry) => entry.value)).toEqual(values);
		expect(paginationToken).toBeUndefined();
	});

	it('searchGroups asks without participants', async () => {
		await search('searchGroups');

		expect(v2.requests[0].query).toEqual({ getParticipants: 'false' });
	});

	it.each<[ListSearchMethod, string, string]>([
		['searchChats', hikers.id, `${hikers.subject} (${hikers.id})`],
		['searchGroups', team.id, `${team.subject} (${team.id})`],
		['searchContacts', bakery.jid, `Padaria Aurora (${bakery.jid})`],
	])('%s shows each entry by name and ID (%s)', async (method, value, name) => {
		const { results } = await search(method);

		expect(results).toContainEqual({ name, value });
	});

	it.each<[ListSearchMethod, string, string[]]>([
		['searchChats', 'BRUNO', [bruno.chatId]],
		['searchChats', '@g.us', [hikers.id]],
		['searchContacts', 'padaria', [bakery.jid]],
		['searchContacts', '650004', [carla.jid]],
		['searchGroups', 'acme', [team.id]],
	])('%s filters by name or ID, any case: "%s"', async (method, filter, values) => {
		const { results } = await search(method, { filter });

		expect(results.map((entry) => entry.value)).toEqual(values);
	});

	it.each<[ListSearchMethod, (request: { body?: unknown }) => unknown, unknown[], number]>([
		[
			'searchChats',
			(request) => request.body,
			[
				{ take: 50, skip: 0 },
				{ take: 50, skip: 50 },
			],
			4,
		],
		[
			'searchContacts',
			(request) => request.body,
			[
				{ page: 1, offset: 50 },
				{ page: 2, offset: 50 },
			],
			4,
		],
	])('%s pages by the offset as pagination token', async (method, asked, pages, seeded) => {
		await addSenders(v2, 55);

		const first = await search(method);
		const second = await search(method, { paginationToken: first.paginationToken });

		expect(v2.requests.map(asked)).toEqual(pages);
		expectAllAccepted();
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toBe('50');
		expect(second.results).toHaveLength(seeded + 55 - 50);
		expect(second.paginationToken).toBeUndefined();
		const values = [...first.results, ...second.results].map((entry) => entry.value);
		expect(new Set(values).size).toBe(seeded + 55);
	});

	it.each<ListSearchMethod>(['searchChats', 'searchContacts', 'searchGroups'])(
		'%s asks for a Session first, without a request',
		async (method) => {
			await expect(search(method, { parameters: { session: ' ' } })).rejects.toMatchObject({
				message: 'Pick a Session first',
			});
			expect(v2.requests).toEqual([]);
		},
	);

	it('surfaces an unknown instance as v2 answers it', async () => {
		await expect(search('searchChats', { parameters: { session: 'ghost' } })).rejects.toMatchObject(
			{ name: 'NodeApiError', httpCode: '404' },
		);
		expect(v2.requests.map((request) => request.path)).toEqual(['/chat/findChats/ghost']);
	});

	it('searchSessions lists fetchInstances’ flat v2 rows by name, with state and profile name', async () => {
		const { results } = await search('searchSessions');

		expect(v2.requests.map((request) => [request.method, request.path])).toEqual([
			['GET', '/instance/fetchInstances'],
		]);
		expectAllAccepted();
		expect(results.map((entry) => entry.value)).toEqual(
			Object.values(SEED.instances).map((instance) => instance.name),
		);
		expect(results[0].name).toMatch(new RegExp(`^${SESSION} \\(open, `));
	});
});

describe('the values picked on Evolution API v2 are what the operations take', () => {
	it.each<[string, ListSearchMethod, string, (value: string) => INodeParameters, string]>([
		[
			'a chat, in Chat → Get Many’s Chats filter',
			'searchChats',
			'Padaria',
			(value) => ({ resource: 'chat', operation: 'getMany', filters: { chats: value } }),
			'id',
		],
		[
			'a contact, in Contact → Get',
			'searchContacts',
			'Alice',
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
	])('%s', async (_name, method, filter, run, field) => {
		const { value, output } = await pickAndRun(method, filter, run);

		expect(output).toEqual([expect.objectContaining({ [field]: value })]);
	});

	it('a chat, as the chat of Send Text', async () => {
		const { output } = await pickAndRun('searchChats', 'Alice', (value) => ({
			resource: 'message',
			operation: 'sendText',
			chatId: fromList(value),
			text: 'Picked',
		}));

		expect(output[0].messageId).toMatch(new RegExp(`^true_${alice.chatId}_`));
	});

	it('a session, in Session → Get Connection State', async () => {
		const { output } = await pickAndRun('searchSessions', SESSION, () => ({
			resource: 'session',
			operation: 'getConnectionState',
		}));

		expect(output).toEqual([expect.objectContaining({ session: SESSION, state: 'open' })]);
	});
});

describe('pickers on v2 from a gateway answering something else than a list', () => {
	const scripted = useScriptedEvolutionV2(SESSION);

	it.each<[ListSearchMethod, string]>([
		['searchChats', `POST /chat/findChats/${SESSION}`],
		['searchContacts', `POST /chat/findContacts/${SESSION}`],
		['searchGroups', `GET /group/fetchAllGroups/${SESSION}?getParticipants=false`],
	])('%s (%s) lists nothing, and no next page', async (method, request) => {
		scripted.server.respondWith({ body: { records: [] } });

		const result = await runListSearch(
			{ url: scripted.server.url, apiKey: EVOLUTION_V2_KEY },
			method,
			{
				parameters: { session: SESSION },
				gateway: 'evolutionV2',
			},
		);

		expect(scripted.sent().map((sent) => `${sent.method} ${sent.url}`)).toEqual([request]);
		expect(result).toEqual({ results: [], paginationToken: undefined });
	});
});
