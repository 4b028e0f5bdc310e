/**
 * Every message exactly once in n8n's queue mode, with two webhook processors behind a load
 * balancer taking turns (as a deployment that scales webhooks runs them) and two workers, on each
 * gateway the credential offers, beside n8n's own Webhook node on the same messages (see
 * test/e2e/exactly-once.cts): redeliveries one after another to one processor and then the other,
 * and at once to both; one webhook processor killed (SIGKILL) while ten chats write. Each chat's
 * order is reported, not asserted (see exactly-once.e2e.ts).
 */
import { logFigures, until } from '../e2e/e2e-helpers.cts';
import {
	outcomeRow,
	redeliver,
	settleAndCount,
	startLanes,
	stopLanes,
	Traffic,
	untilGatewaysDone,
} from '../e2e/exactly-once.cts';
import type { Lane, Outcome } from '../e2e/exactly-once.cts';
import { expectReadmeSection } from '../support/readme-section.cts';
import { startQueueCluster } from './queue-cluster.cts';
import type { QueueCluster } from './queue-cluster.cts';

let cluster: QueueCluster;
let lanes: Lane[];
const results: Array<{ scenario: string; outcomes: Outcome[] }> = [];

beforeAll(async () => {
	cluster = await startQueueCluster(2, {}, 2);
	lanes = await startLanes(cluster.main, cluster.webhookUrl);
}, 900_000);

afterAll(async () => {
	await cluster?.stop();
	if (lanes) await stopLanes(lanes);
});

/** The processor `attempt` goes to: each in turn. */
const toProcessor = (url: string, attempt: number) =>
	url.replace(cluster.webhookUrl, cluster.webhookProcessors[attempt % 2].url!);

function report(scenario: string, outcomes: Outcome[]) {
	results.push({ scenario, outcomes });
	logFigures(`exactly once in queue mode: ${scenario}`, outcomes);
	return outcomes.filter((outcome) => outcome.receiver === 'trigger');
}

describe('every message exactly once in queue mode, two webhook processors', () => {
	it('(d) 100 messages in 10 chats, each delivered 1–10 times one after another, to one processor and then the other: each runs once', async () => {
		const traffic = new Traffic(lanes, 'D');
		await traffic.flow(100, 100);
		await untilGatewaysDone(lanes, traffic, 120_000);
		const extra = new Map(
			[...traffic.written.values()]
				.flat()
				.map((message) => [message.id, (message.chat + message.place) % 10]),
		);
		await redeliver(lanes, new Set(extra.keys()), (id) => extra.get(id) ?? 0, false, toProcessor);
		const trigger = report(
			'(d) every message delivered 1–10 times one after another, the processors in turn',
			await settleAndCount(cluster.main, lanes, traffic, 'D'),
		);
		expect(trigger.map(({ gateway, lost, duplicated }) => ({ gateway, lost, duplicated }))).toEqual(
			trigger.map(({ gateway }) => ({ gateway, lost: 0, duplicated: 0 })),
		);
	}, 900_000);

	it('(d) the same message delivered at once to both processors: nothing lost; what runs twice on two workers is measured', async () => {
		const traffic = new Traffic(lanes, 'O');
		await traffic.flow(100, 100);
		await untilGatewaysDone(lanes, traffic, 120_000);
		const extra = new Map(
			[...traffic.written.values()]
				.flat()
				.map((message) => [message.id, 1 + ((message.chat + message.place) % 9)]),
		);
		await redeliver(lanes, new Set(extra.keys()), (id) => extra.get(id) ?? 0, true, toProcessor);
		const trigger = report(
			'(d) every message delivered 2–10 times at once, to both processors',
			await settleAndCount(cluster.main, lanes, traffic, 'O'),
		);
		expect(trigger.map(({ gateway, lost }) => ({ gateway, lost }))).toEqual(
			trigger.map(({ gateway }) => ({ gateway, lost: 0 })),
		);
	}, 900_000);

	it('(b) a webhook processor killed (SIGKILL) while 100 messages arrive in 10 chats, started again: each runs once', async () => {
		const traffic = new Traffic(lanes, 'K');
		const flowing = traffic.flow(100, 150);
		await until('40 messages written', 60_000, async () =>
			traffic.total() >= 40 ? true : undefined,
		);
		const [killed] = cluster.webhookProcessors;
		await killed.stop('SIGKILL');
		await flowing;
		await killed.start();
		await traffic.flow(10, 100);
		const trigger = report(
			'(b) a webhook processor killed (SIGKILL) while 100 messages arrive, started again',
			await settleAndCount(cluster.main, lanes, traffic, 'K'),
		);
		expect(trigger.map(({ gateway, lost, duplicated }) => ({ gateway, lost, duplicated }))).toEqual(
			trigger.map(({ gateway }) => ({ gateway, lost: 0, duplicated: 0 })),
		);
	}, 900_000);
});

describe('README', () => {
	it('shows what queue mode did', () => {
		expect(results).toHaveLength(3);
		expectReadmeSection(
			'exactly-once:queue',
			[
				'In queue mode (a main, two webhook processors behind a balancer taking turns, two workers; PostgreSQL and Redis):',
				'',
				'| Scenario | Gateway | Receiver | Messages | Executions | Lost | Run twice | Each chat’s order |',
				'| --- | --- | --- | --- | --- | --- | --- | --- |',
				...results.flatMap(({ scenario, outcomes }) =>
					outcomes.map((outcome) => outcomeRow(scenario, outcome)),
				),
			].join('\n'),
			/(?<=Webhook node \|)[^\n]*|(?<=Trigger \| )\d+ \| \d+ \| \d+ \| \d+|(?<=\| )(kept|\d+ of \d+ chats out of order)(?= \|$)/gm,
		);
	});
});
