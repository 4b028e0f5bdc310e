import type { INodeParameters, INodePropertyOptions } from 'n8n-workflow';

import { MessagingGateway } from '../../nodes/MessagingGateway/MessagingGateway.node';
import { INSTANCE_API_EXTRAS, resources } from '../../nodes/MessagingGateway/actions/resources';
import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { outputJson, runGateway } from '../support/gateway-node.cts';
import { NODE_UNDER_TEST } from '../support/n8n-harness.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';

// Distinctive keys, so a leak anywhere in the run is easy to spot.
const API_KEY = 'dummy-node-basics-key-7f3a91c2';
const WRONG_KEY = 'dummy-wrong-key-d41d8cd98f00';
const SESSION = SEED.instances.connected.name;
const HIKERS = SEED.groups.hikers;
const TEAM = SEED.groups.team;
const API_KEY_HINT =
	'Check the API Key of the Messaging Gateway API credential: the gateway did not accept it.';

let simulator: Simulator;

beforeAll(async () => {
	simulator = await startSimulator({ apiKey: API_KEY });
});

afterAll(async () => {
	await simulator.stop();
});

beforeEach(() => {
	simulator.reset();
});

const groupGet = (groupId: string): INodeParameters => ({
	resource: 'group',
	operation: 'get',
	session: SESSION,
	groupId: { __rl: true, mode: 'id', value: groupId },
});

const groupRefresh = (session = SESSION): INodeParameters => ({
	resource: 'group',
	operation: 'refresh',
	session,
});

async function run(parameters: INodeParameters, options: RunGatewayOptions = {}) {
	return await runGateway(simulator, parameters, options);
}

function expectNoKeyIn(result: Awaited<ReturnType<typeof run>>) {
	const everything = JSON.stringify(result.run);
	// The run holds the node's outputs and errors: where a leaked key would show.
	expect(everything).toContain(NODE_UNDER_TEST);
	expect(everything).not.toContain(API_KEY);
	expect(everything).not.toContain(WRONG_KEY);
}

describe('the node', () => {
	it('is usable as an AI tool and offers every resource with at least one operation', () => {
		const { description } = new MessagingGateway();
		expect(description.usableAsTool).toBe(true);
		const resources = description.properties.find((property) => property.name === 'resource');
		const values = (resources?.options ?? []).map((option) => (option as { value: string }).value);
		expect(values).toEqual([
			'channel',
			'chat',
			'contact',
			'group',
			'label',
			'message',
			'profile',
			'session',
			'status',
			'webhook',
		]);
		for (const resource of values) {
			const operations = description.properties.find(
				(property) =>
					property.name === 'operation' &&
					property.displayOptions?.show?.resource?.includes(resource),
			);
			expect(operations?.options?.length).toBeGreaterThan(0);
		}
	});

	it.each([...INSTANCE_API_EXTRAS])(
		'%s, marked as beyond the spec, is an operation of the node',
		(key) => {
			const [resource, operation] = key.split('.');
			const operations = (resources as Record<string, { operations: object }>)[resource]
				?.operations;
			expect(Object.keys(operations ?? {})).toContain(operation);
		},
	);

	it.each(Object.entries(resources))(
		'%s: the editor offers exactly the operations the router runs, each with its own fields',
		(resource, { operations }: { operations: object }) => {
			const { properties } = new MessagingGateway().description;
			for (const selector of properties.filter(
				(property) =>
					property.name === 'operation' &&
					property.displayOptions?.show?.resource?.[0] === resource,
			)) {
				const offered = (selector.options as INodePropertyOptions[]).map((option) => option.value);
				expect(offered.sort()).toEqual(Object.keys(operations).sort());
			}
		},
	);
});

describe('authentication', () => {
	it('sends the API key and never puts it in the output', async () => {
		const result = await run(groupGet(HIKERS.id));

		expect(result.status).toBe('success');
		expect(simulator.requests[0].auth).toBe('valid');
		expectNoKeyIn(result);
	});

	it('a wrong key on the session family gives Gateway error 401 with the API-key hint', async () => {
		const result = await run(groupRefresh(), { apiKey: WRONG_KEY });

		expect(simulator.requests).toHaveLength(1);
		expect(simulator.requests[0].auth).toBe('invalid');
		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('Gateway error 401: Unauthorized');
		expect(result.error?.description).toBe(API_KEY_HINT);
		expect(result.error?.httpCode).toBe('401');
		expectNoKeyIn(result);
	});

	it('a wrong key on the instance family gives Gateway error 401 with the API-key hint', async () => {
		const result = await run(groupGet(HIKERS.id), { apiKey: WRONG_KEY });

		expect(simulator.requests[0].path).toBe(`/group/findGroupInfos/${SESSION}`);
		expect(simulator.requests[0].auth).toBe('invalid');
		expect(result.error?.message).toBe('Gateway error 401: Unauthorized');
		expect(result.error?.description).toBe(API_KEY_HINT);
		expectNoKeyIn(result);
	});

	it('redacts the key when a gateway echoes it in its error', async () => {
		simulator.injectFault({
			match: { path: '/groups/refresh' },
			status: 401,
			body: { statusCode: 401, message: `API key ${WRONG_KEY} is not valid`, echo: WRONG_KEY },
		});

		const result = await run(groupRefresh(), { apiKey: WRONG_KEY });

		expect(result.error?.message).toBe('Gateway error 401: API key [redacted] is not valid');
		expectNoKeyIn(result);
	});

	it('keeps the key out of Continue On Fail error items too', async () => {
		const result = await run(groupRefresh(), {
			apiKey: WRONG_KEY,
			onError: 'continueRegularOutput',
		});

		expect(outputJson(result)).toEqual([
			{ error: 'Gateway error 401: Unauthorized', message: API_KEY_HINT },
		]);
		expectNoKeyIn(result);
	});
});

describe('unknown session', () => {
	it('session family: 404 with the gateway message', async () => {
		const result = await run(groupRefresh('ghost'));

		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(
			"Gateway error 404: We didn't find a session with name 'ghost'. Please start it first by using POST /api/sessions/ghost/start request",
		);
		expect(result.error?.description).toMatch(/Check the Session name/);
		expect(result.error?.httpCode).toBe('404');
	});

	it('instance family: 404 with the gateway message', async () => {
		const result = await run({ ...groupGet(HIKERS.id), session: 'ghost' });

		expect(result.error?.message).toBe('Gateway error 404: The "ghost" instance does not exist');
		expect(result.error?.description).toMatch(/Check the Session name/);
	});
});

describe('several items', () => {
	it('runs one request per input item and pairs each output with its item', async () => {
		const result = await run(groupGet('={{ $json.group }}'), {
			items: [HIKERS.id, TEAM.id, HIKERS.id].map((group) => ({ json: { group } })),
		});

		expect(result.status).toBe('success');
		expect(simulator.requests.map((request) => request.query)).toEqual([
			{ groupJid: HIKERS.id },
			{ groupJid: TEAM.id },
			{ groupJid: HIKERS.id },
		]);
		expect(result.outputs[0].map((item) => [item.json.subject, item.pairedItem])).toEqual([
			[HIKERS.subject, { item: 0 }],
			[TEAM.subject, { item: 1 }],
			[HIKERS.subject, { item: 2 }],
		]);
	});

	it('without Continue On Fail, the first failing item stops the run with its error', async () => {
		const result = await run(groupGet('={{ $json.group }}'), {
			items: [HIKERS.id, '120363000000000099@g.us', TEAM.id].map((group) => ({ json: { group } })),
		});

		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(
			'Gateway error 404: Error fetching group; Error: item-not-found',
		);
		expect(simulator.requests).toHaveLength(2);
	});

	it('with Continue On Fail, gateway and validation failures become error items and the rest succeed', async () => {
		const result = await run(groupGet('={{ $json.group }}'), {
			items: [HIKERS.id, '120363000000000099@g.us', 'not-a-group', TEAM.id].map((group) => ({
				json: { group },
			})),
			onError: 'continueRegularOutput',
		});

		expect(result.status).toBe('success');
		expect(simulator.requests).toHaveLength(3);
		const output = result.outputs[0];
		expect(output.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(output[0].json.subject).toBe(HIKERS.subject);
		expect(output[1].json).toEqual({
			error: 'Gateway error 404: Error fetching group; Error: item-not-found',
			message: expect.stringContaining('not found'),
		});
		expect(output[2].json).toEqual({
			error: 'Group ID must be a group ID (120363012345678901@g.us) (got "not-a-group")',
			message: expect.any(String),
		});
		expect(output[3].json.subject).toBe(TEAM.subject);
		expectNoKeyIn(result);
	});
});
