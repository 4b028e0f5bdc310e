// HTTP plumbing: body parsing, request log, fault injection, routing, and the families' fallbacks.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import {
	Core,
	DeferredEvents,
	type Family,
	type Reply,
	type RequestContext,
	type Route,
} from './core.cts';
import { HttpError, SimulatorInputError, evolutionError, nestError } from './errors.cts';
import type { FaultRule, RecordedRequest } from './types.cts';

const BODY_LIMIT_BYTES = 20 * 1024 * 1024;
export const CONTROL_PREFIX = '/__sim';

function parseQuery(queryString: string): Record<string, string | string[]> {
	const query: Record<string, string | string[]> = {};
	for (const [key, value] of new URLSearchParams(queryString)) {
		const existing = query[key];
		if (existing === undefined) query[key] = value;
		else query[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
	}
	return query;
}

function recordedHeaders(
	headers: http.IncomingHttpHeaders,
	keyHeader: string,
): Record<string, string> {
	const recorded: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (name === keyHeader || value === undefined) continue;
		recorded[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return recorded;
}

function readBody(request: http.IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		request.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > BODY_LIMIT_BYTES) {
				reject(
					new HttpError(413, {
						statusCode: 413,
						message: 'request entity too large',
						error: 'Payload Too Large',
					}),
				);
				request.destroy();
				return;
			}
			chunks.push(chunk);
		});
		request.on('end', () => resolve(Buffer.concat(chunks)));
		request.on('error', reject);
	});
}

type ParsedBody = { value: unknown; jsonError?: string };

function parseBody(raw: Buffer, contentType: string | undefined): ParsedBody {
	if (raw.length === 0) return { value: undefined };
	const text = raw.toString('utf8');
	try {
		return { value: JSON.parse(text) };
	} catch (error) {
		// Only a body declared as JSON is rejected; anything else is kept as text for the log.
		const declaredJson = (contentType ?? '').includes('json');
		return { value: text, jsonError: declaredJson ? (error as Error).message : undefined };
	}
}

export function isControlPath(rawPath: string): boolean {
	return rawPath === CONTROL_PREFIX || rawPath.startsWith(`${CONTROL_PREFIX}/`);
}

/** The spec's families: `/api/...` is WAHA's (session), everything else Evolution's (instance). */
export function specFamilyOf(rawPath: string): Family {
	if (isControlPath(rawPath)) return 'control';
	return rawPath.startsWith('/api/') || rawPath === '/api' ? 'session' : 'instance';
}

function matchRoute(routes: Route[], method: string, rawPath: string) {
	const segments = rawPath.split('/').slice(1);
	for (const route of routes) {
		if (route.method !== method) continue;
		const pattern = route.pattern.split('/').slice(1);
		if (pattern.length !== segments.length) continue;
		const params: Record<string, string> = {};
		const matched = pattern.every((part, index) => {
			if (part.startsWith(':')) {
				try {
					params[part.slice(1)] = decodeURIComponent(segments[index]);
				} catch {
					params[part.slice(1)] = segments[index];
				}
				return params[part.slice(1)] !== '';
			}
			return part === segments[index];
		});
		if (matched) return { route, params };
	}
	return undefined;
}

/** Rewrites the JSON the simulator answers and reads, as dialects.cts's Wire does for a gateway. */
export interface WireRewrite {
	outgoing(json: string): string;
	incoming(json: string): string;
}

function send(response: http.ServerResponse, reply: Reply, wire?: WireRewrite): void {
	if (response.headersSent || response.destroyed) return;
	let payload: Buffer;
	let contentType = reply.contentType;
	if (reply.raw) payload = reply.raw;
	else if (reply.body === undefined) payload = Buffer.alloc(0);
	else if (typeof reply.body === 'string' && contentType) payload = Buffer.from(reply.body);
	else {
		const json = JSON.stringify(reply.body);
		payload = Buffer.from(wire ? wire.outgoing(json) : json);
	}
	contentType ??= 'application/json; charset=utf-8';
	response.writeHead(reply.status, {
		'Content-Type': contentType,
		'Content-Length': payload.length,
		...reply.headers,
	});
	response.end(payload);
}

function errorReply(family: Family, error: unknown): Reply {
	if (error instanceof HttpError)
		return { status: error.status, body: error.body, headers: error.headers };
	if (error instanceof SimulatorInputError)
		return { status: error.status, body: { error: error.message } };
	const message = error instanceof Error ? error.message : String(error);
	if (family === 'instance') return { status: 500, body: evolutionError.of(500, message).body };
	return { status: 500, body: { statusCode: 500, message, error: 'Internal Server Error' } };
}

/** Takes the first pending rule that matches, counting it down. */
function takeFault(
	faults: FaultRule[],
	method: string,
	rawPath: string,
	rawBody: string,
): FaultRule | undefined {
	const index = faults.findIndex(
		(rule) =>
			(!rule.match?.method || rule.match.method.toUpperCase() === method) &&
			(!rule.match?.path || rawPath.includes(rule.match.path)) &&
			(rule.match?.body === undefined || rawBody.includes(rule.match.body)),
	);
	if (index < 0) return undefined;
	const rule = faults[index];
	const remaining = (rule.times ?? 1) - 1;
	if (remaining <= 0) faults.splice(index, 1);
	else faults[index] = { ...rule, times: remaining };
	return rule;
}

function faultReply(rule: FaultRule): Reply | undefined {
	const headers = { ...rule.headers };
	if (
		rule.status === 429 &&
		!Object.keys(headers).some((name) => name.toLowerCase() === 'retry-after')
	) {
		headers['Retry-After'] = '1';
	}
	if (rule.html !== undefined) {
		return {
			status: rule.status ?? 502,
			body: rule.html,
			contentType: 'text/html; charset=utf-8',
			headers,
		};
	}
	if (rule.empty) return { status: rule.status ?? 500, raw: Buffer.alloc(0), headers };
	if (rule.status !== undefined || rule.body !== undefined) {
		const textBody = typeof rule.body === 'string';
		return {
			status: rule.status ?? 500,
			body: rule.body,
			contentType: textBody ? 'text/plain; charset=utf-8' : undefined,
			headers,
		};
	}
	return undefined;
}

export class SimulatorServer {
	private readonly server: http.Server;

	constructor(
		private readonly core: Core,
		private readonly routes: Route[],
		private readonly keyHeader: 'apikey' | 'x-api-key' = 'apikey',
		/** Which family a path belongs to: it decides the dialect of errors and of unknown routes. */
		private readonly familyOf: (rawPath: string) => Family = specFamilyOf,
		/** The gateway's way of writing identifiers, where it is not the spec's. */
		private readonly wire?: WireRewrite,
		/** What the gateway answers before any route (Evolution 2.4.0's licence gate). */
		private readonly gate?: (context: RequestContext) => Reply | undefined,
	) {
		this.server = http.createServer((request, response) => {
			this.handle(request, response).catch((error: unknown) => {
				if (!response.headersSent) send(response, errorReply('session', error));
			});
		});
		// Clients that drop keep-alive sockets should not keep `stop()` waiting.
		this.server.keepAliveTimeout = 1000;
	}

	listen(port: number, host: string): Promise<string> {
		return new Promise((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(port, host, () => {
				this.server.off('error', reject);
				const address = this.server.address() as AddressInfo;
				const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
				resolve(`http://${hostPart}:${address.port}`);
			});
		});
	}

	close(): Promise<void> {
		return new Promise((resolve) => {
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
	}

	private async handle(
		request: http.IncomingMessage,
		response: http.ServerResponse,
	): Promise<void> {
		const method = (request.method ?? 'GET').toUpperCase();
		const url = request.url ?? '/';
		const queryStart = url.indexOf('?');
		const rawPath = queryStart < 0 ? url : url.slice(0, queryStart);
		const query = parseQuery(queryStart < 0 ? '' : url.slice(queryStart + 1));
		const family = this.familyOf(rawPath);
		const apiKeyHeader = request.headers[this.keyHeader];
		const apiKey = Array.isArray(apiKeyHeader) ? apiKeyHeader[0] : apiKeyHeader;

		let raw: Buffer;
		try {
			raw = await readBody(request);
		} catch (error) {
			send(response, errorReply(family, error));
			return;
		}
		const parsed = parseBody(raw, request.headers['content-type']);

		let record: RecordedRequest | undefined;
		if (family !== 'control') {
			record = {
				method,
				path: rawPath,
				query,
				headers: recordedHeaders(request.headers, this.keyHeader),
				auth: apiKey === undefined ? 'missing' : apiKey === this.core.apiKey ? 'valid' : 'invalid',
				body: parsed.value,
				at: Date.now(),
			};
			this.core.requests.push(record);
			const handled = await this.applyFault(request, response, method, rawPath, raw, record);
			if (handled) return;
		}

		const events = new DeferredEvents(this.core.webhooks);
		// 'close' also fires when the client went away early; the events still happened.
		response.once('close', () => events.flush());
		// The log keeps what the client sent; the routes read it as the simulator writes identifiers.
		const wire = family === 'control' ? undefined : this.wire;
		const read = <T,>(value: T): T =>
			wire && value !== undefined ? (JSON.parse(wire.incoming(JSON.stringify(value))) as T) : value;
		const context: RequestContext = {
			core: this.core,
			method,
			rawPath,
			url,
			params: {},
			query: read(query),
			headers: request.headers,
			body: read(parsed.value),
			sentBody: parsed.value,
			apiKey,
			events,
			setAuth: (auth) => {
				if (record) record.auth = auth;
			},
		};
		send(response, await this.dispatch(context, family, parsed.jsonError), wire);
	}

	/** Returns true when the fault answered (or dropped) the request. */
	private async applyFault(
		request: http.IncomingMessage,
		response: http.ServerResponse,
		method: string,
		rawPath: string,
		rawBody: Buffer,
		record: RecordedRequest,
	): Promise<boolean> {
		const rule = takeFault(this.core.faults, method, rawPath, rawBody.toString('utf8'));
		if (!rule) return false;
		if (rule.latencyMs) {
			try {
				await sleep(rule.latencyMs, undefined, { signal: this.core.lifetime.signal });
			} catch {
				request.socket.destroy();
				return true;
			}
		}
		if (rule.dropSocket) {
			record.faulted = true;
			request.socket.destroy();
			return true;
		}
		const reply = faultReply(rule);
		if (!reply) return false;
		record.faulted = true;
		send(response, reply);
		return true;
	}

	private async dispatch(
		context: RequestContext,
		family: Family,
		jsonError: string | undefined,
	): Promise<Reply> {
		try {
			if (jsonError !== undefined && family !== 'control') {
				// Both products parse the body before any guard runs.
				throw family === 'instance'
					? evolutionError.invalidJson(jsonError)
					: nestError.of(400, jsonError);
			}
			const refused = family === 'control' ? undefined : this.gate?.(context);
			if (refused) return refused;
			const match = matchRoute(this.routes, context.method, context.rawPath);
			if (!match) return this.unknownRoute(context, family);
			context.params = match.params;
			return await match.route.handler(context);
		} catch (error) {
			return errorReply(family, error);
		}
	}

	private unknownRoute(context: RequestContext, family: Family): Reply {
		if (family === 'control') {
			return {
				status: 404,
				body: { error: `No control route ${context.method} ${context.rawPath}` },
			};
		}
		if (family === 'instance') throw evolutionError.routeNotFound(context.method, context.url);
		// WAHA's API-key guard runs before Nest's router gives up.
		if (context.apiKey !== this.core.apiKey) {
			context.setAuth(context.apiKey === undefined ? 'missing' : 'invalid');
			throw nestError.unauthorized();
		}
		throw nestError.routeNotFound(context.method, context.rawPath);
	}
}
