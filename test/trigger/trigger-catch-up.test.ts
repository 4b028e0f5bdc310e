/**
 * Catch-up: messages that reached the gateway while n8n could not take them (it answered 500 and
 * the gateway gave up, or never tried again) run once n8n is back, with the first delivery after
 * n8n started: oldest first, that delivery's own message in its place among them by time, each
 * once, marked `caughtUp`. On each gateway the credential offers, against the simulator playing it
 * (its retries pushed past the test, so the gap outlasts them). Catch Up Missed Messages (Hours)
 * and Redeliver For (Minutes) are checked at activation; the options' other checks are in
 * trigger-catch-up-options.test.ts.
 */
import { sleep } from 'n8n-workflow';

import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { checkWaha } from '../compatibility/waha.cts';
import { REFUSE_WHILE_UNREAD_SECONDS } from '../../nodes/MessagingGatewayTrigger/catch-up';
import { SEED } from '../simulator/index.cts';
import type { TriggerHarness } from '../support/trigger-harness.cts';
import type { TriggerTestbed } from './trigger-testbed.cts';
import { freshTrigger, useTriggerTestbed } from './trigger-testbed.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;
const BRUNO = SEED.contacts.bruno;

const NOW = () => Math.floor(Date.now() / 1000);

/** A trigger on the testbed's gateway, messages written to it, and a gap in what n8n took. */
function catchUpSteps(testbed: TriggerTestbed) {
	const simulator = () => testbed.simulator;

	async function start(parameters: Record<string, unknown> = {}): Promise<TriggerHarness> {
		const trigger = await testbed.start(parameters, undefined, 2);
		await trigger.activate();
		// Activated hours ago: the messages below are written in its past (a catch-up reads none
		// from before the activation).
		trigger.editStaticData((nodeData) => {
			nodeData.activatedAt = NOW() - 4 * 3600;
		});
		// The gap outlasts the gateway's tries: its retries come after the test.
		simulator().setDeliveryClock({ scale: 1_000_000 });
		return trigger;
	}

	async function write(
		harness: TriggerHarness,
		text: string,
		secondsAgo: number,
		from = ALICE.number,
		now = NOW(),
	): Promise<void> {
		const before = harness.deliveries.length;
		await simulator().injectInboundMessage({
			instance: SESSION,
			from,
			text,
			timestamp: now - secondsAgo,
		});
		await harness.waitForDeliveries(before + 1);
	}

	/**
	 * n8n stopped taking deliveries for these messages, then started again: activating the workflow
	 * as n8n starting does (n8n 1.x), or not (n8n 2.x leaves a webhook workflow's webhooks
	 * registered across a restart).
	 */
	async function gap(
		harness: TriggerHarness,
		missed: Array<[string, number, string?]>,
		activated = true,
	) {
		harness.failNextExecutionStores(missed.length);
		// Seconds ago from one moment: messages of the same second stay so on a slow machine.
		const now = NOW();
		for (const [text, secondsAgo, from] of missed) {
			await write(harness, text, secondsAgo, from, now);
		}
		harness.restart(await freshTrigger(), 'init');
		if (activated) await harness.activate();
	}

	return { simulator, start, write, gap };
}

/** Moves the clock (Date.now(), which the trigger reads) `seconds` ahead; every timer stays real. */
function clockAhead(seconds: number): void {
	jest.useFakeTimers({
		now: Date.now() + seconds * 1000,
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'setImmediate',
			'clearImmediate',
			'setInterval',
			'clearInterval',
			'setTimeout',
			'clearTimeout',
		],
	});
}

/** Each execution's messages: their texts, those caught up marked with ↺. */
const runs = (harness: TriggerHarness) =>
	harness
		.executions()
		.map((items) =>
			items.map(({ json }) => `${json.caughtUp === true ? '↺ ' : ''}${String(json.text)}`),
		);

describe.each(['spec', 'evolution-v2', 'waha'] as const)('catch-up on %s', (gateway) => {
	const testbed = useTriggerTestbed(SESSION, gateway);
	const { simulator, start, write, gap } = catchUpSteps(testbed);
	// A gateway that posts a refused delivery again gets it back (503): run now, it would start
	// before the gap's older messages of its chat. One that never does (the spec's) has it run now.
	const triesAgain = gateway !== 'spec';
	/** Where the trigger reads the gateway's messages back. */
	const readPath = gateway === 'waha' ? '/chats/overview' : '/chat/findMessages/';
	/** The gateway's next `times` reads of its messages fail. */
	const failReads = (times: number) =>
		simulator().injectFault({
			match: { path: readPath },
			status: 500,
			body: { message: 'database unavailable' },
			times,
		});

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
		{ failure: 'answered 500', later: 20, runs: [['before'], ['soon after'], ['after a while']] },
		{
			failure: 'answered 500',
			later: 35,
			runs: [['before'], ['soon after'], ['↺ lost', 'after a while']],
		},
		// n8n acknowledged it, then failed its execution before the first step: only a read-back runs it.
		{ failure: 'answered 200', later: 60, runs: [['before'], ['soon after'], ['after a while']] },
		{
			failure: 'answered 200',
			later: 150,
			runs: [['before'], ['soon after'], ['↺ lost', 'after a while']],
		},
	])(
		'n8n $failure to a delivery it never ran, and ran on (the gateway does not try again): the next delivery $later s later runs $runs',
		async ({ failure, later, runs: expected }) => {
			const harness = await start();
			await write(harness, 'before', 50);
			if (failure === 'answered 500') harness.failNextExecutionStores(1);
			else harness.failNextExecutionStarts(1);
			await write(harness, 'lost', 45);
			expect(String(harness.deliveries.at(-1)?.status)).toBe(failure.slice(-3));
			await write(harness, 'soon after', 0);
			// Time passes (only the clock moves: the trigger reads it as Date.now()).
			clockAhead(later);
			try {
				await write(harness, 'after a while', 0);
				// Read back once: the next delivery reads nothing again.
				await write(harness, 'then', 0);
			} finally {
				jest.useRealTimers();
			}
			expect(runs(harness)).toEqual([...expected, ['then']]);
		},
	);

	it('n8n started again without activating the workflow (n8n 2.x): the first delivery in the new process catches up, once', async () => {
		const harness = await start();
		await write(harness, 'before the gap', 50);
		await gap(harness, [['missed', 40]], false);

		await write(harness, 'after the gap', 0);
		await write(harness, 'later', 0);

		expect(runs(harness)).toEqual([['before the gap'], ['↺ missed', 'after the gap'], ['later']]);
	});

	it("a chat's newer message arriving while the first delivery after the gap gets ready runs after the gap's older ones", async () => {
		const harness = await start();
		await write(harness, 'before the gap', 50);
		await gap(harness, [['missed', 40]]);
		// The first delivery after the gap (another chat's) is slow before its catch-up reads: its
		// credential read fails twice, tried again 100 ms and 200 ms later. The gateway answers the
		// read a second after it was asked, whatever the machine's pace: the newer message is in.
		harness.failNextCredentialReads(2);
		simulator().injectFault({ match: { path: readPath }, latencyMs: 1000 });
		const before = harness.deliveries.length;
		const first = simulator().injectInboundMessage({
			instance: SESSION,
			from: BRUNO.number,
			text: 'after the gap',
			timestamp: NOW() - 1,
		});
		await harness.untilLogged('turning a delivery into an item failed, trying again');
		await first;
		await write(harness, 'newer', 0);
		await harness.waitForDeliveries(before + 2);

		// The catch-up reads it too (it reached the gateway first): its own delivery starts nothing.
		expect(runs(harness)).toEqual([['before the gap'], ['↺ missed', 'after the gap', '↺ newer']]);
		expect(harness.deliveries.at(-1)?.responseBody).toEqual({
			received: true,
			ignored: 'delivered before',
		});
	});

	it.each([
		{ retried: 'missed 1', times: [40, 30, 20], run: ['missed 1', '↺ missed 2', '↺ missed 3'] },
		{ retried: 'missed 2', times: [40, 30, 20], run: ['↺ missed 1', 'missed 2', '↺ missed 3'] },
		{ retried: 'missed 3', times: [40, 30, 20], run: ['↺ missed 1', '↺ missed 2', 'missed 3'] },
		// Of the same second as a missed one: after it.
		{ retried: 'missed 2', times: [40, 30, 30], run: ['↺ missed 1', '↺ missed 3', 'missed 2'] },
	])(
		"the gateway tries $retried again after the gap (seconds ago $times): it runs in its place among the chat's missed messages",
		async ({ retried, times, run }) => {
			const harness = await start();
			await write(harness, 'before', 50);
			await gap(harness, [
				['missed 1', times[0]],
				['missed 2', times[1]],
				['missed 3', times[2]],
			]);
			const tried = harness.received.find((request) =>
				request.rawBody.toString('utf8').includes(retried),
			);

			expect(await harness.redeliver(tried!)).toEqual({
				status: 200,
				body: { received: true },
			});
			expect(runs(harness)).toEqual([['before'], run]);
		},
	);

	const RECEIVED = { status: 200, body: { received: true } };
	const RAN_BEFORE = { status: 200, body: { received: true, ignored: 'delivered before' } };
	it.each([
		{
			name: 'two missed messages tried again at once after the gap: the second waits for the catch-up, which ran it in its place',
			readFails: false,
			later: ['missed 1'],
			answers: [RECEIVED, RAN_BEFORE],
			runs: [['before'], ['↺ missed 1', '↺ missed 2', 'missed 3']],
		},
		{
			name: `three missed messages tried again at once while the catch-up read fails: the next waiting one carries it${triesAgain ? ', the first comes again' : ''}`,
			readFails: true,
			later: ['missed 1', 'missed 2'],
			answers: [
				triesAgain ? { status: 503, body: expect.objectContaining({ received: false }) } : RECEIVED,
				RECEIVED,
				RAN_BEFORE,
			],
			runs: triesAgain
				? [['before'], ['missed 1', '↺ missed 2', '↺ missed 3']]
				: [['before'], ['missed 1', '↺ missed 2'], ['missed 3']],
		},
	])('$name', async ({ readFails, later, answers, runs: expected }) => {
		const harness = await start();
		await write(harness, 'before', 50);
		await gap(harness, [
			['missed 1', 40],
			['missed 2', 30],
			['missed 3', 20],
		]);
		// The gateway takes a while to give back the messages (or to fail): the other tries come meanwhile.
		simulator().injectFault({
			match: { path: readPath },
			latencyMs: 600,
			...(readFails ? { status: 500 } : {}),
		});
		const [newest, ...others] = ['missed 3', ...later].map(
			(text) =>
				harness.received.find((request) => request.rawBody.toString('utf8').includes(text))!,
		);
		const reads = () => simulator().requestsTo(readPath).length;
		const readsBefore = reads();

		const first = harness.redeliver(newest);
		// Once the catch-up reads the gateway, whatever the machine's pace; not a set time later.
		while (reads() === readsBefore) await sleep(20);
		// The others in turn: each once the trigger has the one before (the first to wait carries next).
		const rest: Array<ReturnType<typeof harness.redeliver>> = [];
		for (const request of others) {
			const arrived = harness.received.length;
			rest.push(harness.redeliver(request));
			while (harness.received.length === arrived) await sleep(20);
		}

		expect(await Promise.all([first, ...rest])).toEqual(answers);
		expect(runs(harness)).toEqual(expected);
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
		await write(harness, 'from another chat', 40, BRUNO.number);
		await gap(harness, [['missed', 30]]);

		await write(harness, 'after', 0);

		expect(runs(harness)).toEqual([['before'], ['↺ missed', 'after']]);
	});

	it(`a gateway that cannot be read now: the delivery ${triesAgain ? 'is refused, to come again' : 'runs alone'}, the next catches up`, async () => {
		const harness = await start();
		await write(harness, 'before', 50);
		await gap(harness, [['missed', 40]]);
		failReads(1);

		await write(harness, 'first after', 20);
		const firstAfter = harness.received.at(-1)!;
		expect(harness.deliveries.at(-1)?.status).toBe(triesAgain ? 503 : 200);
		await write(harness, 'second after', 0);

		expect(runs(harness)).toEqual(
			triesAgain
				? [['before'], ['↺ missed', '↺ first after', 'second after']]
				: [['before'], ['first after'], ['↺ missed', 'second after']],
		);
		expect(harness.logLines().join('\n')).toContain(
			'could not catch up on missed messages yet (tried again with the next delivery',
		);
		// The gateway's next try of the refused one starts nothing: the catch-up ran it.
		expect(await harness.redeliver(firstAfter)).toEqual({
			status: 200,
			body: { received: true, ignored: 'delivered before' },
		});
		expect(runs(harness)).toHaveLength(triesAgain ? 2 : 3);
	});

	it('a gateway that cannot be read for two minutes: deliveries run alone from then on, the first read catches up', async () => {
		const harness = await start();
		await write(harness, 'before', 50);
		await gap(harness, [['missed', 40]]);
		failReads(2);
		await write(harness, 'first after', 30);
		try {
			clockAhead(REFUSE_WHILE_UNREAD_SECONDS);
			await write(harness, 'two minutes later', 20);
			expect(harness.deliveries.map(({ status }) => status).slice(-2)).toEqual([
				triesAgain ? 503 : 200,
				200,
			]);
			await write(harness, 'read at last', 0);
		} finally {
			jest.useRealTimers();
		}

		expect(runs(harness)).toEqual([
			['before'],
			...(triesAgain ? [] : [['first after']]),
			['two minutes later'],
			['↺ missed', ...(triesAgain ? ['↺ first after'] : []), 'read at last'],
		]);
	});

	it('a gateway that keeps no messages (it answers 404): the delivery runs alone, and no later one asks', async () => {
		const harness = await start();
		await write(harness, 'before', 50);
		await gap(harness, [['missed', 40]]);
		simulator().injectFault({
			match: { path: readPath },
			status: 404,
			body: { message: 'Cannot POST' },
		});
		const asked = () => simulator().requests.filter((request) => request.path.includes(readPath));
		const askedBefore = asked().length;

		await write(harness, 'first after', 20);
		await write(harness, 'second after', 0);

		expect(runs(harness)).toEqual([['before'], ['first after'], ['second after']]);
		expect(asked()).toHaveLength(askedBefore + 1);
		expect(harness.logLines().join('\n')).toContain(
			'the gateway keeps no messages the trigger can read back',
		);
	});

	it('a message n8n never ran, older than the newest one it ran (n8n died holding it), is caught up at the next start', async () => {
		const harness = await start();
		harness.failNextExecutionStores(1);
		await write(harness, 'held when n8n died', 30);
		await write(harness, 'ran', 20);
		harness.restart(await freshTrigger());

		await write(harness, 'after the restart', 0);

		expect(runs(harness)).toEqual([['ran'], ['↺ held when n8n died', 'after the restart']]);
	});

	it('a trigger that ran nothing before n8n stopped catches up from its activation', async () => {
		const harness = await start();
		await gap(harness, [['missed', 30]], false);

		await write(harness, 'after the restart', 0);

		expect(runs(harness)).toEqual([['↺ missed', 'after the restart']]);
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

describe('Catch Up Missed Messages (Hours) and Redeliver For (Minutes) at activation', () => {
	const testbed = useTriggerTestbed(SESSION);
	const { simulator, start, write, gap } = catchUpSteps(testbed);

	it.each([
		{ catchUpHours: 0 },
		{ catchUpHours: 24 },
		{ catchUpHours: '48' },
		{ catchUpHours: 720 },
		{ redeliverMinutes: 1 },
		{ redeliverMinutes: '30' },
		{ redeliverMinutes: 1440 },
	])('%j activates', async (options) => {
		const trigger = await testbed.start({ options });

		await trigger.activate();

		expect(await trigger.checkExists()).toBe(true);
	});

	it.each(['abc', -1, 1.5, 721, true, {}])(
		'Catch Up Missed Messages (Hours) %j is refused by name before any request',
		async (catchUpHours) => {
			const trigger = await testbed.start({ options: { catchUpHours } });
			const refusal =
				/^Catch Up Missed Messages \(Hours\) must be a whole number of hours from 0 to 720 \(got /;

			await expect(trigger.checkExists()).rejects.toThrow(refusal);
			await expect(trigger.create()).rejects.toThrow(refusal);
			expect(simulator().requests).toEqual([]);
		},
	);

	it.each([
		{ catchUpHours: 'abc', redeliverMinutes: 'soon' },
		{ catchUpHours: 1.5, redeliverMinutes: 0 },
		{ catchUpHours: 721, redeliverMinutes: {} },
	])(
		'unusable after activation (an expression) %j: deliveries read the defaults, 24 hours back',
		async (options) => {
			const harness = await start();
			await write(harness, 'before', 3 * 3600);
			await gap(harness, [['two hours ago', 2 * 3600]]);
			harness.setParameters({ session: SESSION, events: ['MESSAGES_UPSERT'], options } as never);

			await write(harness, 'after', 0);

			expect(runs(harness)).toEqual([['before'], ['↺ two hours ago', 'after']]);
		},
	);
});
