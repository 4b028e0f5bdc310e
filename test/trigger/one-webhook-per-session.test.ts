/**
 * Evolution API (and the Messaging Gateway API) keep one webhook per session: a second trigger on
 * a session another Messaging Gateway Trigger holds must not silently take its place. Its activation
 * fails naming the URL that holds it (never its token); "Listen for test event" may borrow the
 * webhook and puts it back; once the first trigger stops, the second activates.
 */
import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator, SimulatorOptions } from '../simulator/index.cts';
import { startTriggerHarness } from '../support/trigger-harness.cts';
import type { TriggerHarness, TriggerHarnessOptions } from '../support/trigger-harness.cts';

const SESSION = SEED.instances.connected.name;
const FIRST_ID = '11111111-0000-4000-8000-000000000001';
const SECOND_ID = '22222222-0000-4000-8000-000000000002';

const GATEWAYS: Array<[string, SimulatorOptions, TriggerHarnessOptions['credentialGateway']]> = [
	['the Messaging Gateway API (token in the URL)', {}, undefined],
	['Evolution API v2 (token in a header)', { gateway: 'evolution-v2' }, 'evolutionV2'],
];

describe.each(GATEWAYS)('two triggers on one session of %s', (_name, played, credentialGateway) => {
	let simulator: Simulator;
	const started: TriggerHarness[] = [];
	beforeAll(async () => {
		simulator = await startSimulator(played);
	});
	afterAll(async () => {
		await simulator.stop();
	});
	beforeEach(() => simulator.reset());
	afterEach(async () => {
		await Promise.all(started.splice(0).map(async (trigger) => await trigger.stop()));
	});

	async function trigger(webhookId: string, mode: 'trigger' | 'manual' = 'trigger') {
		const harness = await startTriggerHarness({
			gateway: simulator,
			parameters: { session: SESSION, events: ['MESSAGES_UPSERT'] } as never,
			credentialGateway,
			webhookId,
			mode,
		});
		started.push(harness);
		return harness;
	}

	const registeredUrl = () => simulator.getWebhook(SESSION)?.url;
	const tokenOf = (harness: TriggerHarness) =>
		(harness.staticData().registration as { token: string }).token;

	it('the second activation fails naming the first trigger, and the first keeps the webhook', async () => {
		const first = await trigger(FIRST_ID);
		await first.activate();
		const held = registeredUrl();

		const second = await trigger(SECOND_ID);
		const refusal = await second.activate().catch((error: Error) => error);
		expect(refusal).toBeInstanceOf(Error);
		const message = (refusal as Error).message;
		expect(message).toContain(
			`Session "${SESSION}" already delivers to another Messaging Gateway Trigger (${first.webhookUrl})`,
		);
		expect(message).not.toContain(tokenOf(first));
		expect(registeredUrl()).toBe(held);
		expect(second.staticData().registration).toBeUndefined();
	});

	it('once the first trigger stops, the second activates', async () => {
		const first = await trigger(FIRST_ID);
		await first.activate();
		await first.delete();

		const second = await trigger(SECOND_ID);
		await second.activate();
		expect(registeredUrl()).toContain(second.webhookUrl);
	});

	it('"Listen for test event" borrows the webhook, and the first trigger gets it back', async () => {
		const first = await trigger(FIRST_ID);
		await first.activate();
		const held = registeredUrl();

		const listening = await trigger(SECOND_ID, 'manual');
		await listening.activate();
		expect(registeredUrl()).toContain(listening.webhookUrl);
		await listening.delete();
		expect(registeredUrl()).toBe(held);
	});

	it('the same trigger activated again (n8n restarted, its record lost) is not "another"', async () => {
		const first = await trigger(FIRST_ID);
		await first.activate();
		const again = await trigger(FIRST_ID);
		await again.activate();
		expect(registeredUrl()).toContain(again.webhookUrl);
	});
});
