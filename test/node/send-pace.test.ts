/**
 * Pace Sends' turns (helpers/send-pace.ts): sends from one session, started at the same moment by
 * several executions, go one after another at the pace; the clock is Jest's. The node with the
 * gateway is tested in message-send.test.ts.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { PACE_MAX_WAIT_MS, waitForSendTurn } from '../../nodes/MessagingGateway/helpers/send-pace';
import type { SendPace } from '../../nodes/MessagingGateway/helpers/send-pace';

let credentials = 0;

/** An execution of a node using its own credential (so no test shares turns with another). */
function executionWith(credentialId: string): IExecuteFunctions {
	return {
		getNode: () => ({
			name: 'Send Text',
			type: 'messagingGateway',
			credentials: { messagingGatewayApi: { id: credentialId, name: 'Gateway' } },
		}),
	} as unknown as IExecuteFunctions;
}

/** Sends from `sessions` at once, in that order; when each was let go (ms from the start) or its error. */
async function sendsAtOnce(sessions: string[], pace: SendPace): Promise<Array<number | string>> {
	const execution = executionWith(`credential-${++credentials}`);
	const started = Date.now();
	let settled = false;
	const all = Promise.all(
		sessions.map(async (session) =>
			waitForSendTurn.call(execution, session, pace, 0).then(
				() => Date.now() - started,
				(error: Error) => error.message,
			),
		),
	).finally(() => (settled = true));
	while (!settled) await jest.advanceTimersByTimeAsync(100);
	return await all;
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('Pace Sends', () => {
	it.each([
		{ case: 'one worker', pace: { perMinute: 60, jitterSeconds: 0, workers: 1 }, gapMs: 1000 },
		{ case: 'a quarter', pace: { perMinute: 15, jitterSeconds: 0, workers: 1 }, gapMs: 4000 },
		{
			case: 'its share of two workers',
			pace: { perMinute: 60, jitterSeconds: 0, workers: 2 },
			gapMs: 2000,
		},
	])('$case: sends at once from one session go $gapMs ms apart', async ({ pace, gapMs }) => {
		const times = await sendsAtOnce(['sales', 'sales', 'sales', 'sales'], pace);
		expect(times).toEqual([0, 1, 2, 3].map((turn) => expect.closeTo(turn * gapMs, -2)));
	});

	it('with jitter, each send goes up to the jitter later again, never sooner than the pace', async () => {
		const times = (await sendsAtOnce(Array(20).fill('sales'), {
			perMinute: 60,
			jitterSeconds: 2,
			workers: 1,
		})) as number[];
		const gaps = times.slice(1).map((time, index) => time - times[index]);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000 - 100);
		expect(Math.max(...gaps)).toBeLessThanOrEqual(3000 + 100);
		// Not a fixed beat: the gaps differ.
		expect(new Set(gaps.map((gap) => Math.round(gap / 100))).size).toBeGreaterThan(1);
	});

	it('sessions keep their own pace', async () => {
		const times = await sendsAtOnce(['sales', 'support', 'sales', 'support'], {
			perMinute: 30,
			jitterSeconds: 0,
			workers: 1,
		});
		expect(times).toEqual([0, 0, 2000, 2000].map((ms) => expect.closeTo(ms, -2)));
	});

	it(`a send whose turn is more than ${PACE_MAX_WAIT_MS / 60_000} minutes away fails, naming the pace`, async () => {
		const outcomes = await sendsAtOnce(Array(17).fill('sales'), {
			perMinute: 1,
			jitterSeconds: 0,
			workers: 1,
		});
		expect(outcomes.slice(0, 16).every((outcome) => typeof outcome === 'number')).toBe(true);
		expect(outcomes[16]).toBe(
			'Pace Sends: session "sales" has sends booked more than 15 minutes ahead at 1 a minute',
		);
	});
});
