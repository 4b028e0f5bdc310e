/**
 * Scenarios for installOnce (test/support/install-once.cts), each in a scratch folder it removes
 * afterwards, returning what it saw. Kept in a .cts file: they need processes and the file system.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { installOnce } from '../support/install-once.cts';
import { PROJECT_ROOT } from '../support/paths.cts';

const RACER = path.join(__dirname, 'fixtures', 'install-race.cts');
const RUN_TS = path.join(PROJECT_ROOT, 'test', 'support', 'run-ts.js');

const complete = (folder: string) => fs.existsSync(path.join(folder, '.installed'));
const markComplete = (folder: string) => fs.writeFileSync(path.join(folder, '.installed'), 'done');

async function inScratch<T>(
	scenario: (scratch: string, target: string) => Promise<T> | T,
): Promise<T> {
	const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'install-once-'));
	try {
		return await scenario(scratch, path.join(scratch, 'tool-1.0'));
	} finally {
		fs.rmSync(scratch, { recursive: true, force: true });
	}
}

function contender(target: string, runsFile: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [RUN_TS, RACER, target, runsFile], { stdio: 'inherit' });
		child.on('error', reject);
		child.on('exit', (code) => resolve(code ?? -1));
	});
}

/** Two processes install into the same folder at once. */
export async function raceTwoInstalls() {
	return await inScratch(async (scratch, target) => {
		const runsFile = path.join(scratch, 'runs.txt');
		const exitCodes = await Promise.all([contender(target, runsFile), contender(target, runsFile)]);
		return {
			exitCodes,
			installSteps: fs.readFileSync(runsFile, 'utf8').trim().split('\n').length,
			tool: fs.readFileSync(path.join(target, 'bin', 'tool'), 'utf8'),
			left: fs.readdirSync(scratch).sort(),
		};
	});
}

/** A lock whose owner process no longer exists is in the way. */
export async function installPastDeadLock() {
	return await inScratch((scratch, target) => {
		fs.mkdirSync(`${target}.lock`);
		fs.writeFileSync(
			path.join(`${target}.lock`, 'owner.json'),
			JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname(), startedAt: Date.now() }),
		);
		installOnce(target, { install: markComplete, isComplete: complete });
		return { left: fs.readdirSync(scratch) };
	});
}

/** The install step fails half way. */
export async function failingInstall() {
	return await inScratch((scratch, target) => {
		let error = '';
		try {
			installOnce(target, {
				install: (folder) => {
					fs.writeFileSync(path.join(folder, 'partial'), 'x');
					throw new Error('npm install failed');
				},
				isComplete: complete,
			});
		} catch (caught) {
			error = (caught as Error).message;
		}
		return { error, left: fs.readdirSync(scratch) };
	});
}

/** An incomplete install (no marker) is already in place. */
export async function installOverIncomplete() {
	return await inScratch((scratch, target) => {
		fs.mkdirSync(target);
		fs.writeFileSync(path.join(target, 'half'), 'x');
		installOnce(target, { install: markComplete, isComplete: complete });
		return { installed: fs.readdirSync(target), left: fs.readdirSync(scratch) };
	});
}
