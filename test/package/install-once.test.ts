import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { installOnce } from '../support/install-once.cts';
import { PROJECT_ROOT } from '../support/paths.cts';

const RACER = path.join(__dirname, 'fixtures', 'install-race.cts');
const RUN_TS = path.join(PROJECT_ROOT, 'test', 'support', 'run-ts.js');

let scratch: string;

beforeEach(() => {
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'install-once-'));
});

afterEach(() => {
	fs.rmSync(scratch, { recursive: true, force: true });
});

function contender(target: string, runsFile: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [RUN_TS, RACER, target, runsFile], { stdio: 'inherit' });
		child.on('error', reject);
		child.on('exit', (code) => resolve(code ?? -1));
	});
}

describe('installing into a shared cache folder', () => {
	it('two runs at once: one installs, the other waits and finds it complete', async () => {
		const target = path.join(scratch, 'tool-1.0');
		const runsFile = path.join(scratch, 'runs.txt');

		const codes = await Promise.all([contender(target, runsFile), contender(target, runsFile)]);

		expect(codes).toEqual([0, 0]);
		expect(fs.readFileSync(runsFile, 'utf8').trim().split('\n')).toHaveLength(1);
		expect(fs.readFileSync(path.join(target, 'bin', 'tool'), 'utf8')).toBe('ok');
		// Nothing is left beside the install: no lock, no temporary folder.
		expect(fs.readdirSync(scratch).sort()).toEqual(['runs.txt', 'tool-1.0']);
	});

	it('breaks a lock left by a process that no longer exists', () => {
		const target = path.join(scratch, 'tool-1.0');
		fs.mkdirSync(`${target}.lock`);
		fs.writeFileSync(
			path.join(`${target}.lock`, 'owner.json'),
			JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname(), startedAt: Date.now() }),
		);

		installOnce(target, {
			install: (folder) => fs.writeFileSync(path.join(folder, '.installed'), 'done'),
			isComplete: (folder) => fs.existsSync(path.join(folder, '.installed')),
		});

		expect(fs.readdirSync(scratch)).toEqual(['tool-1.0']);
	});

	it('leaves no half install in place when the install step fails', () => {
		const target = path.join(scratch, 'tool-1.0');

		expect(() =>
			installOnce(target, {
				install: (folder) => {
					fs.writeFileSync(path.join(folder, 'partial'), 'x');
					throw new Error('npm install failed');
				},
				isComplete: (folder) => fs.existsSync(path.join(folder, '.installed')),
			}),
		).toThrow('npm install failed');
		expect(fs.readdirSync(scratch)).toEqual([]);
	});

	it('replaces an incomplete install left by an older run', () => {
		const target = path.join(scratch, 'tool-1.0');
		fs.mkdirSync(target);
		fs.writeFileSync(path.join(target, 'half'), 'x');

		installOnce(target, {
			install: (folder) => fs.writeFileSync(path.join(folder, '.installed'), 'done'),
			isComplete: (folder) => fs.existsSync(path.join(folder, '.installed')),
		});

		expect(fs.readdirSync(target)).toEqual(['.installed']);
		expect(fs.readdirSync(scratch)).toEqual(['tool-1.0']);
	});
});
