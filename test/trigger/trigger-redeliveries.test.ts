/**
 * A delivery that started an execution, delivered again (the gateway's retry after a timeout or an
 * error, the same event posted twice), is answered 200 and starts nothing: one after another, at
 * once, after n8n restarted; and a delivery n8n did not take (the execution could not be stored,
 * the item could not be built) runs when it comes again. On each gateway the credential offers,
 * against the simulator playing it, the redeliveries posted exactly as the gateway posted the first.
 */
import { SEED } from '../simulator/index.cts';
import { failProcessedChecks, processedChecks } from '../support/processed-data.cts';
import type { ReceivedRequest, TriggerHarness } from '../support/trigger-harness.cts';
import { freshTrigger, useTriggerTestbed } from './trigger-testbed.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;
const BRUNO = SEED.contacts.bruno;

const GATEWAYS = [{ gateway: 'spec' }, { gateway: 'evolution-v2' }, { gateway: 'waha' }] as const;

const DELIVERED_BEFORE = { status: 200, body: { received: true, ignored: 'delivered before' } };
/** An execution started (what it runs is its first step's to say). */
const STARTED = { status: 200, body: { received: true } };

describe.each(GATEWAYS)('redeliveries on $gateway', ({ gateway }) => {
	const testbed = useTriggerTestbed(SESSION, gateway);
	const simulator = () => testbed.simulator;

	async function start(): Promise<TriggerHarness> {
		const trigger = await testbed.start({}, undefined, 2);
		await trigger.activate();
		return trigger;
	}

	/** A message from `from`, as the gateway first delivered it. */
	async function firstDelivery(harness: TriggerHarness, text: string, from = ALICE.number) {
		const before = harness.received.length;
		await simulator().injectInboundMessage({ instance: SESSION, from, text });
		await harness.waitForDeliveries(before + 1);
		return harness.received[before];
	}

	const textsRun = (harness: TriggerHarness) =>
		harness.executions().map((items) => items[0].json.text);

	async function postedAgain(harness: TriggerHarness, request: ReceivedRequest, times: number) {
		const answers = [];
		for (let time = 0; time < times; time++) answers.push(await harness.redeliver(request));
		return answers;
	}

	it('posted again one after another: 200, and nothing runs again', async () => {
		const harness = await start();
		const request = await firstDelivery(harness, 'Is my order ready?');

		const answers = await postedAgain(harness, request, 3);

		expect(answers).toEqual(Array(3).fill(DELIVERED_BEFORE));
		expect(textsRun(harness)).toEqual(['Is my order ready?']);
	});

	it('posted again ten times at once after n8n failed to store it: it runs once', async () => {
		const harness = await start();
		harness.failNextExecutionStores(1);
		const request = await firstDelivery(harness, 'Hello?');
		expect(harness.deliveries[0].status).toBe(500);
		expect(textsRun(harness)).toEqual([]);
		const release = harness.holdExecutionStores();
		const answered = harness.deliveries.length;

		const posted = Array.from({ length: 10 }, () => harness.redeliver(request));
		// n8n stores the first only once the other nine have been answered, however busy the machine.
		await harness.waitForDeliveries(answered + 9, 30_000);
		release();
		const answers = await Promise.all(posted);

		// One ran (n8n's answer); the others came while n8n was storing it: told to try again.
		expect(textsRun(harness)).toEqual(['Hello?']);
		expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array(9).fill(409)]);
		expect(answers.find((answer) => answer.status === 200)?.body).toEqual({ received: true });
		expect(answers.find((answer) => answer.status === 409)?.body).toEqual({
			received: false,
			error: 'This event is being delivered already: try again later',
		});
		const waiting = 9;
		// The gateway's next try of each of those told to wait finds it run.
		expect(await postedAgain(harness, request, waiting)).toEqual(
			Array(waiting).fill(DELIVERED_BEFORE),
		);
		expect(textsRun(harness)).toEqual(['Hello?']);
	});

	it('posted again after n8n restarted: the execution it starts runs nothing, the next repeat starts none', async () => {
		const harness = await start();
		const first = await firstDelivery(harness, 'First');
		const second = await firstDelivery(harness, 'Second', BRUNO.number);

		harness.restart(await freshTrigger());

		// n8n 2.x keeps nothing webhook() wrote: n8n's processed-data store knows what ran. The
		// first delivery after the restart catches up too, and reads the second message back.
		expect(await postedAgain(harness, first, 2)).toEqual([STARTED, DELIVERED_BEFORE]);
		expect(await postedAgain(harness, second, 1)).toEqual([DELIVERED_BEFORE]);
		expect(textsRun(harness)).toEqual(['First', 'Second']);
		expect(harness.emptyExecutions()).toBe(1);
		expect(harness.logLines()).toContain(
			'info: Messaging Gateway Trigger: 2 message(s) of this execution ran before and were left out',
		);
	});

	it('twenty messages at once: each runs once, and the store is read and written fewer times', async () => {
		const harness = await start();
		const before = processedChecks();
		const texts = Array.from({ length: 20 }, (_, index) => `message ${index}`);

		await Promise.all(
			texts.map((text, index) =>
				simulator().injectInboundMessage({
					instance: SESSION,
					from: `551197000${String(index).padStart(4, '0')}`,
					text,
				}),
			),
		);
		await harness.waitForDeliveries(20);

		expect([...textsRun(harness)].sort()).toEqual([...texts].sort());
		// The executions that wait while one call is under way go together in the next.
		expect(processedChecks() - before).toBeLessThan(20);
	});

	it.each([
		{ failures: 2, logged: [] },
		{
			failures: 3,
			logged: [
				`warn: Messaging Gateway Trigger: n8n's processed-data store failed, so 1 message(s) run without the check for a run before: duplicate key value violates unique constraint "PK_processed_data"`,
			],
		},
	])(
		"n8n's processed-data store fails $failures times: the message runs (never acknowledged and lost)",
		async ({ failures, logged }) => {
			const harness = await start();
			failProcessedChecks(failures);

			await firstDelivery(harness, 'Still here?');

			expect(textsRun(harness)).toEqual(['Still here?']);
			expect(harness.logLines().filter((line) => line.includes('processed-data'))).toEqual(logged);
		},
	);

	it.each([
		{
			failure: 'n8n could not store the execution',
			fail: (harness: TriggerHarness) => harness.failNextExecutionStores(1),
		},
		{
			failure: 'the item could not be built',
			fail: (harness: TriggerHarness) => harness.failNextCredentialReads(3),
		},
	])('$failure (500): the next try runs it, once', async ({ fail }) => {
		const harness = await start();
		fail(harness);
		const request = await firstDelivery(harness, 'Are you open?');
		expect(harness.deliveries[0].status).toBe(500);

		const answers = await postedAgain(harness, request, 2);

		expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
		expect(answers[1]).toEqual(DELIVERED_BEFORE);
		expect(textsRun(harness)).toEqual(['Are you open?']);
	});

	it('two messages delivered at once, both posted again after a restart: each runs once', async () => {
		const harness = await start();
		await Promise.all([
			simulator().injectInboundMessage({
				instance: SESSION,
				from: ALICE.number,
				text: 'From Alice',
			}),
			simulator().injectInboundMessage({
				instance: SESSION,
				from: BRUNO.number,
				text: 'From Bruno',
			}),
		]);
		await harness.waitForDeliveries(2);
		harness.restart(await freshTrigger());

		const answers = [];
		for (const request of [...harness.received]) answers.push(await harness.redeliver(request));
		// The first catches up and reads the other back: one execution, which runs neither.
		expect(answers).toEqual([STARTED, DELIVERED_BEFORE]);
		expect([...textsRun(harness)].sort()).toEqual(['From Alice', 'From Bruno']);
		expect(harness.emptyExecutions()).toBe(1);
	});

	it('executions write nothing to static data, and deactivation removes what activation wrote', async () => {
		const harness = await start();
		const activated = JSON.stringify(harness.staticData());
		// n8n saves an execution's copy whole: over a registration made while it ran, it would
		// put an old token back.
		await firstDelivery(harness, 'Bye');
		await firstDelivery(harness, 'Bye again', BRUNO.number);
		expect(JSON.stringify(harness.staticData())).toBe(activated);

		await harness.delete();

		expect(harness.staticData()).toEqual({});
	});
});
