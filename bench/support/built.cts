/** The package as users run it: classes from the built dist/ (run `npm run build` first). */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

import { PROJECT_ROOT } from '../../test/support/paths.cts';

/** The exports of the built file `relative` (under dist/), as the built nodes load them. */
export function builtModule<T>(relative: string): T {
	return require(path.join(PROJECT_ROOT, 'dist', relative)) as T;
}

/** A new instance of class `className` exported by the built file `relative` (under dist/). */
export function built<T>(relative: string, className: string): T {
	return new (builtModule<Record<string, new () => T>>(relative)[className])();
}

/** Whether a script URL (as V8's profiler names it) is one of the package's built files. */
export function isBuiltFile(url: string): boolean {
	return url.startsWith(`${pathToFileURL(path.join(PROJECT_ROOT, 'dist')).href}/`);
}
