/**
 * n8n 2.41.1 in queue mode, as a real deployment runs it: PostgreSQL and Redis shared by one main
 * (editor, REST, activation), one webhook processor (`n8n webhook`, receives production webhook
 * calls) and two workers (`n8n worker`, run the executions). Each process has a user folder of its
 * own with this package installed the way n8n's installer puts it there, as each container of the
 * queue-mode example has it baked into its image (examples/queue-mode). Every port is a free
 * loopback port; `stop()` stops and removes everything, and a failed start cleans up what it began.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

import axios from 'axios';

import { N8N_VERSION, node24Env } from '../e2e/n8n-install.cts';
import {
	freePort,
	installPackageInto,
	loaderProblemsIn,
	n8nBaseEnv,
	spawnN8nProcess,
	startN8n,
	waitFor,
} from '../e2e/n8n-instance.cts';
import type { N8nInstance, N8nProcess } from '../e2e/n8n-instance.cts';
import { N8N_DATABASE_POOL_ENV, postgresEnv, startPostgres, startRedis } from './services.cts';
import type { RunningPostgres, RunningService } from './services.cts';

export type Role = 'main' | 'webhook' | 'worker';

export interface ClusterProcess {
	/** "main", "webhook", "worker-1", "worker-2". */
	name: string;
	role: Role;
	log(): string;
	loaderProblems(): string[];
}

/**
 * The grace n8n itself gives what it runs when it is asked to stop (N8N_GRACEFUL_SHUTDOWN_TIMEOUT's
 * default, 30 s): a stop that is to be graceful waits that long before the kill.
 */
export const N8N_SHUTDOWN_GRACE_MS = 30_000;

/** A worker or a webhook processor, which a test stops and starts again. */
export interface StoppableProcess extends ClusterProcess {
	/** Where it listens (webhook processors). */
	url?: string;
	/** Stops it: SIGTERM lets n8n shut down gracefully (SIGKILL after `graceMs`, 10 s by default), SIGKILL is a crash. */
	stop(signal?: 'SIGTERM' | 'SIGKILL', graceMs?: number): Promise<void>;
	start(): Promise<void>;
	running(): boolean;
	/** How the last stopped run of the worker ended: its exit code, or the signal that ended it. */
	exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
}

export type WorkerProcess = StoppableProcess;

export interface QueueCluster {
	main: N8nInstance;
	/** The webhook processor's base URL (no trailing slash): production webhooks go here. */
	webhookUrl: string;
	/** The webhook processors; with several, `webhookUrl` is a balancer taking turns between them. */
	webhookProcessors: StoppableProcess[];
	workers: WorkerProcess[];
	processes: ClusterProcess[];
	postgres: RunningPostgres;
	redis: RunningService;
	stop(): Promise<void>;
}

/** Executions a worker has started and not yet finished, by the lines its job processor logs. */
export function executionsInFlight(worker: ClusterProcess): number {
	const count = (event: string) =>
		[...worker.log().matchAll(new RegExp(`Worker ${event} execution \\d+ \\(job`, 'g'))].length;
	return count('started') - count('finished');
}

/** How many executions one worker runs at once (n8n's default is 10). */
export const WORKER_CONCURRENCY = 10;

function readLog(file: string): string {
	return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

/** Ready, or the process exited (said at once, with the end of its log) or never got ready. */
async function untilReady(
	name: string,
	url: string,
	process: N8nProcess,
	logFile: string,
): Promise<void> {
	const exited = () => process.child.exitCode !== null || process.child.signalCode !== null;
	const logTail = () => readLog(logFile).split('\n').slice(-40).join('\n');
	try {
		await waitFor(`${name} readiness (${url})`, 180_000, async () => {
			if (exited()) return true;
			const response = await axios.get(url, { validateStatus: () => true, timeout: 2000 });
			return response.status === 200;
		});
	} catch (error) {
		throw new Error(`${(error as Error).message}; the end of its log:\n${logTail()}`);
	}
	if (exited()) {
		await process.logged();
		throw new Error(
			`${name} exited with ${process.child.exitCode ?? process.child.signalCode} before it was ready; the end of its log:\n${logTail()}`,
		);
	}
}

/** An n8n process of the cluster that can be stopped (SIGTERM or SIGKILL) and started again. */
function stoppableProcess(
	name: string,
	role: Role,
	args: string[],
	env: NodeJS.ProcessEnv,
	logFile: string,
	readinessUrl: string,
): StoppableProcess {
	let current: N8nProcess | undefined;
	const running = () =>
		current !== undefined && current.child.exitCode === null && current.child.signalCode === null;
	return {
		name,
		role,
		log: () => readLog(logFile),
		loaderProblems: () => loaderProblemsIn(readLog(logFile)),
		start: async () => {
			current = spawnN8nProcess(N8N_VERSION, args, env, logFile);
			await untilReady(name, readinessUrl, current, logFile);
		},
		// A crash: the whole group at once, no shutdown. Either way the log is closed after.
		stop: async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM', graceMs?: number) => {
			if (current && running()) await current.stop({ signal, graceMs });
		},
		running,
		exit: () =>
			current && !running()
				? { code: current.child.exitCode, signal: current.child.signalCode }
				: undefined,
	};
}

/**
 * A load balancer in front of several webhook processors, as a deployment has (nginx's
 * round-robin): each request goes to the next one; one that refuses the connection is skipped
 * (nginx's proxy_next_upstream error), and 502 when none takes it.
 */
async function startBalancer(
	port: number,
	upstreams: string[],
): Promise<{ stop: () => Promise<void> }> {
	let turn = 0;
	const forward = (
		request: http.IncomingMessage,
		body: Buffer,
		response: http.ServerResponse,
		tried: number,
	) => {
		if (tried >= upstreams.length) {
			response.writeHead(502).end('No webhook processor answered');
			return;
		}
		const upstream = new URL(upstreams[turn++ % upstreams.length]);
		const proxied = http.request(
			{
				host: upstream.hostname,
				port: upstream.port,
				method: request.method,
				path: request.url,
				headers: request.headers,
			},
			(answer) => {
				response.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(response);
			},
		);
		proxied.on('error', (error: NodeJS.ErrnoException) => {
			if (!response.headersSent && error.code === 'ECONNREFUSED')
				forward(request, body, response, tried + 1);
			else response.destroy();
		});
		proxied.end(body);
	};
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => forward(request, Buffer.concat(chunks), response, 0));
	});
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	return {
		stop: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** `env`: more environment for every process (e.g. an n8n setting under test). */
export async function startQueueCluster(
	workerCount = 2,
	env: NodeJS.ProcessEnv = {},
	webhookProcessorCount = 1,
): Promise<QueueCluster> {
	const cleanups: Array<() => Promise<void>> = [];
	const stopAll = async () => {
		for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
	};
	try {
		const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
		cleanups.push(postgres.stop, redis.stop);
		const version = N8N_VERSION;
		const webhookPort = await freePort();
		const webhookUrl = `http://127.0.0.1:${webhookPort}`;
		// One processor listens on the webhook URL itself; several sit behind a balancer there.
		const processorPorts =
			webhookProcessorCount === 1
				? [webhookPort]
				: await Promise.all(Array.from({ length: webhookProcessorCount }, freePort));
		// What every process shares: the database, the queue, the encryption key (n8nBaseEnv).
		const shared: NodeJS.ProcessEnv = {
			...postgresEnv(postgres),
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			// Queue mode's own default in n8n 2.x: binary data in the database, which every process reads.
			N8N_DEFAULT_BINARY_DATA_MODE: 'database',
			// Production webhook URLs (the trigger registers one at the gateway) point at the webhook processor.
			N8N_WEBHOOK_URL: `${webhookUrl}/`,
			N8N_LOG_LEVEL: 'debug',
			// What docs/queue-mode.md tells users: n8n's default pool (2 connections, 20 s to wait for
			// one) starves under a burst, and n8n 2.41 then fails executions it has acknowledged.
			...N8N_DATABASE_POOL_ENV,
			...env,
		};
		const main = await startN8n({
			version,
			env: { ...shared, N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
		});
		cleanups.push(main.stop);
		const processes: ClusterProcess[] = [
			{
				name: 'main',
				role: 'main',
				log: main.log,
				loaderProblems: main.loaderProblems,
			},
		];

		/** A process of its own folder, like a container with the package in its image. */
		const prepare = async (name: string) => {
			const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-mg-queue-${name}-`));
			cleanups.push(async () => {
				if (!process.env.N8N_E2E_KEEP_USER_FOLDER)
					fs.rmSync(userFolder, { recursive: true, force: true });
			});
			installPackageInto(userFolder);
			const scratch = path.join(userFolder, 'tmp');
			fs.mkdirSync(scratch, { recursive: true });
			const env = node24Env({
				...n8nBaseEnv(version, userFolder),
				...shared,
				N8N_RUNNERS_BROKER_PORT: String(await freePort()),
				TMPDIR: scratch,
			});
			return { env, logFile: path.join(userFolder, 'n8n.log') };
		};

		const webhookProcessors: StoppableProcess[] = [];
		for (const [index, port] of processorPorts.entries()) {
			const name = processorPorts.length === 1 ? 'webhook' : `webhook-${index + 1}`;
			const webhook = await prepare(name);
			const url = `http://127.0.0.1:${port}`;
			const processor = stoppableProcess(
				name,
				'webhook',
				['webhook'],
				{
					...webhook.env,
					N8N_PORT: String(port),
					N8N_LISTEN_ADDRESS: '127.0.0.1',
					N8N_HOST: '127.0.0.1',
					N8N_PROTOCOL: 'http',
				},
				webhook.logFile,
				`${url}/healthz/readiness`,
			);
			cleanups.push(() => processor.stop());
			webhookProcessors.push({ ...processor, url });
		}
		if (processorPorts.length > 1) {
			const balancer = await startBalancer(
				webhookPort,
				webhookProcessors.map((processor) => processor.url!),
			);
			cleanups.push(balancer.stop);
		}

		const workers: WorkerProcess[] = [];
		for (let index = 1; index <= workerCount; index++) {
			const name = `worker-${index}`;
			const worker = await prepare(name);
			const healthPort = await freePort();
			const env = {
				...worker.env,
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(healthPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			};
			const processor = stoppableProcess(
				name,
				'worker',
				['worker', `--concurrency=${WORKER_CONCURRENCY}`],
				env,
				worker.logFile,
				`http://127.0.0.1:${healthPort}/healthz/readiness`,
			);
			cleanups.push(() => processor.stop());
			workers.push(processor);
		}
		// The webhook processor and the workers start together: n8n's start-up is CPU-bound.
		await Promise.all([...webhookProcessors, ...workers].map(async (each) => await each.start()));
		processes.push(...webhookProcessors, ...workers);
		return {
			main,
			webhookUrl,
			webhookProcessors,
			workers,
			processes,
			postgres,
			redis,
			stop: stopAll,
		};
	} catch (error) {
		await stopAll();
		throw error;
	}
}
