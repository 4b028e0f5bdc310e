/**
 * n8n runs the regular expressions of a description (display conditions of a node or a credential,
 * the pattern of a "By ID" field) in a sandbox with a 250 ms watchdog: at the start of every
 * execution (its check of each node's parameters) and at every credential read. A process that
 * stalls that long (a busy queue-mode worker, a garbage collection) then fails the execution with
 * "Regular expression execution timed out" (seen here on a worker in queue mode). The package's
 * descriptions give n8n no regular expression to run: with a watchdog that always fires, runs and
 * credential reads go through, and a wrong ID is still refused by name before any request.
 */
import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers, resetSafeRegexEngine, setSafeRegexEngine } from 'n8n-workflow';

import { MessagingGatewayApi } from '../../credentials/MessagingGatewayApi.credentials';
import { MessagingGateway } from '../../nodes/MessagingGateway/MessagingGateway.node';
import { MessagingGatewayTrigger } from '../../nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node';
import { SEED } from '../simulator/index.cts';
import { byId, runGateway } from '../support/gateway-node.cts';
import { useSimulator } from '../simulator/testing.cts';

const SESSION = SEED.instances.connected.name;
const WATCHDOG = 'Regular expression execution timed out';

const simulator = useSimulator();

beforeAll(() => {
	const fires = () => {
		throw new Error(WATCHDOG);
	};
	setSafeRegexEngine({ exec: fires, test: fires, replace: fires, matchAll: fires, split: fires });
});

afterAll(() => {
	resetSafeRegexEngine();
});

describe('with n8n’s regular expression watchdog firing on every call', () => {
	it.each<[string, INodeParameters]>([
		[
			'Send Text to a typed phone number',
			{ resource: 'message', operation: 'sendText', chatId: byId('+55 11 98765-0001'), text: 'Hi' },
		],
		[
			'Group → Get of a typed group ID',
			{ resource: 'group', operation: 'get', groupId: byId(SEED.groups.hikers.id) },
		],
		[
			'Contact → Get of a typed contact',
			{ resource: 'contact', operation: 'get', contact: byId('+55 11 98765-0001') },
		],
	])(
		'%s runs, from n8n’s check of its parameters to the gateway’s answer',
		async (_name, parameters) => {
			const result = await runGateway(simulator, { session: SESSION, ...parameters });
			expect({ status: result.status, error: result.error?.message }).toEqual({
				status: 'success',
				error: undefined,
			});
			expect(simulator.requests.length).toBeGreaterThan(0);
		},
	);

	it('a typed chat that is no chat is refused by name, before any request', async () => {
		const result = await runGateway(simulator, {
			resource: 'message',
			operation: 'sendText',
			session: SESSION,
			chatId: byId('not a chat'),
			text: 'Hi',
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/Chat/);
		expect(result.error?.message).not.toContain(WATCHDOG);
		expect(simulator.requests).toEqual([]);
	});

	it.each(['https://gateway.example.com', 'https://gateway.example.com/?tenant=a'])(
		'a credential read with the Base URL %j goes through',
		(baseUrl) => {
			// What n8n's credentials helper does to the stored data at each read.
			const read = NodeHelpers.getNodeParameters(
				new MessagingGatewayApi().properties,
				{ baseUrl, apiKey: 'dummy-watchdog-key' },
				true,
				false,
				null,
				null,
			);
			expect(read).toMatchObject({ baseUrl });
		},
	);
});

/** Every place of a description where n8n would run a regular expression of ours. */
function regexesIn(properties: INodeProperties[], where: string): string[] {
	const found: string[] = [];
	const visit = (value: unknown, path: string) => {
		if (Array.isArray(value)) value.forEach((entry, index) => visit(entry, `${path}[${index}]`));
		else if (value && typeof value === 'object') {
			for (const [key, entry] of Object.entries(value)) {
				const isRegexCondition = key === '_cnd' && entry && 'regex' in (entry as object);
				const isRegexValidation =
					key === 'validation' &&
					Array.isArray(entry) &&
					entry.some((rule) => (rule as { type?: string }).type === 'regex');
				if (isRegexCondition || isRegexValidation) found.push(`${path}.${key}`);
				visit(entry, `${path}.${key}`);
			}
		}
	};
	visit(properties, where);
	return found;
}

describe('no description gives n8n a regular expression to run', () => {
	it.each([
		['the action node', () => new MessagingGateway().description.properties],
		['the trigger', () => new MessagingGatewayTrigger().description.properties],
		['the credential', () => new MessagingGatewayApi().properties],
	])('%s', (name, properties) => {
		const all = properties();
		expect(all.length).toBeGreaterThan(3);
		expect(regexesIn(all, name)).toEqual([]);
	});
});
