/**
 * Part "load" of `npm run bench` (issue 15, item 3): how long a fresh Node.js process takes to
 * require and instantiate every file of a package's `n8n` section (what n8n does when it starts),
 * ours against the incumbent n8n-nodes-evolution-api@1.0.4, plus packed and unpacked sizes and a
 * breakdown of where our load time goes.
 *
 * The incumbent is installed at bench time into a cache folder outside the repository (next to the
 * n8n installs of test/e2e/n8n-install.cts), without its peer dependency: both packages then load
 * the same, already loaded n8n-workflow of this project (through NODE_PATH).
 */
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { CACHE_ROOT } from '../test/e2e/n8n-install.cts';
import { installOnce } from '../test/support/install-once.cts';
import { PROJECT_ROOT } from '../test/support/paths.cts';
import type { BenchPart, GoalResult, Stats } from './support/measure.cts';
import { interleaved, ratioText, round2, stats } from './support/measure.cts';

const INCUMBENT_NAME = 'n8n-nodes-evolution-api';
const INCUMBENT_VERSION = '1.0.4';
const INCUMBENT = `${INCUMBENT_NAME}@${INCUMBENT_VERSION}`;

const INCUMBENT_INSTALL = path.join(CACHE_ROOT, 'bench', `${INCUMBENT_NAME}-${INCUMBENT_VERSION}`);
const INCUMBENT_ROOT = path.join(INCUMBENT_INSTALL, 'node_modules', INCUMBENT_NAME);

/** Where both packages find n8n-workflow: this project's copy. */
const SHARED_NODE_MODULES = path.join(PROJECT_ROOT, 'node_modules');
const WORKFLOW_ENTRY = require.resolve('n8n-workflow', { paths: [PROJECT_ROOT] });

interface ProbeOptions {
	root: string;
	files: string[];
	workflowEntry: string;
	/** Hooks into the module loader to split the time; slower, so never used for the timed samples. */
	breakdown: boolean;
}

interface Breakdown {
	/** Time of the hooked run (hooks included), the base of every share below. */
	totalMs: number;
	requireCalls: number;
	/** The files' own time: compiling and running their top-level code, and the `new Class()` calls. */
	ownCodeMs: number;
	/** Part of ownCodeMs, estimated: each loaded file compiled once more, the way the loader wraps it. */
	compileMs: number;
	updateDisplayOptionsCalls: number;
	updateDisplayOptionsMs: number;
	/** The module loader around the files: resolving, reading, caching. */
	loaderMs: number;
	/** Part of loaderMs: finding the files (Module._resolveFilename). */
	resolveMs: number;
	/** The files with the most time of their own (compile + top-level code). */
	slowestFiles: Array<{ file: string; ms: number }>;
}

interface ProbeResult {
	ms: number;
	modules: number;
	/** How many copies of n8n-workflow the process holds: 1 when both share the warm one. */
	workflowCopies: number;
	breakdown?: Breakdown;
}

/**
 * Runs in the child process (serialized with toString, so it brings its own requires). Loads
 * n8n-workflow, then times require + `new Class()` of every file (class name = base name before the
 * first dot) and prints the result as JSON. With `breakdown`, hooks into the module loader first.
 */
function probe(options: ProbeOptions): void {
	const nodePath = require('node:path') as typeof import('node:path');
	const nodeFs = require('node:fs') as typeof import('node:fs');
	const nodeVm = require('node:vm') as typeof import('node:vm');
	interface LoaderInternals {
		_resolveFilename: (...args: unknown[]) => string;
		prototype: {
			_compile: (this: unknown, content: string, filename: string, ...rest: unknown[]) => unknown;
			require: (this: unknown, id: string) => unknown;
		};
	}
	const loader = require('node:module') as unknown as LoaderInternals;
	const workflow = require(options.workflowEntry) as Record<string, unknown>;
	const now = () => Number(process.hrtime.bigint()) / 1e6;

	const split = {
		requireCalls: 0,
		resolveMs: 0,
		instantiateMs: 0,
		updateDisplayOptionsCalls: 0,
		updateDisplayOptionsMs: 0,
	};
	/** Per file: compile + top-level run, without the requires it makes. */
	const selfMs = new Map<string, number>();
	if (options.breakdown) {
		const resolve = loader._resolveFilename;
		loader._resolveFilename = function (...args: unknown[]) {
			const start = now();
			try {
				return resolve.apply(this, args);
			} finally {
				split.resolveMs += now() - start;
			}
		};
		// The time each file being compiled spends in its own require calls.
		const requireMsOfOpenFiles: number[] = [];
		const requireOriginal = loader.prototype.require;
		loader.prototype.require = function (id: string) {
			split.requireCalls++;
			const start = now();
			try {
				return requireOriginal.call(this, id);
			} finally {
				if (requireMsOfOpenFiles.length > 0) {
					requireMsOfOpenFiles[requireMsOfOpenFiles.length - 1] += now() - start;
				}
			}
		};
		const compile = loader.prototype._compile;
		loader.prototype._compile = function (content: string, filename: string, ...rest: unknown[]) {
			const start = now();
			requireMsOfOpenFiles.push(0);
			try {
				return compile.call(this, content, filename, ...rest);
			} finally {
				selfMs.set(filename, now() - start - (requireMsOfOpenFiles.pop() ?? 0));
			}
		};
		const update = workflow.updateDisplayOptions as (...args: unknown[]) => unknown;
		Object.defineProperty(workflow, 'updateDisplayOptions', {
			value: (...args: unknown[]) => {
				const start = now();
				try {
					return update(...args);
				} finally {
					split.updateDisplayOptionsCalls++;
					split.updateDisplayOptionsMs += now() - start;
				}
			},
		});
	}

	const cachedBefore = new Set(Object.keys(require.cache));
	const start = process.hrtime.bigint();
	for (const file of options.files) {
		const exported = require(nodePath.join(options.root, file)) as Record<
			string,
			new () => unknown
		>;
		const instantiateStart = now();
		new exported[nodePath.basename(file).split('.')[0]]();
		split.instantiateMs += now() - instantiateStart;
	}
	const ms = Number(process.hrtime.bigint() - start) / 1e6;
	const loaded = Object.keys(require.cache).filter((file) => !cachedBefore.has(file));
	const workflowCopies = Object.keys(require.cache).filter((file) =>
		/[\\/]n8n-workflow[\\/]dist[\\/]cjs[\\/]index\.js$/.test(file),
	).length;
	const result: ProbeResult = { ms, modules: loaded.length, workflowCopies };

	if (options.breakdown) {
		let compileMs = 0;
		for (const [index, file] of loaded.entries()) {
			// A trailing comment makes the source new to V8's compilation cache.
			const source = `${nodeFs.readFileSync(file, 'utf8')}\n// ${index}`;
			const compileStart = now();
			nodeVm.compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], {
				filename: file,
			});
			compileMs += now() - compileStart;
		}
		const ownMs = [...selfMs.values()].reduce((sum, value) => sum + value, 0);
		result.breakdown = {
			totalMs: ms,
			requireCalls: split.requireCalls,
			ownCodeMs: ownMs + split.instantiateMs - split.updateDisplayOptionsMs,
			compileMs,
			updateDisplayOptionsCalls: split.updateDisplayOptionsCalls,
			updateDisplayOptionsMs: split.updateDisplayOptionsMs,
			loaderMs: ms - ownMs - split.instantiateMs,
			resolveMs: split.resolveMs,
			slowestFiles: [...selfMs]
				.map(([file, own]) => ({ file: nodePath.relative(options.root, file), ms: own }))
				.sort((a, b) => b.ms - a.ms)
				.slice(0, 5),
		};
	}
	process.stdout.write(JSON.stringify(result));
}

interface LoadablePackage {
	label: string;
	root: string;
	files: string[];
}

function loadablePackage(label: string, root: string): LoadablePackage {
	const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
		n8n: { nodes?: string[]; credentials?: string[] };
	};
	return {
		label,
		root,
		files: [...(manifest.n8n.nodes ?? []), ...(manifest.n8n.credentials ?? [])],
	};
}

async function runProbe(target: LoadablePackage, breakdown: boolean): Promise<ProbeResult> {
	const options: ProbeOptions = {
		root: target.root,
		files: target.files,
		workflowEntry: WORKFLOW_ENTRY,
		breakdown,
	};
	const { NODE_OPTIONS: _ignored, ...environment } = process.env;
	const stdout = await new Promise<string>((resolve, reject) => {
		execFile(
			process.execPath,
			['-e', `(${probe.toString()})(${JSON.stringify(options)})`],
			{ cwd: os.tmpdir(), env: { ...environment, NODE_PATH: SHARED_NODE_MODULES } },
			(error, out, errorOutput) => {
				if (error)
					reject(new Error(`Loading ${target.label} failed: ${errorOutput || error.message}`));
				else resolve(out);
			},
		);
	});
	const result = JSON.parse(stdout) as ProbeResult;
	if (result.workflowCopies !== 1) {
		throw new Error(
			`${target.label} loaded its own n8n-workflow (${result.workflowCopies} copies)`,
		);
	}
	return result;
}

function installIncumbent(log: (line: string) => void): void {
	installOnce(INCUMBENT_INSTALL, {
		install: (folder) => {
			log(`installing ${INCUMBENT} into ${folder}`);
			// A package.json of its own keeps npm from installing into a parent folder's project.
			fs.writeFileSync(
				path.join(folder, 'package.json'),
				JSON.stringify({ name: 'bench-incumbent', private: true }),
			);
			execFileSync(
				'npm',
				[
					'install',
					'--no-save',
					'--ignore-scripts',
					'--omit=peer',
					'--no-audit',
					'--no-fund',
					'--loglevel=error',
					INCUMBENT,
				],
				{ cwd: folder, stdio: ['ignore', 'ignore', 'inherit'] },
			);
		},
		isComplete: (folder) =>
			fs.existsSync(path.join(folder, 'node_modules', INCUMBENT_NAME, 'package.json')),
		log,
	});
}

interface PackSize {
	packedBytes: number;
	unpackedBytes: number;
	entries: number;
}

/** `npm pack --dry-run --json` of a folder or a registry spec, run in `cwd`. */
function packSize(spec: string, cwd: string): PackSize {
	const output = execFileSync('npm', ['pack', spec, '--dry-run', '--json', '--ignore-scripts'], {
		cwd,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	});
	const [packed] = JSON.parse(output) as Array<{
		size: number;
		unpackedSize: number;
		entryCount?: number;
		files: unknown[];
	}>;
	return {
		packedBytes: packed.size,
		unpackedBytes: packed.unpackedSize,
		entries: packed.entryCount ?? packed.files.length,
	};
}

/** Bytes of every file under a folder. */
function folderBytes(folder: string): number {
	let total = 0;
	for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
		if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
	}
	return total;
}

function kB(bytes: number): string {
	return `${Math.round(bytes / 1000)} kB`;
}

function median(values: number[]): number {
	return stats(values).median;
}

/** The breakdown runs summarised: the median of each figure, and its share of the total. */
function summariseBreakdowns(runs: Breakdown[]) {
	const figure = (pick: (run: Breakdown) => number) => round2(median(runs.map(pick)));
	const totalMs = figure((run) => run.totalMs);
	const parts = {
		ownCodeMs: figure((run) => run.ownCodeMs),
		compileMs: figure((run) => run.compileMs),
		updateDisplayOptionsMs: figure((run) => run.updateDisplayOptionsMs),
		loaderMs: figure((run) => run.loaderMs),
		resolveMs: figure((run) => run.resolveMs),
	};
	const share = (ms: number) => `${Math.round((ms / totalMs) * 100)}%`;
	return {
		totalMs,
		requireCalls: figure((run) => run.requireCalls),
		updateDisplayOptionsCalls: figure((run) => run.updateDisplayOptionsCalls),
		...parts,
		shares: {
			ownCode: share(parts.ownCodeMs),
			compile: share(parts.compileMs),
			updateDisplayOptions: share(parts.updateDisplayOptionsMs),
			loader: share(parts.loaderMs),
			resolve: share(parts.resolveMs),
		},
		slowestFiles: runs[0].slowestFiles.map((file) => ({ ...file, ms: round2(file.ms) })),
	};
}

type BreakdownSummary = ReturnType<typeof summariseBreakdowns>;

function breakdownText(summary: BreakdownSummary): string {
	const { shares } = summary;
	return (
		`the files' own code ${shares.ownCode} (of it compiling about ${shares.compile}), ` +
		`updateDisplayOptions ${shares.updateDisplayOptions} (${summary.updateDisplayOptionsCalls} calls), ` +
		`module loader ${shares.loader} (of it resolving ${shares.resolve}, ${summary.requireCalls} require calls)`
	);
}

function statsFigure(value: Stats) {
	return { min: round2(value.min), median: round2(value.median), max: round2(value.max) };
}

export const run: BenchPart = async ({ quick, log }) => {
	installIncumbent(log);
	const ours = loadablePackage('n8n-nodes-messaging-gateway', PROJECT_ROOT);
	const incumbent = loadablePackage(INCUMBENT, INCUMBENT_ROOT);

	const modules: Record<'ours' | 'incumbent', number[]> = { ours: [], incumbent: [] };
	const timed = (target: LoadablePackage, key: keyof typeof modules) => async () => {
		const result = await runProbe(target, false);
		modules[key].push(result.modules);
		return result.ms;
	};
	const rounds = quick ? 4 : 15;
	log(`${rounds} interleaved rounds of a fresh process per package`);
	const load = await interleaved(
		{ ours: timed(ours, 'ours'), incumbent: timed(incumbent, 'incumbent') },
		rounds,
	);

	const breakdownRuns = quick ? 1 : 3;
	log(`${breakdownRuns} hooked run(s) per package for the breakdown`);
	const breakdowns: Record<'ours' | 'incumbent', Breakdown[]> = { ours: [], incumbent: [] };
	for (let index = 0; index < breakdownRuns; index++) {
		for (const [key, target] of [
			['ours', ours],
			['incumbent', incumbent],
		] as const) {
			breakdowns[key].push((await runProbe(target, true)).breakdown!);
		}
	}
	const breakdown = {
		ours: summariseBreakdowns(breakdowns.ours),
		incumbent: summariseBreakdowns(breakdowns.incumbent),
	};

	log('sizes: npm pack --dry-run of both');
	const oursPacked = packSize('.', PROJECT_ROOT);
	const size = {
		// No dependencies: installed, ours is its unpacked tarball.
		ours: { ...oursPacked, installedWithDependenciesBytes: oursPacked.unpackedBytes },
		incumbent: {
			...packSize(INCUMBENT, INCUMBENT_INSTALL),
			installedWithDependenciesBytes: folderBytes(path.join(INCUMBENT_INSTALL, 'node_modules')),
		},
	};

	const moduleCount = { ours: median(modules.ours), incumbent: median(modules.incumbent) };
	const ratio = load.ours.median / load.incumbent.median;
	// Reported, not a goal (issue 25): n8n loads the package once at start-up; no user waits on it.
	const loadGoal: GoalResult = {
		id: 'load.median',
		what: `Load: require + instantiate every node and credential in a fresh process (n8n-workflow warm), vs ${INCUMBENT}, once at n8n's start-up`,
		goal: 'reported',
		measured: `${ratioText(ratio)} (${round2(load.ours.median)} ms vs ${round2(load.incumbent.median)} ms; min/min ${ratioText(load.ours.min / load.incumbent.min)})`,
		value: round2(ratio),
		met: true,
		why:
			`Medians ${round2(load.ours.median)} ms for our ${moduleCount.ours} modules, ${round2(load.incumbent.median)} ms for the incumbent's ${moduleCount.incumbent}. ` +
			`Ours: ${breakdownText(breakdown.ours)}; the incumbent: ${breakdownText(breakdown.incumbent)}.` +
			(ratio <= 1
				? ''
				: ` What is left: our files' own code (${breakdown.ours.ownCodeMs} ms against ${breakdown.incumbent.ownCodeMs} ms in the hooked runs; ` +
					`each operation file carries its execute code beside its fields) and more modules and require calls through Node's loader ` +
					`(${moduleCount.ours} and ${breakdown.ours.requireCalls} against ${moduleCount.incumbent} and ${breakdown.incumbent.requireCalls}). ` +
					`One file per operation, compiled by tsc without a bundler, keeps both.`),
	};
	const sizeGoal: GoalResult = {
		id: 'load.size',
		what: `Package size: packed / unpacked (installed with dependencies), vs ${INCUMBENT}`,
		goal: 'reported',
		measured:
			`${kB(size.ours.packedBytes)} / ${kB(size.ours.unpackedBytes)} (${kB(size.ours.installedWithDependenciesBytes)}) ` +
			`vs ${kB(size.incumbent.packedBytes)} / ${kB(size.incumbent.unpackedBytes)} (${kB(size.incumbent.installedWithDependenciesBytes)})`,
		met: true,
		why: `The issue sets no size goal; shown beside the incumbent's. Ours has no dependencies; the incumbent brings axios and its dependencies.`,
	};

	return {
		id: 'load',
		title: 'Load',
		goals: [loadGoal, sizeGoal],
		figures: {
			rounds,
			loadMs: { ours: statsFigure(load.ours), incumbent: statsFigure(load.incumbent) },
			medianRatio: round2(ratio),
			modules: moduleCount,
			breakdown,
			size,
		},
		notes: [
			`Each sample is a fresh Node ${process.version} process that first requires this project's n8n-workflow, then times require + \`new Class()\` of every file in the package's \`n8n\` section; ${rounds} interleaved rounds after one unrecorded round.`,
			`The incumbent ${INCUMBENT} is installed at bench time into ${path.relative(os.homedir(), INCUMBENT_INSTALL)} under the home folder (npm install --ignore-scripts --omit=peer), so it loads the same n8n-workflow as ours through NODE_PATH.`,
			`Where the time goes, from ${breakdownRuns} more run(s) per package with loader hooks (which slow it; medians): ours (${breakdown.ours.totalMs} ms) ${breakdownText(breakdown.ours)}; the incumbent (${breakdown.incumbent.totalMs} ms) ${breakdownText(breakdown.incumbent)}. A file's own code is its compile and top-level run without the requires it makes; its compile is estimated by compiling it once more.`,
		],
	};
};
