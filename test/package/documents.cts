/** The documents generated sections live in, for the test of test/support/readme-section.cts. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { PROJECT_ROOT } from '../support/paths.cts';
import { sectionDocuments } from '../support/readme-section.cts';

/**
 * Every section NAME whose start marker `<!-- NAME -->` stands on a line of its own in README.md or
 * docs/*.md, but the operation reference's end marker (gulp docs writes that block, and
 * `npm run docs:check` checks it).
 */
export function generatedSections(root = PROJECT_ROOT): string[] {
	const names = sectionDocuments(root).flatMap((file) => {
		const text = fs.readFileSync(path.join(root, file), 'utf8');
		return [...text.matchAll(/^<!-- ([a-z0-9-]+:[a-z0-9:-]+) -->$/gm)].map((match) => match[1]);
	});
	return [...new Set(names)].filter((name) => name !== 'reference:end').sort();
}

/** A scratch project holding `files` (path → text), for `run`; removed afterwards. */
export function withDocuments<T>(
	files: Record<string, string>,
	run: (root: string, read: (file: string) => string) => T,
): T {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-section-'));
	try {
		for (const [file, text] of Object.entries(files)) {
			fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
			fs.writeFileSync(path.join(root, file), text);
		}
		return run(root, (file) => fs.readFileSync(path.join(root, file), 'utf8'));
	} finally {
		fs.rmSync(root, { recursive: true, force: true });
	}
}
