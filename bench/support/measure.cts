/**
 * The pieces every part of `npm run bench` shares: interleaved repetitions (so a slow moment of the
 * machine hits every variant alike), min/median statistics, and the result shape the runner writes
 * to bench/results/ and renders into the Performance table of docs/performance.md.
 */
import * as os from 'node:os';
import * as path from 'node:path';

export interface Stats {
	min: number;
	median: number;
	max: number;
	samples: number[];
}

export function stats(samples: number[]): Stats {
	if (samples.length === 0) throw new Error('No samples to summarise');
	const sorted = [...samples].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	const median =
		sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	return { min: sorted[0], median, max: sorted[sorted.length - 1], samples };
}

/**
 * Runs every variant once per round, `rounds` times, in a rotating order (round r starts with
 * variant r mod n), after `warmupRounds` unrecorded rounds. Each variant returns what it measured
 * (a duration, bytes…), so setup and teardown stay outside the figure.
 */
export async function interleaved<K extends string>(
	variants: Record<K, () => Promise<number>>,
	rounds: number,
	warmupRounds = 1,
): Promise<Record<K, Stats>> {
	const names = Object.keys(variants) as K[];
	const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
		K,
		number[]
	>;
	for (let round = -warmupRounds; round < rounds; round++) {
		const start = ((round % names.length) + names.length) % names.length;
		for (let offset = 0; offset < names.length; offset++) {
			const name = names[(start + offset) % names.length];
			const value = await variants[name]();
			if (round >= 0) samples[name].push(value);
		}
	}
	return Object.fromEntries(names.map((name) => [name, stats(samples[name])])) as Record<K, Stats>;
}

/**
 * What n8n-core reads when it is first used, set before any part runs, as test/support/jest-env.js
 * sets it for the tests: a silent logger (which the trigger harness records) and a user folder of
 * the bench's own.
 */
export function n8nCoreEnvironment(): void {
	process.env.N8N_USER_FOLDER ??= path.join(os.tmpdir(), 'n8n-messaging-gateway-bench');
	process.env.N8N_ENCRYPTION_KEY ??= 'bench-only-encryption-key';
	process.env.N8N_LOG_LEVEL ??= 'silent';
}

/** Milliseconds since `start` (from process.hrtime.bigint()). */
export function elapsedMs(start: bigint): number {
	return Number(process.hrtime.bigint() - start) / 1e6;
}

/** One goal of the issue, as measured. */
export interface GoalResult {
	/** Stable key, e.g. "engine.sendText.reference". */
	id: string;
	/** What is compared, in words. */
	what: string;
	/** The goal in words, e.g. "≤ 1.05× the reference node". */
	goal: string;
	/** The measured figure in words, e.g. "1.02× (min 1.01×)". */
	measured: string;
	/** The number the goal is judged on (a ratio, a share, microseconds…), when there is one. */
	value?: number;
	met: boolean;
	/** Why a goal is missed, from what was measured; or what a figure without a goal means. */
	why?: string;
}

/** What one part of the bench reports. */
export interface PartResult {
	id: string;
	title: string;
	goals: GoalResult[];
	/** Every figure behind the goals (stats per variant, sizes, counts), kept in the JSON results. */
	figures: Record<string, unknown>;
	/** Plain sentences for the Markdown results (how it was measured, what was noticed). */
	notes: string[];
}

export interface BenchContext {
	/** Fewer rounds and items: a quick look while working, never for docs/performance.md. */
	quick: boolean;
	log(line: string): void;
}

export type BenchPart = (context: BenchContext) => Promise<PartResult>;

export interface MachineState {
	cpus: number;
	cpuModel: string;
	memoryGiB: number;
	/** os.loadavg() before and after the run: a busy machine makes every figure slower. */
	loadBefore: number[];
	loadAfter?: number[];
	node: string;
	platform: string;
}

export function machineState(): MachineState {
	const cpus = os.cpus();
	return {
		cpus: cpus.length,
		cpuModel: cpus[0]?.model ?? 'unknown',
		memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
		loadBefore: os.loadavg().map(round2),
		node: process.version,
		platform: `${os.platform()} ${os.release()}`,
	};
}

export function round2(value: number): number {
	return Math.round(value * 100) / 100;
}

/** "1.74 µs" */
export function microsecondsText(value: number): string {
	return `${value.toFixed(2)} µs`;
}

/** A variant's min, median and max, rounded for the results (its samples apart). */
export function roundedStats(stats: Stats): { min: number; median: number; max: number } {
	return { min: round2(stats.min), median: round2(stats.median), max: round2(stats.max) };
}

/** "1.03×" */
export function ratioText(value: number): string {
	return `${value.toFixed(2)}×`;
}

/** A ratio goal: median of `subject` over median of `baseline`, met when ≤ `limit`. */
export function ratioGoal(options: {
	id: string;
	what: string;
	subject: Stats;
	baseline: Stats;
	limit: number;
	why?: string;
}): GoalResult {
	const median = options.subject.median / options.baseline.median;
	const best = options.subject.min / options.baseline.min;
	const met = median <= options.limit;
	return {
		id: options.id,
		what: options.what,
		goal: `≤ ${ratioText(options.limit)}`,
		measured: `${ratioText(median)} (min/min ${ratioText(best)})`,
		value: round2(median),
		met,
		...(options.why ? { why: options.why } : {}),
	};
}
