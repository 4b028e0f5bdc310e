/**
 * Every message exactly once in one real n8n process, on each gateway the credential offers, beside
 * n8n's own Webhook node on the same messages (see exactly-once.cts): every message redelivered up
 * to nine times, one after another and at once; and n8n stopped (SIGTERM) or killed (SIGKILL) while
 * messages arrive, down longer than the gateways retry. The trigger loses nothing and runs nothing
 * twice; the figures go into the README ("What reaches your workflow").
 */

import { N8N_DATABASE_POOL_ENV, postgresEnv, startPostgres } from '../queue/services.cts';
import type { RunningPostgres } from '../queue/services.cts';
import { storedExecutions } from '../queue/stored-executions.cts';
import { LAZY_ISOLATES_ENV, until } from './e2e-helpers.cts';
import { CHATS, startLanes, stopLanes, Traffic, untilGatewaysDone } from './exactly-once.cts';
import { ExactlyOnceResults, settleAndCount, writeThenRedeliver } from './exactly-once-count.cts';
import type { Lane } from './exactly-once.cts';
import {
	OUTAGE_CLOCK_SCALE,
	scaleDeliveryClocks,
	startRestartableN8n,
} from './restartable-n8n.cts';
import type { RestartableN8n } from './restartable-n8n.cts';
import { DEFAULT_N8N_VERSION } from './n8n-install.cts';

let postgres: RunningPostgres;
let n8n: RestartableN8n;
let lanes: Lane[];
const results = new ExactlyOnceResults('exactly once');

beforeAll(async () => {
	// n8n as a bot runs in production: on PostgreSQL (SQLite's one writer starved n8n under the
	// gateways' retries here), an expression isolate only for a call that needs one (README).
	postgres = await startPostgres();
	n8n = await startRestartableN8n({
		N8N_LOG_LEVEL: 'info',
		// A connection per execution at once, and a minute's wait for one (n8n's defaults: 2 and
		// 20 s), as docs/reliability.md advises: on a starved pool n8n 2.41 answered deliveries it
		// then failed before their first step ("timeout exceeded when trying to connect").
		...N8N_DATABASE_POOL_ENV,
		...LAZY_ISOLATES_ENV,
		...postgresEnv(postgres),
	});
	lanes = await startLanes(n8n.current(), n8n.current().url);
}, 600_000);

afterAll(async () => {
	await n8n?.dispose();
	if (lanes) await stopLanes(lanes);
	await postgres?.stop();
});

describe('every message exactly once in one n8n process, beside n8n’s Webhook node', () => {
	it.each([
		{ scenario: 'D', atOnce: false, name: 'one after another' },
		{ scenario: 'O', atOnce: true, name: 'at once' },
	])(
		'(d) 50 messages in 10 chats, each delivered 1–10 times $name: each runs once',
		async ({ scenario, atOnce }) => {
			// Message k of a chat is delivered (chat + k) % 10 more times.
			const outcomes = await writeThenRedeliver(storedExecutions(postgres), lanes, scenario, {
				count: 50,
				extraOf: (chat, place) => (chat + place) % 10,
				atOnce,
			});
			results.expectExactlyOnce(
				`(d) every message delivered 1–10 times, ${atOnce ? 'at once' : 'one after another'}`,
				outcomes,
			);
			// The count sees doubles: the Webhook node runs the redeliveries too.
			for (const outcome of outcomes.filter((entry) => entry.receiver === 'webhookNode'))
				expect({ gateway: outcome.gateway, runsTwice: outcome.duplicated > 0 }).toEqual({
					gateway: outcome.gateway,
					runsTwice: true,
				});
		},
		// The gateways' retries on a busy machine can take most of the count's waits.
		1_200_000,
	);
});

describe('every message exactly once through an n8n restart, beside n8n’s Webhook node', () => {
	it.each([
		// As `docker stop` does: SIGTERM, and SIGKILL 10 s later if n8n has not exited.
		{ scenario: 'T', signal: 'SIGTERM', name: 'stopped (SIGTERM)' },
		{ scenario: 'K', signal: 'SIGKILL', name: 'killed (SIGKILL)' },
	] as const)(
		'(b, c, e) n8n $name while messages arrive, down longer than the gateways retry, then started while they go on: each runs once',
		async ({ scenario, signal, name }) => {
			const traffic = new Traffic(lanes, scenario);
			// The gateways give up within the outage: only a catch-up brings those messages back.
			const restoreClocks = scaleDeliveryClocks(lanes, (lane) => OUTAGE_CLOCK_SCALE[lane.key]);
			try {
				const flowing = traffic.flow(100, 200);
				// Once messages flow, whatever the machine's pace.
				await until('15 messages written', 60_000, async () =>
					traffic.total() >= 15 ? true : undefined,
				);
				await n8n.stop({ signal });
				await flowing;
				await untilGatewaysDone(lanes, traffic, 300_000);
				// Messages go on while n8n starts (refused, then 404 until its webhooks are in place).
				const duringStart = traffic.flow(40, 250);
				await n8n.start();
				await duringStart;
				await traffic.flow(10, 100);
				const outcomes = await settleAndCount(storedExecutions(postgres), lanes, traffic, scenario);
				results.expectExactlyOnce(
					`(b, c, e) n8n ${name} for longer than the gateways retry, then started while messages go on`,
					outcomes,
				);
			} finally {
				restoreClocks();
			}
		},
		900_000,
	);
});

describe('README', () => {
	it(`shows what real n8n ${DEFAULT_N8N_VERSION} did`, () => {
		results.expectReadmeTable(
			'exactly-once:real-n8n',
			4,
			`Measured with the packed package in one n8n ${DEFAULT_N8N_VERSION} process, ${CHATS} chats writing at once, each gateway played by the simulator (its retries played faster), the same messages also delivered to n8n's own Webhook node:`,
		);
	});
});
