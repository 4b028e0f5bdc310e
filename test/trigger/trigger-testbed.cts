/**
 * What every trigger test file sets up: one simulator for the file, reset before each test, and
 * the trigger a test started, stopped after it.
 */
import { startSimulator } from '../simulator/index.cts';
import type { Simulator, SimulatorOptions } from '../simulator/index.cts';
import { startTriggerHarness } from '../support/trigger-harness.cts';
import type { TriggerHarness, TriggerHarnessOptions } from '../support/trigger-harness.cts';
import type { MessagingGatewayTrigger } from '../../nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node';

/** The trigger's code loaded anew, as after an n8n restart: nothing kept in memory. */
export async function freshTrigger(): Promise<MessagingGatewayTrigger> {
	let fresh: MessagingGatewayTrigger | undefined;
	await jest.isolateModulesAsync(async () => {
		const loaded = await import('../../nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node');
		fresh = new loaded.MessagingGatewayTrigger();
	});
	return fresh!;
}

/** The secret token of the trigger's registration. */
export function tokenOf(harness: TriggerHarness): string {
	return (harness.staticData().registration as { token: string }).token;
}

/** The URL the gateway posts to: the n8n webhook URL with the token. */
export function registeredUrl(harness: TriggerHarness): string {
	return (harness.staticData().registration as { url: string }).url;
}

export interface TriggerTestbed {
	readonly simulator: Simulator;
	/** Starts the trigger on `session` for Message Received (MESSAGES_UPSERT), with `parameters` on top. */
	start(
		parameters?: Record<string, unknown>,
		mode?: TriggerHarnessOptions['mode'],
		typeVersion?: number,
	): Promise<TriggerHarness>;
}

/** The credential's Gateway for each gateway the simulator plays. */
const CREDENTIAL_GATEWAYS = {
	spec: undefined,
	'evolution-v2': 'evolutionV2',
	waha: 'waha',
} as const;

export function useTriggerTestbed(
	session: string,
	gateway: keyof typeof CREDENTIAL_GATEWAYS = 'spec',
): TriggerTestbed {
	let simulator: Simulator | undefined;
	let trigger: TriggerHarness | undefined;

	beforeAll(async () => {
		simulator = await startSimulator({ gateway } as SimulatorOptions);
	});
	afterAll(async () => {
		await simulator?.stop();
	});
	beforeEach(() => {
		simulator?.reset();
	});
	afterEach(async () => {
		await trigger?.stop();
		trigger = undefined;
	});

	return {
		get simulator() {
			if (!simulator) throw new Error('The simulator starts in beforeAll');
			return simulator;
		},
		async start(parameters = {}, mode, typeVersion) {
			trigger = await startTriggerHarness({
				gateway: this.simulator,
				parameters: { session, events: ['MESSAGES_UPSERT'], ...parameters } as never,
				mode,
				typeVersion,
				credentialGateway: CREDENTIAL_GATEWAYS[gateway],
			});
			return trigger;
		},
	};
}
