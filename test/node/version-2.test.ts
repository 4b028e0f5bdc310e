/**
 * Version 2 of both nodes: Session is a picker (From List / By Name) and every resource opens on
 * an operation that changes nothing. Saved version 1 workflows keep their text Session and their
 * defaults, because n8n does not store defaults in a workflow.
 */
import type { INode, INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { MessagingGateway } from '../../nodes/MessagingGateway/MessagingGateway.node';
import { MessagingGatewayTrigger } from '../../nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node';
import { SEED } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { expectValidationError, outputJson, runGateway } from '../support/gateway-node.cts';
import { runListSearch } from '../support/load-options.cts';
import { startTriggerHarness } from '../support/trigger-harness.cts';

const { connected, pairing } = SEED.instances;
const { alice } = SEED.contacts;

const simulator = useSimulator();

const byList = (value: string) => ({ __rl: true, mode: 'list', value });
const byName = (value: string) => ({ __rl: true, mode: 'name', value });

/** The parameters n8n resolves for a node of `typeVersion` with only `set` stored, as the editor and the engine do. */
function resolvedParameters(
	description: INodeTypeDescription,
	typeVersion: number,
	set: INodeParameters,
): INodeParameters {
	const node = { typeVersion, parameters: set } as INode;
	return NodeHelpers.getNodeParameters(
		description.properties,
		set,
		true,
		false,
		node,
		description,
	) as INodeParameters;
}

describe('the version new nodes get', () => {
	it.each([
		['Messaging Gateway', new MessagingGateway().description, [1, 2]],
		// Version 3 shows Ignore Own Messages and Simplify (test/editor/trigger-form.test.ts).
		['Messaging Gateway Trigger', new MessagingGatewayTrigger().description, [1, 2, 3]],
	])('%s offers %p and adds the newest', (_name, description, versions) => {
		expect(description.version).toEqual(versions);
		expect(description.defaultVersion).toBe(versions.at(-1));
	});
});

describe('each resource opens on an operation that changes nothing (version 2)', () => {
	const description = new MessagingGateway().description;

	it.each([
		// resource, version 2 default, version 1 default (kept for saved workflows)
		['channel', 'search', 'create'],
		['chat', 'getMany', 'getMany'],
		['contact', 'get', 'get'],
		['group', 'get', 'get'],
		['message', 'sendText', 'sendText'],
		['profile', 'get', 'get'],
		['session', 'getMany', 'restart'],
		['webhook', 'get', 'set'],
	])('%s: %s (version 1 stays on %s)', (resource, version2, version1) => {
		expect(resolvedParameters(description, 2, { resource }).operation).toBe(version2);
		expect(resolvedParameters(description, 1, { resource }).operation).toBe(version1);
	});
});

describe('the Session field', () => {
	function sessionField(description: INodeTypeDescription, typeVersion: number): INodeProperties {
		const fields = description.properties.filter(
			(property) =>
				property.name === 'session' &&
				NodeHelpers.displayParameter(
					// The trigger's Sessions to Watch: One Session, its default.
					{ resource: 'message', operation: 'sendText', sessionScope: 'one' },
					property,
					{ typeVersion } as INode,
					description,
				),
		);
		expect(fields).toHaveLength(1);
		return fields[0];
	}

	it.each([
		['Messaging Gateway', new MessagingGateway().description],
		['Messaging Gateway Trigger', new MessagingGatewayTrigger().description],
	])('%s: a picker (From List, By Name) in version 2, text in version 1', (_name, description) => {
		const picker = sessionField(description, 2);
		expect(picker.type).toBe('resourceLocator');
		expect(picker.modes?.map((mode) => [mode.name, mode.displayName])).toEqual([
			['list', 'From List'],
			['name', 'By Name'],
		]);
		expect(picker.modes?.[0].typeOptions).toEqual({
			searchListMethod: 'searchSessions',
			searchable: true,
		});
		expect(sessionField(description, 1).type).toBe('string');
	});

	it('both nodes list sessions with the same search', () => {
		expect(new MessagingGatewayTrigger().methods.listSearch.searchSessions).toBe(
			new MessagingGateway().methods.listSearch.searchSessions,
		);
	});

	it.each([
		['From List', byList(connected.name)],
		['By Name', byName(` ${connected.name} `)],
		['a version 1 text value', connected.name],
	])('%s sends to that session', async (_mode, session) => {
		const result = await runGateway(
			simulator,
			{
				resource: 'message',
				operation: 'sendText',
				session,
				chatId: { __rl: true, mode: 'id', value: alice.number },
				text: 'Hi',
			},
			{ typeVersion: 2 },
		);
		expect(outputJson(result)).toHaveLength(1);
		expect(simulator.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			`POST /message/sendText/${connected.name}`,
		]);
	});

	it('n8n itself refuses an empty required picker before the node runs', async () => {
		await expect(
			runGateway(
				simulator,
				{ resource: 'session', operation: 'restart', session: byList('') },
				{ typeVersion: 2 },
			),
		).rejects.toThrow('Parameter "Session" is required');
		expect(simulator.requests).toHaveLength(0);
	});

	it.each([
		['blank', byName('   '), 'Session must not be empty'],
		['a dot segment', byName('..'), 'Session must be a name such as default, not ".."'],
	])('refuses a typed session that is %s before any request', async (_case, session, message) => {
		const result = await runGateway(
			simulator,
			{ resource: 'session', operation: 'restart', session },
			{ typeVersion: 2 },
		);
		expectValidationError(simulator, result, message);
	});

	it('the Chat picker reads the picked session', async () => {
		const result = await runListSearch(simulator, 'searchChats', {
			parameters: { session: byList(connected.name) },
			typeVersion: 2,
		});
		expect(simulator.requests[0].path).toBe(`/api/${connected.name}/chats/overview`);
		expect(result.results.map((chat) => chat.value)).toContain(alice.chatId);
	});

	it('the Chat picker says "Pick a Session first" when none is picked', async () => {
		await expect(
			runListSearch(simulator, 'searchChats', {
				parameters: { session: byList('') },
				typeVersion: 2,
			}),
		).rejects.toThrow('Pick a Session first');
	});

	it('the trigger registers its webhook on the picked session', async () => {
		const harness = await startTriggerHarness({
			gateway: simulator,
			parameters: { session: byList(pairing.name), events: ['MESSAGES_UPSERT'] } as never,
			typeVersion: 2,
		});
		try {
			await harness.activate();
			expect(simulator.requestsTo('/webhook/set/', 'POST').map((request) => request.path)).toEqual([
				`/webhook/set/${pairing.name}`,
			]);
		} finally {
			await harness.stop();
		}
	});
});

describe('the Session list (From List)', () => {
	async function listSessions(filter?: string, apiKey?: string) {
		return await runListSearch(simulator, 'searchSessions', {
			parameters: { session: byList('') },
			path: 'parameters.session',
			typeVersion: 2,
			filter,
			apiKey,
		});
	}

	it("lists the gateway's sessions by name with state and profile, the list the credential test reads", async () => {
		const result = await listSessions();
		expect(simulator.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			'GET /instance/fetchInstances',
		]);
		expect(result.results).toEqual([
			{ name: `${connected.name} (open, ${connected.profileName})`, value: connected.name },
			{ name: `${pairing.name} (connecting)`, value: pairing.name },
		]);
		expect(JSON.stringify(result)).not.toContain(connected.token);
	});

	it('filters by name, case-insensitively', async () => {
		const result = await listSessions('SUPPORT');
		expect(result.results.map((entry) => entry.value)).toEqual([pairing.name]);
	});

	it.each([
		[
			'rejects the key',
			() => ({ apiKey: 'dummy-wrong-key' }),
			/^Cannot list the sessions \(.*401.*\)\. Choose "By Name" and type the session name\.$/,
		],
		[
			'has no session list (404)',
			() => {
				simulator.injectFault({
					match: { path: '/instance/fetchInstances' },
					status: 404,
					body: { statusCode: 404, message: 'Cannot GET /instance/fetchInstances' },
				});
				return {};
			},
			/^Cannot list the sessions \(.*Cannot GET \/instance\/fetchInstances.*\)\. Choose "By Name"/,
		],
		[
			'answers something that is no list',
			() => {
				simulator.injectFault({
					match: { path: '/instance/fetchInstances' },
					status: 200,
					body: { sessions: 'none' },
				});
				return {};
			},
			/^Cannot list the sessions \(Gateway error: the answer is not a list of sessions \(got an object .*\)\)\. Choose "By Name"/,
		],
	])('says so in the list when the gateway %s', async (_case, arrange, expected) => {
		const { apiKey } = arrange() as { apiKey?: string };
		const result = await listSessions(undefined, apiKey);
		expect(result.results).toHaveLength(1);
		expect(result.results[0].name).toMatch(expected);
		expect(result.results[0].value).toBe('');
		expect(result.results[0].name).not.toContain('dummy-wrong-key');
	});
});

describe('the new harmless operations', () => {
	it('Session → Get Many lists the sessions without their API keys', async () => {
		const result = await runGateway(
			simulator,
			{ resource: 'session', operation: 'getMany' },
			{ typeVersion: 2 },
		);
		const items = outputJson(result);
		expect(items.map((item) => [item.session, item.status])).toEqual([
			[connected.name, 'open'],
			[pairing.name, 'connecting'],
		]);
		expect(items[0]).toMatchObject({ instanceId: connected.instanceId, profileName: 'Acme Sales' });
		const text = JSON.stringify(items);
		expect(text).not.toContain(connected.token);
		expect(text).not.toContain(pairing.token);
		expect(text).not.toContain(simulator.apiKey);
	});

	it('Webhook → Get shows the webhook without the trigger token or a password in its URL', async () => {
		await runGateway(simulator, {
			resource: 'webhook',
			operation: 'set',
			session: connected.name,
			url: 'https://bot:dummy-password@hooks.example.com/n8n/webhook?token=dummy-secret-token&x=1',
			events: ['MESSAGES_UPSERT'],
		});

		const result = await runGateway(
			simulator,
			{ resource: 'webhook', operation: 'get', session: byList(connected.name) },
			{ typeVersion: 2 },
		);

		expect(simulator.requests.at(-1)).toMatchObject({
			method: 'GET',
			path: `/webhook/find/${connected.name}`,
		});
		const [item] = outputJson(result);
		expect(item).toMatchObject({
			session: connected.name,
			enabled: true,
			url: 'https://bot:***@hooks.example.com/n8n/webhook?token=***&x=1',
			events: ['MESSAGES_UPSERT'],
		});
		expect(JSON.stringify(item)).not.toMatch(/dummy-/);
	});
});
