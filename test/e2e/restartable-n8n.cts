/**
 * Restarts for test/e2e/exactly-once.e2e.ts: an n8n stopped and started again on its own user
 * folder, database and port, and the gateways' retry clocks scaled so an outage outlasts them.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { GatewayKey, Lane } from './exactly-once.cts';
import { startN8n } from './n8n-instance.cts';
import type { N8nInstance, StopOptions } from './n8n-instance.cts';

/** An n8n process that can be stopped and started again on its user folder, database and port. */
export interface RestartableN8n {
	current(): N8nInstance;
	stop(options: StopOptions): Promise<void>;
	/** Starts n8n again as it was (the database is the caller's: PostgreSQL outlives it). */
	start(): Promise<N8nInstance>;
	/** Stops it for good and removes its user folder. */
	dispose(): Promise<void>;
}

export async function startRestartableN8n(env: NodeJS.ProcessEnv): Promise<RestartableN8n> {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-mg-restart-'));
	let n8n = await startN8n({ userFolder, env });
	const port = Number(new URL(n8n.url).port);
	let running = true;
	return {
		current: () => n8n,
		stop: async (options) => {
			running = false;
			await n8n.stop(options);
		},
		start: async () => {
			n8n = await startN8n({ userFolder, port, env, installPackage: false });
			running = true;
			return n8n;
		},
		dispose: async () => {
			if (running) await n8n.stop();
			// Kept on request, for its log (as startN8n keeps its own folders).
			if (!process.env.N8N_E2E_KEEP_USER_FOLDER)
				fs.rmSync(userFolder, { recursive: true, force: true });
		},
	};
}

/**
 * Retry paces that end within an outage of about a minute (the gateways' own, scaled): Evolution
 * API v2's ten tries within ~45 s, WAHA's tries for the trigger's 15 minutes within ~20 s.
 * Evolution API v1 does not retry.
 */
export const OUTAGE_CLOCK_SCALE: Record<GatewayKey, number> = {
	messagingGatewayApi: 1,
	evolutionV2: 0.03,
	waha: 0.02,
};

/** Sets each lane's simulators to `scale(lane)`; returns what puts the clocks back. */
export function scaleDeliveryClocks(lanes: Lane[], scale: (lane: Lane) => number): () => void {
	const restores: Array<() => void> = [];
	for (const lane of lanes) {
		for (const simulator of Object.values(lane.simulators)) {
			const before = simulator.getDeliveryClock().scale;
			simulator.setDeliveryClock({ scale: scale(lane) });
			restores.push(() => simulator.setDeliveryClock({ scale: before }));
		}
	}
	return () => {
		for (const restore of restores) restore();
	};
}
