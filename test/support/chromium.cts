/**
 * The Chromium that drives n8n's editor (the editor test and `npm run screenshots`), through
 * playwright-core, which never downloads a browser of its own. Debian's `chromium` package is used;
 * a fresh Debian machine where the tests run as root (CI: `npm install && npm test`) gets it
 * installed with apt-get once, under the same lock as the n8n install, so two runs that start at
 * once do not both call apt-get. Anywhere else a missing Chromium is a clear error.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { installOnce } from './install-once.cts';

/** Debian's Chromium; CHROMIUM_PATH points at another Chromium or Chrome binary. */
export const CHROMIUM_BIN = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where the apt-get output of the automatic install is kept (also the lock's name). */
const APT_RECORD = path.join(os.homedir(), '.cache', 'n8n-nodes-messaging-gateway', 'chromium-apt');

function isExecutable(file: string): boolean {
	try {
		fs.accessSync(file, fs.constants.X_OK);
		return fs.statSync(file).isFile();
	} catch {
		return false;
	}
}

function isDebian(): boolean {
	try {
		return /^ID=("?)debian\1$/m.test(fs.readFileSync('/etc/os-release', 'utf8'));
	} catch {
		return false;
	}
}

/** apt-get may install Chromium here: the default path, Debian, and root. */
function mayInstallWithApt(): boolean {
	return CHROMIUM_BIN === '/usr/bin/chromium' && isDebian() && process.getuid?.() === 0;
}

function aptGet(args: string[], logFile: string): void {
	const result = spawnSync(
		'apt-get',
		// Waits for another apt-get (not one of ours) instead of failing on the dpkg lock.
		['-o', 'DPkg::Lock::Timeout=600', ...args],
		{ env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, encoding: 'utf8' },
	);
	fs.appendFileSync(logFile, `$ apt-get ${args.join(' ')}\n${result.stdout}${result.stderr}\n`);
	if (result.status !== 0) {
		const tail = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-5).join('\n');
		throw new Error(
			`apt-get ${args.join(' ')} failed (${result.error?.message ?? `exit code ${result.status}`}):\n${tail}`,
		);
	}
}

function installWithApt(): void {
	const started = Date.now();
	console.log(
		"[chromium] installing Debian's chromium with apt-get (about a minute, once per machine)",
	);
	installOnce(APT_RECORD, {
		install: (folder) => {
			const logFile = path.join(folder, 'apt-get.log');
			aptGet(['update'], logFile);
			aptGet(['install', '-y', 'chromium'], logFile);
		},
		// Complete means installed on the machine; the folder only keeps the apt-get output.
		isComplete: () => isExecutable(CHROMIUM_BIN),
		log: (message) => console.log(`[chromium] ${message}`),
	});
	console.log(`[chromium] ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** The path of a usable Chromium, installing Debian's package first where that is allowed. */
export function chromiumPath(): string {
	if (isExecutable(CHROMIUM_BIN)) return CHROMIUM_BIN;
	if (mayInstallWithApt()) {
		installWithApt();
		return CHROMIUM_BIN;
	}
	throw new Error(
		`Chromium is needed to drive n8n's editor, and ${CHROMIUM_BIN} does not exist. Install it ` +
			'with `sudo apt-get install chromium` (Debian; `chromium-browser` on Ubuntu), or set ' +
			'CHROMIUM_PATH to a Chromium or Chrome binary. No browser is downloaded.',
	);
}
