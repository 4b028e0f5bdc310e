/**
 * The credential's Test button, run as n8n's CredentialsTester runs a declarative test (a
 * RoutingNode request, then the rules), over real HTTP.
 *
 * Against the simulator playing each gateway, with each Gateway chosen and a right or wrong key:
 * each Gateway asks its own check, and a refusal says what to check in the order people get it
 * wrong (the Gateway, which decides the header the key goes in; then the key or the Base URL).
 * Against a scripted server: the answers a gateway should not give.
 */
import { MessagingGatewayApi } from '../../credentials/MessagingGatewayApi.credentials';
import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import type { Gateway } from '../simulator/types.cts';
import { runCredentialTest } from '../support/n8n-harness.cts';
import { startScriptedServer, unusedLocalUrl } from '../support/scripted-server.cts';
import type { ScriptedServer } from '../support/scripted-server.cts';

const credential = new MessagingGatewayApi();
const V1 = 'Evolution API v1 / Messaging Gateway API';

type Chosen = 'messagingGatewayApi' | 'evolutionV2' | 'waha';
type Key = 'right' | 'wrong' | 'instance token';

const OK = /^Connection successful!$/;
/** A refused key: the Gateway named first, then the key. */
const REFUSED =
	/^The gateway refused the key \(401\)\. Check, in this order: 1\. Gateway: it decides the route asked and the header the key goes in \(Evolution API v1 and v2 read apikey, WAHA reads X-Api-Key\).* 2\. API Key: copy it again/;
/** A route that is not there: the Gateway named first, then the Base URL. */
const NOT_THERE =
	/^The chosen Gateway's check is not at this Base URL \(404\)\. Check, in this order: 1\. Gateway: .* 2\. Base URL: the gateway's root address, without \/api, \/manager or \/instance at the end\.$/;
const V2_WITH_V1_CHOSEN =
	/^The key works, but the server at this Base URL answers as Evolution API v2: choose Gateway "Evolution API v2"/;

/** The check each Gateway asks (the header its key goes in: test/credentials/api-key-header.test.ts). */
const CHECK: Record<Chosen, [method: string, path: string]> = {
	messagingGatewayApi: ['GET', '/instance/fetchInstances'],
	evolutionV2: ['POST', '/verify-creds'],
	waha: ['GET', '/api/server/version'],
};

const SIMULATOR_CASES: Array<{ plays: Gateway; chosen?: Chosen; key: Key; message: RegExp }> = [
	// The Gateway that matches the server.
	{ plays: 'spec', key: 'right', message: OK },
	{ plays: 'spec', chosen: 'messagingGatewayApi', key: 'right', message: OK },
	{ plays: 'evolution-v2', chosen: 'evolutionV2', key: 'right', message: OK },
	{ plays: 'waha', chosen: 'waha', key: 'right', message: OK },
	// A wrong key.
	{ plays: 'spec', chosen: 'messagingGatewayApi', key: 'wrong', message: REFUSED },
	{ plays: 'evolution-v2', chosen: 'evolutionV2', key: 'wrong', message: REFUSED },
	{
		plays: 'evolution-v2',
		chosen: 'evolutionV2',
		key: 'instance token',
		message:
			/only the global key \(AUTHENTICATION_API_KEY on the server\); the nodes also work with an instance's token/,
	},
	{ plays: 'waha', chosen: 'waha', key: 'wrong', message: REFUSED },
	// The wrong Gateway with the right key: the Gateway is what the message names first.
	{ plays: 'waha', chosen: 'messagingGatewayApi', key: 'right', message: REFUSED },
	{ plays: 'waha', chosen: 'evolutionV2', key: 'right', message: REFUSED },
	{ plays: 'evolution-v2', chosen: 'waha', key: 'right', message: NOT_THERE },
	{ plays: 'spec', chosen: 'evolutionV2', key: 'right', message: NOT_THERE },
	{
		plays: 'spec',
		chosen: 'waha',
		key: 'right',
		message:
			/^The (gateway refused the key \(401\)|chosen Gateway's check is not at this Base URL \(404\))\. Check, in this order: 1\. Gateway/,
	},
	// A route both have: the key works on Evolution API v2's instance list, but v2 is not v1.
	{
		plays: 'evolution-v2',
		chosen: 'messagingGatewayApi',
		key: 'right',
		message: V2_WITH_V1_CHOSEN,
	},
	{ plays: 'evolution-v2', key: 'right', message: V2_WITH_V1_CHOSEN },
];

function keyFor(simulator: Simulator, key: Key): string {
	if (key === 'right') return simulator.apiKey;
	if (key === 'instance token') return SEED.instances.connected.token;
	return 'dummy-wrong-key-0b1d';
}

describe.each(['spec', 'evolution-v2', 'waha'] as Gateway[])('a server playing %s', (plays) => {
	let simulator: Simulator;
	beforeAll(async () => {
		simulator = await startSimulator({ gateway: plays });
	});
	afterAll(async () => {
		await simulator.stop();
	});
	afterEach(() => simulator.reset());

	it.each(SIMULATOR_CASES.filter((each) => each.plays === plays))(
		'Gateway $chosen, $key key: $message',
		async ({ chosen, key, message }) => {
			const apiKey = keyFor(simulator, key);
			const result = await runCredentialTest(credential, {
				baseUrl: `${simulator.url}/`,
				apiKey,
				...(chosen ? { gateway: chosen } : {}),
			});

			expect(result).toEqual({
				status: message === OK ? 'OK' : 'Error',
				message: expect.stringMatching(message),
			});
			// The chosen Gateway's own check (n8n may send a refused one twice), and nothing else.
			const [method, path] = CHECK[chosen ?? 'messagingGatewayApi'];
			expect(simulator.requests.length).toBeGreaterThan(0);
			expect(simulator.requests.map((request) => [request.method, request.path])).toEqual(
				simulator.requests.map(() => [method, path]),
			);
		},
	);
});

describe('answers a gateway should not give (scripted server)', () => {
	let gateway: ScriptedServer;
	let elsewhere: ScriptedServer;
	beforeEach(async () => {
		gateway = await startScriptedServer();
		elsewhere = await startScriptedServer();
	});
	afterEach(async () => {
		await gateway.stop();
		await elsewhere.stop();
	});

	it.each([
		{
			case: 'a 404 web page (the Base URL ends in /api)',
			answer: () => ({ status: 404, body: '<html>Not here</html>' }),
			says: NOT_THERE,
		},
		{
			case: 'an instance token (403)',
			answer: () => ({ status: 403, body: { status: 403, error: 'Forbidden' } }),
			says: /^The gateway accepted this key for single instances only \(403\)/,
		},
		{
			case: "Evolution API 2.4.0's licence (503)",
			answer: () => ({ status: 503, body: { status: 503, error: 'LICENSE_REQUIRED' } }),
			says: /^The gateway is unavailable \(503\)\. Evolution API 2\.4\.0 answers 503 LICENSE_REQUIRED until/,
		},
		{
			case: 'a redirect to another origin: the key does not follow it',
			answer: () => ({
				status: 302,
				headers: { location: `${elsewhere.url}/instance/fetchInstances` },
			}),
			says: /^The Base URL redirects \(302\): use the address it redirects to as the Base URL \(the API key is never sent on a redirect\)/,
		},
	])('$case', async ({ answer, says }) => {
		gateway.respondWith(answer());
		elsewhere.answerEveryRequestWith({ status: 401, body: { error: 'Unauthorized' } });

		const result = await runCredentialTest(credential, {
			baseUrl: `${gateway.url}/api`,
			apiKey: 'dummy-key-7f3e',
		});

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(says);
		expect(gateway.requests[0].headers.apikey).toBe('dummy-key-7f3e');
		expect(elsewhere.requests.map((request) => request.headers.apikey)).not.toContain(
			'dummy-key-7f3e',
		);
	});

	it('a Base URL where nothing answers: the network error code', async () => {
		const deadUrl = await unusedLocalUrl();
		const result = await runCredentialTest(credential, {
			baseUrl: deadUrl,
			apiKey: 'dummy-key-7f3e',
		});
		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});
});

describe('credential dialog', () => {
	const names = (property: string) =>
		credential.properties
			.find((each) => each.name === property)
			?.options?.map((option) => ('name' in option ? option.name : undefined));

	it('asks for the Gateway first, each choice named as people know their gateway', () => {
		expect(credential.properties.map((property) => property.name).slice(0, 3)).toEqual([
			'gateway',
			'baseUrl',
			'apiKey',
		]);
		expect(names('gateway')).toEqual([V1, 'Evolution API v2', 'WAHA']);
		// WAHA has its own choice: the spec's fields below do not mention it.
		expect(JSON.stringify([names('keyHeader'), names('requestBodyStyle')])).not.toMatch(/WAHA/);
	});

	// Said where it is typed, on no display condition (see the credential's comment).
	it('the Base URL field says it takes the root URL, without a query or fragment', () => {
		const baseUrl = credential.properties.find((property) => property.name === 'baseUrl')!;
		expect(baseUrl.description).toContain('without a query (?…) or fragment (#…)');
		expect(credential.properties.filter((property) => property.type === 'notice')).toEqual([]);
	});
});
