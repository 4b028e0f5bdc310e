/**
 * Reads the queue-mode example (examples/queue-mode) for its test: the files as text and the
 * compose file parsed with the `yaml` package, merge keys (`<<: *anchor`) resolved as Compose
 * resolves them, so each service is seen as Compose sees it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { parse } from 'yaml';

import { PROJECT_ROOT } from '../support/paths.cts';

const FOLDER = path.join(PROJECT_ROOT, 'examples', 'queue-mode');

/** The absolute path of a file of the example, from path pieces relative to its folder. */
export const exampleFile = (...pieces: string[]) => path.resolve(FOLDER, ...pieces);

export const readExample = (file: string) => fs.readFileSync(path.join(FOLDER, file), 'utf8');

export const manifest = JSON.parse(
	fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'),
) as {
	name: string;
	version: string;
};

export function parseCompose<T>(text: string): T {
	return parse(text, { merge: true }) as T;
}
