/**
 * The pickers of a Gateway choice against the simulator playing it: a list search, the check that
 * every request the simulator received passed the gateway's own validation with the key, and
 * "pick a value, then run an operation with it".
 */
import type { INodeParameters } from 'n8n-workflow';

import type { SentRequest, Verdict } from '../compatibility/verdicts.cts';
import type { Simulator } from '../simulator/index.cts';
import { outputJson, runGateway } from './gateway-node.cts';
import { runListSearch } from './load-options.cts';
import type { ListSearchMethod, ListSearchOptions } from './load-options.cts';

export function gatewayPickers(
	simulator: Simulator,
	gateway: 'evolutionV2' | 'waha',
	session: string,
	judge: (request: SentRequest) => Verdict,
) {
	async function search(method: ListSearchMethod, options: Partial<ListSearchOptions> = {}) {
		return await runListSearch(simulator, method, {
			...options,
			parameters: options.parameters ?? { session },
			gateway,
		});
	}

	/** Every request the simulator received is the gateway's own (its validation accepts it) and had the key. */
	function expectAllAccepted(): void {
		expect(simulator.requests.length).toBeGreaterThan(0);
		expect(simulator.requests.map((request) => judge(request).outcome)).toEqual(
			simulator.requests.map(() => 'accepted'),
		);
		expect(simulator.requests.map((request) => request.auth)).toEqual(
			simulator.requests.map(() => 'valid'),
		);
	}

	/** Finds exactly one entry for `filter`, runs the operation `run` makes of its value, and returns both. */
	async function pickAndRun(
		method: ListSearchMethod,
		filter: string,
		run: (value: string) => INodeParameters,
	) {
		const { results } = await search(method, { filter });
		expect(results).toHaveLength(1);
		simulator.clearLogs();
		const result = await runGateway(
			simulator,
			{ session, ...run(String(results[0].value)) },
			{ gateway },
		);
		expect(result.error?.message).toBeUndefined();
		expectAllAccepted();
		return { value: String(results[0].value), output: outputJson(result) };
	}

	return { search, expectAllAccepted, pickAndRun };
}
