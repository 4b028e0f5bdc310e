/**
 * A scripted gateway the node speaks Evolution API v2 to (the credential's Gateway set to v2): the
 * exact requests it received, and what 2.3.6's own validation says of each. For suites that check
 * v2 bodies to the letter; the v2 simulator (test/simulator/testing.cts) answers as 2.3.6 does.
 */
import type { INodeParameters } from 'n8n-workflow';

import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import type { Verdict } from '../compatibility/verdicts.cts';
import { runGateway } from './gateway-node.cts';
import type { RunGatewayOptions } from './gateway-node.cts';
import type { RunNodeResult } from './n8n-harness.cts';
import { useScriptedServer } from './scripted-server.cts';
import type { ScriptedServer } from './scripted-server.cts';

/** The gateway's global key (a test value). */
export const EVOLUTION_V2_KEY = ['evolution', 'v2', 'global'].join('-');

/** What 2.3.6 answers a send to `remoteJid` (its Baileys service: the sent message as stored). */
export function v2SentAnswer(remoteJid: string) {
	return {
		key: { remoteJid, fromMe: true, id: '3EB0A1B2C3D4E5F60718' },
		pushName: '',
		status: 'PENDING',
		message: { conversation: 'Hello' },
		messageType: 'conversation',
		messageTimestamp: 1764000000,
		instanceId: 'c2b8a7e0-0000-4000-8000-000000000001',
		source: 'unknown',
	};
}

export interface ScriptedEvolutionV2 {
	/** The server (started in beforeAll, its log cleared before each test). */
	readonly server: ScriptedServer;
	/** Runs the node with `session` filled in (a `session` in `parameters` wins). */
	run(parameters: INodeParameters, options?: RunGatewayOptions): Promise<RunNodeResult>;
	/** Each request received: method, path with query, and its JSON body. */
	sent(): Array<{ method: string; url: string; body: unknown }>;
	/** What 2.3.6's own validation says of each request received. */
	verdicts(): Verdict[];
}

export function useScriptedEvolutionV2(session: string): ScriptedEvolutionV2 {
	const started = useScriptedServer();
	const bodyOf = (text: string): unknown => JSON.parse(text || 'null') ?? undefined;
	return {
		get server() {
			return started();
		},
		run: async (parameters, options = {}) =>
			await runGateway(
				{ url: started().url, apiKey: EVOLUTION_V2_KEY },
				{ session, ...parameters },
				{ gateway: 'evolutionV2', ...options },
			),
		sent: () =>
			started().requests.map((request) => ({
				method: request.method,
				url: request.url,
				body: bodyOf(request.body),
			})),
		verdicts: () =>
			started().requests.map((request) => {
				const url = new URL(request.url, 'http://gateway');
				return checkEvolutionV2({
					method: request.method,
					path: url.pathname,
					query: Object.fromEntries(url.searchParams),
					body: bodyOf(request.body),
				});
			}),
	};
}
