/** Runs a saved workflow with `n8n execute` beside a running n8n and returns its run data. */
import { spawn } from 'node:child_process';

import type { IRun } from 'n8n-workflow';

import { n8nBin, NODE24_BIN, node24Env } from './n8n-install.cts';
import { freePort, n8nBaseEnv } from './n8n-instance.cts';
import type { N8nInstance } from './n8n-instance.cts';

/** The `--rawOutput` JSON is printed through the logger after a few log lines: take the block from `{` to `}`. */
function extractRun(stdout: string): IRun {
	const lines = stdout.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
	const start = lines.findIndex((line) => line === '{');
	let end = -1;
	for (let index = lines.length - 1; index > start; index--) {
		if (lines[index].startsWith('}')) {
			end = index;
			break;
		}
	}
	if (start === -1 || end === -1)
		throw new Error(`No run JSON in the output of n8n execute:\n${stdout.slice(-2000)}`);
	return JSON.parse(lines.slice(start, end + 1).join('\n')) as IRun;
}

export async function executeWorkflow(
	n8n: N8nInstance,
	workflowId: string,
	timeoutMs = 120_000,
): Promise<IRun> {
	const brokerPort = await freePort();
	// Asynchronous on purpose: the simulator the workflow talks to runs in this same process.
	// The same n8n version as the server, on its database.
	const bin = n8nBin(n8n.version);
	const child = spawn(NODE24_BIN, [bin, 'execute', `--id=${workflowId}`, '--rawOutput'], {
		env: node24Env({
			...n8nBaseEnv(n8n.version, n8n.userFolder),
			...n8n.env,
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			N8N_LOG_LEVEL: 'info',
		}),
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const output: Buffer[] = [];
	const stdoutOnly: Buffer[] = [];
	// Once the whole run has been printed (n8n has stored it by then), the process gets a grace
	// period to exit: a busy machine has seen `n8n execute` linger for minutes after its run.
	let printed: IRun | undefined;
	let grace: NodeJS.Timeout | undefined;
	child.stdout.on('data', (chunk: Buffer) => {
		output.push(chunk);
		stdoutOnly.push(chunk);
		if (printed || !chunk.toString('utf8').includes('\n}')) return;
		try {
			printed = extractRun(Buffer.concat(stdoutOnly).toString('utf8'));
		} catch {
			return;
		}
		grace = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
	});
	child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
	const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
	const exitCode = await new Promise<number | null>((resolve) => child.on('exit', resolve));
	clearTimeout(timer);
	clearTimeout(grace);
	const stdout = Buffer.concat(output).toString('utf8');
	if (printed) return printed;
	if (exitCode === null)
		throw new Error(`n8n execute did not finish within ${timeoutMs} ms:\n${stdout.slice(-2000)}`);
	return extractRun(stdout);
}

/** How long `n8n execute` may take to exit once it has printed its run. */
const EXIT_GRACE_MS = 10_000;
