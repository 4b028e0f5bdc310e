/**
 * The package's import graph, read from the source: every relative import of nodes/ and
 * credentials/, resolved to the file it names (import-layers.test.ts judges it).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { PROJECT_ROOT } from '../support/paths.cts';

const ROOT = PROJECT_ROOT;

function sourceFiles(folder: string): string[] {
	return fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.posix.join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(relative);
		return entry.name.endsWith('.ts') ? [relative] : [];
	});
}

export const FILES = [...sourceFiles('nodes'), ...sourceFiles('credentials')];
const KNOWN = new Set(FILES);
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*'(\.[^']*)'/g;

/** Each file's relative imports, as the files they resolve to. */
export const IMPORTS = new Map(
	FILES.map((file) => {
		const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
		const targets = [...text.matchAll(IMPORT)].map(([, spec]) => {
			const base = path.posix.join(path.posix.dirname(file), spec);
			const found = [`${base}.ts`, `${base}/index.ts`].find((candidate) => KNOWN.has(candidate));
			if (!found) throw new Error(`${file} imports ${spec}, which is no source file`);
			return found;
		});
		return [file, new Set(targets)];
	}),
);

/** Every import as "from -> to". */
export const EDGES = [...IMPORTS].flatMap(([from, targets]) =>
	[...targets].map((to) => ({ from, to })),
);

/** A source file's lines. */
export function lineCount(file: string): number {
	return fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length - 1;
}
