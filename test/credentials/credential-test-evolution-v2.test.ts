/**
 * The credential test with the Gateway set to Evolution API v2: `POST /verify-creds`, which only
 * 2.3.6's global API key passes and no other gateway has; every other choice (or none, on a
 * credential saved before the choice existed) keeps `GET /instance/fetchInstances`. n8n resolves
 * the url and method expressions the same way in its credentials tester (RoutingNode).
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { MessagingGatewayApi } from '../../credentials/MessagingGatewayApi.credentials';
import { SEED } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { runCredentialTest } from '../support/n8n-harness.cts';
import { startScriptedServer } from '../support/scripted-server.cts';
import type { ScriptedServer } from '../support/scripted-server.cts';

const GOOD_KEY = 'dummy-good-key-5d07';
const credential = new MessagingGatewayApi();

describe('which request the test sends, by Gateway (scripted gateway)', () => {
	let gateway: ScriptedServer;

	beforeEach(async () => {
		gateway = await startScriptedServer();
	});
	afterEach(async () => {
		await gateway.stop();
	});

	it.each<[string, string, string, ICredentialDataDecryptedObject]>([
		['no Gateway (a credential from before the choice)', 'GET', '/instance/fetchInstances', {}],
		[
			'Messaging Gateway API',
			'GET',
			'/instance/fetchInstances',
			{ gateway: 'messagingGatewayApi' },
		],
		['Evolution API v2', 'POST', '/verify-creds', { gateway: 'evolutionV2' }],
		[
			'Evolution API v2 with an API Key Header left from another choice',
			'POST',
			'/verify-creds',
			{ gateway: 'evolutionV2', keyHeader: 'X-Api-Key' },
		],
	])('%s: %s %s, the key in apikey', async (_name, method, url, choice) => {
		gateway.respondWith({ status: 200, body: { status: 200, message: 'Credentials are valid' } });

		const result = await runCredentialTest(credential, {
			baseUrl: `${gateway.url}/`,
			apiKey: GOOD_KEY,
			...choice,
		});

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(gateway.requests.map((request) => [request.method, request.url])).toEqual([
			[method, url],
		]);
		expect(gateway.requests[0].headers.apikey).toBe(GOOD_KEY);
	});
});

describe('against the simulator playing Evolution API 2.3.6', () => {
	const v2 = useSimulator({ gateway: 'evolution-v2' });

	it.each<[string, (apiKey: string) => string, { status: string; message: RegExp }, string]>([
		[
			'the global key',
			(global) => global,
			{ status: 'OK', message: /^Connection successful!$/ },
			'valid',
		],
		[
			"an instance's token (v2 accepts it only for its instance)",
			() => SEED.instances.connected.token,
			{
				status: 'Error',
				message:
					/^API key rejected: the gateway answered 401 Unauthorized\..*Evolution API v2 the test needs the global API key/,
			},
			'invalid',
		],
		[
			'a wrong key',
			() => 'dummy-wrong-key',
			{ status: 'Error', message: /^API key rejected: the gateway answered 401 Unauthorized/ },
			'invalid',
		],
	])('with %s', async (_name, keyOf, expected, auth) => {
		const result = await runCredentialTest(credential, {
			baseUrl: v2.url,
			apiKey: keyOf(v2.apiKey),
			gateway: 'evolutionV2',
		});

		expect(result).toEqual({
			status: expected.status,
			message: expect.stringMatching(expected.message),
		});
		// n8n sends an authenticated request that got 401 once more: every one went to verify-creds.
		expect(v2.requests.length).toBeGreaterThan(0);
		expect(v2.requests.map((request) => [request.method, request.path, request.auth])).toEqual(
			v2.requests.map(() => ['POST', '/verify-creds', auth]),
		);
	});
});

describe('Gateway: Evolution API v2 on a gateway that is not v2', () => {
	const spec = useSimulator();

	it('says no Evolution API v2 answers there (404), and which Gateway to choose', async () => {
		const result = await runCredentialTest(credential, {
			baseUrl: spec.url,
			apiKey: spec.apiKey,
			gateway: 'evolutionV2',
		});

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^No messaging gateway answers at this Base URL \(404\)\..*With Gateway: Evolution API v2 or WAHA, no such gateway answers there; .*choose Gateway: Messaging Gateway API\.$/,
		);
		expect(spec.requests.map((request) => [request.method, request.path])).toEqual([
			['POST', '/verify-creds'],
		]);
	});
});
