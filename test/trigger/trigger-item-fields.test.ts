/**
 * docs/trigger.md lists exactly what a message item carries: the fields of the trigger's items on
 * every gateway, from the simulator's real deliveries, are the table's, in its order; `time` is
 * `timestamp` as an ISO time, and `eventName` the form's name for `event`.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator, SimulatorOptions } from '../simulator/index.cts';
import { readReadmeSection } from '../support/readme-section.cts';
import { runGateway } from '../support/gateway-node.cts';
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

/** The credential's Gateway each simulated gateway is spoken to with. */
const GATEWAY_CHOICE = {
	'Messaging Gateway API': undefined,
	'Evolution API v2': 'evolutionV2',
	WAHA: 'waha',
} as const;

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
		await trigger.stop();
		trigger = undefined;
	});

	it("tells the account's own messages a person typed from those sent through the API (ownMessageFrom)", async () => {
		trigger = await startTriggerHarness({
			gateway: simulator,
			parameters: {
				session: SESSION,
				events: ['MESSAGES_UPSERT', 'SEND_MESSAGE'],
				filters: { ignoreOwnMessages: false },
			} as never,
			...credential,
		});
		await trigger.activate();
		await simulator.injectInboundMessage({
			from: SEED.contacts.alice.number,
			fromMe: true,
			text: 'Typed on the phone',
		});
		const sent = await runGateway(
			simulator,
			{
				resource: 'message',
				operation: 'sendText',
				session: SESSION,
				chatId: SEED.contacts.alice.number,
				text: 'Sent through the API',
			},
			{ gateway: GATEWAY_CHOICE[_name as keyof typeof GATEWAY_CHOICE] },
		);
		expect(sent.error?.message).toBeUndefined();
		await simulator.injectInboundMessage({ from: SEED.contacts.alice.number, text: 'From Alice' });
		// The Messaging Gateway API posts an API send twice (MESSAGES_UPSERT and SEND_MESSAGE).
		const items = () =>
			trigger!
				.executions()
				.flatMap((execution) => execution.map((item) => item.json as IDataObject));
		for (let wait = 0; wait < 100 && !items().some((item) => item.text === 'From Alice'); wait++)
			await sleep(50);
		const seen = new Map(items().map((item) => [item.text, item.ownMessageFrom]));
		expect(Object.fromEntries(seen)).toEqual({
			'Typed on the phone': 'person',
			'Sent through the API': 'api',
			'From Alice': null,
		});
	});
});
