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

/** What `npm pack` would put into the tarball: paths, packed and unpacked size. */
export function packedFiles(): { files: string[]; size: number; unpackedSize: number } {
	const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: PROJECT_ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	});
	const [pack] = JSON.parse(output) as Array<{
		files: Array<{ path: string }>;
		size: number;
		unpackedSize: number;
	}>;
	return {
		files: pack.files.map((file) => file.path).sort(),
		size: pack.size,
		unpackedSize: pack.unpackedSize,
	};
}

/** The files package.json's `n8n` section tells n8n to load. */
export function n8nEntryFiles(): string[] {
	const manifest = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	return [...manifest.n8n.nodes, ...manifest.n8n.credentials];
}
