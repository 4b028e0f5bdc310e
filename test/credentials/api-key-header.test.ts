/**
 * API Key Header: the spec's `apikey` by default, WAHA's `X-Api-Key` when chosen. The simulator
 * plays a gateway that reads the key from one header only, as the real products do, so a key in
 * the wrong header is answered 401.
 */
import { MessagingGatewayApi } from '../../credentials/MessagingGatewayApi.credentials';
import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { outputJson, runGateway } from '../support/gateway-node.cts';
import { runListSearch } from '../support/load-options.cts';
import { runCredentialTest } from '../support/n8n-harness.cts';
import { startTriggerHarness } from '../support/trigger-harness.cts';

const SESSION = SEED.instances.connected.name;

type HeaderChoice = 'apikey' | 'X-Api-Key' | undefined;

/** What reads the key, what the credential says, and whether the gateway lets it in. */
const CASES: Array<[string, 'apikey' | 'x-api-key', HeaderChoice, boolean]> = [
	['a spec gateway, the credential left at its default', 'apikey', undefined, true],
	['a spec gateway, apikey chosen', 'apikey', 'apikey', true],
	['WAHA, X-Api-Key chosen', 'x-api-key', 'X-Api-Key', true],
	['WAHA, the credential left at apikey', 'x-api-key', undefined, false],
	['a spec gateway, X-Api-Key chosen by mistake', 'apikey', 'X-Api-Key', false],
];

let simulator: Simulator | undefined;
afterEach(async () => {
	await simulator?.stop();
	simulator = undefined;
});

describe.each(CASES)('%s', (_case, gatewayHeader, keyHeader, accepted) => {
	beforeEach(async () => {
		simulator = await startSimulator({ apiKeyHeader: gatewayHeader });
	});
	const gateway = () => simulator as Simulator;
	const auth = accepted ? 'valid' : 'missing';

	it(`the action node's requests are ${accepted ? 'accepted' : 'answered 401'}`, async () => {
		const result = await runGateway(
			gateway(),
			{ resource: 'session', operation: 'restart', session: SESSION },
			{ keyHeader },
		);
		expect(gateway().requests.map((request) => request.auth)).toEqual([auth]);
		if (accepted) expect(outputJson(result)).toEqual([{ session: SESSION, state: 'open' }]);
		else expect(result.error?.message).toMatch(/^Gateway error 401/);
	});

	it(`the Session list ${accepted ? 'lists the sessions' : 'says it cannot list them'}`, async () => {
		const result = await runListSearch(gateway(), 'searchSessions', {
			parameters: {},
			path: 'parameters.session',
			typeVersion: 2,
			keyHeader,
		});
		expect(gateway().requests.map((request) => request.auth)).toEqual([auth]);
		expect(result.results[0].value).toBe(accepted ? SESSION : '');
	});

	it(`the trigger's registration is ${accepted ? 'accepted' : 'refused'}`, async () => {
		const harness = await startTriggerHarness({
			gateway: gateway(),
			parameters: { session: SESSION, events: ['MESSAGES_UPSERT'] },
			keyHeader,
		});
		try {
			if (accepted) await harness.activate();
			else await expect(harness.activate()).rejects.toThrow(/401/);
			expect(gateway().requests.length).toBeGreaterThan(0);
			expect(gateway().requests.every((request) => request.auth === auth)).toBe(true);
		} finally {
			await harness.stop();
		}
	});

	it(`the credential test says ${accepted ? 'OK' : 'the key was rejected'}`, async () => {
		const result = await runCredentialTest(new MessagingGatewayApi(), {
			baseUrl: gateway().url,
			apiKey: gateway().apiKey,
			...(keyHeader ? { keyHeader } : {}),
		});
		expect(result.status).toBe(accepted ? 'OK' : 'Error');
		if (!accepted)
			expect(result.message).toMatch(
				/^The gateway refused the key \(401\)\. Check, in this order: 1\. Gateway/,
			);
		// n8n's credential tester may try a refused request again; every try carries the key the same way.
		expect(new Set(gateway().requests.map((request) => request.auth))).toEqual(new Set([auth]));
	});
});

describe('the API Key Header field', () => {
	it('offers apikey (the default) and X-Api-Key for WAHA', () => {
		const field = new MessagingGatewayApi().properties.find(
			(property) => property.name === 'keyHeader',
		);
		expect(field?.default).toBe('apikey');
		expect(field?.options?.map((option) => ('value' in option ? option.value : undefined))).toEqual(
			['apikey', 'X-Api-Key'],
		);
	});
});
