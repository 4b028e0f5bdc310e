/**
 * Turns a bench run into its files: bench/results/<date>.json (every figure) and <date>.md (the
 * same as prose and tables), and the Performance table of docs/performance.md, rendered from the
 * newest JSON so its figures always come from a run (test/package/bench-results.test.ts checks it).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { MachineState, PartResult } from './measure.cts';

export const RESULTS_FOLDER = path.join(__dirname, '..', 'results');

/** Every part of the bench (its module under bench/), in the order they run: in-process first, real n8n last. */
export const BENCH_PARTS: Record<string, string> = {
	engine: path.join(__dirname, '..', 'engine.cts'),
	throttle: path.join(__dirname, '..', 'throttle.cts'),
	trigger: path.join(__dirname, '..', 'trigger.cts'),
	load: path.join(__dirname, '..', 'load.cts'),
	n8n: path.join(__dirname, '..', 'real-n8n.cts'),
};

export interface BenchRun {
	date: string;
	startedAt: string;
	finishedAt: string;
	quick: boolean;
	/** The package version and commit the run measured. */
	packageVersion: string;
	commit?: string;
	machine: MachineState;
	parts: PartResult[];
}

function cell(text: string): string {
	return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

function loadText(load: number[] | undefined): string {
	return load ? load.map((value) => value.toFixed(2)).join(' / ') : 'not recorded';
}

/** The Performance table of docs/performance.md (and the head of the Markdown results). */
export function renderSummary(run: BenchRun): string {
	const lines = [
		`Measured by \`npm run bench\` on ${run.date} (package ${run.packageVersion}${run.commit ? `, commit ${run.commit.slice(0, 7)}` : ''}), ` +
			`${run.machine.cpus} × ${run.machine.cpuModel}, ${run.machine.memoryGiB} GiB, Node ${run.machine.node}; ` +
			`load average (1/5/15 min) ${loadText(run.machine.loadBefore)} before, ${loadText(run.machine.loadAfter)} after.`,
		'',
		'| Part | What | Goal | Measured | |',
		'| --- | --- | --- | --- | --- |',
	];
	for (const part of run.parts) {
		for (const goal of part.goals) {
			lines.push(
				`| ${cell(part.title)} | ${cell(goal.what)} | ${cell(goal.goal)} | ${cell(goal.measured)} | ${goal.met ? 'met' : '**missed**'} |`,
			);
		}
	}
	const explained = run.parts.flatMap((part) => part.goals.filter((goal) => goal.why));
	if (explained.length > 0) {
		lines.push('');
		for (const goal of explained) {
			lines.push(`- **${cell(goal.what)}** (${goal.met ? 'met' : 'missed'}): ${goal.why}`);
		}
	}
	return lines.join('\n');
}

/** The full Markdown results: the summary, then each part's notes and figures. */
export function renderMarkdown(run: BenchRun): string {
	const lines = [`# Benchmark results, ${run.date}`, '', renderSummary(run), ''];
	for (const part of run.parts) {
		lines.push(`## ${part.title}`, '');
		for (const note of part.notes) lines.push(`- ${note}`);
		lines.push('', '```json', JSON.stringify(part.figures, null, 2), '```', '');
	}
	return lines.join('\n');
}

/** Result files are named by date; a second run on one day gets -2, -3… */
export function resultBaseName(date: string): string {
	let name = date;
	for (let counter = 2; fs.existsSync(path.join(RESULTS_FOLDER, `${name}.json`)); counter++) {
		name = `${date}-${counter}`;
	}
	return name;
}

/**
 * The newest full run (every part, not quick) in bench/results/, or undefined when there is none.
 * A run of some parts (`npm run bench -- n8n`) is kept beside it but never renders docs/performance.md.
 */
export function newestRun(folder = RESULTS_FOLDER): BenchRun | undefined {
	if (!fs.existsSync(folder)) return undefined;
	const runs = fs
		.readdirSync(folder)
		.filter((file) => file.endsWith('.json'))
		.map((file) => JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8')) as BenchRun)
		.filter(
			(run) =>
				!run.quick &&
				Object.keys(BENCH_PARTS).every((id) => run.parts.some((part) => part.id === id)),
		)
		.sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
	return runs[runs.length - 1];
}
