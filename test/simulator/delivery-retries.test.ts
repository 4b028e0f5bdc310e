/**
 * How each gateway's webhook deliveries are attempted and retried, measured at a real local
 * receiver that answers a scripted sequence: Evolution API v2 (up to 10 attempts, exponential
 * backoff, 400/401/403/404/422 never retried), WAHA (every failure retried, `retries` of each
 * webhook), the spec (Evolution v1: one attempt). Delays run on `deliveryClockScale`, so the
 * gateways' minutes pass in milliseconds.
 */
import { sleep } from 'n8n-workflow';

import {
	startScriptedServer,
	type ScriptedResponse,
	type ScriptedServer,
} from '../support/scripted-server.cts';
import {
	SEED,
	startSimulator,
	type DeliveryClockChange,
	type DeliveryOutcome,
	type Gateway,
	type Simulator,
	type SimulatorOptions,
} from './index.cts';
import { gatewayClient, timersKeepingNodeAlive, unusedUrl, useSimulator } from './testing.cts';
import { HMAC_KEYS, wahaClient } from './waha-testing.cts';

const INSTANCE = SEED.instances.connected.name;
const { alice } = SEED.contacts;
/** Long enough for any further attempt at scale 0 to show up. */
const QUIET_MS = 50;

/**
 * A status, a status with headers, no answer at all, a socket closed without an answer, or one
 * closed halfway through a 200 (a receiver stopping while it answers).
 */
type Answer =
	| number
	| { status: number; headers: Record<string, string> }
	| 'silent'
	| 'drop'
	| 'cut';

function scripted(answer: Answer): ScriptedResponse {
	if (answer === 'silent') return { delayMs: 60_000 };
	if (answer === 'drop') return { dropSocket: true };
	if (answer === 'cut') return { status: 200, body: { received: true }, cutShort: true };
	return typeof answer === 'number' ? { status: answer, body: {} } : { ...answer, body: {} };
}

/** A local receiver that gives `answers` in order, then 200 to everything. */
async function startReceiver(answers: Answer[]): Promise<ScriptedServer> {
	const server = await startScriptedServer();
	server.respondWith(...answers.map(scripted));
	return server;
}

/** Points the played gateway's webhook at `url` for inbound messages (WAHA: with `retries`, if given). */
async function subscribe(
	gateway: Gateway,
	sim: Simulator,
	url: string,
	retries?: unknown,
): Promise<void> {
	const response =
		gateway === 'waha'
			? await wahaClient(sim).put(`/api/sessions/${INSTANCE}`, {
					config: {
						webhooks: [
							{
								url,
								events: ['message'],
								hmac: { key: HMAC_KEYS.orders },
								...(retries === undefined ? {} : { retries }),
							},
						],
					},
				})
			: await gatewayClient(sim).post(
					`/webhook/set/${INSTANCE}`,
					gateway === 'spec'
						? { url, events: ['MESSAGES_UPSERT'] }
						: { webhook: { enabled: true, url, events: ['MESSAGES_UPSERT'] } },
				);
	expect(response.status).toBeLessThan(300);
}

/** Waits until every delivery in the log is final, then a while more to see that no attempt follows. */
async function settledOutcomes(sim: Simulator, timeoutMs = 5000): Promise<DeliveryOutcome[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const outcomes = sim.deliveryOutcomes();
		if (outcomes.length > 0 && outcomes.every((outcome) => outcome.final)) break;
		if (Date.now() > deadline)
			throw new Error(
				`Deliveries still pending after ${timeoutMs} ms: ${JSON.stringify(outcomes)}`,
			);
		await sleep(5);
	}
	await sleep(QUIET_MS);
	return sim.deliveryOutcomes();
}

/** An attempt in a word: its status, or what kind of failure stood for one. */
function summary(attempt: DeliveryOutcome['attempts'][number]): number | string {
	if (attempt.status !== undefined) return attempt.status;
	if (/No answer within/.test(attempt.error ?? '')) return 'timeout';
	if (/ECONNREFUSED/.test(attempt.error ?? '')) return 'refused';
	if (/socket hang up|ECONNRESET/.test(attempt.error ?? '')) return 'reset';
	if (/aborted|cut short/.test(attempt.error ?? '')) return 'cut';
	return attempt.error ?? 'nothing';
}

/**
 * The measured wait before each retry: from the end of attempt n, as the simulator logged it, to
 * the arrival of attempt n + 1 at the receiver (both on this process's clock).
 */
function measuredWaits(sim: Simulator, receiver: ScriptedServer): number[] {
	const ends = sim.deliveries.map((delivery) => delivery.at);
	return receiver.requests.slice(1).map((arrival, index) => arrival.at - ends[index]);
}

/**
 * Each retry's wait: the one the gateway chose is `lowest` to `highest` seconds of its clock, and
 * the one measured, played at `scale`, is at least that (a busy machine only makes it longer).
 */
function expectWaitsWithin(
	sim: Simulator,
	receiver: ScriptedServer,
	windows: Array<[number, number]>,
	scale: number,
) {
	const chosen = sim.deliveries
		.filter((delivery) => !delivery.final)
		.map((delivery) => delivery.retryInMs);
	const measured = measuredWaits(sim, receiver);
	expect(chosen).toHaveLength(windows.length);
	expect(measured).toHaveLength(windows.length);
	windows.forEach(([lowest, highest], index) => {
		expect(chosen[index]).toBeGreaterThanOrEqual(lowest * 1000);
		expect(chosen[index]).toBeLessThanOrEqual(highest * 1000);
		expect(measured[index]).toBeGreaterThanOrEqual((chosen[index] as number) * scale - 2);
	});
}

const fastRetries: SimulatorOptions = { deliveryClockScale: 0, deliveryTimeoutMs: 80 };
const simulators: Record<Gateway, Simulator> = {
	spec: useSimulator(fastRetries),
	'evolution-v2': useSimulator({ ...fastRetries, gateway: 'evolution-v2' }),
	waha: useSimulator({ ...fastRetries, gateway: 'waha' }),
};

let receiver: ScriptedServer | undefined;
afterEach(async () => {
	await receiver?.stop();
	receiver = undefined;
});

/** A receiver answering `answers`, or a URL where nothing listens (`'closed'`). */
async function targetFor(answers: Answer[] | 'closed'): Promise<string> {
	if (answers === 'closed') return unusedUrl();
	receiver = await startReceiver(answers);
	return receiver.url;
}

/** Gateway, case, the receiver's answers, each attempt's result, delivered in the end. */
type OutcomeCase = [Gateway, string, Answer[] | 'closed', Array<number | string>, boolean];

const neverRetriedByEvolution = [400, 401, 403, 404, 422].map(
	(status): OutcomeCase => ['evolution-v2', `${status}: never retried`, [status], [status], false],
);

describe('how many attempts a delivery gets (retry delays at scale 0, request timeout 80 ms)', () => {
	it.each<OutcomeCase>([
		['evolution-v2', '500 then 200: retried once', [500], [500, 200], true],
		['evolution-v2', '502, 503 and 429: each retried', [502, 503, 429], [502, 503, 429, 200], true],
		...neverRetriedByEvolution,
		[
			'evolution-v2',
			'500 every time: 10 attempts, then it gives up',
			Array(12).fill(500),
			Array(10).fill(500),
			false,
		],
		['evolution-v2', 'no answer within the timeout: retried', ['silent'], ['timeout', 200], true],
		['evolution-v2', 'connection reset: retried', ['drop'], ['reset', 200], true],
		['evolution-v2', 'an answer cut short: retried', ['cut'], ['cut', 200], true],
		[
			'evolution-v2',
			'connection refused every time: 10 attempts',
			'closed',
			Array(10).fill('refused'),
			false,
		],
		['waha', '401 then 200: a 4xx is retried too', [401], [401, 200], true],
		['waha', '400, 404 and 422: each retried', [400, 404, 422], [400, 404, 422, 200], true],
		[
			'waha',
			'500 every time: the request and its 15 retries',
			Array(20).fill(500),
			Array(16).fill(500),
			false,
		],
		['waha', 'no answer within the timeout: retried', ['silent'], ['timeout', 200], true],
		['waha', 'an answer cut short: retried', ['cut'], ['cut', 200], true],
		[
			'waha',
			'connection refused every time: 16 requests',
			'closed',
			Array(16).fill('refused'),
			false,
		],
		['spec', '500: one attempt', [500], [500], false],
		['spec', 'no answer within the timeout: one attempt', ['silent'], ['timeout'], false],
		['spec', 'connection refused: one attempt', 'closed', ['refused'], false],
		['spec', 'an answer cut short: one attempt', ['cut'], ['cut'], false],
	])('%s, %s', async (gateway, _name, answers, expected, delivered) => {
		const sim = simulators[gateway];
		await subscribe(gateway, sim, await targetFor(answers));
		await sim.injectInboundMessage({ from: alice.number, text: 'Is my order ready?' });

		const [outcome, ...others] = await settledOutcomes(sim);
		expect(others).toEqual([]);
		expect(outcome.attempts.map(summary)).toEqual(expected);
		expect(outcome.attempts.map((attempt) => attempt.attempt)).toEqual(
			expected.map((_, index) => index + 1),
		);
		expect(outcome.succeeded).toBe(delivered);
		// One log entry per attempt, the last one final; every attempt that connected was received.
		expect(sim.deliveries.map((delivery) => delivery.final ?? false)).toEqual(
			expected.map((_, index) => index === expected.length - 1),
		);
		expect(new Set(sim.deliveries.map((delivery) => delivery.deliveryId))).toEqual(
			new Set([outcome.deliveryId]),
		);
		if (answers !== 'closed') expect(receiver?.requests).toHaveLength(expected.length);
	});

	it.each<[string, unknown, number]>([
		['attempts: 2 → the request and 2 retries', { attempts: 2 }, 3],
		['attempts: 0 → the request alone', { attempts: 0 }, 1],
		['attempts: 4, linear → 5 requests', { policy: 'linear', attempts: 4 }, 5],
	])("WAHA honours a webhook's own retries: %s", async (_name, retries, requests) => {
		const sim = simulators.waha;
		await subscribe('waha', sim, await targetFor(Array(10).fill(503)), retries);
		await sim.injectInboundMessage({ from: alice.number, text: 'Hello?' });

		const [outcome] = await settledOutcomes(sim);
		expect(outcome.attempts.map(summary)).toEqual(Array(requests).fill(503));
		expect(outcome.succeeded).toBe(false);
		expect(receiver?.requests).toHaveLength(requests);
	});
});

describe('how long each gateway waits before a retry (measured)', () => {
	/** Evolution's backoff after attempts 1 to 9: 5·2^(n-1) s, capped at 300 s. */
	const EVOLUTION_WAITS = [5, 10, 20, 40, 80, 160, 300, 300, 300];

	it('Evolution API v2: the exponential backoff, capped at 300 s, ±20 % but never under 5 s', async () => {
		const scale = 0.001;
		const sim = simulators['evolution-v2'];
		sim.setDeliveryClock({ scale });
		await subscribe('evolution-v2', sim, await targetFor(Array(10).fill(500)));
		await sim.injectInboundMessage({ from: alice.number, text: 'Anyone there?' });

		await settledOutcomes(sim, 10_000);
		expectWaitsWithin(
			sim,
			receiver!,
			EVOLUTION_WAITS.map((nominal) => [Math.max(5, nominal * 0.8), nominal * 1.2]),
			scale,
		);
	});

	const failing = Array(3).fill(500);
	const retryAfter3s = Array(3).fill({ status: 503, headers: { 'Retry-After': '3' } });

	// Case, the webhook's retries, the receiver's answers, the waits (s), their random extra (share).
	it.each<[string, Record<string, unknown>, Answer[], number[], number]>([
		['constant', { policy: 'constant', delaySeconds: 1, attempts: 2 }, failing, [1, 1], 0],
		['linear (k·delay)', { policy: 'linear', delaySeconds: 1, attempts: 2 }, failing, [1, 2], 0],
		[
			'exponential (2^k·delay, plus up to 20 %)',
			{ policy: 'exponential', delaySeconds: 1, attempts: 2 },
			failing,
			[2, 4],
			0.2,
		],
		['no policy: constant', { delaySeconds: 1, attempts: 2 }, failing, [1, 1], 0],
		['no delaySeconds: 2 s', { attempts: 2 }, failing, [2, 2], 0],
		['delaySeconds 0: no wait', { delaySeconds: 0, attempts: 2 }, failing, [0, 0], 0],
		[
			"a Retry-After longer than the delay: the receiver's",
			{ policy: 'constant', delaySeconds: 1, attempts: 2 },
			retryAfter3s,
			[3, 3],
			0,
		],
	])('WAHA, %s', async (_name, retries, answers, expectedWaits, randomShare) => {
		const scale = 0.05;
		const sim = simulators.waha;
		sim.setDeliveryClock({ scale });
		await subscribe('waha', sim, await targetFor(answers), retries);
		await sim.injectInboundMessage({ from: alice.number, text: 'Hello?' });

		const [outcome] = await settledOutcomes(sim);
		expect(outcome.attempts).toHaveLength(expectedWaits.length + 1);
		expectWaitsWithin(
			sim,
			receiver!,
			expectedWaits.map((nominal) => [nominal, nominal * (1 + randomShare)]),
			scale,
		);
	});
});

describe('what a retry carries', () => {
	it.each<[Gateway, string[]]>([
		['evolution-v2', []],
		['waha', ['x-webhook-request-id', 'x-webhook-timestamp', 'x-webhook-hmac']],
	])('%s sends the same body (and %j) on every attempt', async (gateway, sameHeaders) => {
		const sim = simulators[gateway];
		await subscribe(gateway, sim, await targetFor([500, 503]));
		await sim.injectInboundMessage({ from: alice.number, text: 'Same again' });

		await settledOutcomes(sim);
		const requests = receiver!.requests;
		expect(requests).toHaveLength(3);
		expect(new Set(requests.map((request) => request.body)).size).toBe(1);
		for (const header of sameHeaders) {
			expect(requests[0].headers[header]).toEqual(expect.any(String));
			expect(requests.map((request) => request.headers[header])).toEqual(
				Array(3).fill(requests[0].headers[header]),
			);
		}
	});

	it('WAHA: one event to two webhooks is two deliveries, each retried on its own', async () => {
		const sim = simulators.waha;
		const failing = await startReceiver([500, 500]);
		const answering = await startReceiver([]);
		try {
			const response = await wahaClient(sim).put(`/api/sessions/${INSTANCE}`, {
				config: {
					webhooks: [
						{ url: failing.url, events: ['message'], retries: { attempts: 1 } },
						{ url: answering.url, events: ['message'] },
					],
				},
			});
			expect(response.status).toBe(200);
			await sim.injectInboundMessage({ from: alice.number, text: 'Both of you' });

			const outcomes = await settledOutcomes(sim);
			const byUrl = Object.fromEntries(
				outcomes.map((outcome) => [outcome.url, outcome.attempts.map(summary)]),
			);
			expect(byUrl).toEqual({ [failing.url]: [500, 500], [answering.url]: [200] });
			expect(new Set(outcomes.map((outcome) => outcome.deliveryId)).size).toBe(2);
		} finally {
			await failing.stop();
			await answering.stop();
		}
	});
});

describe('retries that are waiting', () => {
	it.each<[Gateway, 'reset' | 'stop']>([
		['evolution-v2', 'reset'],
		['evolution-v2', 'stop'],
		['waha', 'reset'],
		['waha', 'stop'],
	])('%s: none reaches the log or the receiver after %s()', async (gateway, action) => {
		// Evolution's first retry waits 5–6 s, WAHA's 2 s: 50–60 ms and 20 ms here.
		const sim = await startSimulator({ gateway, deliveryClockScale: 0.01 });
		try {
			await subscribe(gateway, sim, await targetFor(Array(10).fill(500)));
			await sim.injectInboundMessage({ from: alice.number, text: 'Going once' });
			await sim.waitForDeliveries(1);

			if (action === 'reset') sim.reset();
			else await sim.stop();
			await sleep(150);
			expect(receiver?.requests).toHaveLength(1);
			// Both forget the log: the first attempt's entry is gone, and no retry wrote one.
			expect(sim.deliveries).toEqual([]);
		} finally {
			await sim.stop();
		}
	});

	it('do not keep the Node process alive', async () => {
		const sim = simulators['evolution-v2'];
		sim.setDeliveryClock({ scale: 1 });
		await subscribe('evolution-v2', sim, await targetFor([500]));
		const timersBefore = timersKeepingNodeAlive();

		await sim.injectInboundMessage({ from: alice.number, text: 'Later, then' });
		const [first] = await sim.waitForDeliveries(1);
		expect(first.final).toBeUndefined();
		// Its retry waits 4-6 s; a timer of the answered request's socket may outlive it by a moment.
		const deadline = Date.now() + 3000;
		while (timersKeepingNodeAlive() > timersBefore && Date.now() < deadline) await sleep(50);
		expect(timersKeepingNodeAlive()).toBe(timersBefore);
	});

	it('move to a new scale, keeping the part of their delay already passed', async () => {
		const sim = simulators['evolution-v2'];
		sim.setDeliveryClock({ scale: 1 });
		await subscribe('evolution-v2', sim, await targetFor([500]));
		await sim.injectInboundMessage({ from: alice.number, text: 'Speed it up' });
		await sim.waitForDeliveries(1);

		// 5–6 s of Evolution's clock left: 5–6 ms at 0.001.
		const changedAt = Date.now();
		sim.setDeliveryClock({ scale: 0.001 });
		const [outcome] = await settledOutcomes(sim);
		expect(outcome.attempts.map(summary)).toEqual([500, 200]);
		// Well before the 5 s the unscaled wait had left (not measured to the millisecond: busy machines).
		expect(receiver!.requests[1].at - changedAt).toBeLessThan(2500);
	});
});

describe('the delivery clock', () => {
	it('starts from the options, changes at runtime, and reset() restores the options', async () => {
		const sim = simulators['evolution-v2'];
		expect(sim.getDeliveryClock()).toEqual({ scale: 0, timeoutMs: 80 });
		sim.setDeliveryClock({ timeoutMs: 60 });
		expect(sim.getDeliveryClock()).toEqual({ scale: 0, timeoutMs: 60 });
		sim.setDeliveryClock({ scale: 0.5, timeoutMs: null });
		expect(sim.getDeliveryClock()).toEqual({ scale: 0.5 });
		sim.reset();
		expect(sim.getDeliveryClock()).toEqual({ scale: 0, timeoutMs: 80 });
	});

	it('times attempts out after the timeout given at runtime', async () => {
		const sim = simulators['evolution-v2'];
		sim.setDeliveryClock({ timeoutMs: 60 });
		await subscribe('evolution-v2', sim, await targetFor(['silent']));
		await sim.injectInboundMessage({ from: alice.number, text: 'Hello?' });

		const [outcome] = await settledOutcomes(sim);
		expect(outcome.attempts.map(summary)).toEqual(['timeout', 200]);
		expect(outcome.attempts[0].error).toBe('No answer within 60 ms');
		const timedOutAfter = outcome.attempts[0].at - receiver!.requests[0].at;
		expect(timedOutAfter).toBeGreaterThanOrEqual(55);
		// Not Evolution's own 30 s (the exact 60 ms is in the error above).
		expect(timedOutAfter).toBeLessThan(5000);
	});

	it("WAHA's own: no timeout, the attempt waits for its answer", async () => {
		const sim = simulators.waha;
		sim.setDeliveryClock({ timeoutMs: null });
		await subscribe('waha', sim, await targetFor(['silent']));
		await sim.injectInboundMessage({ from: alice.number, text: 'Take your time' });

		await sleep(300);
		expect(receiver?.requests).toHaveLength(1);
		expect(sim.deliveries).toEqual([]);
	});

	it.each<[string, SimulatorOptions, RegExp]>([
		['a negative scale', { deliveryClockScale: -1 }, /deliveryClockScale must be/],
		['an infinite scale', { deliveryClockScale: Infinity }, /deliveryClockScale must be/],
		['a timeout of 0', { deliveryTimeoutMs: 0 }, /deliveryTimeoutMs must be/],
	])('refuses %s at start', async (_name, options, message) => {
		await expect(startSimulator(options)).rejects.toThrow(message);
	});

	it.each<[string, Record<string, unknown>]>([
		['a negative scale', { scale: -0.5 }],
		['a timeout that is not a number', { timeoutMs: '100' }],
	])('refuses %s at runtime', (_name, change) => {
		expect(() => simulators.spec.setDeliveryClock(change as DeliveryClockChange)).toThrow(
			/must be/,
		);
	});

	it('is read and set over the control API, beside the outcomes', async () => {
		const sim = simulators['evolution-v2'];
		const control = gatewayClient(sim, null);
		const set = await control.post('/__sim/delivery-clock', { scale: 0.25, timeoutMs: 250 });
		expect([set.status, set.data]).toEqual([200, { scale: 0.25, timeoutMs: 250 }]);
		expect((await control.get('/__sim/delivery-clock')).data).toEqual({
			scale: 0.25,
			timeoutMs: 250,
		});
		const refused = await control.post('/__sim/delivery-clock', { scale: 'fast' });
		expect(refused.status).toBe(400);
		expect(sim.getDeliveryClock()).toEqual({ scale: 0.25, timeoutMs: 250 });

		sim.setDeliveryClock({ scale: 0 });
		await subscribe('evolution-v2', sim, await targetFor([500]));
		await sim.injectInboundMessage({ from: alice.number, text: 'Over HTTP' });
		const outcomes = await settledOutcomes(sim);
		expect((await control.get('/__sim/delivery-outcomes')).data).toEqual(outcomes);
	});
});
