/**
 * Message → Combine Rapid Messages in n8n's queue mode (main, webhook processor, two workers on
 * PostgreSQL and Redis) on WAHA (the simulator playing it): twenty chats write bursts of 1 to 8
 * messages at once, in real time, with pauses just under and just over the silence time. Each
 * message's execution runs on either worker and reads the chat's history from the gateway, so
 * both workers reach the same cuts: exactly one execution per burst goes on, with the burst's
 * texts in order; the others end with no output; nothing is lost or answered twice, also when a
 * worker is stopped (SIGTERM, n8n's graceful stop) while its executions wait out the silence.
 */
import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import {
	burstsByStamps,
	byMessage,
	CHAT_PLANS,
	combineRapidWorkflow,
	messagesTaken,
	executionOutcomes,
	expectedOutcomes,
	expectedPerChat,
	HISTORY_GATEWAYS,
	plannedSizes,
	repliesPerChat,
	replyDelays,
	stampSizes,
	startDelays,
	timesReplied,
	untilAllEnded,
	untilDeliveriesSettled,
	writeBursts,
} from '../e2e/combine-rapid.cts';
import { activate, createCredential, logFigures, until } from '../e2e/e2e-helpers.cts';
import { runDataOf } from '../e2e/example-runs.cts';
import { refusedRequests } from '../e2e/gateway-choice.cts';
import type { HistoryGateway } from '../e2e/combine-rapid.cts';
import type { CredentialRef } from '../e2e/workflows.cts';
import { executionsInFlight, N8N_SHUTDOWN_GRACE_MS, startQueueCluster } from './queue-cluster.cts';
import { storedExecutions } from './stored-executions.cts';
import type { QueueCluster } from './queue-cluster.cts';

const SESSION = SEED.instances.connected.name;

const WAHA = HISTORY_GATEWAYS.waha;
const V2 = HISTORY_GATEWAYS.evolutionV2;
/** Per gateway, the simulator playing it and the credential pointing at it. */
const gateways = new Map<HistoryGateway, { simulator: Simulator; credential: CredentialRef }>();
let cluster: QueueCluster;

beforeAll(async () => {
	cluster = await startQueueCluster();
	for (const gateway of [WAHA, V2]) {
		const simulator = await startSimulator({ gateway: gateway.simulator });
		gateways.set(gateway, { simulator, credential: { id: '', name: '' } });
		const credential = await createCredential(
			cluster.main,
			`${gateway.credential} (queue mode, combine rapid messages)`,
			{ gateway: gateway.credential, baseUrl: simulator.url, apiKey: simulator.apiKey },
		);
		gateways.set(gateway, { simulator, credential });
	}
}, 600_000);

afterAll(async () => {
	await cluster?.stop();
	for (const { simulator } of gateways.values()) await simulator.stop();
});

/** Which worker ran each execution, from the line n8n's job processor logs when it starts one. */
function workerOfExecutions(): Map<string, string> {
	const ranBy = new Map<string, string>();
	for (const worker of cluster.workers) {
		for (const match of worker.log().matchAll(/Worker started execution (\d+) \(job/g))
			ranBy.set(match[1], worker.name);
	}
	return ranBy;
}

/**
 * The workflow's executions as n8n stored them (its API leaves out or redacts some under load:
 * stored-executions.cts).
 */
const stored = (workflowId: string, includeData?: boolean) =>
	storedExecutions(cluster.postgres)(workflowId, includeData);

/** Every execution of the workflow: its worker, when it started and ended (ms since the epoch). */
async function executionTimes(workflowId: string) {
	const ranBy = workerOfExecutions();
	return (await stored(workflowId, true)).map((execution) => {
		const runData = runDataOf(execution);
		return {
			worker: ranBy.get(String(execution.id)),
			startedAt: Date.parse(String(execution.startedAt)),
			stoppedAt: Date.parse(String(execution.stoppedAt)),
			replied: runData.Reply !== undefined,
		};
	});
}

/** The case's workflow: deactivated after it, passed or failed, as a stopped worker is started again. */
let activeWorkflowId: string | undefined;

afterEach(async () => {
	if (activeWorkflowId)
		await cluster.main.api.post(`/workflows/${activeWorkflowId}/deactivate`, {});
	activeWorkflowId = undefined;
	// A case that failed mid-stop must not leave the next ones one worker short.
	for (const worker of cluster.workers) if (!worker.running()) await worker.start();
}, 120_000);

/** Stop worker-2 once this many messages are written and it has this many executions waiting. */
const STOP_WHEN = { written: 30, inFlight: 5 };

describe('Combine Rapid Messages in queue mode: twenty chats writing bursts at once, two workers', () => {
	it.each([
		{ name: 'WAHA, both workers running', gateway: WAHA, stopMidWait: false },
		{
			name: 'WAHA, worker-2 stopped (SIGTERM) while its executions wait out the silence',
			gateway: WAHA,
			stopMidWait: true,
		},
		{ name: 'Evolution API v2, both workers running', gateway: V2, stopMidWait: false },
		{
			name: 'Evolution API v2, worker-2 stopped (SIGTERM) while its executions wait out the silence',
			gateway: V2,
			stopMidWait: true,
		},
	])(
		'$name: one reply per burst with its texts in order, none lost or twice',
		async ({ name, gateway, stopMidWait }) => {
			const { simulator, credential } = gateways.get(gateway)!;
			simulator.reset();
			const created = await cluster.main.api.post(
				'/workflows',
				combineRapidWorkflow(credential, SESSION),
			);
			expect(created.status).toBe(200);
			const workflowId = String(created.data.id);
			activeWorkflowId = workflowId;
			await activate(cluster.main, workflowId);
			expect(gateway.webhookUrl(simulator, SESSION)).toMatch(
				new RegExp(`^${cluster.webhookUrl}/webhook/`),
			);
			const [other, stopped] = cluster.workers;
			let writtenSoFar = 0;
			let stoppedAt = 0;
			let exitedAt = 0;
			const stopping = stopMidWait
				? (async () => {
						await until('worker-2 to have executions waiting mid-burst', 60_000, async () =>
							writtenSoFar >= STOP_WHEN.written && executionsInFlight(stopped) >= STOP_WHEN.inFlight
								? true
								: undefined,
						);
						stoppedAt = Date.now();
						// On a busy machine the executions waiting out the silence, each also waiting for its
						// claim on the processed messages, take longer than docker stop's 10 s.
						await stopped.stop('SIGTERM', N8N_SHUTDOWN_GRACE_MS);
						exitedAt = Date.now();
					})()
				: undefined;

			const written = await writeBursts(simulator, SESSION, CHAT_PLANS, (count) => {
				writtenSoFar = count;
			});
			await stopping;
			const bursts = burstsByStamps(written);
			await untilAllEnded(cluster.main, workflowId, {
				simulator,
				gateway,
				written,
				executionsOf: storedExecutions(cluster.postgres),
			});
			await untilDeliveriesSettled(simulator);

			const certain = plannedSizes(CHAT_PLANS);
			expect(
				stampSizes(
					bursts,
					certain.map(({ chat }) => chat),
				),
			).toEqual(certain);
			expect(messagesTaken(simulator, gateway, written)).toEqual(
				written.map(({ text }) => ({ text, taken: true })),
			);
			expect(repliesPerChat(simulator, gateway, written)).toEqual(expectedPerChat(bursts));
			expect(timesReplied(simulator, gateway, written)).toEqual(
				written.map(({ text }) => ({ text, replies: 1 })),
			);
			expect(byMessage(await executionOutcomes(stored, workflowId))).toEqual(
				byMessage(expectedOutcomes(bursts)),
			);
			expect(refusedRequests(simulator, gateway.judge)).toEqual([]);

			const times = await executionTimes(workflowId);
			const ranOn = (worker: string) => times.filter((entry) => entry.worker === worker);
			expect(times.filter((entry) => entry.worker === undefined)).toEqual([]);
			expect(ranOn(other.name).length).toBeGreaterThan(0);
			expect(ranOn(stopped.name).length).toBeGreaterThan(0);
			const delays = {
				...replyDelays(simulator, gateway, bursts),
				executionStarted: await startDelays(stored, workflowId, bursts),
			};
			expect(delays.min).toBeGreaterThanOrEqual(0);
			if (stopMidWait) {
				// n8n's own graceful stop (exit code 0), not the kill that follows a stop taking too long.
				expect(stopped.exit()).toEqual({ code: 0, signal: null });
				// The stopped worker had executions waiting when it got the signal, and finished them.
				const midWait = ranOn(stopped.name).filter(
					(entry) => entry.startedAt < stoppedAt && entry.stoppedAt > stoppedAt,
				);
				expect(midWait.length).toBeGreaterThan(0);
				// What came after it had gone ran on the other worker.
				const after = times.filter((entry) => entry.startedAt > exitedAt);
				expect(after.length).toBeGreaterThan(0);
				expect(after.filter((entry) => entry.worker !== other.name)).toEqual([]);
				logFigures(`Combine Rapid Messages, queue mode, ${name}`, {
					...delays,
					midWaitOnStopped: midWait.length,
					midWaitReplied: midWait.filter((entry) => entry.replied).length,
					writtenBeforeStop: written.filter((message) => message.at < stoppedAt).length,
					gracefulStopMs: exitedAt - stoppedAt,
					onStopped: ranOn(stopped.name).length,
					onOther: ranOn(other.name).length,
				});
			} else {
				logFigures(`Combine Rapid Messages, queue mode, ${name}: reply after the silence (ms)`, {
					...delays,
					perWorker: `${ranOn(other.name).length} + ${ranOn(stopped.name).length}`,
				});
			}
		},
	);
});
