/**
 * Scenarios for what two runs at once share: the n8n install (installN8n with a cheap install step,
 * fixtures/install-contender.cts) and a kept n8n user folder (claimUserFolder), each in a scratch
 * folder that is removed afterwards. Kept in a .cts file: they need processes and the file system.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { PROJECT_ROOT } from '../support/paths.cts';
import { claimUserFolder } from './n8n-instance.cts';

const CONTENDER = path.join(__dirname, 'fixtures', 'install-contender.cts');
const CLAIMER = path.join(__dirname, 'fixtures', 'folder-claimer.cts');
const RUN_TS = path.join(PROJECT_ROOT, 'test', 'support', 'run-ts.js');
const PARTS = [
	'.installed',
	'node_modules/n8n/bin/n8n',
	'node_modules/sqlite3/build/Release/node_sqlite3.node',
];

interface ContenderResult {
	exitCode: number;
	output: string;
}

function contender(
	cacheFolder: string,
	mode: 'complete' | 'without-sqlite3',
	runsFile: string,
): Promise<ContenderResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [RUN_TS, CONTENDER, mode, runsFile], {
			env: { ...process.env, N8N_E2E_CACHE: cacheFolder },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
		child.on('error', reject);
		child.on('close', (code) => resolve({ exitCode: code ?? -1, output }));
	});
}

/** Two contenders at once; meanwhile the install folder is looked at every 10 ms. */
export async function raceTwoInstalls(mode: 'complete' | 'without-sqlite3') {
	const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-install-race-'));
	const target = path.join(scratch, 'n8n-2.41.1');
	const runsFile = path.join(scratch, 'runs.txt');
	const sightings = new Set<string>();
	const watcher = setInterval(() => {
		if (fs.existsSync(target)) {
			const present = PARTS.filter((part) => fs.existsSync(path.join(target, part)));
			sightings.add(present.length === PARTS.length ? 'complete' : `incomplete: ${present}`);
		}
	}, 10);
	try {
		const contenders = await Promise.all([
			contender(target, mode, runsFile),
			contender(target, mode, runsFile),
		]);
		return {
			exitCodes: contenders.map((result) => result.exitCode),
			waited: contenders.filter((result) => /another run is installing/.test(result.output)).length,
			errors: contenders.flatMap((result) => result.output.match(/^install failed: .*$/gm) ?? []),
			installSteps: fs.readFileSync(runsFile, 'utf8').trim().split('\n').length,
			sightings: [...sightings],
			left: fs.readdirSync(scratch).sort(),
		};
	} finally {
		clearInterval(watcher);
		fs.rmSync(scratch, { recursive: true, force: true });
	}
}

function errorOf(attempt: () => unknown): string {
	try {
		attempt();
		return '';
	} catch (error) {
		return (error as Error).message;
	}
}

/**
 * A second process holds the folder (a running sandbox) and is then killed without releasing it
 * (a crashed one); meanwhile this process tries to claim the folder too.
 */
export async function claimWhileAnotherRunHoldsTheFolder() {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-folder-claim-'));
	const holder = spawn(process.execPath, [RUN_TS, CLAIMER, folder], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	try {
		await new Promise<void>((resolve, reject) => {
			holder.stdout.on('data', (chunk: Buffer) => {
				if (chunk.toString('utf8').includes('claimed')) resolve();
			});
			holder.on('exit', () => reject(new Error('the holder exited before claiming')));
		});
		const whileHeld = errorOf(() => claimUserFolder(folder));
		const exited = new Promise((resolve) => holder.once('exit', resolve));
		holder.kill('SIGKILL');
		await exited;
		const release = claimUserFolder(folder);
		const heldBy = fs.readFileSync(path.join(folder, 'n8n-in-use.pid'), 'utf8');
		release();
		return {
			whileHeld: whileHeld.replace(String(holder.pid), '<holder pid>').replace(folder, '<folder>'),
			takenOverAfterCrash: heldBy === String(process.pid),
			leftAfterRelease: fs.readdirSync(folder),
		};
	} finally {
		holder.kill('SIGKILL');
		fs.rmSync(folder, { recursive: true, force: true });
	}
}
