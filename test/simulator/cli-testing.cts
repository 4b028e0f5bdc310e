// Helpers for tests of `npm run simulator`: the CLI run as a child process, as a person runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const CLI = ['test/support/run-ts.js', 'test/simulator/cli.cts'];

export interface RunningCli {
	url: string;
	stop(): Promise<void>;
}

/** Starts the CLI on a free port; resolves with its URL once it says where it listens. */
export function startCli(args: string[]): Promise<RunningCli> {
	const child = spawn(process.execPath, [...CLI, '--port', '0', ...args], {
		cwd: ROOT,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	return new Promise((resolve, reject) => {
		let output = '';
		child.stdout?.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const match = /listening on (http:\/\/\S+)/.exec(output);
			if (match) resolve({ url: match[1], stop: () => stopChild(child) });
		});
		child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.on('exit', (code) => reject(new Error(`The CLI exited (${code}): ${output}`)));
	});
}

/** Runs the CLI to its end (for flags it refuses): its exit code and what it wrote to stderr. */
export function runCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
	const child = spawn(process.execPath, [...CLI, ...args], {
		cwd: ROOT,
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	let stderr = '';
	child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

/** SIGTERM, which the CLI answers by stopping cleanly; resolves once it has exited. */
function stopChild(child: ChildProcess): Promise<void> {
	return new Promise((resolve) => {
		child.removeAllListeners('exit');
		child.on('exit', () => resolve());
		child.kill('SIGTERM');
	});
}
