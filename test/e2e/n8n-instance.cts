/**
 * Boots a real n8n (the cached install from n8n-install.cts) on loopback with this package installed
 * the way n8n's community-package installer does it (npm pack + unpack into .n8n/nodes/node_modules),
 * and talks to it over its REST and public APIs. Used by the end-to-end tests and the sandbox.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import axios from 'axios';
import type { AxiosInstance } from 'axios';
import type { INode, INodeCredentialsDetails } from 'n8n-workflow';

import { PROJECT_ROOT } from '../support/paths.cts';
import {
	installN8n,
	N8N_VERSION,
	n8nBin,
	n8nDir,
	n8nVersionProfile,
	NODE24_BIN,
	node24Env,
} from './n8n-install.cts';
import type { N8nVersion } from './n8n-install.cts';
import { isAlive } from '../support/install-once.cts';

export const PACKAGE_NAME = 'n8n-nodes-messaging-gateway';

export interface N8nOwner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export const DEFAULT_OWNER: N8nOwner = {
	email: 'owner@example.com',
	firstName: 'Sandbox',
	lastName: 'Owner',
	password: 'Sandbox-Passw0rd',
};

export interface N8nInstance {
	url: string;
	/** The n8n version running (StartN8nOptions.version, by default N8N_E2E_VERSION's). */
	version: N8nVersion;
	userFolder: string;
	/** The extra environment it was started with (StartN8nOptions.env): `n8n execute` beside it gets it too. */
	env: NodeJS.ProcessEnv;
	logFile: string;
	/** The n8n server's process ID (for memory figures). */
	pid: number;
	/** Public API (X-N8N-API-KEY). */
	api: AxiosInstance;
	/** Internal REST API (/rest) with the owner's login cookie. */
	rest: AxiosInstance;
	/** Everything else under the n8n URL (e.g. /types/nodes.json), with the login cookie. */
	web: AxiosInstance;
	log(): string;
	loaderProblems(): string[];
	/** Stops n8n (by default SIGTERM); a temporary user folder is removed, a kept one stays. */
	stop(options?: StopOptions): Promise<void>;
}

export interface N8nRuntime {
	/** The version the running n8n reports. */
	n8n: string;
	/** The Node.js n8n runs on. */
	node: string;
	/** The Node.js versions that n8n version accepts (its package.json `engines`). */
	nodeEngines: string;
	/** The n8n-workflow the nodes run with there (their peer dependency, n8n's own copy). */
	n8nWorkflow: string;
}

/** What a running n8n says it is, and the Node.js it runs on (the one startN8n starts it with). */
export async function runtimeOf(n8n: N8nInstance): Promise<N8nRuntime> {
	const settings = await n8n.rest.get('/settings');
	if (settings.status !== 200)
		throw new Error(`Reading the n8n settings failed: ${settings.status}`);
	const manifestOf = (packageName: string) =>
		JSON.parse(
			fs.readFileSync(
				path.join(n8nDir(n8n.version), 'node_modules', packageName, 'package.json'),
				'utf8',
			),
		) as { version: string; engines?: { node?: string } };
	const node = spawnSync(NODE24_BIN, ['-p', 'process.versions.node'], { encoding: 'utf8' });
	return {
		n8n: String(settings.data.data.versionCli),
		node: node.stdout.trim(),
		nodeEngines: manifestOf('n8n').engines?.node ?? 'any',
		n8nWorkflow: manifestOf('n8n-workflow').version,
	};
}

export interface StartN8nOptions {
	/** The n8n version to run; by default the one N8N_E2E_VERSION selects (2.41.1). */
	version?: N8nVersion;
	/** Keep the data between runs (the sandbox) instead of a fresh temporary folder (the tests). */
	userFolder?: string;
	port?: number;
	owner?: N8nOwner;
	/** False when the nodes come from elsewhere, e.g. the `.n8n/custom` link `n8n-node dev` makes. */
	installPackage?: boolean;
	/** Extra environment, e.g. N8N_LOG_LEVEL. */
	env?: NodeJS.ProcessEnv;
	onOutput?: (line: string) => void;
}

/** Ports this process has handed out, so two servers it starts never get the same one. */
const handedOut = new Set<number>();

/**
 * Ports handed out by any test process on this machine (jest runs two files at once, each in its
 * own process): a file per port, holding the pid that took it; a dead pid's port is free again.
 * Without it, a port that a stopped n8n process will take again on its restart (a worker's health
 * port) could be handed to the other file meanwhile.
 */
const RESERVED_PORTS = path.join(os.tmpdir(), 'n8n-mg-reserved-ports');

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** Reserves the port for this process unless a live one holds it. */
function reservePort(port: number): boolean {
	fs.mkdirSync(RESERVED_PORTS, { recursive: true });
	const file = path.join(RESERVED_PORTS, String(port));
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
			return true;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		}
		const holder = Number(fs.readFileSync(file, 'utf8'));
		if (holder === process.pid || (Number.isInteger(holder) && holder > 0 && alive(holder))) {
			return false;
		}
		fs.rmSync(file, { force: true });
	}
	return false;
}

process.on('exit', () => {
	for (const port of handedOut) fs.rmSync(path.join(RESERVED_PORTS, String(port)), { force: true });
});

/** The first port of the range the system gives outgoing connections (Linux's default 32768). */
function ephemeralRangeStart(): number {
	try {
		const [low] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/);
		const start = Number(low);
		return Number.isInteger(start) && start > 20_000 ? start : 32_768;
	} catch {
		return 32_768;
	}
}

/** Whether `port` can be listened on now; the port is released again at once. */
async function canListen(port: number): Promise<boolean> {
	const server = net.createServer();
	const listening = await new Promise<boolean>((resolve) => {
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => resolve(true));
	});
	if (listening) await new Promise<void>((resolve) => server.close(() => resolve()));
	return listening;
}

/**
 * A free loopback port for a server started later, below the range outgoing connections take
 * their local ports from: a port from that range (what listen(0) gives) can be taken by any
 * connection in the minute before the server binds it (n8n's to PostgreSQL and Redis included),
 * and the server then fails with EADDRINUSE.
 */
export async function freePort(): Promise<number> {
	const low = 15_000;
	const high = ephemeralRangeStart() - 1;
	for (let attempt = 0; attempt < 200; attempt++) {
		const port = low + Math.floor(Math.random() * (high - low + 1));
		if (handedOut.has(port) || !(await canListen(port)) || !reservePort(port)) continue;
		handedOut.add(port);
		return port;
	}
	throw new Error(`No free loopback port between ${low} and ${high}`);
}

/** The files n8n loads (package.json `n8n` section) that an unpacked package lacks. */
function missingLoadedFiles(packageFolder: string): string[] {
	const manifest = JSON.parse(fs.readFileSync(path.join(packageFolder, 'package.json'), 'utf8'));
	const listed: string[] = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
	return listed.filter((file) => !fs.existsSync(path.join(packageFolder, file)));
}

/** npm pack into a folder of this run's own, then unpack into `target`. */
function packAndUnpack(target: string): void {
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-mg-pack-'));
	try {
		const pack = spawnSync('npm', ['pack', '--silent', '--pack-destination', packDir], {
			cwd: PROJECT_ROOT,
			env: node24Env(),
			encoding: 'utf8',
		});
		if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
		const tarball = path.join(packDir, pack.stdout.trim().split('\n').pop() as string);
		fs.rmSync(target, { recursive: true, force: true });
		fs.mkdirSync(target, { recursive: true });
		const untar = spawnSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
		if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
	} finally {
		fs.rmSync(packDir, { recursive: true, force: true });
	}
}

/**
 * n8n's own SSRF protection: off, as n8n ships, unless N8N_E2E_SSRF_PROTECTION=on, which runs
 * the suite as the README tells users with a gateway on their own network to set it up: on, with
 * the gateway's host (the simulator, on loopback) allowed by name.
 */
export function ssrfProtectionEnv(): NodeJS.ProcessEnv {
	return process.env.N8N_E2E_SSRF_PROTECTION === 'on'
		? { N8N_SSRF_PROTECTION_ENABLED: 'true', ...SSRF_GATEWAY_ALLOWED }
		: { N8N_SSRF_PROTECTION_ENABLED: 'false' };
}

/** What a gateway on loopback needs through n8n's SSRF protection (the README's advice). */
export const SSRF_GATEWAY_ALLOWED = {
	N8N_SSRF_ALLOWED_HOSTNAMES: 'localhost',
	N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.0/8,::1/128',
} as const;

/**
 * The environment every n8n process of a run gets (the server and `n8n execute` beside it): loopback
 * only, no calls home, community packages from `.n8n/nodes`, the version's own list of modules off.
 */
export function n8nBaseEnv(version: N8nVersion, userFolder: string): NodeJS.ProcessEnv {
	return {
		N8N_USER_FOLDER: userFolder,
		N8N_RUNNERS_MODE: 'internal',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		...ssrfProtectionEnv(),
		N8N_DISABLED_MODULES: n8nVersionProfile(version).disabledModules.join(','),
		N8N_LOG_OUTPUT: 'console',
		NO_COLOR: '1',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_ENCRYPTION_KEY: 'e2e-and-sandbox-only-key',
		// Under jest NODE_ENV is "test", which makes n8n skip parts of its start-up: run it as users do.
		NODE_ENV: 'production',
	};
}

/**
 * The internal REST client, with the owner's login. On n8n 1.x a new workflow is completed before
 * it is saved as 1.x's editor does it when it imports a file (the 1.x server does none of it):
 * `active: false` unless given; each credential given by name only linked to the one credential of
 * that type and name, if there is exactly one; a `webhookId` for each node with webhooks that has
 * none (without it 1.x registers a path it cannot match when the node's name has a space). So a
 * workflow file is saved the same on both versions.
 */
function restApi(url: string, session: Record<string, string>, version: N8nVersion): AxiosInstance {
	const rest = axios.create({
		baseURL: `${url}/rest`,
		validateStatus: () => true,
		headers: session,
	});
	if (!n8nVersionProfile(version).editorCompletesImports) return rest;
	let webhookTypes: Promise<string[]> | undefined;
	const typesWithWebhooks = () =>
		(webhookTypes ??= axios
			.get(`${url}/types/nodes.json`, { headers: session })
			.then((response) =>
				(response.data as Array<{ name: string; webhooks?: unknown[] }>)
					.filter((type) => (type.webhooks ?? []).length > 0)
					.map((type) => type.name),
			));
	rest.interceptors.request.use(async (request) => {
		const isWorkflowCreation =
			request.method?.toLowerCase() === 'post' && /^\/?workflows\/?$/.test(request.url ?? '');
		const workflow = request.data as { nodes?: INode[] } | undefined;
		if (!isWorkflowCreation || typeof workflow !== 'object' || workflow === null) return request;
		const credentials = (await rest.get('/credentials')).data?.data as
			| Array<{ id: string; name: string; type: string }>
			| undefined;
		const linked = (type: string, given: INodeCredentialsDetails) => {
			if (given.id) return given;
			const matches = (credentials ?? []).filter(
				(credential) => credential.type === type && credential.name === given.name,
			);
			return matches.length === 1 ? { id: matches[0].id, name: given.name } : given;
		};
		const withWebhooks = await typesWithWebhooks();
		const nodes = workflow.nodes?.map((node) => ({
			...node,
			...(node.credentials && {
				credentials: Object.fromEntries(
					Object.entries(node.credentials).map(([type, given]) => [type, linked(type, given)]),
				),
			}),
			...(!node.webhookId && withWebhooks.includes(node.type) && { webhookId: randomUUID() }),
		}));
		request.data = { active: false, ...workflow, ...(nodes ? { nodes } : {}) };
		return request;
	});
	return rest;
}

/**
 * The public API client. On n8n 1.x a new credential's data gets the fields its schema requires
 * when the credential type has them (allowedHttpRequestDomains, which 1.x adds to credentials with
 * their own authentication) unless the caller gave them, so the same calls create a credential on both
 * versions; a type without them gets nothing added (1.x refuses unknown fields).
 */
function publicApi(url: string, apiKey: string, version: N8nVersion): AxiosInstance {
	const api = axios.create({
		baseURL: `${url}/api/v1`,
		validateStatus: () => true,
		headers: { 'X-N8N-API-KEY': apiKey },
	});
	const defaults = Object.entries(n8nVersionProfile(version).credentialDataDefaults);
	if (defaults.length === 0) return api;
	const schemaFields = new Map<string, Promise<string[]>>();
	const fieldsOf = (type: string) => {
		if (!schemaFields.has(type)) {
			const fields = api
				.get(`/credentials/schema/${encodeURIComponent(type)}`)
				.then((response) => Object.keys(response.data?.properties ?? {}));
			schemaFields.set(type, fields);
		}
		return schemaFields.get(type)!;
	};
	api.interceptors.request.use(async (request) => {
		const isCredentialCreation =
			request.method?.toLowerCase() === 'post' && /^\/?credentials\/?$/.test(request.url ?? '');
		const body = request.data as { type?: unknown; data?: unknown } | undefined;
		if (
			isCredentialCreation &&
			typeof body?.type === 'string' &&
			typeof body.data === 'object' &&
			body.data !== null
		) {
			const fields = await fieldsOf(body.type);
			const applicable = defaults.filter(([field]) => fields.includes(field));
			request.data = { ...body, data: { ...Object.fromEntries(applicable), ...body.data } };
		}
		return request;
	});
	return api;
}

/** npm pack + unpack, without dev and peer dependencies: what n8n's installer puts on disk. */
export function installPackageInto(userFolder: string): string {
	const target = path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
	// A build in another terminal (npm test next to npm start) empties dist/ first: pack again.
	for (let attempt = 1; ; attempt++) {
		packAndUnpack(target);
		const missing = missingLoadedFiles(target);
		if (missing.length === 0) break;
		if (attempt === 5) {
			throw new Error(
				`The packed package lacks ${missing.join(', ')}: run npm run build (or wait for the one running)`,
			);
		}
		Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000);
	}
	const manifestPath = path.join(target, 'package.json');
	const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
	delete manifest.devDependencies;
	delete manifest.peerDependencies;
	delete manifest.optionalDependencies;
	fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	return target;
}

export async function waitFor(
	description: string,
	timeoutMs: number,
	check: () => Promise<boolean>,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (await check().catch(() => false)) return;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`Timed out after ${timeoutMs} ms waiting for ${description}`);
}

function cookieFrom(setCookie: string[] | undefined): string {
	const cookie = (setCookie ?? []).find((entry) => entry.startsWith('n8n-auth='));
	if (!cookie) throw new Error('n8n did not set the n8n-auth cookie');
	return cookie.split(';')[0];
}

/** How an n8n process is stopped: SIGTERM lets it shut down (SIGKILL after `graceMs`), SIGKILL is a crash. */
export interface StopOptions {
	signal?: 'SIGTERM' | 'SIGKILL';
	graceMs?: number;
}

async function stopProcessGroup(child: ChildProcess, options: StopOptions = {}): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	try {
		process.kill(-child.pid, options.signal ?? 'SIGTERM');
	} catch {
		return;
	}
	const killTimer = setTimeout(() => {
		try {
			process.kill(-child.pid!, 'SIGKILL');
		} catch {
			// already gone
		}
	}, options.graceMs ?? 10_000);
	await exited;
	clearTimeout(killTimer);
}

/**
 * Claims a kept user folder (the sandbox's) for this process, because two n8n on one SQLite
 * database corrupt it; returns the release. A claim whose process is gone is taken over.
 */
export function claimUserFolder(userFolder: string): () => void {
	const claimFile = path.join(userFolder, 'n8n-in-use.pid');
	fs.mkdirSync(userFolder, { recursive: true });
	for (let attempt = 0; attempt < 50; attempt++) {
		try {
			fs.writeFileSync(claimFile, String(process.pid), { flag: 'wx' });
			return () => fs.rmSync(claimFile, { force: true });
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		}
		const owner = Number(fs.readFileSync(claimFile, 'utf8'));
		if (owner > 0 && isAlive(owner)) {
			throw new Error(
				`Another run (process ${owner}) uses the n8n folder ${userFolder}: stop it first, or give this run another folder`,
			);
		}
		// The owner is gone, or is writing its pid this very moment: look again.
		if (owner > 0) fs.rmSync(claimFile, { force: true });
		Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
	}
	throw new Error(`Could not claim the n8n folder ${userFolder}`);
}

export interface N8nProcess {
	child: ChildProcess;
	/** Stops the process group (n8n and its task runner) and closes the log. */
	stop: (options?: StopOptions) => Promise<void>;
	/** Once it exited, resolves when all it printed is in its log (at most a few seconds later). */
	logged: () => Promise<void>;
}

/** How long an exited process's output may take to reach its log. */
const LOG_FLUSH_MS = 5000;

/**
 * Starts `n8n <args>` (start, webhook, worker, …) of a version on Node 24 in its own process group,
 * so n8n and its task runner stop together; everything it prints goes to `logFile`.
 */
export function spawnN8nProcess(
	version: N8nVersion,
	args: string[],
	env: NodeJS.ProcessEnv,
	logFile: string,
	onOutput?: (line: string) => void,
): N8nProcess {
	const logStream = fs.createWriteStream(logFile, { flags: 'a' });
	const child = spawn(NODE24_BIN, [n8nBin(version), ...args], {
		env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	for (const stream of [child.stdout, child.stderr]) {
		stream?.on('data', (chunk: Buffer) => {
			if (!logStream.writableEnded) logStream.write(chunk);
			if (onOutput) for (const line of chunk.toString('utf8').split('\n')) if (line) onOutput(line);
		});
	}
	// Its output closes after it exited; a task runner it left may hold the pipe, hence the limit.
	const outputClosed = new Promise<void>((resolve) => {
		child.once('close', () => resolve());
		child.once('exit', () => setTimeout(resolve, LOG_FLUSH_MS).unref());
	});
	const logClosed = outputClosed.then(
		async () => await new Promise<void>((resolve) => logStream.end(() => resolve())),
	);
	return {
		child,
		stop: async (options?: StopOptions) => {
			await stopProcessGroup(child, options);
			await logClosed;
		},
		logged: async () => await logClosed,
	};
}

/** The log lines that say n8n could not load a package or one of its nodes or credentials. */
export function loaderProblemsIn(log: string): string[] {
	return log
		.split('\n')
		.filter((line) =>
			/Failed to load package|Skipping package|Class could not be found|Error loading package|Unrecognized node type/i.test(
				line,
			),
		);
}

export async function startN8n(options: StartN8nOptions = {}): Promise<N8nInstance> {
	installN8n(undefined, options.version ?? N8N_VERSION);
	// Each test run gets a user folder of its own, removed on stop; a kept folder (the sandbox's)
	// is claimed, so a second run cannot start another n8n on its database.
	const userFolder = options.userFolder ?? fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-mg-e2e-'));
	const releaseFolder = options.userFolder ? claimUserFolder(userFolder) : () => {};
	try {
		return await startN8nIn(userFolder, options, releaseFolder);
	} catch (error) {
		releaseFolder();
		throw error;
	}
}

async function startN8nIn(
	userFolder: string,
	options: StartN8nOptions,
	releaseFolder: () => void,
): Promise<N8nInstance> {
	if (options.installPackage !== false) installPackageInto(userFolder);
	const version = options.version ?? N8N_VERSION;
	const port = options.port ?? (await freePort());
	const brokerPort = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const logFile = path.join(userFolder, 'n8n.log');
	const scratch = path.join(userFolder, 'tmp');
	fs.mkdirSync(scratch, { recursive: true });
	const env = node24Env({
		...n8nBaseEnv(version, userFolder),
		DB_TYPE: 'sqlite',
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_WEBHOOK_URL: `${url}/`,
		N8N_EDITOR_BASE_URL: `${url}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_LOG_LEVEL: 'debug',
		TMPDIR: scratch,
		...options.env,
	});
	const { child, stop: instanceStop } = spawnN8nProcess(
		version,
		['start'],
		env,
		logFile,
		options.onOutput,
	);
	try {
		await waitFor('n8n readiness', 180_000, async () => {
			if (child.exitCode !== null)
				throw new Error(`n8n exited with ${child.exitCode}; see ${logFile}`);
			const response = await axios.get(`${url}/healthz/readiness`, {
				validateStatus: () => true,
				timeout: 2000,
			});
			return response.status === 200;
		});
		// n8n 1.x is "ready" once its database is migrated, before its REST routes exist: wait for them.
		await waitFor('the n8n REST API', 120_000, async () => {
			const response = await axios.get(`${url}/rest/settings`, {
				validateStatus: () => true,
				timeout: 2000,
			});
			return response.status === 200 && typeof response.data?.data === 'object';
		});
		const owner = options.owner ?? DEFAULT_OWNER;
		const plain = axios.create({
			baseURL: url,
			validateStatus: () => true,
			headers: { 'browser-id': 'e2e' },
		});
		let login = await plain.post('/rest/login', {
			emailOrLdapLoginId: owner.email,
			password: owner.password,
		});
		if (login.status !== 200) {
			login = await plain.post('/rest/owner/setup', owner);
			if (login.status !== 200)
				throw new Error(`owner setup failed: ${login.status} ${JSON.stringify(login.data)}`);
		}
		const session = { cookie: cookieFrom(login.headers['set-cookie']), 'browser-id': 'e2e' };
		const rest = restApi(url, session, version);
		const web = axios.create({ baseURL: url, validateStatus: () => true, headers: session });
		const scopes = (await rest.get('/api-keys/scopes')).data.data;
		const apiKey = await rest.post('/api-keys', {
			label: `e2e-${Date.now()}`,
			scopes,
			expiresAt: null,
		});
		if (apiKey.status !== 200)
			throw new Error(`API key creation failed: ${apiKey.status} ${JSON.stringify(apiKey.data)}`);
		const api = publicApi(url, apiKey.data.data.rawApiKey, version);
		const log = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');
		return {
			url,
			version,
			userFolder,
			env: options.env ?? {},
			logFile,
			pid: child.pid as number,
			api,
			rest,
			web,
			log,
			loaderProblems: () => loaderProblemsIn(log()),
			stop: async (stopOptions?: StopOptions) => {
				await instanceStop(stopOptions);
				releaseFolder();
				// Only here: a folder of an n8n that failed to start stays, for its log.
				if (!options.userFolder && !process.env.N8N_E2E_KEEP_USER_FOLDER) {
					fs.rmSync(userFolder, { recursive: true, force: true });
				}
			},
		};
	} catch (error) {
		await instanceStop();
		throw error;
	}
}
