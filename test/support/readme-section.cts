/**
 * Figures in the README come from runs: a suite renders its own section from what it measured and
 * checks that README.md holds exactly that text between `<!-- NAME -->` and `<!-- /NAME -->`
 * (NAME such as `reliability:faults` or `compatibility:operations`). With UPDATE_README=1 the suite
 * writes the section instead (npm run docs:reliability, npm run docs:compatibility).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { PROJECT_ROOT } from './paths.cts';

const README = path.join(PROJECT_ROOT, 'README.md');

function markers(name: string) {
	return { start: `<!-- ${name} -->`, end: `<!-- /${name} -->` };
}

/** The text of the section NAME in README.md, or undefined when its markers are missing. */
export function readReadmeSection(name: string): string | undefined {
	const readme = fs.readFileSync(README, 'utf8');
	const { start, end } = markers(name);
	const from = readme.indexOf(start);
	const to = readme.indexOf(end);
	if (from === -1 || to === -1 || to < from) return undefined;
	return readme.slice(from + start.length, to).trim();
}

/** Replaces the text between the markers of section NAME in README.md. */
export function writeReadmeSection(name: string, rendered: string): void {
	const { start, end } = markers(name);
	const readme = fs.readFileSync(README, 'utf8');
	const from = readme.indexOf(start);
	const to = readme.indexOf(end);
	if (from === -1 || to === -1) {
		throw new Error(`README.md has no markers ${start} … ${end}: add them where the section goes`);
	}
	fs.writeFileSync(
		README,
		`${readme.slice(0, from + start.length)}\n${rendered.trim()}\n${readme.slice(to)}`,
	);
}

/**
 * Writes the section (when UPDATE_README=1) or expects README.md to hold it already. `timings`
 * matches the figures of a section that differ from run to run (rates, latencies): README.md holds
 * those of the run that wrote it, and a later run checks everything around them.
 */
export function expectReadmeSection(name: string, rendered: string, timings?: RegExp): void {
	const text = rendered.trim();
	if (process.env.UPDATE_README === '1') {
		writeReadmeSection(name, text);
		return;
	}
	const comparable = (section: string | undefined) =>
		timings && section !== undefined ? section.replace(timings, '…') : section;
	expect({ section: name, text: comparable(readReadmeSection(name)) }).toEqual({
		section: name,
		text: comparable(text),
	});
}
