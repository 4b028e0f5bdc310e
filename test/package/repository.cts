/** Facts about the repository's own files, for tests that keep it standing alone. */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { PROJECT_ROOT } from '../support/paths.cts';

/** Tracked text files that mention a path outside the repository (a sibling `shared/` folder). */
export function filesPointingOutside(): string[] {
	const files = execFileSync('git', ['ls-files'], { cwd: PROJECT_ROOT, encoding: 'utf8' })
		.split('\n')
		.filter((file) => file !== '' && !file.endsWith('package-lock.json'));
	return files.filter((file) => {
		const fullPath = path.join(PROJECT_ROOT, file);
		if (!fs.existsSync(fullPath) || fs.statSync(fullPath).size > 2_000_000) return false;
		const text = fs.readFileSync(fullPath, 'utf8');
		// `../shared/` from the repository root is outside it; `nodes/shared/` imports are inside.
		return (
			/(^|[^\w/.])\.\.\/shared\/(spec|reference)\b|(^|[\s(`'"])\.\.\/\.\.\/shared\//m.test(text) &&
			!file.startsWith('nodes/')
		);
	});
}
