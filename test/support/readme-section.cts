/**
 * Figures in the documentation come from runs: a suite renders its own section from what it
 * measured and checks that the document holding the section has exactly that text between
 * `<!-- NAME -->` and `<!-- /NAME -->` (NAME such as `reliability:faults` or
 * `compatibility:operations`). The document is README.md or one of docs/*.md: whichever holds the
 * section's markers, and exactly one must. With UPDATE_README=1 the suite writes the section instead
 * (npm run docs:reliability, npm run docs:compatibility).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { PROJECT_ROOT } from './paths.cts';

function markers(name: string) {
	return { start: `<!-- ${name} -->`, end: `<!-- /${name} -->` };
}

/** The documents a section may live in, relative to `root`: README.md, then docs/*.md by name. */
export function sectionDocuments(root = PROJECT_ROOT): string[] {
	const docs = path.join(root, 'docs');
	const pages = fs.existsSync(docs)
		? fs
				.readdirSync(docs)
				.filter((file) => file.endsWith('.md'))
				.sort()
				.map((file) => `docs/${file}`)
		: [];
	return ['README.md', ...pages];
}

/**
 * The document (relative to `root`) that holds the markers of section NAME. Throws, naming the
 * section, when no document or more than one holds them.
 */
export function readmeSectionFile(name: string, root = PROJECT_ROOT): string {
	const { start, end } = markers(name);
	const holders = sectionDocuments(root).filter((file) => {
		const text = fs.readFileSync(path.join(root, file), 'utf8');
		return text.includes(start) || text.includes(end);
	});
	if (holders.length === 0) {
		throw new Error(
			`No document holds the section ${name} (README.md, docs/*.md): add the markers ${start} … ${end} where it goes`,
		);
	}
	if (holders.length > 1) {
		throw new Error(
			`The section ${name} has markers in ${holders.join(' and ')}: keep ${start} … ${end} in one document`,
		);
	}
	return holders[0];
}

/** The text of the section NAME in its document, or undefined when its end marker is missing or first. */
export function readReadmeSection(name: string, root = PROJECT_ROOT): string | undefined {
	const text = fs.readFileSync(path.join(root, readmeSectionFile(name, root)), 'utf8');
	const { start, end } = markers(name);
	const from = text.indexOf(start);
	const to = text.indexOf(end);
	if (from === -1 || to === -1 || to < from) return undefined;
	return text.slice(from + start.length, to).trim();
}

/** Replaces the text between the markers of section NAME in its document, and names that document. */
export function writeReadmeSection(name: string, rendered: string, root = PROJECT_ROOT): string {
	const file = readmeSectionFile(name, root);
	const absolute = path.join(root, file);
	const { start, end } = markers(name);
	const text = fs.readFileSync(absolute, 'utf8');
	const from = text.indexOf(start);
	const to = text.indexOf(end);
	if (from === -1 || to === -1 || to < from) {
		throw new Error(`${file} must hold ${start} and then ${end} around the section ${name}`);
	}
	fs.writeFileSync(
		absolute,
		`${text.slice(0, from + start.length)}\n${rendered.trim()}\n${text.slice(to)}`,
	);
	return file;
}

/**
 * Writes the section (when UPDATE_README=1) or expects its document to hold it already. `timings`
 * matches the figures of a section that differ from run to run (rates, latencies): the document
 * holds those of the run that wrote it, and a later run checks everything around them.
 */
export function expectReadmeSection(name: string, rendered: string, timings?: RegExp): void {
	const text = rendered.trim();
	if (process.env.UPDATE_README === '1') {
		writeReadmeSection(name, text);
		return;
	}
	const comparable = (section: string | undefined) =>
		timings && section !== undefined ? section.replace(timings, '…') : section;
	const file = readmeSectionFile(name);
	expect({ section: name, file, text: comparable(readReadmeSection(name)) }).toEqual({
		section: name,
		file,
		text: comparable(text),
	});
}
