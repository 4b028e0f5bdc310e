/**
 * Checks the simulator's Evolution API v2 dialect against a real Evolution API 2.3.6 server: the
 * same requests go to both, and a table says, per request, whether the status, the validation
 * message and (for the bookkeeping routes) the shape of the JSON answer are the same.
 *
 *   node test/support/run-ts.js test/compatibility/real-evolution-v2.cts --url http://127.0.0.1:18236 --api-key KEY [--no-webhook] [--log answers.json]
 *
 * Not part of `npm test` (jest runs `*.test.ts` only): it needs a real server, which is not on npm.
 * The requests:
 * - bookkeeping: GET /, verify-creds, fetchInstances, connectionState, the trigger's webhook set/find,
 *   restart with POST and with PUT;
 * - every request the node sends on v2: `test/compatibility/requests.test.ts` is loaded with stand-ins
 *   for jest's hooks and its cases run as there; each v2 run's requests pass through a recording proxy
 *   in front of its simulator (which gives the simulator's own status) and are replayed to the server;
 * - known-bad bodies (v1's sendText, no number, an unknown webhook event...).
 * A real server with no WhatsApp login answers a send it accepts with a 500 ("Connection Closed", or
 * "reading 'onWhatsApp'" when the instance never connected): such an answer counts as accepted by
 * validation. With the webhook part on (the default), a real delivery (connection.update, after
 * connect) is recorded by a local listener and its envelope and headers are compared with the
 * simulator's. Instances the script makes on the server are logged out and deleted at the end.
 *
 * A real 2.3.6 offline (measured on a 2-core machine with only the npm and Debian registries; ~2 min):
 * take EvolutionAPI/evolution-api at tag 2.3.6, delete its package-lock.json (it pins a package the
 * registry lacks), add `"overrides": {"libsignal": "6.0.0"}` and `npm install --ignore-scripts`. Prisma
 * would download native engines: in `prisma/postgresql-schema.prisma`'s generator set
 * `previewFeatures = ["driverAdapters"]` and `engineType = "client"`, run `prisma generate` with
 * PRISMA_SCHEMA_ENGINE_BINARY and PRISMA_QUERY_ENGINE_LIBRARY set to /bin/true, install
 * `@prisma/adapter-pg` at @prisma/client's version and pass `new PrismaPg({connectionString})` to the
 * client in `src/api/repository/repository.service.ts`. Give it a PostgreSQL (Debian's, a private
 * cluster on 127.0.0.1, run as the postgres user) with `prisma/postgresql-migrations/*` applied in name
 * order, build with `npx tsup`, and start `dist/main.js` with `.env` from `.env.example`
 * (DATABASE_CONNECTION_URI, CACHE_REDIS_ENABLED=false, CACHE_LOCAL_ENABLED=true,
 * TELEMETRY_ENABLED=false, AUTHENTICATION_API_KEY). It listens on every interface: bind it to
 * 127.0.0.1 (a preload wrapping net.Server.prototype.listen). With no WhatsApp login it shows routing,
 * validation, instance bookkeeping and webhook deliveries, not sends.
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import type { ReceivedWebhook, WebhookReceiver } from '../simulator/testing.cts';

const CONNECTED = SEED.instances.connected.name;
const PAIRING = SEED.instances.pairing.name;
/** The instances the node's cases use, made on the real server. */
const INSTANCES = [CONNECTED, PAIRING];
const TOKEN_HEADER = 'x-messaging-gateway-token';

// ---------------------------------------------------------------------------------------------
// Arguments

function argument(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? process.argv[index + 1] : undefined;
}

const REAL_URL = (argument('url') ?? '').replace(/\/+$/, '');
const REAL_KEY = argument('api-key') ?? '';
const WITH_WEBHOOK = !process.argv.includes('--no-webhook');
/** Where to write every request with both answers in full, as JSON. */
const LOG_FILE = argument('log');

// ---------------------------------------------------------------------------------------------
// HTTP

type Query = Record<string, string | string[]>;

interface Sent {
	method: string;
	/** Percent-encoded, without the query. */
	path: string;
	query?: Query;
	/** Sent as JSON unless a string. */
	body?: unknown;
	contentType?: string;
}

interface Answer {
	status: number;
	text: string;
	json: unknown;
}

function withQuery(base: string, query: Query = {}): string {
	const search = new URLSearchParams();
	for (const [name, value] of Object.entries(query)) {
		for (const one of Array.isArray(value) ? value : [value]) search.append(name, one);
	}
	const text = search.toString();
	return text ? `${base}?${text}` : base;
}

function parse(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

async function send(base: string, key: string | null, request: Sent): Promise<Answer> {
	const headers: Record<string, string> = {};
	if (key !== null) headers.apikey = key;
	let body: string | undefined;
	if (request.body !== undefined) {
		body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
		headers['content-type'] = request.contentType ?? 'application/json';
	}
	try {
		const response = await fetch(withQuery(base + request.path, request.query), {
			method: request.method,
			headers,
			body,
			signal: AbortSignal.timeout(20_000),
		});
		const text = await response.text();
		return { status: response.status, text, json: parse(text) };
	} catch (error) {
		return { status: 0, text: String(error), json: undefined };
	}
}

// ---------------------------------------------------------------------------------------------
// Comparing answers

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every leaf path of a JSON value with its type: `[].name: string`; arrays merge their items. */
function shape(value: unknown, at = '', into = new Map<string, Set<string>>()) {
	const add = (type: string) => {
		const types = into.get(at || '(root)') ?? new Set<string>();
		types.add(type);
		into.set(at || '(root)', types);
	};
	if (Array.isArray(value)) {
		add('array');
		for (const item of value) shape(item, `${at}[]`, into);
	} else if (isObject(value)) {
		add('object');
		for (const [key, inner] of Object.entries(value)) shape(inner, at ? `${at}.${key}` : key, into);
	} else {
		add(value === null ? 'null' : typeof value);
	}
	return into;
}

/** Where two JSON answers differ in shape: missing or extra keys, other types. */
function shapeDifferences(real: unknown, simulated: unknown): string[] {
	const realShape = shape(real);
	const simShape = shape(simulated);
	const differences: string[] = [];
	const under = (paths: Map<string, Set<string>>, key: string) => {
		const parent = key.replace(/(\.[^.[\]]+|\[\])$/, '');
		return parent === key || paths.has(parent) || parent === '';
	};
	for (const [key, types] of realShape) {
		const simTypes = simShape.get(key);
		if (!simTypes) {
			// Report a missing subtree once, at its top.
			if (under(simShape, key)) differences.push(`${key} only in real (${[...types].join('|')})`);
		} else if ([...types].sort().join('|') !== [...simTypes].sort().join('|')) {
			differences.push(`${key}: real ${[...types].join('|')}, sim ${[...simTypes].join('|')}`);
		}
	}
	for (const [key, types] of simShape) {
		if (!realShape.has(key) && under(realShape, key))
			differences.push(`${key} only in sim (${[...types].join('|')})`);
	}
	return differences;
}

/** The words of an error answer: `response.message` (nested arrays flattened), else `message`. */
function messageOf(answer: Answer): string {
	const json = answer.json;
	if (!isObject(json)) return answer.text.slice(0, 160);
	const inner = isObject(json.response) ? json.response.message : json.message;
	const flat = (value: unknown): string[] =>
		Array.isArray(value)
			? value.flatMap(flat)
			: isObject(value)
				? [JSON.stringify(value)]
				: [String(value)];
	return flat(inner ?? json.error ?? json).join('; ');
}

/**
 * A failure of a server that has no WhatsApp login: the request passed validation. A 500, or a 400
 * that wraps the TypeError of the missing socket (`Cannot read properties of undefined (reading
 * 'sendPresenceUpdate')`), or a bare `{}` (a TypeError serialized by the router).
 */
function socketFailure(answer: Answer): boolean {
	if (answer.status === 400 && answer.text.trim() === '{}') return true;
	if (
		answer.status === 400 &&
		/TypeError: Cannot read properties of undefined/.test(messageOf(answer))
	)
		return true;
	return (
		answer.status === 500 &&
		/Connection Closed|onWhatsApp|Cannot convert undefined or null to object|Cannot read properties of undefined|not connected|socket|ENOTFOUND|getaddrinfo|fetch failed|Error: /i.test(
			messageOf(answer),
		)
	);
}

const accepted = (answer: Answer) =>
	(answer.status >= 200 && answer.status < 300) || socketFailure(answer);

/**
 * A real refusal that is only about data the real server has not got (no message, no group...).
 * "Message not compatible": updateMessage finds no stored message to edit (formatUpdateMessage).
 */
function missingData(answer: Answer): boolean {
	return /Message not compatible|not found|no participants|item-not-found|does not exist|Message not found|not-authorized|No send invite|Error fetching group/i.test(
		messageOf(answer),
	);
}

interface Row {
	group: string;
	request: string;
	sent: Sent;
	real: Answer;
	sim: Answer;
	verdict: string;
}

const rows: Row[] = [];

function describeRequest(request: Sent, withBody: boolean): string {
	const query =
		request.query && Object.keys(request.query).length > 0 ? withQuery('', request.query) : '';
	const line = `${request.method} ${decodeURIComponent(request.path)}${query}`;
	if (!withBody || request.body === undefined) return line;
	const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
	return `${line} ${body.length > 90 ? `${body.slice(0, 90)}…` : body}`;
}

/** same / differs: why. `compareShape` for the bookkeeping routes. */
function judge(real: Answer, sim: Answer, compareShape: boolean): string {
	const reasons: string[] = [];
	const realAccepted = accepted(real);
	const simAccepted = accepted(sim);
	if (real.status !== sim.status) {
		if (realAccepted && simAccepted) {
			if (!(socketFailure(real) && sim.status < 300))
				reasons.push(`status ${real.status} vs ${sim.status}`);
		} else if (!realAccepted && simAccepted && missingData(real)) {
			return `same validation (real lacks the data: ${messageOf(real).slice(0, 90)})`;
		} else {
			reasons.push(
				`status real ${real.status} (${messageOf(real).slice(0, 110)}) vs sim ${sim.status} (${messageOf(sim).slice(0, 110)})`,
			);
		}
	} else if (real.status >= 400 && !socketFailure(real)) {
		const realMessage = messageOf(real);
		const simMessage = messageOf(sim);
		if (realMessage !== simMessage)
			reasons.push(
				`message real "${realMessage.slice(0, 120)}" vs sim "${simMessage.slice(0, 120)}"`,
			);
	}
	if (compareShape) {
		const differences = shapeDifferences(real.json, sim.json);
		if (differences.length > 0) reasons.push(`shape: ${differences.join('; ')}`);
	}
	if (reasons.length > 0) return `differs: ${reasons.join(' | ')}`;
	if (socketFailure(real) && sim.status < 300)
		return `same (accepted; real has no WhatsApp socket: ${real.status} ${messageOf(real).slice(0, 60)})`;
	return 'same';
}

async function compare(
	group: string,
	request: Sent,
	options: {
		compareShape?: boolean;
		key?: 'global' | 'wrong' | 'none';
		sim?: Answer;
		withBody?: boolean;
	} = {},
): Promise<Row> {
	const key = options.key ?? 'global';
	const realKey = key === 'global' ? REAL_KEY : key === 'wrong' ? 'wrong-key-0000' : null;
	const simKey = key === 'global' ? simulator.apiKey : key === 'wrong' ? 'wrong-key-0000' : null;
	const real = await send(REAL_URL, realKey, request);
	const sim = options.sim ?? (await send(simulator.url, simKey, request));
	let verdict = judge(real, sim, options.compareShape ?? false);
	// A send to a group fails on a server without a socket before it gets far (findGroup finds
	// nothing): the same body to a person tells whether validation took it.
	const body = typeof request.body === 'string' ? parse(request.body) : request.body;
	if (verdict.startsWith('differs') && isObject(body) && String(body.number).endsWith('@g.us')) {
		const toPerson: Record<string, unknown> = { ...body, number: SEED.contacts.alice.number };
		delete toPerson.quoted;
		const probe = await send(REAL_URL, realKey, { ...request, body: toPerson });
		if (socketFailure(probe))
			verdict = `same (accepted: a group send fails without a socket, ${real.status} ${messageOf(real).slice(0, 50)}; the body to a person: ${probe.status} ${messageOf(probe).slice(0, 50)})`;
	}
	const row: Row = {
		group,
		request:
			describeRequest(request, options.withBody ?? true) +
			(key === 'global' ? '' : ` (${key} key)`),
		sent: request,
		real,
		sim,
		verdict,
	};
	rows.push(row);
	return row;
}

// ---------------------------------------------------------------------------------------------
// The real server's instances

async function realCall(method: string, route: string, body?: unknown): Promise<Answer> {
	return await send(REAL_URL, REAL_KEY, { method, path: route, body });
}

/** Stops a real instance's reconnect loop and removes it: restart, logout, delete. */
async function removeRealInstance(name: string): Promise<void> {
	await realCall('POST', `/instance/restart/${name}`);
	await realCall('DELETE', `/instance/logout/${name}`);
	await realCall('DELETE', `/instance/delete/${name}`);
}

async function makeRealInstances(): Promise<void> {
	for (const name of INSTANCES) {
		await removeRealInstance(name);
		let created = await realCall('POST', '/instance/create', {
			instanceName: name,
			integration: 'WHATSAPP-BAILEYS',
		});
		// A name whose reconnect loop was just stopped can stay "in use" for a moment.
		for (let attempt = 0; created.status === 403 && attempt < 20; attempt++) {
			await new Promise((resolve) => setTimeout(resolve, 1000));
			await removeRealInstance(name);
			created = await realCall('POST', '/instance/create', {
				instanceName: name,
				integration: 'WHATSAPP-BAILEYS',
			});
		}
		if (created.status >= 300)
			throw new Error(`creating ${name} on the real server: ${created.status} ${created.text}`);
	}
}

// ---------------------------------------------------------------------------------------------
// The node's requests on v2, from requests.test.ts's own runs

interface NodeExchange {
	method: string;
	path: string;
	query: Query;
	body?: string;
	contentType?: string;
	status: number;
	response: string;
}

interface NodeRun {
	label: string;
	exchanges: NodeExchange[];
	error?: string;
}

/** A local proxy in front of the simulator a v2 run goes to: records each request and its answer. */
async function startRecordingProxy() {
	const state: { target: string; log: NodeExchange[] } = { target: '', log: [] };
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			void (async () => {
				const raw = Buffer.concat(chunks);
				const headers: Record<string, string> = {};
				for (const [name, value] of Object.entries(request.headers)) {
					if (['host', 'connection', 'content-length', 'transfer-encoding'].includes(name))
						continue;
					if (typeof value === 'string') headers[name] = value;
				}
				const url = new URL(request.url ?? '/', 'http://proxy.invalid');
				const answer = await fetch(state.target + (request.url ?? '/'), {
					method: request.method,
					headers,
					body: raw.length > 0 ? raw : undefined,
				});
				const bytes = Buffer.from(await answer.arrayBuffer());
				const query: Query = {};
				for (const [name, value] of url.searchParams) {
					const before = query[name];
					query[name] =
						before === undefined
							? value
							: Array.isArray(before)
								? [...before, value]
								: [before, value];
				}
				state.log.push({
					method: request.method ?? 'GET',
					path: url.pathname,
					query,
					body: raw.length > 0 ? raw.toString('utf8') : undefined,
					contentType: headers['content-type'],
					status: answer.status,
					response: bytes.toString('utf8'),
				});
				const contentType = answer.headers.get('content-type');
				response.writeHead(answer.status, contentType ? { 'content-type': contentType } : {});
				response.end(bytes);
			})().catch((error: unknown) => {
				response.writeHead(502);
				response.end(String(error));
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		state,
		stop: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

type Hook = () => unknown;

/**
 * Loads requests.test.ts with stand-ins for jest's globals, runs its beforeAll hooks (which start
 * its simulators and run every case), and returns the v2 runs as they reached the simulator.
 */
async function nodeRunsOnV2(): Promise<NodeRun[]> {
	// run-ts.js compiles .cts files; the node's sources are .ts, found before a codex file of the
	// same name (`MessagingGateway.node.json`), as jest's moduleFileExtensions order has it.
	const extensions = require.extensions;
	const { '.json': json, '.node': binary } = extensions;
	Reflect.deleteProperty(extensions, '.json');
	Reflect.deleteProperty(extensions, '.node');
	extensions['.ts'] = extensions['.cts'];
	extensions['.json'] = json;
	extensions['.node'] = binary;
	process.env.N8N_USER_FOLDER ??= path.join(os.tmpdir(), 'n8n-messaging-gateway-real-evolution-v2');
	process.env.N8N_ENCRYPTION_KEY ??= 'real-evolution-v2-only-encryption-key';
	process.env.N8N_LOG_LEVEL ??= 'silent';

	const before: Hook[] = [];
	const after: Hook[] = [];
	const noTest = Object.assign(() => undefined, { each: () => () => undefined });
	Object.assign(globalThis, {
		beforeAll: (hook: Hook) => before.push(hook),
		afterAll: (hook: Hook) => after.push(hook),
		beforeEach: () => undefined,
		afterEach: () => undefined,
		describe: (_name: string, body: () => void) => body(),
		it: noTest,
		test: noTest,
		expect: () => {
			throw new Error('expect is not available outside jest');
		},
	});

	const gatewayNode = await import('../support/gateway-node.cts');
	const original = gatewayNode.runGateway;
	const proxy = await startRecordingProxy();
	const runs: NodeRun[] = [];
	const seen = new Map<string, number>();
	// requests.test.ts calls runGateway through the module's exports, at call time.
	(gatewayNode as { runGateway: typeof original }).runGateway = async (
		gateway,
		parameters: INodeParameters,
		options = {},
	) => {
		if (options.gateway !== 'evolutionV2') return await original(gateway, parameters, options);
		const key = `${String(parameters.resource)}.${String(parameters.operation)}`;
		const index = seen.get(key) ?? 0;
		seen.set(key, index + 1);
		proxy.state.target = gateway.url;
		proxy.state.log = [];
		const result = await original({ url: proxy.url, apiKey: gateway.apiKey }, parameters, options);
		runs.push({
			label: index === 0 ? key : `${key} (variant ${index})`,
			exchanges: proxy.state.log,
			error: result.error?.message,
		});
		return result;
	};
	try {
		await import('./requests.test');
		for (const hook of before) await hook();
	} finally {
		for (const hook of after) await hook();
		await proxy.stop();
	}
	return runs;
}

/** Which contact JIDs an answer holds: `@s.whatsapp.net` or the simulator's `@s.messenger.net`. */
function jidSuffixes(text: string): string[] {
	return [...new Set(text.match(/@s\.(whatsapp|messenger)\.net/g) ?? [])];
}

// ---------------------------------------------------------------------------------------------
// Webhook deliveries

async function receiver(): Promise<WebhookReceiver> {
	const { startWebhookReceiver } = await import('../simulator/testing.cts');
	return await startWebhookReceiver('/hook');
}

async function waitFor<T>(probe: () => T | undefined, ms: number): Promise<T | undefined> {
	const until = Date.now() + ms;
	while (Date.now() < until) {
		const found = probe();
		if (found !== undefined) return found;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	return probe();
}

const PLATFORM_HEADERS = new Set(['host', 'connection', 'content-length', 'accept-encoding']);

function describeDelivery(delivery: ReceivedWebhook | undefined): Record<string, unknown> {
	if (!delivery) return { received: 'nothing' };
	const body = isObject(delivery.body) ? delivery.body : {};
	return {
		method: delivery.method,
		path: delivery.path,
		headers: Object.fromEntries(
			Object.entries(delivery.headers).filter(([name]) => !PLATFORM_HEADERS.has(name)),
		),
		envelope: Object.fromEntries(
			Object.entries(body).map(([key, value]) => [
				key,
				isObject(value) || Array.isArray(value)
					? [...shape(value)].map(([at, types]) => `${at}: ${[...types].join('|')}`)
					: value,
			]),
		),
	};
}

async function compareDeliveries(): Promise<void> {
	const hooks = await receiver();
	const webhook = (url: string) => ({
		webhook: {
			enabled: true,
			url,
			events: ['CONNECTION_UPDATE'],
			byEvents: false,
			base64: false,
			headers: { [TOKEN_HEADER]: 'delivery-token-123' },
		},
	});
	try {
		// Real: connect starts the offline reconnect loop, which posts connection.update.
		await realCall('POST', `/webhook/set/${PAIRING}`, webhook(`${hooks.url}/real`));
		await realCall('GET', `/instance/connect/${PAIRING}`);
		const real = await waitFor(
			() => hooks.received.find((delivery) => delivery.path.startsWith('/hook/real')),
			15_000,
		);
		await removeRealInstance(PAIRING);
		// Simulator: connecting a closed instance announces connecting, as the real one did.
		simulator.setInstanceState(PAIRING, 'close');
		await send(simulator.url, simulator.apiKey, {
			method: 'POST',
			path: `/webhook/set/${PAIRING}`,
			body: webhook(`${hooks.url}/sim`),
		});
		await send(simulator.url, simulator.apiKey, {
			method: 'GET',
			path: `/instance/connect/${PAIRING}`,
		});
		const sim = await waitFor(
			() => hooks.received.find((delivery) => delivery.path.startsWith('/hook/sim')),
			5_000,
		);
		console.log('\n## A webhook delivery (connection.update)\n');
		console.log('real 2.3.6:', JSON.stringify(describeDelivery(real), null, 2));
		console.log('simulator: ', JSON.stringify(describeDelivery(sim), null, 2));
		if (real && sim) {
			const realHeaders = Object.keys(real.headers).filter((name) => !PLATFORM_HEADERS.has(name));
			const simHeaders = Object.keys(sim.headers).filter((name) => !PLATFORM_HEADERS.has(name));
			console.log(
				'headers only real:',
				realHeaders.filter((name) => !simHeaders.includes(name)),
			);
			console.log(
				'headers only sim: ',
				simHeaders.filter((name) => !realHeaders.includes(name)),
			);
			console.log('envelope shape:', shapeDifferences(real.body, sim.body));
			console.log('real body:', JSON.stringify(real.body));
			console.log('sim body: ', JSON.stringify(sim.body));
		}
	} finally {
		await hooks.stop();
	}
}

// ---------------------------------------------------------------------------------------------
// The comparison

let simulator: Simulator;

async function bookkeeping(): Promise<void> {
	const group = 'bookkeeping';
	const hook = 'https://hooks.example.com/n8n/webhook/abc';
	const events = ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'];
	const rows: Array<[Sent, Parameters<typeof compare>[2]?]> = [
		[
			{ method: 'GET', path: '/' },
			{ compareShape: true, key: 'none' },
		],
		[{ method: 'POST', path: '/verify-creds' }, { compareShape: true }],
		[
			{ method: 'POST', path: '/verify-creds' },
			{ compareShape: true, key: 'wrong' },
		],
		[{ method: 'GET', path: '/instance/fetchInstances' }, { compareShape: true }],
		[
			{ method: 'GET', path: '/instance/fetchInstances', query: { instanceName: CONNECTED } },
			{ compareShape: true },
		],
		[
			{ method: 'GET', path: '/instance/fetchInstances', query: { instanceName: 'nobody-here' } },
			{ compareShape: true },
		],
		[
			{ method: 'GET', path: '/instance/fetchInstances' },
			{ compareShape: true, key: 'wrong' },
		],
		[{ method: 'GET', path: `/instance/connectionState/${CONNECTED}` }, { compareShape: true }],
		[{ method: 'GET', path: '/instance/connectionState/nobody-here' }, { compareShape: true }],
		[{ method: 'GET', path: `/webhook/find/${CONNECTED}` }, { compareShape: true }],
		[
			{
				method: 'POST',
				path: `/webhook/set/${CONNECTED}`,
				body: {
					webhook: {
						enabled: true,
						url: hook,
						events,
						byEvents: false,
						base64: false,
						headers: { [TOKEN_HEADER]: 'token-1234567890' },
					},
				},
			},
			{ compareShape: true },
		],
		[{ method: 'GET', path: `/webhook/find/${CONNECTED}` }, { compareShape: true }],
		[
			{
				method: 'POST',
				path: `/webhook/set/${CONNECTED}`,
				body: {
					webhook: { enabled: false, url: hook, events: [], byEvents: false, base64: false },
				},
			},
			{ compareShape: true },
		],
		[{ method: 'GET', path: `/webhook/find/${CONNECTED}` }, { compareShape: true }],
		[{ method: 'POST', path: `/instance/restart/${CONNECTED}` }, { compareShape: true }],
		[{ method: 'PUT', path: `/instance/restart/${CONNECTED}` }, { compareShape: true }],
	];
	for (const [request, options] of rows) await compare(group, request, options);
	// The real instance never connected: the same questions with the simulator's instance closed too.
	simulator.setInstanceState(CONNECTED, 'close');
	const closed = 'bookkeeping, sim instance closed';
	await compare(
		closed,
		{ method: 'POST', path: `/instance/restart/${CONNECTED}` },
		{ compareShape: true },
	);
	await compare(
		closed,
		{ method: 'GET', path: `/instance/connectionState/${CONNECTED}` },
		{ compareShape: true },
	);
	await compare(
		closed,
		{ method: 'GET', path: '/instance/fetchInstances', query: { instanceName: CONNECTED } },
		{ compareShape: true },
	);
	await compare(
		closed,
		{ method: 'DELETE', path: `/instance/logout/${CONNECTED}` },
		{ compareShape: true },
	);
	await compare(
		closed,
		{
			method: 'POST',
			path: `/message/sendText/${CONNECTED}`,
			body: { number: SEED.contacts.alice.number, text: 'Hi' },
		},
		{ compareShape: true },
	);
	simulator.setInstanceState(CONNECTED, 'open');
}

async function knownBad(): Promise<void> {
	const group = 'known-bad';
	const text = `/message/sendText/${CONNECTED}`;
	const alice = SEED.contacts.alice.number;
	const hook = 'https://hooks.example.com/x';
	const bad: Sent[] = [
		{ method: 'POST', path: text, body: { number: alice, textMessage: { text: 'Hi' } } },
		{ method: 'POST', path: text, body: { text: 'Hi' } },
		{ method: 'POST', path: text, body: { number: alice, text: '' } },
		{ method: 'POST', path: text, body: { number: 5511987650001, text: 'Hi' } },
		{ method: 'POST', path: text, body: { number: alice, text: 'Hi', delay: 1.5 } },
		{ method: 'POST', path: text, body: { number: alice, text: 'Hi' } },
		{ method: 'POST', path: '/message/sendText/nobody-here', body: { number: alice, text: 'Hi' } },
		{ method: 'GET', path: text },
		{
			method: 'POST',
			path: `/webhook/set/${CONNECTED}`,
			body: { webhook: { enabled: true, url: hook, events: ['MESSAGE_RECEIVED'] } },
		},
		{
			method: 'POST',
			path: `/webhook/set/${CONNECTED}`,
			body: { url: hook, events: ['MESSAGES_UPSERT'] },
		},
		{
			method: 'POST',
			path: `/webhook/set/${CONNECTED}`,
			body: { webhook: { enabled: true, url: hook } },
		},
		{
			method: 'POST',
			path: `/webhook/set/${CONNECTED}`,
			body: { webhook: { enabled: true, url: 'not a url', events: ['MESSAGES_UPSERT'] } },
		},
		{ method: 'POST', path: `/instance/setPresence/${CONNECTED}`, body: { presence: 'busy' } },
		{ method: 'GET', path: `/group/findGroupInfos/${CONNECTED}` },
		{
			method: 'POST',
			path: '/api/sendText',
			body: { session: CONNECTED, chatId: `${alice}@c.us`, text: 'Hi' },
		},
	];
	for (const request of bad) await compare(group, request);
	await compare(
		group,
		{ method: 'POST', path: text, body: { number: alice, text: 'Hi' } },
		{ key: 'wrong' },
	);
	await compare(
		group,
		{ method: 'POST', path: text, body: { number: alice, text: 'Hi' } },
		{ key: 'none' },
	);
}

async function nodeRequests(): Promise<string[]> {
	const notes: string[] = [];
	const runs = await nodeRunsOnV2();
	const suffixes = new Set<string>();
	for (const run of runs) {
		if (run.exchanges.length === 0) {
			notes.push(`${run.label}: no request (the node refused: ${run.error ?? '?'})`);
			continue;
		}
		for (const exchange of run.exchanges) {
			for (const suffix of jidSuffixes(exchange.response)) suffixes.add(suffix);
			const request: Sent = {
				method: exchange.method,
				path: exchange.path,
				query: exchange.query,
				body: exchange.body,
				contentType: exchange.contentType,
			};
			const sim: Answer = {
				status: exchange.status,
				text: exchange.response,
				json: parse(exchange.response),
			};
			await compare(run.label, request, { sim });
		}
		if (run.error) notes.push(`${run.label}: the node's run on the simulator failed: ${run.error}`);
	}
	notes.push(
		`contact JID suffixes in the simulator's v2 answers to the node: ${[...suffixes].join(', ') || 'none'}`,
	);
	return notes;
}

function printTable(): void {
	const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
	console.log('| case | request | real | sim | verdict |');
	console.log('| --- | --- | --- | --- | --- |');
	for (const row of rows) {
		console.log(
			`| ${cell(row.group)} | ${cell(row.request)} | ${row.real.status} | ${row.sim.status} | ${cell(row.verdict)} |`,
		);
	}
	const differing = rows.filter((row) => row.verdict.startsWith('differs'));
	console.log(
		`\n${rows.length} requests, ${rows.length - differing.length} same, ${differing.length} differ.`,
	);
}

async function main(): Promise<void> {
	if (!REAL_URL || !REAL_KEY) {
		console.error(
			'usage: node test/support/run-ts.js test/compatibility/real-evolution-v2.cts --url <real base URL> --api-key <key> [--no-webhook]',
		);
		process.exit(2);
	}
	const root = await send(REAL_URL, null, { method: 'GET', path: '/' });
	const version = isObject(root.json) ? root.json.version : undefined;
	if (version !== '2.3.6')
		console.warn(`warning: the server says version ${String(version)}, not 2.3.6`);
	simulator = await startSimulator({ gateway: 'evolution-v2' });
	try {
		await makeRealInstances();
		await bookkeeping();
		await knownBad();
		const notes = await nodeRequests();
		// The JIDs real 2.3.6 writes: whatever its answers so far hold.
		const realSuffixes = new Set(rows.flatMap((row) => jidSuffixes(row.real.text)));
		console.log(`# Real Evolution API ${String(version)} at ${REAL_URL} vs the v2 simulator\n`);
		printTable();
		console.log('\n## Notes\n');
		for (const note of notes) console.log(`- ${note}`);
		console.log(
			`- contact JID suffixes in the real server's answers: ${[...realSuffixes].join(', ') || 'none'}`,
		);
		if (LOG_FILE) {
			const full = rows.map(({ group, sent, real, sim, verdict }) => ({
				group,
				sent,
				verdict,
				real: { status: real.status, body: real.json },
				sim: { status: sim.status, body: sim.json },
			}));
			writeFileSync(LOG_FILE, JSON.stringify(full, null, 2));
			console.log(`- every request with both answers: ${LOG_FILE}`);
		}
		if (WITH_WEBHOOK) await compareDeliveries();
	} finally {
		for (const name of INSTANCES) await removeRealInstance(name);
		await simulator.stop();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
