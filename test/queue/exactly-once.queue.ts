/**
 * Every message exactly once in n8n's queue mode, with two webhook processors behind a load
 * balancer taking turns (as a deployment that scales webhooks runs them) and two workers, on each
 * gateway the credential offers, beside n8n's own Webhook node on the same messages (see
 * test/e2e/exactly-once.cts): redeliveries one after another to one processor and then the other,
 * and at once to both; and both processors down while messages arrive (one stopped, one killed),
 * longer than the gateways retry, then started while messages go on. Each chat's order is reported,
 * not asserted (see exactly-once.e2e.ts).
 */
import { logFigures, until } from '../e2e/e2e-helpers.cts';
import { startLanes, stopLanes, Traffic, untilGatewaysDone } from '../e2e/exactly-once.cts';
import {
	ExactlyOnceResults,
	settleAndCount,
	writeThenRedeliver,
} from '../e2e/exactly-once-count.cts';
import type { Lane } from '../e2e/exactly-once.cts';
import { DEFAULT_N8N_VERSION } from '../e2e/n8n-install.cts';
import { OUTAGE_CLOCK_SCALE, scaleDeliveryClocks } from '../e2e/restartable-n8n.cts';
import { startQueueCluster } from './queue-cluster.cts';
import { storedExecutions } from './stored-executions.cts';
import type { QueueCluster } from './queue-cluster.cts';

let cluster: QueueCluster;
let lanes: Lane[];
const results = new ExactlyOnceResults('exactly once in queue mode');

beforeAll(async () => {
	// A connection per execution a worker runs at once (concurrency 10), as docs/queue-mode.md advises: with
	// n8n's default of 2, workers failed executions here under the redeliveries ("timeout exceeded
	// when trying to connect") after their first step had recorded the message.
	cluster = await startQueueCluster(2, {}, 2);
	lanes = await startLanes(cluster.main, cluster.webhookUrl);
}, 900_000);

afterAll(async () => {
	await cluster?.stop();
	if (lanes) await stopLanes(lanes);
});

/** What the trigger logs on a worker about n8n's processed-data store, by what it says. */
const STORE_LINES: Record<string, RegExp> = {
	leftOut: /ran before and were left out/g,
	checkedAgain: /another n8n process wrote the processed-data record at the same moment/g,
	slowStore: /processed-data store is slow/g,
	lateWriteMarkersBack: /a late write had dropped \d+ run marker/g,
	everyClaimDropped: /every claim of \d+ message\(s\) was dropped/g,
	storeFailed: /processed-data store failed/g,
};

/** How often the workers' logs say each of STORE_LINES so far. */
function storeLines(): Record<string, number> {
	const logs = cluster.workers.map((worker) => worker.log()).join('\n');
	return Object.fromEntries(
		Object.entries(STORE_LINES).map(([name, line]) => [name, [...logs.matchAll(line)].length]),
	);
}

/**
 * Runs a scenario and logs what the workers said of the store meanwhile (read beside a message run
 * twice or lost: whether a claim was taken again, a late write met, or the store failed).
 */
async function withStoreLines<T>(scenario: string, run: () => Promise<T>): Promise<T> {
	const before = storeLines();
	try {
		return await run();
	} finally {
		const after = storeLines();
		logFigures(
			`exactly once in queue mode: ${scenario}: the trigger on the workers`,
			Object.fromEntries(Object.keys(after).map((name) => [name, after[name] - before[name]])),
		);
	}
}

/** The processor the `attempt`th redelivery goes to: each in turn. */
const toProcessor = (url: string, attempt: number) =>
	url.replace(cluster.webhookUrl, cluster.webhookProcessors[attempt % 2].url!);

describe('every message exactly once in queue mode, two webhook processors and two workers', () => {
	it('(d) 100 messages in 10 chats, each delivered 1–10 times one after another, to one processor and then the other: each runs once', async () => {
		results.expectExactlyOnce(
			'(d) every message delivered 1–10 times one after another, the processors in turn',
			await withStoreLines('(d) one after another', async () =>
				writeThenRedeliver(storedExecutions(cluster.postgres), lanes, 'D', {
					count: 100,
					extraOf: (chat, place) => (chat + place) % 10,
					atOnce: false,
					urlOf: toProcessor,
				}),
			),
		);
	}, 900_000);

	it('(d) 100 messages in 10 chats, each delivered 2–10 times at once to both processors: each runs once', async () => {
		results.expectExactlyOnce(
			'(d) every message delivered 2–10 times at once, to both processors',
			await withStoreLines('(d) at once', async () =>
				writeThenRedeliver(storedExecutions(cluster.postgres), lanes, 'O', {
					count: 100,
					extraOf: (chat, place) => 1 + ((chat + place) % 9),
					atOnce: true,
					urlOf: toProcessor,
				}),
			),
		);
	}, 900_000);
});

describe('every message exactly once in queue mode through the webhook processors’ outage', () => {
	it('(b, c, e) one processor stopped (SIGTERM), the other killed (SIGKILL) while messages arrive, down longer than the gateways retry, then started while they go on: each runs once', async () => {
		const [stopped, killed] = cluster.webhookProcessors;
		const traffic = new Traffic(lanes, 'P');
		// The gateways give up within the outage: only a catch-up brings those messages back.
		const restoreClocks = scaleDeliveryClocks(lanes, (lane) => OUTAGE_CLOCK_SCALE[lane.key]);
		try {
			const flowing = traffic.flow(100, 200);
			await until('15 messages written', 60_000, async () =>
				traffic.total() >= 15 ? true : undefined,
			);
			// The balancer answers 502 while neither takes a delivery, as nginx does.
			await Promise.all([stopped.stop('SIGTERM'), killed.stop('SIGKILL')]);
			await flowing;
			await untilGatewaysDone(lanes, traffic, 300_000);
			// Messages go on while the processors start (refused, then 404 until their webhooks are in place).
			const duringStart = traffic.flow(40, 250);
			await Promise.all([stopped.start(), killed.start()]);
			await duringStart;
			await traffic.flow(10, 100);
			results.expectExactlyOnce(
				'(b, c, e) both webhook processors down (one stopped, one killed) for longer than the gateways retry, then started while messages go on',
				await settleAndCount(storedExecutions(cluster.postgres), lanes, traffic, 'P'),
			);
		} finally {
			restoreClocks();
		}
	}, 900_000);
});

describe('docs/reliability.md', () => {
	it(`shows what queue mode in n8n ${DEFAULT_N8N_VERSION} did`, () => {
		results.expectReadmeTable(
			'exactly-once:queue',
			3,
			`In queue mode (n8n ${DEFAULT_N8N_VERSION}: a main, two webhook processors behind a balancer taking turns, two workers, each with a pool of 10 database connections; PostgreSQL and Redis):`,
		);
	});
});
