/**
 * One trigger for several sessions (Sessions to Watch: Several Sessions, All Sessions), on each
 * gateway the simulator plays: activation registers on every session (All Sessions: every one the
 * gateway lists then), each session's messages run saying which session they came from, a delivery
 * proves it came through its own session's registration, deactivation puts every session's
 * previous webhook back, and a session that cannot take the webhook fails the activation with
 * nothing left registered.
 */
import axios from 'axios';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator, SimulatorOptions } from '../simulator/index.cts';
import { startTriggerHarness } from '../support/trigger-harness.cts';
import type { TriggerHarness, TriggerHarnessOptions } from '../support/trigger-harness.cts';
import { freshTrigger } from './trigger-testbed.cts';

const SALES = SEED.instances.connected.name;
const SUPPORT = SEED.instances.pairing.name;
const ALICE = SEED.contacts.alice;
const FOREIGN_URL = 'https://crm.example.com/hooks';
const FIRST_ID = '11111111-0000-4000-8000-000000000001';
const SECOND_ID = '22222222-0000-4000-8000-000000000002';

interface Gateway {
	name: string;
	played: SimulatorOptions;
	credentialGateway: TriggerHarnessOptions['credentialGateway'];
	/** Sets another tool's webhook on the session, as that tool would. */
	setForeignWebhook(simulator: Simulator, session: string): Promise<void>;
	/** The URLs the session delivers to now. */
	webhookUrls(simulator: Simulator, session: string): string[];
	/** The session a delivery's body names. */
	sessionField: 'instance' | 'session';
	/** Whether one session holds a single webhook (another trigger's is not taken over). */
	oneWebhookPerSession: boolean;
}

function evolutionWebhookUrls(simulator: Simulator, session: string): string[] {
	const webhook = simulator.getWebhook(session);
	return webhook?.enabled ? [webhook.url] : [];
}

async function postWebhook(simulator: Simulator, session: string, body: object): Promise<void> {
	const response = await axios.post(`${simulator.url}/webhook/set/${session}`, body, {
		headers: { apikey: simulator.apiKey },
	});
	expect(response.status).toBeLessThan(300);
}

const GATEWAYS: Gateway[] = [
	{
		name: 'the Messaging Gateway API',
		played: {},
		credentialGateway: undefined,
		setForeignWebhook: (simulator, session) =>
			postWebhook(simulator, session, { url: FOREIGN_URL, events: ['MESSAGES_UPSERT'] }),
		webhookUrls: evolutionWebhookUrls,
		sessionField: 'instance',
		oneWebhookPerSession: true,
	},
	{
		name: 'Evolution API v2',
		played: { gateway: 'evolution-v2' },
		credentialGateway: 'evolutionV2',
		setForeignWebhook: (simulator, session) =>
			postWebhook(simulator, session, {
				webhook: { enabled: true, url: FOREIGN_URL, events: ['MESSAGES_UPSERT'] },
			}),
		webhookUrls: evolutionWebhookUrls,
		sessionField: 'instance',
		oneWebhookPerSession: true,
	},
	{
		name: 'WAHA',
		played: { gateway: 'waha' },
		credentialGateway: 'waha',
		async setForeignWebhook(simulator, session) {
			// WAHA writes the whole config: the session's other settings (its store) go along.
			const headers = { 'X-Api-Key': simulator.apiKey };
			const url = `${simulator.url}/api/sessions/${session}`;
			const { config } = (await axios.get(url, { headers })).data as { config?: object };
			const webhooks = [{ url: FOREIGN_URL, events: ['message'] }];
			const response = await axios.put(url, { config: { ...config, webhooks } }, { headers });
			expect(response.status).toBeLessThan(300);
		},
		webhookUrls: (simulator, session) => simulator.getWebhooks(session).map(({ url }) => url),
		sessionField: 'session',
		oneWebhookPerSession: false,
	},
];

describe.each(GATEWAYS)('one trigger for several sessions of $name', (gateway) => {
	let simulator: Simulator;
	const started: TriggerHarness[] = [];
	beforeAll(async () => {
		simulator = await startSimulator(gateway.played);
	});
	afterAll(async () => {
		await simulator.stop();
	});
	beforeEach(() => {
		simulator.reset();
		// The second seeded session is still pairing: connected, it receives messages too.
		simulator.setInstanceState(SUPPORT, 'open');
	});
	afterEach(async () => {
		await Promise.all(started.splice(0).map(async (trigger) => await trigger.stop()));
	});

	async function trigger(parameters: Record<string, unknown>, webhookId = FIRST_ID) {
		const harness = await startTriggerHarness({
			gateway: simulator,
			parameters: { events: ['MESSAGES_UPSERT'], ...parameters } as never,
			credentialGateway: gateway.credentialGateway,
			webhookId,
			typeVersion: 3,
		});
		started.push(harness);
		return harness;
	}

	/** Whether the session delivers to this trigger (its n8n URL, with or without a token). */
	const deliversTo = (harness: TriggerHarness, session: string) =>
		gateway.webhookUrls(simulator, session).some((url) => url.startsWith(harness.webhookUrl));

	const watching = [
		['Several Sessions', { sessionScope: 'several', sessions: [SALES, SUPPORT] }],
		[
			'Several Sessions from an expression',
			{ sessionScope: 'several', sessions: `${SUPPORT}, ${SALES}` },
		],
		['All Sessions', { sessionScope: 'all' }],
	] as const;

	it.each(watching)(
		"%s: each session's messages run, naming it; deactivation puts each session's webhook back",
		async (_name, parameters) => {
			await gateway.setForeignWebhook(simulator, SUPPORT);
			const harness = await trigger(parameters);
			await harness.activate();

			expect([deliversTo(harness, SALES), deliversTo(harness, SUPPORT)]).toEqual([true, true]);
			const staticData = harness.staticData() as { registration?: unknown; sessions?: unknown[] };
			expect(staticData.registration).toBeUndefined();
			expect(staticData.sessions).toEqual(
				expect.arrayContaining(
					[SALES, SUPPORT].map((session) => expect.objectContaining({ session })),
				),
			);

			await simulator.injectInboundMessage({ instance: SALES, from: ALICE.number, text: 'sales?' });
			await simulator.injectInboundMessage({
				instance: SUPPORT,
				from: ALICE.number,
				text: 'help!',
			});
			await harness.waitForDeliveries(2);

			expect(harness.deliveries.map(({ status }) => status)).toEqual([200, 200]);
			const items = harness.executions().map((items) => items.map(({ json }) => json));
			expect(items.map(([item]) => [item.session, item.text]).sort()).toEqual(
				[
					[SALES, 'sales?'],
					[SUPPORT, 'help!'],
				].sort(),
			);

			await harness.delete();

			expect(gateway.webhookUrls(simulator, SALES)).toEqual([]);
			expect(gateway.webhookUrls(simulator, SUPPORT)).toEqual([FOREIGN_URL]);
			expect(harness.staticData().sessions).toBeUndefined();
		},
	);

	// A group message reaches every member number with the sender's one message ID.
	it('a message ID that two watched sessions receive runs once for each session', async () => {
		const harness = await trigger({ sessionScope: 'several', sessions: [SALES, SUPPORT] });
		await harness.activate();
		for (const instance of [SALES, SUPPORT]) {
			await simulator.injectInboundMessage({
				instance,
				from: ALICE.number,
				id: '3EB0C0FFEE000000000A',
				text: 'Who can help?',
			});
		}
		await harness.waitForDeliveries(2);

		expect(harness.deliveries.map(({ status }) => status)).toEqual([200, 200]);
		expect(harness.executions().map(([item]) => item.json.session)).toEqual([SALES, SUPPORT]);
	});

	it("a delivery through one session's registration that names another session runs nothing", async () => {
		const harness = await trigger({ sessionScope: 'several', sessions: [SALES, SUPPORT] });
		await harness.activate();
		await simulator.injectInboundMessage({ instance: SALES, from: ALICE.number, text: 'sales?' });
		await harness.waitForDeliveries(1);

		const [received] = harness.received;
		const body = JSON.parse(received.rawBody.toString()) as Record<string, unknown>;
		const forged = Buffer.from(JSON.stringify({ ...body, [gateway.sessionField]: SUPPORT }));
		const headers = { ...received.headers, 'content-length': String(forged.length) };
		const answer = await harness.redeliver({ ...received, headers, rawBody: forged });

		// WAHA's signature no longer matches the body; a token names its own session's registration.
		expect(answer).toEqual(
			gateway.sessionField === 'session'
				? { status: 401, body: { message: 'Unknown or missing signature' } }
				: { status: 200, body: { received: true, ignored: 'other session' } },
		);
		expect(harness.executions()).toHaveLength(1);
	});

	it("after n8n was away, each session's first delivery carries that session's missed messages, and only those", async () => {
		const harness = await trigger({ sessionScope: 'several', sessions: [SALES, SUPPORT] });
		await harness.activate();
		// Activated hours ago: the missed messages are in its past (a catch-up reads none from before).
		harness.editStaticData((nodeData) => {
			for (const watched of nodeData.sessions as Array<{ activatedAt?: number }>) {
				watched.activatedAt = Math.floor(Date.now() / 1000) - 4 * 3600;
			}
		});
		// The gap outlasts the gateway's tries: its retries come after the test.
		simulator.setDeliveryClock({ scale: 1_000_000 });
		const write = async (instance: string, text: string, secondsAgo = 0) => {
			const before = harness.deliveries.length;
			await simulator.injectInboundMessage({
				instance,
				from: ALICE.number,
				text,
				timestamp: Math.floor(Date.now() / 1000) - secondsAgo,
			});
			await harness.waitForDeliveries(before + 1);
		};

		harness.failNextExecutionStores(2);
		await write(SALES, 'missed in sales', 40);
		await write(SUPPORT, 'missed in support', 30);
		harness.restart(await freshTrigger(), 'init');
		await harness.activate();

		await write(SALES, 'sales again');
		await write(SUPPORT, 'support again');

		const runs = harness
			.executions()
			.map((items) =>
				items.map(
					({ json }) => `${json.session}: ${json.caughtUp === true ? '↺ ' : ''}${json.text}`,
				),
			);
		expect(runs).toEqual([
			[`${SALES}: ↺ missed in sales`, `${SALES}: sales again`],
			[`${SUPPORT}: ↺ missed in support`, `${SUPPORT}: support again`],
		]);
	});

	it('from One Session to Several Sessions and back: nothing of the earlier choice stays registered', async () => {
		const harness = await trigger({ session: SALES });
		await harness.activate();
		expect((harness.staticData().registration as { session: string }).session).toBe(SALES);

		harness.setParameters({
			events: ['MESSAGES_UPSERT'],
			sessionScope: 'several',
			sessions: [SUPPORT],
		} as never);
		await harness.activate();
		expect([deliversTo(harness, SALES), deliversTo(harness, SUPPORT)]).toEqual([false, true]);
		expect(harness.staticData().registration).toBeUndefined();

		harness.setParameters({ events: ['MESSAGES_UPSERT'], session: SALES } as never);
		await harness.activate();
		expect([deliversTo(harness, SALES), deliversTo(harness, SUPPORT)]).toEqual([true, false]);
		expect(harness.staticData().sessions).toBeUndefined();
	});

	if (gateway.oneWebhookPerSession) {
		it('a session another trigger holds fails the activation by name, and nothing stays registered', async () => {
			await gateway.setForeignWebhook(simulator, SALES);
			const first = await trigger({ session: SUPPORT }, FIRST_ID);
			await first.activate();
			const held = gateway.webhookUrls(simulator, SUPPORT);

			const second = await trigger({ sessionScope: 'all' }, SECOND_ID);
			await expect(second.activate()).rejects.toThrow(
				`Session "${SUPPORT}" already delivers to another Messaging Gateway Trigger`,
			);

			// The session registered before the failing one has its own webhook back.
			expect(gateway.webhookUrls(simulator, SALES)).toEqual([FOREIGN_URL]);
			expect(gateway.webhookUrls(simulator, SUPPORT)).toEqual(held);
			expect(second.staticData().sessions).toBeUndefined();
		});
	}
});

describe("sessions named as an object's own properties", () => {
	const HOSTILE = ['__proto__', 'constructor', 'toString'];
	let simulator: Simulator;
	let harness: TriggerHarness | undefined;
	beforeAll(async () => {
		simulator = await startSimulator({ gateway: 'waha' });
	});
	afterAll(async () => {
		await harness?.stop();
		await simulator.stop();
	});

	it('each is a session like any other, and nothing lands on every object', async () => {
		for (const name of HOSTILE) {
			const created = await axios.post(
				`${simulator.url}/api/sessions`,
				{ name, start: false },
				{ headers: { 'X-Api-Key': simulator.apiKey } },
			);
			expect(created.status).toBe(201);
			simulator.setInstanceState(name, 'open');
		}
		harness = await startTriggerHarness({
			gateway: simulator,
			parameters: {
				events: ['MESSAGES_UPSERT'],
				sessionScope: 'several',
				sessions: [SALES, ...HOSTILE],
				// The new sessions keep no messages: no catch-up.
				options: { catchUpHours: 0 },
			} as never,
			credentialGateway: 'waha',
			typeVersion: 3,
		});
		await harness.activate();

		expect(({} as Record<string, unknown>).registration).toBeUndefined();
		const watched = (harness.staticData().sessions as Array<{ session: string }>).map(
			({ session }) => session,
		);
		expect(watched).toEqual([SALES, ...HOSTILE]);
		for (const name of HOSTILE) {
			expect(simulator.getWebhooks(name).map(({ url }) => url)).toEqual([harness.webhookUrl]);
		}

		await simulator.injectInboundMessage({ instance: '__proto__', from: ALICE.number, text: 'hi' });
		await harness.waitForDeliveries(1);
		expect(harness.executions().map(([item]) => item.json.session)).toEqual(['__proto__']);

		await harness.delete();
		expect(HOSTILE.map((name) => simulator.getWebhooks(name))).toEqual(HOSTILE.map(() => []));
		expect(harness.staticData().sessions).toBeUndefined();
	});
});
