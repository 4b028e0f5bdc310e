/**
 * A scripted gateway the node speaks WAHA to (the credential's Gateway set to WAHA): the exact
 * requests it received, the header each carried its key in, and what WAHA's published OpenAPI
 * (2026.7.1) says of each. For suites that check WAHA bodies to the letter.
 */
import type { INodeParameters } from 'n8n-workflow';

import { checkWaha } from '../compatibility/waha.cts';
import type { Verdict } from '../compatibility/verdicts.cts';
import { runGateway } from './gateway-node.cts';
import type { RunGatewayOptions } from './gateway-node.cts';
import type { RunNodeResult } from './n8n-harness.cts';
import { useScriptedServer } from './scripted-server.cts';
import type { ScriptedServer } from './scripted-server.cts';

/** WAHA's key (WAHA_API_KEY; a test value). */
export const WAHA_KEY = ['waha', 'scripted', 'key'].join('-');

/** The request as WAHA's OpenAPI is judged on: method, path, query and JSON body. */
export function wahaRequestOf(request: { method: string; url: string; body: string }) {
	const url = new URL(request.url, 'http://gateway');
	return {
		method: request.method,
		path: url.pathname,
		query: Object.fromEntries(url.searchParams),
		body: JSON.parse(request.body || 'null') ?? undefined,
	};
}

export interface ScriptedWaha {
	/** The server (started in beforeAll, its log cleared before each test). */
	readonly server: ScriptedServer;
	/** Runs the node with `session` filled in (a `session` in `parameters` wins). */
	run(parameters: INodeParameters, options?: RunGatewayOptions): Promise<RunNodeResult>;
	/** Each request received: method, path with query, and its JSON body. */
	sent(): Array<{ method: string; url: string; body: unknown }>;
	/** Where each request carried WAHA's key: `X-Api-Key`, `apikey` (wrong for WAHA) or nowhere. */
	keyHeaders(): Array<'X-Api-Key' | 'apikey' | 'none'>;
	/** What WAHA's OpenAPI says of each request received. */
	verdicts(): Verdict[];
}

export function useScriptedWaha(session: string): ScriptedWaha {
	const started = useScriptedServer();
	return {
		get server() {
			return started();
		},
		run: async (parameters, options = {}) =>
			await runGateway(
				{ url: started().url, apiKey: WAHA_KEY },
				{ session, ...parameters },
				{ gateway: 'waha', ...options },
			),
		sent: () =>
			started().requests.map((request) => ({
				method: request.method,
				url: request.url,
				body: JSON.parse(request.body || 'null') ?? undefined,
			})),
		keyHeaders: () =>
			started().requests.map((request) =>
				request.headers['x-api-key'] === WAHA_KEY
					? 'X-Api-Key'
					: request.headers.apikey === WAHA_KEY
						? 'apikey'
						: 'none',
			),
		verdicts: () => started().requests.map((request) => checkWaha(wahaRequestOf(request))),
	};
}
