/**
 * docs/trigger.md lists exactly what a message item carries: the fields of the trigger's items on
 * every gateway, from the simulator's real deliveries, are the table's, in its order; `time` is
 * `timestamp` as an ISO time, and `eventName` the form's name for `event`.
 */
import type { IDataObject } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator, SimulatorOptions } from '../simulator/index.cts';
import { readReadmeSection } from '../support/readme-section.cts';
import { startTriggerHarness } from '../support/trigger-harness.cts';
import type { TriggerHarness, TriggerHarnessOptions } from '../support/trigger-harness.cts';

const SESSION = SEED.instances.connected.name;

/** The field names of the table between the markers in docs/trigger.md, in its order. */
function documentedFields(): string[] {
	const table = readReadmeSection('trigger-item-fields') ?? '';
	return [...table.matchAll(/^\| `([A-Za-z]+)` \|/gm)].map((match) => match[1]);
}

const GATEWAYS: Array<
	[string, SimulatorOptions, Pick<TriggerHarnessOptions, 'credentialGateway' | 'keyHeader'>]
> = [
	['Messaging Gateway API', {}, {}],
	['Evolution API v2', { gateway: 'evolution-v2' }, { credentialGateway: 'evolutionV2' }],
	['WAHA', { gateway: 'waha' }, { credentialGateway: 'waha', keyHeader: 'X-Api-Key' }],
];

describe.each(GATEWAYS)('a message item on %s', (_name, played, credential) => {
	let simulator: Simulator;
	let trigger: TriggerHarness | undefined;
	beforeAll(async () => {
		simulator = await startSimulator(played);
	});
	afterAll(async () => {
		await trigger?.stop();
		await simulator.stop();
	});

	it('carries the fields docs/trigger.md lists, in its order', async () => {
		trigger = await startTriggerHarness({
			gateway: simulator,
			parameters: { session: SESSION, events: ['MESSAGES_UPSERT'] } as never,
			...credential,
		});
		await trigger.activate();
		await simulator.injectInboundMessage({
			from: SEED.contacts.alice.number,
			text: 'Is my order ready?',
			timestamp: 1_796_117_400,
		});
		await trigger.waitForDeliveries(1);
		const [execution] = trigger.executions();
		const item = execution[0].json as IDataObject;

		expect(Object.keys(item)).toEqual(documentedFields());
		expect(item).toMatchObject({
			event: 'MESSAGES_UPSERT',
			eventName: 'Message Received',
			text: 'Is my order ready?',
			time: new Date(Number(item.timestamp) * 1000).toISOString(),
		});
		expect(Number(item.timestamp)).toBe(1_796_117_400);
	});
});
