/**
 * Both nodes in n8n's queue mode: n8n 2.41.1 as one main, one webhook processor and two workers on
 * PostgreSQL and Redis (test/queue/queue-cluster.cts), against the gateway simulator. The trigger
 * registers from main, deliveries reach the webhook processor, executions run on workers.
 */
import { randomUUID } from 'node:crypto';

import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import {
	activate,
	allExecutions,
	createCredential,
	deliverBurst,
	logFigures,
	triggerMessageIds,
	until,
	untilCountReaches,
	percentile,
	RETRYING_GATEWAY,
} from '../e2e/e2e-helpers.cts';
import type { BurstResult } from '../e2e/e2e-helpers.cts';
import {
	everyOperation,
	expectEveryOperationResults,
	seededOperationCases,
} from '../e2e/every-operation.cts';
import {
	arrivalsOf,
	gapsOf,
	pacedSendWorkflow,
	runAtOnce,
	sendsOverPace,
	turnMs,
} from '../e2e/send-pace.cts';
import {
	ACTION_TYPE,
	countingTriggerWorkflow,
	CREDENTIAL_TYPE,
	echoBotWorkflow,
	operationsWorkflow,
	TRIGGER_TYPE,
} from '../e2e/workflows.cts';
import { expectReadmeSection } from '../support/readme-section.cts';
import type { CredentialRef } from '../e2e/workflows.cts';
import {
	executionsInFlight,
	N8N_SHUTDOWN_GRACE_MS,
	startQueueCluster,
	WORKER_CONCURRENCY,
} from './queue-cluster.cts';
import type { QueueCluster } from './queue-cluster.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;
const BURST = { deliveries: 500, concurrency: 25 };
const WORKER_STOP = { deliveries: 200, concurrency: 25, stopAfter: 60, replyDelayMs: 1500 };
/**
 * Pace Sends shared by the two workers: each takes a turn every 2 s, together one a second (turns
 * of 2 s leave room for a busy cluster's request times, see sendsOverPace).
 */
const QUEUE_PACE = { pacePerMinute: 60, paceWorkers: 2 };
/** Executions started at once by the paced workflow, one send each. */
const PACED_EXECUTIONS = 6;
/** Figures for docs/queue-mode.md, filled by the tests that measure them. */
const figures: Record<string, IDataObject> = {};

let simulator: Simulator;
let cluster: QueueCluster;
let credential: CredentialRef;

beforeAll(async () => {
	simulator = await startSimulator();
	cluster = await startQueueCluster();
	credential = await createCredential(cluster.main, 'Messaging Gateway (queue mode)', {
		baseUrl: simulator.url,
		apiKey: simulator.apiKey,
	});
}, 600_000);

afterAll(async () => {
	await cluster?.stop();
	await simulator?.stop();
});

/** Which worker ran each execution, from the line n8n's job processor logs when it starts one. */
function workerOfExecutions(event: 'started' | 'finished' = 'started'): Map<string, string> {
	const ranBy = new Map<string, string>();
	const line = new RegExp(`Worker ${event} execution (\\d+) \\(job`, 'g');
	for (const worker of cluster.workers) {
		for (const match of worker.log().matchAll(line)) ranBy.set(match[1], worker.name);
	}
	return ranBy;
}

/** Message IDs BURST000…, 20 characters like the gateway's. */
function burstIds(prefix: string, count: number): string[] {
	return Array.from(
		{ length: count },
		(_, index) => `${prefix}${String(index).padStart(20 - prefix.length, '0')}`,
	);
}

/** Activates a trigger workflow and returns its id and the URL it registered at the gateway. */
async function activeTrigger(workflow: IDataObject): Promise<{ workflowId: string; url: string }> {
	const created = await cluster.main.api.post('/workflows', workflow);
	expect(created.status).toBe(200);
	const workflowId = String(created.data.id);
	await activate(cluster.main, workflowId);
	const url = simulator.getWebhook(SESSION)?.url;
	expect(url?.startsWith(`${cluster.webhookUrl}/webhook/`)).toBe(true);
	return { workflowId, url: url! };
}

/** The percentile of sorted values (nearest rank). */
/**
 * Executions of a workflow with the message ID of their trigger item, their worker and, for a
 * failed one, n8n's error (an execution whose worker died keeps no item, only that error).
 */
async function executionsByMessage(workflowId: string) {
	const executions = await allExecutions(cluster.main, workflowId, true);
	const ids = triggerMessageIds(executions);
	const ranBy = workerOfExecutions();
	return executions.map((execution, index) => ({
		messageId: ids[index],
		status: String(execution.status),
		stoppedAt: Date.parse(String(execution.stoppedAt)),
		worker: ranBy.get(String(execution.id)),
		error: (execution.data as { resultData: { error?: { message?: string } } }).resultData.error
			?.message,
	}));
}

/** Deliveries acknowledged but never run, and messages run more than once. */
function lostAndDoubled(burst: BurstResult, seen: string[]) {
	return {
		lost: burst.accepted.filter((id) => !seen.includes(id)),
		doubled: seen.filter((id, index) => seen.indexOf(id) !== index),
	};
}

describe('n8n 2.41.1 in queue mode: main, webhook processor, two workers', () => {
	it('loads the credential and both node types on every process, without loader errors', async () => {
		const nodes = await cluster.main.web.get('/types/nodes.json');
		const names = (nodes.data as Array<{ name: string }>).map((type) => type.name);
		expect(names).toEqual(expect.arrayContaining([ACTION_TYPE, TRIGGER_TYPE]));
		const credentials = await cluster.main.web.get('/types/credentials.json');
		expect((credentials.data as Array<{ name: string }>).map((type) => type.name)).toContain(
			CREDENTIAL_TYPE,
		);
		expect(cluster.processes.map((process) => process.name)).toEqual([
			'main',
			'webhook',
			'worker-1',
			'worker-2',
		]);
		for (const process of cluster.processes) {
			expect({ process: process.name, problems: process.loaderProblems() }).toEqual({
				process: process.name,
				problems: [],
			});
			expect({ process: process.name, loaded: process.log() }).toEqual({
				process: process.name,
				loaded: expect.stringMatching(
					/Loaded all credentials and nodes from n8n-nodes-messaging-gateway/,
				),
			});
		}
		// The credential test runs on main with the credential's own request.
		const tested = await cluster.main.rest.post('/credentials/test', {
			credentials: {
				id: credential.id,
				name: credential.name,
				type: CREDENTIAL_TYPE,
				data: { baseUrl: simulator.url, apiKey: simulator.apiKey },
			},
		});
		expect(tested.data.data).toEqual({ status: 'OK', message: expect.any(String) });
	});

	it('registers on main, takes a delivery at the webhook processor, runs it on a worker, refuses a wrong token, restores on deactivation', async () => {
		const previous = 'https://crm.example.com/hooks';
		await axios.post(
			`${simulator.url}/webhook/set/${SESSION}`,
			{ url: previous, events: ['MESSAGES_UPSERT'] },
			{ headers: { apikey: simulator.apiKey } },
		);
		const created = await cluster.main.api.post('/workflows', echoBotWorkflow(credential, SESSION));
		expect(created.status).toBe(200);
		const workflowId = String(created.data.id);

		await activate(cluster.main, workflowId);

		// The URL the gateway calls is the webhook processor's, with the trigger's secret token.
		const registered = simulator.getWebhook(SESSION);
		expect(registered?.url).toMatch(
			new RegExp(`^${cluster.webhookUrl}/webhook/[0-9a-f-]{36}/webhook\\?token=[0-9a-f]{48}$`),
		);
		await simulator.injectInboundMessage({
			instance: SESSION,
			from: ALICE.number,
			text: 'hi queue',
		});
		const delivery = await until('the delivery', 30_000, async () =>
			simulator.deliveries.find((entry) => entry.url === registered!.url),
		);
		expect(delivery.status).toBe(200);
		const [execution] = await until('the execution', 60_000, async () => {
			const list = await allExecutions(cluster.main, workflowId);
			return list.length > 0 && list.every((entry) => entry.stoppedAt) ? list : undefined;
		});
		expect(execution.status).toBe('success');
		expect(execution.mode).toBe('webhook');
		expect(workerOfExecutions().get(String(execution.id))).toMatch(/^worker-[12]$/);
		const reply = await until('the reply', 30_000, async () =>
			simulator.requestsTo('/message/sendText/', 'POST').at(-1),
		);
		expect(reply.body).toEqual({ number: ALICE.number, textMessage: { text: 'Echo: hi queue' } });

		// Our reply comes back as our own message: accepted at the webhook processor, no execution.
		await until('the delivery of our own reply', 30_000, async () =>
			simulator.deliveries.find(
				(entry) =>
					(entry.body?.data?.key as IDataObject | undefined)?.fromMe === true &&
					entry.status === 200,
			),
		);
		// The webhook processor checks the token itself: a wrong one is refused and runs nothing.
		const wrongToken = await axios.post(
			registered!.url.replace(/token=[0-9a-f]+/, `token=${'f'.repeat(48)}`),
			{ event: 'messages.upsert', instance: SESSION, data: {} },
			{ validateStatus: () => true },
		);
		expect(wrongToken.status).toBe(401);
		await sleep(2000);
		expect(await allExecutions(cluster.main, workflowId)).toHaveLength(1);

		const deactivated = await cluster.main.api.post(`/workflows/${workflowId}/deactivate`, {});
		expect(deactivated.status).toBe(200);
		await until('the previous webhook to be restored', 60_000, async () =>
			simulator.getWebhook(SESSION)?.url === previous ? true : undefined,
		);
	});

	it('runs every operation of the action node on a worker, with the same results as in one process, binary data included', async () => {
		simulator.reset();
		const cases = seededOperationCases();
		expect(cases.map((operationCase) => operationCase.name).sort()).toEqual(everyOperation());
		const webhookPath = `every-operation-${Date.now()}`;
		const created = await cluster.main.api.post(
			'/workflows',
			operationsWorkflow(credential, cases, { webhookPath }),
		);
		expect(created.status).toBe(200);
		const workflowId = String(created.data.id);
		await activate(cluster.main, workflowId);
		simulator.clearLogs();

		const called = await axios.post(
			`${cluster.webhookUrl}/webhook/${webhookPath}`,
			{},
			{
				validateStatus: () => true,
			},
		);
		expect(called.status).toBe(200);
		const [execution] = await until('the execution', 120_000, async () => {
			const list = await allExecutions(cluster.main, workflowId);
			return list.length > 0 && list.every((entry) => entry.stoppedAt) ? list : undefined;
		});
		expect(workerOfExecutions().get(String(execution.id))).toMatch(/^worker-[12]$/);
		const withData = await cluster.main.api.get(`/executions/${String(execution.id)}`, {
			params: { includeData: true },
		});
		expect(withData.status).toBe(200);
		// Binary outputs are kept in the database (queue mode's mode) and read back through main.
		await expectEveryOperationResults(
			cluster.main,
			simulator,
			withData.data.data.resultData.runData,
			cases,
		);
		await cluster.main.api.post(`/workflows/${workflowId}/deactivate`, {});
	});

	it.each([
		{
			name: 'unpaced (the control): the same executions send together',
			pace: undefined,
			withinPace: false,
		},
		{
			name: `paced at ${QUEUE_PACE.pacePerMinute} a minute with ${QUEUE_PACE.paceWorkers} workers sending: each worker a send every ${turnMs(QUEUE_PACE) / 1000} s, the session within the pace`,
			pace: QUEUE_PACE,
			withinPace: true,
		},
	])(
		`Pace Sends, ${PACED_EXECUTIONS} executions at once on the workers, $name`,
		async ({ name, pace, withinPace }) => {
			const webhookPath = `paced-${randomUUID()}`;
			const created = await cluster.main.api.post(
				'/workflows',
				pacedSendWorkflow(credential, {
					session: SESSION,
					chatId: ALICE.number,
					webhookPath,
					pace,
				}),
			);
			expect(created.status).toBe(200);
			const workflowId = String(created.data.id);
			await activate(cluster.main, workflowId);
			const prefix = pace ? 'paced' : 'unpaced';
			const runs = Array.from({ length: PACED_EXECUTIONS }, (_, run) => [`${prefix} ${run + 1}`]);
			simulator.clearLogs();

			const statuses = await runAtOnce(`${cluster.webhookUrl}/webhook/${webhookPath}`, runs);

			const arrivals = arrivalsOf(simulator, prefix);
			const ranBy = workerOfExecutions();
			const byWorker = cluster.workers.map((worker) =>
				arrivals.filter((arrival) => ranBy.get(arrival.executionId) === worker.name),
			);
			logFigures(`Pace Sends in queue mode, ${name}: ms between arrivals`, {
				session: gapsOf(arrivals),
				...Object.fromEntries(
					cluster.workers.map((worker, index) => [worker.name, gapsOf(byWorker[index])]),
				),
			});
			expect({
				statuses,
				texts: arrivals.map((arrival) => arrival.text).sort(),
				sentOnAWorker: byWorker.flat().length,
				// Each worker keeps its share: a turn of 60 / (pace / workers) seconds between its own sends.
				everyWorkerWithinItsShare: byWorker.every(
					(sends) => sendsOverPace(sends, turnMs(QUEUE_PACE)) === 0,
				),
				// Both together: no stretch of time holds more than both workers' turns in it.
				sessionWithinPace:
					sendsOverPace(arrivals, turnMs(QUEUE_PACE), QUEUE_PACE.paceWorkers) === 0,
			}).toEqual({
				statuses: runs.map(() => 200),
				texts: runs.flat().sort(),
				sentOnAWorker: PACED_EXECUTIONS,
				everyWorkerWithinItsShare: withinPace,
				sessionWithinPace: withinPace,
			});
			await cluster.main.api.post(`/workflows/${workflowId}/deactivate`, {});
		},
	);

	it(`a burst of ${BURST.deliveries} deliveries, ${BURST.concurrency} at a time: exactly ${BURST.deliveries} executions, on both workers`, async () => {
		simulator.reset();
		const { workflowId, url } = await activeTrigger(
			countingTriggerWorkflow(credential, SESSION) as unknown as IDataObject,
		);
		const started = Date.now();
		const burst = await deliverBurst({
			url,
			session: SESSION,
			from: ALICE,
			ids: burstIds('QBURST', BURST.deliveries),
			concurrency: BURST.concurrency,
			retry: RETRYING_GATEWAY,
		});
		expect(burst.refused).toEqual([]);
		await untilCountReaches(
			'every execution to finish',
			burst.accepted.length,
			300_000,
			async () =>
				(await allExecutions(cluster.main, workflowId)).filter((execution) => execution.stoppedAt)
					.length,
		);
		// A moment more, so an execution started twice would have shown up too.
		await sleep(2000);
		const executions = await executionsByMessage(workflowId);
		const seen = executions.map((execution) => execution.messageId);
		expect(lostAndDoubled(burst, seen)).toEqual({ lost: [], doubled: [] });
		expect(executions.every((execution) => execution.status === 'success')).toBe(true);
		const perWorker = cluster.workers.map(
			(worker) => executions.filter((execution) => execution.worker === worker.name).length,
		);
		expect(perWorker.every((count) => count > 0)).toBe(true);
		expect(perWorker.reduce((sum, count) => sum + count, 0)).toBe(BURST.deliveries);
		const latencies = executions
			.map((execution) => execution.stoppedAt - burst.sentAt.get(execution.messageId)!)
			.sort((a, b) => a - b);
		const lastFinished = Math.max(...executions.map((execution) => execution.stoppedAt));
		figures.burst = {
			deliveries: BURST.deliveries,
			concurrency: BURST.concurrency,
			answered200: burst.accepted.length,
			retried: burst.retried.length,
			executions: executions.length,
			perWorker: perWorker.join(' + '),
			perSecond: (executions.length / ((lastFinished - started) / 1000)).toFixed(0),
			p50: percentile(latencies, 0.5),
			p95: percentile(latencies, 0.95),
		};
		await cluster.main.api.post(`/workflows/${workflowId}/deactivate`, {});
	});

	it.each([
		{ signal: 'SIGTERM' as const, meaning: 'shut down gracefully' },
		{ signal: 'SIGKILL' as const, meaning: 'killed (a crash)' },
	])(
		`a worker $meaning mid-burst ($signal): every acknowledged delivery has its execution`,
		async ({ signal }) => {
			simulator.reset();
			// Each execution replies after a delay, so both workers have executions in flight when one goes.
			const workflow = echoBotWorkflow(credential, SESSION);
			workflow.nodes[1].parameters.options = { delay: WORKER_STOP.replyDelayMs };
			const { workflowId, url } = await activeTrigger(workflow as unknown as IDataObject);
			const [other, stopped] = cluster.workers;
			let stopping: Promise<void> | undefined;
			let stoppedAt = 0;
			const burst = await deliverBurst({
				url,
				session: SESSION,
				from: ALICE,
				ids: burstIds(`Q${signal}`, WORKER_STOP.deliveries),
				concurrency: WORKER_STOP.concurrency,
				retry: RETRYING_GATEWAY,
				onAnswered: (answered) => {
					// Once the burst is under way and the worker runs some of it (a worker started again
					// by the previous case may not have taken a job yet on a busy machine).
					if (stopping || answered < WORKER_STOP.stopAfter || executionsInFlight(stopped) < 2)
						return;
					stoppedAt = Date.now();
					// A graceful stop gets n8n's own grace: each execution it finishes waits for its claim.
					stopping = stopped.stop(signal, signal === 'SIGTERM' ? N8N_SHUTDOWN_GRACE_MS : undefined);
				},
			});
			if (!stopping) throw new Error(`${stopped.name} ran nothing of the burst while it lasted`);
			await stopping;
			expect(burst.refused).toEqual([]);
			// Every acknowledged delivery has an execution, and every execution ends, also those a
			// crash took with it (n8n ends them once Bull finds their job stalled).
			await untilCountReaches(
				'every execution to end',
				burst.accepted.length,
				240_000,
				async () =>
					(await allExecutions(cluster.main, workflowId)).filter((execution) => execution.stoppedAt)
						.length,
			);
			await sleep(2000);
			const executions = await executionsByMessage(workflowId);
			expect(executions).toHaveLength(burst.accepted.length);
			const succeeded = executions.filter((execution) => execution.status === 'success');
			const ended = executions.filter((execution) => execution.status !== 'success');
			// Each message that ran, ran once; none that was not delivered.
			const seen = succeeded.map((execution) => execution.messageId);
			expect(new Set(seen).size).toBe(seen.length);
			expect(seen.filter((id) => !burst.accepted.includes(id))).toEqual([]);
			const ranOn = (worker: string) =>
				succeeded.filter((execution) => execution.worker === worker).length;
			figures[signal] = {
				deliveries: burst.accepted.length,
				retried: burst.retried.length,
				succeeded: succeeded.length,
				onStopped: ranOn(stopped.name),
				onOther: ranOn(other.name),
				ended: ended.length,
				endedAfter: ended.length
					? (
							(Math.max(...ended.map((execution) => execution.stoppedAt)) - stoppedAt) /
							1000
						).toFixed(0)
					: 0,
			};
			expect(ranOn(other.name)).toBeGreaterThan(0);
			if (signal === 'SIGTERM') {
				// A graceful shutdown finishes what the worker runs; the other worker takes the rest.
				expect(ended).toEqual([]);
				expect(lostAndDoubled(burst, seen)).toEqual({ lost: [], doubled: [] });
			} else {
				// n8n 2.41.1 runs no job again whose worker died (Bull's maxStalledCount is 0): what the
				// killed worker had in flight, at most its concurrency, ends as an error saying so.
				expect(ended.length).toBeGreaterThan(0);
				expect(ended.length).toBeLessThanOrEqual(WORKER_CONCURRENCY);
				expect(
					ended.map((execution) => [
						execution.status,
						// Not always in its log: a worker killed between taking a job and logging it.
						execution.worker === other.name ? other.name : 'not the other worker',
						execution.error,
					]),
				).toEqual(
					ended.map(() => [
						'error',
						'not the other worker',
						expect.stringMatching(/failed to be processed too many times and will no longer retry/),
					]),
				);
			}
			await cluster.main.api.post(`/workflows/${workflowId}/deactivate`, {});
			await stopped.start();
		},
	);

	it('shows the measured figures in docs/queue-mode.md', () => {
		const { burst, SIGTERM: term, SIGKILL: kill } = figures;
		expect([burst, term, kill].every(Boolean)).toBe(true);
		expectReadmeSection(
			'queue:figures',
			[
				'Measured with the packed package in n8n 2.41.1 in queue mode (PostgreSQL 18, Redis 7, one main, one webhook processor, two workers with concurrency 10, all on a 2-core machine) against the gateway simulator, which tries a delivery n8n refused again (2 s apart, as WAHA does):',
				'',
				'| Run | Deliveries | Executions |',
				'| --- | --- | --- |',
				`| Burst into an active trigger, ${burst.concurrency} at a time | ${burst.deliveries}, ${burst.answered200} answered 200 by the webhook processor (${burst.retried} tries refused and tried again) | ${burst.executions} (${burst.perWorker} on the two workers), none lost or run twice; ${burst.perSecond} executions/s, delivery to finished execution p50 ${burst.p50} ms, p95 ${burst.p95} ms |`,
				`| A worker stopped with SIGTERM (graceful) mid-burst | ${term.deliveries} acknowledged (${term.retried} tries refused and tried again) | ${term.succeeded} succeeded: ${term.onStopped} on the stopped worker before it went, ${term.onOther} on the other; ${term.ended} failed, none lost or run twice |`,
				`| A worker killed with SIGKILL (a crash) mid-burst | ${kill.deliveries} acknowledged (${kill.retried} tries refused and tried again) | ${kill.succeeded} succeeded (${kill.onOther} on the other worker); the ${kill.ended} the killed worker had in flight ended as errors ("failed to be processed too many times") ${kill.endedAfter} s after the kill and were not run again; none lost |`,
			].join('\n'),
			/\d+ tries refused|\d+ executions\/s|p50 \d+ ms|p95 \d+ ms|\d+ \+ \d+ on the two|\d+ succeeded|\d+ on the stopped worker|\d+ on the other|the \d+ the killed|\d+ s after/g,
		);
	});
});
