/**
 * The trigger answers everyone: a message from a person WhatsApp addresses by LID starts the
 * workflow with `chatId` (what a reply reaches), `phone` and `lid` (and `senderPhone`,
 * `senderLid`), on every gateway and version the simulator plays, the way each delivers it; with
 * Look Up Phone Numbers, a number the delivery lacked is asked of the gateway once, where the
 * gateway can say it. End to end: the simulator posts its real deliveries to the trigger.
 */
import type { IDataObject } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator, SimulatorOptions } from '../simulator/index.cts';
import { startTriggerHarness } from '../support/trigger-harness.cts';
import type { TriggerHarness, TriggerHarnessOptions } from '../support/trigger-harness.cts';
import { forgetPhoneLookups } from '../../nodes/MessagingGatewayTrigger/phone-lookups';

const SESSION = SEED.instances.connected.name;
const { dora, eli } = SEED.lidPeople;
const DORA_PHONE_CHAT = `${dora.number}@c.us`;

interface Played {
	simulator: SimulatorOptions;
	credential: Pick<TriggerHarnessOptions, 'credentialGateway' | 'keyHeader'>;
}

const PLAYED: Record<string, Played> = {
	'Messaging Gateway API': { simulator: {}, credential: {} },
	'Evolution API 2.3.0': {
		simulator: { gateway: 'evolution-v2', evolutionVersion: '2.3.0' },
		credential: { credentialGateway: 'evolutionV2' },
	},
	'Evolution API 2.3.6': {
		simulator: { gateway: 'evolution-v2', evolutionVersion: '2.3.6' },
		credential: { credentialGateway: 'evolutionV2' },
	},
	'Evolution API 2.3.7': {
		simulator: { gateway: 'evolution-v2', evolutionVersion: '2.3.7' },
		credential: { credentialGateway: 'evolutionV2' },
	},
	'Evolution API 2.4.0': {
		simulator: { gateway: 'evolution-v2', evolutionVersion: '2.4.0' },
		credential: { credentialGateway: 'evolutionV2' },
	},
	'WAHA NOWEB': {
		simulator: { gateway: 'waha', wahaEngine: 'NOWEB' },
		credential: { credentialGateway: 'waha', keyHeader: 'X-Api-Key' },
	},
	'WAHA GOWS': {
		simulator: { gateway: 'waha', wahaEngine: 'GOWS' },
		credential: { credentialGateway: 'waha', keyHeader: 'X-Api-Key' },
	},
	'WAHA WEBJS': {
		simulator: { gateway: 'waha', wahaEngine: 'WEBJS' },
		credential: { credentialGateway: 'waha', keyHeader: 'X-Api-Key' },
	},
};

const simulators = new Map<string, Simulator>();
let trigger: TriggerHarness | undefined;

beforeAll(async () => {
	for (const [name, played] of Object.entries(PLAYED)) {
		simulators.set(name, await startSimulator(played.simulator));
	}
});
afterAll(async () => {
	await Promise.all([...simulators.values()].map((simulator) => simulator.stop()));
});
beforeEach(() => {
	forgetPhoneLookups();
	for (const simulator of simulators.values()) simulator.reset();
});
afterEach(async () => {
	await trigger?.stop();
	trigger = undefined;
});

/** Starts the trigger on `played`, injects one message and returns its item's people fields. */
async function receive(
	played: string,
	inbound: { from: string; groupId?: string },
	options: IDataObject = {},
): Promise<{ item: IDataObject; simulator: Simulator }> {
	const simulator = simulators.get(played) as Simulator;
	trigger = await startTriggerHarness({
		gateway: simulator,
		parameters: { session: SESSION, events: ['MESSAGES_UPSERT'], options } as never,
		...PLAYED[played].credential,
	});
	await trigger.activate();
	simulator.clearLogs();
	await simulator.injectInboundMessage({ ...inbound, text: 'Is my order ready?' });
	await trigger.waitForDeliveries(1);
	const [execution] = trigger.executions();
	expect(execution).toHaveLength(1);
	const { chatId, phone, lid, sender, senderPhone, senderLid } = execution[0].json;
	return { item: { chatId, phone, lid, sender, senderPhone, senderLid }, simulator };
}

const person = (chatId: string, phone: string | null, lid: string | null) => ({
	chatId,
	phone,
	lid,
	sender: chatId,
	senderPhone: phone,
	senderLid: lid,
});

describe('a direct message from Dora, whose number the gateway knows', () => {
	it.each<[string, IDataObject]>([
		['Messaging Gateway API', person(dora.lid, dora.number, dora.lid)],
		['Evolution API 2.3.0', person(dora.lid, dora.number, dora.lid)],
		['Evolution API 2.3.6', person(dora.lid, dora.number, dora.lid)],
		// 2.3.7 writes the phone number over the LID: it is gone from the delivery.
		['Evolution API 2.3.7', person(DORA_PHONE_CHAT, dora.number, null)],
		['Evolution API 2.4.0', person(DORA_PHONE_CHAT, dora.number, dora.lid)],
		['WAHA NOWEB', person(dora.lid, dora.number, dora.lid)],
		['WAHA GOWS', person(dora.lid, dora.number, dora.lid)],
		// WEBJS delivers no number at all.
		['WAHA WEBJS', person(dora.lid, null, dora.lid)],
	])('%s', async (played, expected) => {
		const { item } = await receive(played, { from: dora.lid });

		expect(item).toEqual(expected);
	});
});

const HIKERS = SEED.groups.hikers.id;
const member = (phone: string | null) => ({
	chatId: HIKERS,
	phone: null,
	lid: null,
	sender: dora.lid,
	senderPhone: phone,
	senderLid: dora.lid,
});

describe('a group message from Dora, a member by LID', () => {
	it.each<[string, IDataObject]>([
		['Messaging Gateway API', member(dora.number)],
		// 2.3.0 gives a LID member's number nowhere.
		['Evolution API 2.3.0', member(null)],
		['Evolution API 2.3.6', member(dora.number)],
		['Evolution API 2.3.7', member(dora.number)],
		['Evolution API 2.4.0', member(dora.number)],
		['WAHA NOWEB', member(dora.number)],
		['WAHA GOWS', member(dora.number)],
		['WAHA WEBJS', member(null)],
	])('%s', async (played, expected) => {
		const { item } = await receive(played, { from: dora.lid, groupId: HIKERS });

		expect(item).toEqual(expected);
	});
});

describe('Look Up Phone Numbers, where only the LID came', () => {
	it('WAHA WEBJS: asks its LID map once, and the item has her number', async () => {
		const { item, simulator } = await receive(
			'WAHA WEBJS',
			{ from: dora.lid },
			{ lookUpPhoneNumbers: true },
		);

		expect(item).toEqual(person(dora.lid, dora.number, dora.lid));
		expect(
			simulator.requests
				.filter((request) => request.path.includes('/lids/'))
				.map((request) => decodeURIComponent(request.path)),
		).toEqual([`/api/${SESSION}/lids/${dora.lid}`]);
	});

	it('a number the gateway does not know stays null, and the workflow still starts', async () => {
		const { item } = await receive('WAHA NOWEB', { from: eli.lid }, { lookUpPhoneNumbers: true });

		expect(item).toEqual(person(eli.lid, null, eli.lid));
	});

	it('off by default: nothing is asked', async () => {
		const { item, simulator } = await receive('WAHA WEBJS', { from: dora.lid });

		expect(item.phone).toBeNull();
		expect(simulator.requests.filter((request) => request.path.includes('/lids/'))).toEqual([]);
	});

	it('the Messaging Gateway API has no lookup: nothing is asked', async () => {
		const { item, simulator } = await receive(
			'Messaging Gateway API',
			{ from: eli.lid },
			{ lookUpPhoneNumbers: true },
		);

		expect(item).toEqual(person(eli.lid, null, eli.lid));
		expect(simulator.requests).toEqual([]);
	});
});
