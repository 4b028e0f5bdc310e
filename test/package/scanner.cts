/**
 * n8n's community-package scanner (@n8n/scan-community-package), run offline. Its CLI needs the registry: it checks
 * the published version's npm provenance, downloads the source commit that provenance names and the tarball, and
 * lints both with its exported `analyzePackage` (its own ESLint config, `buildScanConfig`: n8n's community-node rules
 * and eslint-plugin-n8n-nodes-base). This runs that same `analyzePackage`, with the same file patterns, on a copy of
 * the sources and on the tarball `npm pack` makes of the built package. Only the provenance check needs a published
 * version (publish.yml publishes with provenance).
 *
 * `npm run scan` (after `npm run build`) runs this file and prints what the scanner says. Jest cannot load the
 * scanner (an ES module), so tests run this file in a child Node with `--json <source folder> <tarball folder>`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { PROJECT_ROOT } from '../support/paths.cts';
import { n8nEntryFiles } from './repository.cts';

const SCANNER_MODULE = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs');
const RUN_TS = path.join(PROJECT_ROOT, 'test', 'support', 'run-ts.js');

/** The scanner's two analyses: the source checkout and the unpacked tarball. */
export const LEGS = ['source', 'tarball'] as const;
export type Leg = (typeof LEGS)[number];

/** What the scanner lints in the tarball: a literal in its `analyzePackageByName` (the sources' is exported). */
export const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

/** What `analyzePackage` answers; `details` is ESLint's stylish report (file, line, message, rule). */
export interface ScanResult {
	passed: boolean;
	message?: string;
	details?: string;
}
export type ScanReport = Record<Leg, ScanResult>;

/** A scratch folder holding one folder per leg. */
export type ScanFolders = Record<Leg, string> & { root: string };

interface ScannerModule {
	SOURCE_FILE_PATTERNS: string[];
	analyzePackage(folder: string, patterns: string[]): Promise<ScanResult & { error?: unknown }>;
}

/** The `analyzePackage(...)` calls in the scanner's own source, to notice when an upgrade changes what it lints. */
export function scannerAnalysisCalls(): string[] {
	const source = fs.readFileSync(SCANNER_MODULE, 'utf8');
	return [...source.matchAll(/await analyzePackage\(([^)]*)\)/g)].map((match) => match[1]);
}

/** A source checkout of the repository and the unpacked tarball, in a scratch folder. */
export function prepareScanFolders(): ScanFolders {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-mg-scan-'));
	const folders = { root, source: path.join(root, 'source'), tarball: path.join(root, 'tarball') };
	try {
		for (const file of repositoryFiles()) {
			fs.mkdirSync(path.dirname(path.join(folders.source, file)), { recursive: true });
			fs.copyFileSync(path.join(PROJECT_ROOT, file), path.join(folders.source, file));
		}
		unpackTarball(folders.tarball);
		return folders;
	} catch (error) {
		removeScanFolders(folders);
		throw error;
	}
}

/** A copy of `folders` in which `change` rewrote one file of one leg. */
export function withChangedFile(
	folders: ScanFolders,
	leg: Leg,
	file: string,
	change: (text: string) => string,
): ScanFolders {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-mg-scan-'));
	fs.cpSync(folders.root, root, { recursive: true });
	const changed = { root, source: path.join(root, 'source'), tarball: path.join(root, 'tarball') };
	const target = path.join(changed[leg], file);
	fs.writeFileSync(target, change(fs.readFileSync(target, 'utf8')));
	return changed;
}

export function removeScanFolders(folders: ScanFolders): void {
	fs.rmSync(folders.root, { recursive: true, force: true });
}

/** Runs the scanner's analysis of the given legs (both by default) in a child Node and returns its answers. */
export function scan(folders: ScanFolders, legs: readonly Leg[] = LEGS): Partial<ScanReport> {
	const child = spawnSync(
		process.execPath,
		[RUN_TS, __filename, '--json', ...legs.flatMap((leg) => [leg, folders[leg]])],
		{ cwd: PROJECT_ROOT, encoding: 'utf8' },
	);
	if (child.status !== 0)
		throw new Error(`The scanner stopped (exit ${child.status}): ${child.stderr}`);
	return JSON.parse(child.stdout.trim().split('\n').pop() as string) as Partial<ScanReport>;
}

/** The files a failed result names (ESLint's stylish report starts each file's findings with its path). */
export function filesWithFindings(result: ScanResult, folder: string): string[] {
	return (result.details ?? '')
		.split('\n')
		.filter((line) => line.startsWith(folder + path.sep))
		.map((line) => path.relative(folder, line.trim()).split(path.sep).join('/'));
}

/**
 * The files a source checkout has: tracked ones and new ones git does not ignore, as they are in the working tree
 * (rules such as icon-validation look beyond the linted files, at the icons).
 */
function repositoryFiles(): string[] {
	return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
		cwd: PROJECT_ROOT,
		encoding: 'utf8',
	})
		.split('\n')
		.filter((file) => file !== '' && fs.existsSync(path.join(PROJECT_ROOT, file)));
}

/** `npm pack` of the built package, unpacked into `target` as the scanner unpacks the one it downloads. */
function unpackTarball(target: string): void {
	// A build in another terminal empties dist/ first: pack again until n8n's entry files are in the tarball.
	for (let attempt = 1; ; attempt++) {
		fs.rmSync(target, { recursive: true, force: true });
		fs.mkdirSync(target, { recursive: true });
		const tarball = execFileSync(
			'npm',
			['pack', '--silent', '--ignore-scripts', '--pack-destination', target],
			{ cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
		)
			.trim()
			.split('\n')
			.pop() as string;
		execFileSync('tar', ['-xzf', tarball, '--strip-components=1'], { cwd: target });
		fs.rmSync(path.join(target, tarball));
		const missing = n8nEntryFiles().filter((file) => !fs.existsSync(path.join(target, file)));
		if (missing.length === 0) return;
		if (attempt === 5)
			throw new Error(`The tarball lacks ${missing.join(', ')}: run npm run build first`);
		Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000);
	}
}

/** The scanner's `analyzePackage` on each leg given, in this process (not under Jest). */
async function analyse(folders: Partial<Record<Leg, string>>): Promise<Partial<ScanReport>> {
	// Loading the scanner makes a temporary folder; its own `tmp` removes it at exit once told to.
	const tmp = require(require.resolve('tmp', { paths: [path.dirname(SCANNER_MODULE)] })) as {
		setGracefulCleanup(): void;
	};
	tmp.setGracefulCleanup();
	// NODE_ENV=test (Jest sets it) makes eslint-plugin-n8n-nodes-base take every file for `Test.node.ts`; the
	// scanner runs with none.
	delete process.env.NODE_ENV;
	// Node 24 loads an ES module with require() when it has no top-level await, as the scanner has none.
	const scanner = require(SCANNER_MODULE) as ScannerModule;
	const patterns: Record<Leg, string[]> = {
		source: scanner.SOURCE_FILE_PATTERNS,
		tarball: TARBALL_FILE_PATTERNS,
	};
	const report: Partial<ScanReport> = {};
	for (const leg of LEGS) {
		const folder = folders[leg];
		if (folder === undefined) continue;
		const { passed, message, details } = await scanner.analyzePackage(folder, patterns[leg]);
		report[leg] = { passed, message, details };
	}
	return report;
}

async function main(args: string[]): Promise<number> {
	if (args[0] === '--json') {
		// Pairs of leg and folder.
		const folders = Object.fromEntries(
			args.slice(1).flatMap((arg, index) => (index % 2 ? [] : [[arg, args[index + 2]]])),
		);
		process.stdout.write(`${JSON.stringify(await analyse(folders))}\n`);
		return 0;
	}
	const folders = prepareScanFolders();
	try {
		const report = (await analyse(folders)) as ScanReport;
		for (const leg of LEGS) {
			const { passed, message, details } = report[leg];
			console.log(`${passed ? '✅' : '❌'} ${leg}: ${passed ? 'no violations' : message}`);
			if (details) console.log(details.split(folders.root).join('.'));
		}
		return LEGS.every((leg) => report[leg].passed) ? 0 : 1;
	} finally {
		removeScanFolders(folders);
	}
}

if (process.argv[1] === __filename) {
	main(process.argv.slice(2)).then(
		(code) => (process.exitCode = code),
		(error) => {
			console.error(error);
			process.exitCode = 1;
		},
	);
}
