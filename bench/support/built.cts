/** The package as users run it: classes from the built dist/ (run `npm run build` first). */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

import { PROJECT_ROOT } from '../../test/support/paths.cts';

/** A new instance of class `className` exported by the built file `relative` (under dist/). */
export function built<T>(relative: string, className: string): T {
	const exported = require(path.join(PROJECT_ROOT, 'dist', relative)) as Record<
		string,
		new () => T
	>;
	return new exported[className]();
}

/** Whether a script URL (as V8's profiler names it) is one of the package's built files. */
export function isBuiltFile(url: string): boolean {
	return url.startsWith(`${pathToFileURL(path.join(PROJECT_ROOT, 'dist')).href}/`);
}
