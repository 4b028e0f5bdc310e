/**
 * `npm run caches`: fills the shared cache with what the end-to-end and queue tests need and a
 * fresh machine lacks: n8n 2.41.1 and 1.x (about 5 and 3 minutes), Chromium and redis-server from
 * Debian. Each goes in under its own lock (install-once.cts), so a test that needs one of them while
 * this runs waits for it rather than installing it twice. `npm test` starts it with `--background`
 * before the unit tests, which leave a core free (jest runs one worker on two cores): the installs
 * then cost the run little. A failure here fails nothing: the test that needs the install tries it
 * again and says why it failed.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { installN8n, N8N_VERSIONS, NODE24_BIN } from '../e2e/n8n-install.cts';
import type { N8nVersion } from '../e2e/n8n-install.cts';
import { redisServerPath } from '../queue/services.cts';
import { chromiumPath } from './chromium.cts';
import { PROJECT_ROOT } from './paths.cts';

/** Where a background run writes what it did. */
export const BACKGROUND_LOG = path.join(PROJECT_ROOT, '.tmp', 'prepare-caches.log');

const STEPS: Array<[string, () => unknown]> = [
	...(Object.keys(N8N_VERSIONS) as N8nVersion[]).map(
		(version) =>
			[`n8n ${version}`, () => installN8n(undefined, version)] as [string, () => unknown],
	),
	['Chromium', chromiumPath],
	['redis-server', redisServerPath],
];

function prepareAll(): void {
	for (const [name, step] of STEPS) {
		const started = Date.now();
		try {
			step();
			console.log(`[caches] ${name}: ready (${Math.round((Date.now() - started) / 1000)} s)`);
		} catch (error) {
			console.log(`[caches] ${name}: not prepared, the test that needs it will try: ${error}`);
		}
	}
}

/** Starts this script on its own, detached, writing to BACKGROUND_LOG, and returns at once. */
function startInBackground(): void {
	fs.mkdirSync(path.dirname(BACKGROUND_LOG), { recursive: true });
	const log = fs.openSync(BACKGROUND_LOG, 'w');
	const child = spawn(
		NODE24_BIN,
		[path.join(__dirname, 'run-ts.js'), path.join(__dirname, 'prepare-caches.cts')],
		{ cwd: PROJECT_ROOT, detached: true, stdio: ['ignore', log, log] },
	);
	child.unref();
	console.log(`[caches] preparing in the background (pid ${child.pid}), log: ${BACKGROUND_LOG}`);
}

if (process.argv[1] === __filename) {
	if (process.argv.includes('--background')) startInBackground();
	else prepareAll();
}
