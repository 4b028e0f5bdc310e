/**
 * Catch-up: messages that reached the gateway while n8n could not take them (it answered 500 and
 * the gateway gave up, or never tried again) run once n8n is back, with the first delivery after
 * n8n started: oldest first, before that delivery's own message, each once, marked `caughtUp`.
 * On each gateway the credential offers, against the simulator playing it (its retries pushed past
 * the test, so the gap outlasts them).
 */
import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { checkWaha } from '../compatibility/waha.cts';
import { SEED } from '../simulator/index.cts';
import type { TriggerHarness } from '../support/trigger-harness.cts';
import { freshTrigger, useTriggerTestbed } from './trigger-testbed.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;
const BRUNO = SEED.contacts.bruno;

const NOW = () => Math.floor(Date.now() / 1000);

describe.each(['spec', 'evolution-v2', 'waha'] as const)('catch-up on %s', (gateway) => {
	const testbed = useTriggerTestbed(SESSION, gateway);
	const simulator = () => testbed.simulator;

	async function start(parameters: Record<string, unknown> = {}): Promise<TriggerHarness> {
		const trigger = await testbed.start(parameters, undefined, 2);
		await trigger.activate();
		// The gap outlasts the gateway's tries: its retries come after the test.
		simulator().setDeliveryClock({ scale: 1_000_000 });
		return trigger;
	}

	async function write(
		harness: TriggerHarness,
		text: string,
		secondsAgo: number,
		from = ALICE.number,
	): Promise<void> {
		const before = harness.deliveries.length;
		await simulator().injectInboundMessage({
			instance: SESSION,
			from,
			text,
			timestamp: NOW() - secondsAgo,
		});
		await harness.waitForDeliveries(before + 1);
	}

	/** n8n stopped taking deliveries for these messages, then started again. */
	async function gap(harness: TriggerHarness, missed: Array<[string, number, string?]>) {
		harness.failNextExecutionStores(missed.length);
		for (const [text, secondsAgo, from] of missed) await write(harness, text, secondsAgo, from);
		harness.restart(await freshTrigger());
		await harness.activate();
	}

	/** Each execution's messages: their texts, those caught up marked with ↺. */
	const runs = (harness: TriggerHarness) =>
		harness
			.executions()
			.map((items) =>
				items.map(({ json }) => `${json.caughtUp === true ? '↺ ' : ''}${String(json.text)}`),
			);

	it('the messages of the gap run before the first one after it, oldest first, each once', async () => {
		const harness = await start();
		await write(harness, 'before the gap', 50);
		await gap(harness, [
			['missed 1', 40],
			['missed 2', 30, BRUNO.number],
		]);

		await write(harness, 'after the gap', 0);
		await write(harness, 'later', 0);

		expect(runs(harness)).toEqual([
			['before the gap'],
			['↺ missed 1', '↺ missed 2', 'after the gap'],
			['later'],
		]);
		// The gateway's own tries of the missed ones, when they come, start nothing.
		const refused = harness.received.filter((_, index) => harness.deliveries[index].status === 500);
		expect(refused).toHaveLength(2);
		for (const request of refused) {
			expect(await harness.redeliver(request)).toEqual({
				status: 200,
				body: { received: true, ignored: 'delivered before' },
			});
		}
		expect(runs(harness)).toHaveLength(3);
		// What the catch-up asked passes the gateway's own validation.
		const judge = { spec: undefined, 'evolution-v2': checkEvolutionV2, waha: checkWaha }[gateway];
		const reads = simulator().requests.filter((request) =>
			/\/chat\/findMessages\/|\/chats\//.test(request.path),
		);
		expect(reads.length).toBeGreaterThan(0);
		if (judge) {
			expect(reads.map((request) => judge(request).outcome)).toEqual(reads.map(() => 'accepted'));
		}
	});

	it.each([
		{ option: { catchUpHours: 0 }, runs: [['before'], ['after']] },
		{ option: { catchUpHours: 1 }, runs: [['before'], ['↺ an hour ago', 'after']] },
	])(
		'Catch Up Missed Messages (Hours) $option.catchUpHours',
		async ({ option, runs: expected }) => {
			const harness = await start({ options: option });
			await write(harness, 'before', 3 * 3600);
			await gap(harness, [
				['two hours ago', 2 * 3600],
				['an hour ago', 3500],
			]);

			await write(harness, 'after', 0);

			expect(runs(harness)).toEqual(expected);
		},
	);

	it("the filters hold: another chat's messages are not caught up", async () => {
		const harness = await start({ filters: { onlyChats: ALICE.number } });
		await write(harness, 'before', 50);
		harness.failNextExecutionStores(1);
		await simulator().injectInboundMessage({
			instance: SESSION,
			from: BRUNO.number,
			text: 'from another chat',
			timestamp: NOW() - 40,
		});
		await gap(harness, [['missed', 30]]);

		await write(harness, 'after', 0);

		expect(runs(harness)).toEqual([['before'], ['↺ missed', 'after']]);
	});

	it('a gateway that cannot be read now: the delivery runs alone, the next catches up', async () => {
		const harness = await start();
		await write(harness, 'before', 50);
		await gap(harness, [['missed', 40]]);
		simulator().injectFault({
			match: { path: gateway === 'waha' ? '/chats/overview' : '/chat/findMessages/' },
			status: 500,
			body: { message: 'database unavailable' },
		});

		await write(harness, 'first after', 20);
		await write(harness, 'second after', 0);

		expect(runs(harness)).toEqual([['before'], ['first after'], ['↺ missed', 'second after']]);
		expect(harness.logLines().join('\n')).toContain(
			'could not catch up on missed messages yet (tried again with the next delivery)',
		);
	});

	it('a gateway that keeps no messages (it answers 404): the delivery runs alone, and no later one asks', async () => {
		const harness = await start();
		await write(harness, 'before', 50);
		await gap(harness, [['missed', 40]]);
		const path = gateway === 'waha' ? '/chats/overview' : '/chat/findMessages/';
		simulator().injectFault({ match: { path }, status: 404, body: { message: 'Cannot POST' } });
		const asked = () => simulator().requests.filter((request) => request.path.includes(path));
		const askedBefore = asked().length;

		await write(harness, 'first after', 20);
		await write(harness, 'second after', 0);

		expect(runs(harness)).toEqual([['before'], ['first after'], ['second after']]);
		expect(asked()).toHaveLength(askedBefore + 1);
		expect(harness.logLines().join('\n')).toContain(
			'the gateway keeps no messages the trigger can read back',
		);
	});

	it('a workflow deactivated and activated again catches up on nothing', async () => {
		const harness = await start();
		await write(harness, 'before', 50);
		await harness.delete();
		await simulator().injectInboundMessage({
			instance: SESSION,
			from: ALICE.number,
			text: 'while inactive',
			timestamp: NOW() - 40,
		});
		await harness.activate();

		await write(harness, 'after', 0);

		expect(runs(harness)).toEqual([['before'], ['after']]);
	});
});
