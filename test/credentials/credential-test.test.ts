import { MessagingGatewayApi } from '../../credentials/MessagingGatewayApi.credentials';
import { runCredentialTest } from '../support/n8n-harness.cts';
import { startScriptedServer, unusedLocalUrl } from '../support/scripted-server.cts';
import type { ScriptedServer } from '../support/scripted-server.cts';

const GOOD_KEY = 'dummy-good-key-81c2';

let gateway: ScriptedServer;

beforeEach(async () => {
	gateway = await startScriptedServer();
});

afterEach(async () => {
	await gateway.stop();
});

const credential = new MessagingGatewayApi();

describe('credential test ("Test" button in the credential dialog)', () => {
	it('says OK when the gateway answers and sends the key as the apikey header', async () => {
		gateway.respondWith({
			status: 200,
			body: [{ instance: { instanceName: 'demo', status: 'open' } }],
		});

		const result = await runCredentialTest(credential, {
			baseUrl: `${gateway.url}/ `,
			apiKey: GOOD_KEY,
		});

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(gateway.requests).toHaveLength(1);
		expect(gateway.requests[0].method).toBe('GET');
		expect(gateway.requests[0].url).toBe('/instance/fetchInstances');
		expect(gateway.requests[0].headers.apikey).toBe(GOOD_KEY);
	});

	it('says the API key was rejected when the gateway answers 401', async () => {
		gateway.answerEveryRequestWith({
			status: 401,
			body: { status: 401, error: 'Unauthorized', response: { message: 'Unauthorized' } },
		});

		const result = await runCredentialTest(credential, {
			baseUrl: gateway.url,
			apiKey: 'dummy-wrong-key',
		});

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^API key rejected: the gateway answered 401 Unauthorized/);
		expect(gateway.requests.every((request) => request.headers.apikey === 'dummy-wrong-key')).toBe(
			true,
		);
	});

	it('says no gateway answers at a Base URL that serves something else (404)', async () => {
		gateway.respondWith({ status: 404, body: '<html><body>Not here</body></html>' });

		const result = await runCredentialTest(credential, {
			baseUrl: `${gateway.url}/api`,
			apiKey: GOOD_KEY,
		});

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^No messaging gateway answers at this Base URL \(404\)/);
	});

	it('reports a gateway that is unreachable at that URL', async () => {
		const deadUrl = await unusedLocalUrl();

		const result = await runCredentialTest(credential, { baseUrl: deadUrl, apiKey: GOOD_KEY });

		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});
});

describe('credential dialog', () => {
	// Said where it is typed, on no display condition (see the credential's comment).
	it('the Base URL field says it takes the root URL, without a query or fragment', () => {
		const baseUrl = credential.properties.find((property) => property.name === 'baseUrl')!;
		expect(baseUrl.description).toContain('without a query (?…) or fragment (#…)');
		expect(credential.properties.filter((property) => property.type === 'notice')).toEqual([]);
	});
});
