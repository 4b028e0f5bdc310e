/**
 * `npm run bench [-- --quick] [part…]`: measures the package against its floors and rivals (see
 * docs/performance.md) and writes bench/results/<date>.json and .md (<date>-<parts>[-quick] for
 * a run of some parts or a quick one). A full run (every part, not --quick) also writes the
 * Performance table of docs/performance.md. Parts: engine, throttle, trigger, load, n8n.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { PROJECT_ROOT } from '../test/support/paths.cts';
import type { BenchPart, PartResult } from './support/measure.cts';
import { machineState, n8nCoreEnvironment, round2 } from './support/measure.cts';
import type { BenchRun } from './support/report.cts';
import {
	BENCH_PARTS,
	renderMarkdown,
	renderSummary,
	resultBaseName,
	RESULTS_FOLDER,
} from './support/report.cts';
import { writeReadmeSection } from '../test/support/readme-section.cts';

function commitOf(): string | undefined {
	try {
		return execFileSync('git', ['rev-parse', 'HEAD'], {
			cwd: PROJECT_ROOT,
			encoding: 'utf8',
		}).trim();
	} catch {
		return undefined;
	}
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const quick = args.includes('--quick');
	const wanted = args.filter((arg) => !arg.startsWith('--'));
	const unknown = wanted.filter((name) => !(name in BENCH_PARTS));
	if (unknown.length > 0) {
		throw new Error(
			`Unknown bench part(s) ${unknown.join(', ')}; parts: ${Object.keys(BENCH_PARTS).join(', ')}`,
		);
	}
	const names = wanted.length > 0 ? wanted : Object.keys(BENCH_PARTS);
	n8nCoreEnvironment();
	const startedAt = new Date();
	const machine = machineState();
	const log = (line: string) =>
		console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
	log(
		`${machine.cpus} CPUs, load ${machine.loadBefore.join(' / ')}; parts: ${names.join(', ')}${quick ? ' (quick)' : ''}`,
	);
	const parts: PartResult[] = [];
	for (const name of names) {
		log(`part ${name}…`);
		// Loaded when it runs: a part pulls in heavy modules (n8n-core, the simulator, n8n itself).
		const part = (require(BENCH_PARTS[name]) as { run: BenchPart }).run;
		const result = await part({ quick, log: (line) => log(`${name}: ${line}`) });
		parts.push(result);
		for (const goal of result.goals) {
			log(
				`${name}: ${goal.met ? 'met   ' : 'MISSED'} ${goal.what}: ${goal.measured} (goal ${goal.goal})`,
			);
		}
	}
	machine.loadAfter = os.loadavg().map(round2);
	const packageJson = JSON.parse(
		fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'),
	) as {
		version: string;
	};
	const date = startedAt.toISOString().slice(0, 10);
	const run: BenchRun = {
		date,
		startedAt: startedAt.toISOString(),
		finishedAt: new Date().toISOString(),
		quick,
		packageVersion: packageJson.version,
		commit: commitOf(),
		machine,
		parts,
	};
	fs.mkdirSync(RESULTS_FOLDER, { recursive: true });
	// A run of some parts only is named after them, so it never passes for a full run of the day.
	const full = names.length === Object.keys(BENCH_PARTS).length;
	const label = [date, ...(full ? [] : names), ...(quick ? ['quick'] : [])].join('-');
	const base = path.join(RESULTS_FOLDER, resultBaseName(label));
	fs.writeFileSync(`${base}.json`, `${JSON.stringify(run, null, '\t')}\n`);
	fs.writeFileSync(`${base}.md`, renderMarkdown(run));
	log(`results: ${path.relative(PROJECT_ROOT, base)}.json and .md`);
	if (!quick && full) {
		const file = writeReadmeSection('performance:results', renderSummary(run));
		log(`${file}: the Performance table written`);
	} else {
		log(
			'the Performance table left as it is (only a full run, every part and not --quick, writes it)',
		);
	}
	console.log(renderSummary(run));
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
