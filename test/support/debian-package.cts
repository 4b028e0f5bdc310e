/**
 * Programs the tests take from Debian (Chromium for the editor, redis-server for queue mode). A
 * fresh Debian machine where the tests run as root (CI: `npm install && npm test`) gets the
 * package installed with apt-get once, under a lock in the shared cache, so two runs that start at
 * once do not both call apt-get. Anywhere else a missing program is one clear error naming the
 * command to run.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { installOnce } from './install-once.cts';

export interface DebianProgram {
	/** Where Debian's package puts the program, e.g. /usr/bin/chromium. */
	binary: string;
	/** The Debian package, e.g. chromium. */
	debianPackage: string;
	/** Log prefix and lock name, e.g. "chromium". */
	label: string;
	/** What the program is needed for, for the error message. */
	neededFor: string;
	/** How else a user can provide it (e.g. an environment variable), for the error message. */
	alternatives?: string;
	/** False when `binary` is not where the package puts it (a path the user chose). */
	installable?: boolean;
}

export function isExecutable(file: string): boolean {
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

/** The program's path, installing its Debian package first where that is allowed (Debian, root). */
export function debianProgram(program: DebianProgram): string {
	if (isExecutable(program.binary)) return program.binary;
	if (program.installable !== false && isDebian() && process.getuid?.() === 0) {
		const started = Date.now();
		const log = (message: string) => console.log(`[${program.label}] ${message}`);
		log(`installing Debian's ${program.debianPackage} with apt-get (once per machine)`);
		// The folder only keeps the apt-get output; complete means installed on the machine.
		const record = path.join(
			os.homedir(),
			'.cache',
			'n8n-nodes-messaging-gateway',
			`${program.label}-apt`,
		);
		installOnce(record, {
			install: (folder) => {
				const logFile = path.join(folder, 'apt-get.log');
				aptGet(['update'], logFile);
				aptGet(['install', '-y', program.debianPackage], logFile);
			},
			isComplete: () => isExecutable(program.binary),
			log,
		});
		log(`ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
		return program.binary;
	}
	throw new Error(
		`${program.neededFor}, and ${program.binary} does not exist. Install it with ` +
			`\`sudo apt-get install ${program.debianPackage}\`${program.alternatives ? `, or ${program.alternatives}` : ''}.`,
	);
}
