/**
 * One request on the wire and the redirects it leads to: the deadline for the whole answer, the
 * size limit while the body streams in, which URL may get the API key, and where a URL leads.
 * Failures are values here; n8n-errors.ts turns them into n8n errors.
 */
import type {
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	RequestHelperFunctions,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './credentials';
import type { GatewayRequestContext, ResolvedGateway } from './credentials';
import { describeNetworkFailure, networkFailureOf } from './errors';
import { blockedAddressKind, connectedAddress, judgeUrl } from './egress';
import type { HostLookup, JudgedTarget } from './egress';
import { REQUEST_LIMITS } from './limits';
import { displayUrl } from './url';
import { isObject } from '../values';

/** Who may receive the API key on a request and on the redirects it leads to. */
type KeyPolicy =
	/** A gateway API route: the key goes with it; a redirect off the Base URL's origin is refused. */
	| 'gatewayApi'
	/** A file the gateway pointed at: the key only on the gateway's own file route, never elsewhere. */
	| 'gatewayFile'
	/** A URL a user or an item gave: never the key, wherever it points. */
	| 'public';

export interface Answer {
	statusCode: number;
	headers: IDataObject;
	body: Buffer;
	/** The URL that answered, after redirects. */
	url: string;
}

export interface FetchPlan {
	method: IHttpRequestMethods;
	url: string;
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	policy: KeyPolicy;
	deadlineMs: number;
	maxBytes: number;
	itemIndex?: number;
	/** "Gateway" or the field the URL came from, to start messages with. */
	target: string;
}

/** Why a request got no usable answer (a value, not an error: only n8n's errors are thrown). */
export interface FetchFailure {
	failed: true;
	kind: 'deadline' | 'tooLarge' | 'redirect' | 'network' | 'internalAddress';
	message: string;
	original?: unknown;
}

function fetchFailure(
	kind: FetchFailure['kind'],
	message: string,
	original?: unknown,
): FetchFailure {
	return { failed: true, kind, message, original };
}

export function isFailure(value: unknown): value is FetchFailure {
	return isObject(value) && value.failed === true && typeof value.kind === 'string';
}

function deadlineFailure(deadlineMs: number): FetchFailure {
	return fetchFailure('deadline', `no complete answer within ${seconds(deadlineMs)}`);
}

interface ReadableBody {
	on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
	on(event: 'end', listener: () => void): unknown;
	on(event: 'error', listener: (error: Error) => void): unknown;
	destroy(error?: Error): unknown;
}

function isReadable(value: unknown): value is ReadableBody {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as ReadableBody).on === 'function' &&
		typeof (value as ReadableBody).destroy === 'function'
	);
}

function discard(body: unknown): void {
	if (isReadable(body)) body.destroy();
}

export function seconds(milliseconds: number): string {
	return `${Number((milliseconds / 1000).toFixed(1))} s`;
}

export function megabytes(bytes: number): string {
	return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/**
 * The request's answer, or a failure: unreachable, or not answered before `signal` fires (then
 * `onLate` gets what still arrives, to release it).
 */
async function beforeDeadline<T>(
	promise: Promise<T>,
	signal: AbortSignal,
	deadlineMs: number,
	onLate: (value: T) => void,
): Promise<T | FetchFailure> {
	return await new Promise<T | FetchFailure>((resolve) => {
		let settled = false;
		const settle = (value: T | FetchFailure) => {
			if (settled) return;
			settled = true;
			signal.removeEventListener('abort', onAbort);
			resolve(value);
		};
		const onAbort = () => settle(deadlineFailure(deadlineMs));
		if (signal.aborted) return onAbort();
		signal.addEventListener('abort', onAbort, { once: true });
		promise.then(
			(value) => (settled ? onLate(value) : settle(value)),
			(error: unknown) =>
				settle(
					signal.aborted
						? deadlineFailure(deadlineMs)
						: fetchFailure('network', describeNetworkFailure(networkFailureOf(error)), error),
				),
		);
	});
}

/** Reads a streamed body to the end, within the size limit and the deadline. */
async function readBody(
	body: unknown,
	maxBytes: number,
	signal: AbortSignal,
	deadlineMs: number,
): Promise<Buffer | FetchFailure> {
	if (body === undefined || body === null || body === '') return Buffer.alloc(0);
	if (Buffer.isBuffer(body)) return body;
	if (typeof body === 'string') return Buffer.from(body, 'utf8');
	if (!isReadable(body)) return Buffer.from(JSON.stringify(body), 'utf8');
	return await new Promise<Buffer | FetchFailure>((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let done = false;
		const finish = (failure?: FetchFailure) => {
			if (done) return;
			done = true;
			signal.removeEventListener('abort', onAbort);
			if (failure) body.destroy();
			resolve(failure ?? Buffer.concat(chunks));
		};
		const onAbort = () => finish(deadlineFailure(deadlineMs));
		if (signal.aborted) return onAbort();
		signal.addEventListener('abort', onAbort, { once: true });
		body.on('data', (chunk) => {
			const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
			size += buffer.length;
			if (size > maxBytes) {
				finish(fetchFailure('tooLarge', `the answer is larger than ${megabytes(maxBytes)}`));
				return;
			}
			chunks.push(buffer);
		});
		body.on('end', () => finish());
		body.on('error', (error) => finish(fetchFailure('network', error.message, error)));
	});
}

function isRedirect(statusCode: number): boolean {
	return [301, 302, 303, 307, 308].includes(statusCode);
}

export function headerText(headers: IDataObject | undefined, name: string): string | undefined {
	const value = headers?.[name];
	if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
	return typeof value === 'string' ? value : undefined;
}

/** Whether the API key may go with a request to `url` under `policy`. */
function sendsKey(policy: KeyPolicy, url: URL, gateway: ResolvedGateway): boolean {
	if (policy === 'public' || url.origin !== gateway.origin) return false;
	if (policy === 'gatewayApi') return true;
	// Files the gateway serves itself (WAHA's /api/files/...) need the key; nothing else it names does.
	const basePath = new URL(gateway.baseUrl).pathname.replace(/\/+$/, '');
	return url.pathname.startsWith(`${basePath}/api/files/`);
}

/**
 * n8n's resolver for nodes (n8n 2.x), which also applies n8n's own SSRF policy when it is on
 * (N8N_SSRF_PROTECTION_ENABLED); undefined on n8n versions without one (1.x).
 */
function hostLookupOf(this: GatewayRequestContext): HostLookup | undefined {
	const helpers = this.helpers as Partial<Pick<RequestHelperFunctions, 'getSecureEgressFilter'>>;
	if (typeof helpers.getSecureEgressFilter !== 'function') return undefined;
	return helpers.getSecureEgressFilter('safe').createSecureLookup() as unknown as HostLookup;
}

/**
 * One request and the redirects it leads to, within one deadline and size limit. Redirects are
 * followed by hand so the key never leaves the Base URL's origin: a gateway API route that
 * redirects elsewhere is an error; a file may move to another host, fetched there without the key.
 */
export async function fetchWithRedirects(
	this: GatewayRequestContext,
	plan: FetchPlan,
	gateway: ResolvedGateway,
): Promise<Answer | FetchFailure> {
	const signal = AbortSignal.timeout(plan.deadlineMs);
	let url = new URL(plan.url);
	let method = plan.method;
	let body = plan.body;
	for (let hop = 0; ; hop++) {
		if (!/^https?:$/.test(url.protocol)) {
			return fetchFailure(
				'redirect',
				`it points at a ${url.protocol} URL; only http(s) is fetched`,
			);
		}
		const authenticated = sendsKey(plan.policy, url, gateway);
		// A URL someone else named (an item, a message the gateway stored) is judged by the address
		// it reaches before anything is sent to it; the Base URL is the user's own choice.
		const guarded =
			!gateway.allowPrivateFiles &&
			(plan.policy === 'public' ||
				(plan.policy === 'gatewayFile' && url.origin !== gateway.origin));
		let target: JudgedTarget | undefined;
		if (guarded) {
			const judged = await judgeUrl(url, hostLookupOf.call(this), signal);
			if (!judged.ok) {
				return fetchFailure(
					judged.blocked ? 'internalAddress' : 'network',
					judged.reason,
					judged.cause,
				);
			}
			target = judged.target;
		}
		const request: IHttpRequestOptions = {
			method,
			url: target?.url ?? url.toString(),
			json: true,
			arrayFormat: 'repeat',
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: plan.deadlineMs,
			abortSignal: signal,
		};
		if (body !== undefined) request.body = body;
		if (plan.qs !== undefined && hop === 0) request.qs = plan.qs;
		if (target?.hostHeader) request.headers = { host: target.hostHeader };
		if (target?.servername) request.agentOptions = { servername: target.servername };
		const pending = (
			authenticated
				? this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, request, {
						credentialsDecrypted: gateway.credentials,
					})
				: this.helpers.httpRequest(request)
		) as Promise<IN8nHttpFullResponse>;
		const response = await beforeDeadline(pending, signal, plan.deadlineMs, (late) =>
			discard(late.body),
		);
		if (isFailure(response)) return response;
		// Without n8n's resolver (n8n 1.x) a name is judged by the address it connected to: the
		// answer of an internal one is dropped unread.
		const connected = target && !target.pinned ? connectedAddress(response.body) : undefined;
		const connectedKind = connected ? blockedAddressKind(connected) : undefined;
		if (connectedKind) {
			discard(response.body);
			return fetchFailure(
				'internalAddress',
				`${url.hostname} connected to ${connected}, a ${connectedKind} address`,
			);
		}
		const headers = (response.headers ?? {}) as IDataObject;
		const location = headerText(headers, 'location');
		if (isRedirect(response.statusCode) && location !== undefined) {
			discard(response.body);
			const next = new URL(location, url);
			if (hop + 1 > REQUEST_LIMITS.maxRedirects) {
				return fetchFailure(
					'redirect',
					`more than ${REQUEST_LIMITS.maxRedirects} redirects (last to ${displayUrl(next.toString())})`,
				);
			}
			if (plan.policy === 'gatewayApi' && next.origin !== gateway.origin) {
				return fetchFailure(
					'redirect',
					`it redirected to ${displayUrl(next.origin)}, another address than the Base URL, and the API key is only sent to the Base URL`,
				);
			}
			// 303, and 301/302 after a POST, turn into a GET without a body, as browsers do.
			if (response.statusCode === 303 || (response.statusCode < 303 && method !== 'GET')) {
				method = 'GET';
				body = undefined;
			}
			url = next;
			continue;
		}
		const data = await readBody(response.body, plan.maxBytes, signal, plan.deadlineMs);
		if (isFailure(data)) return data;
		return { statusCode: response.statusCode, headers, body: data, url: url.toString() };
	}
}
