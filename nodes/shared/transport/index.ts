import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IWebhookFunctions,
	RequestHelperFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import {
	describeNetworkFailure,
	errorBodyForDetails,
	extractGatewayMessage,
	hintForStatus,
	licenceHint,
	licenceRequired,
	networkFailureOf,
	redactSecret,
} from './errors';
import { blockedAddressKind, connectedAddress, judgeUrl } from './egress';
import type { HostLookup, JudgedTarget } from './egress';
import { isRead, repeatAfterFailure, repeatAfterStatus, retryDelayMs, RETRY_POLICY } from './retry';
import { displayUrl, joinUrl, normalizeBaseUrl } from './url';
import { isObject } from '../values';
import { gatewayNamed } from '../gateways';
import type { GatewayName } from '../gateways';

export { gatewayPath, joinUrl, normalizeBaseUrl } from './url';
export type { BodyStyleSetting, RequestBodyStyle } from './body-style';
export { BODY_STYLE_LABELS, gatewayStyledRequest, getRequestBodyStyle } from './body-style';
import type { BodyStyleSetting } from './body-style';

export const CREDENTIAL_TYPE = 'messagingGatewayApi';

export interface GatewayCredentials {
	baseUrl: string;
	apiKey: string;
	requestBodyStyle?: BodyStyleSetting;
	/** Fetch Files From Private Addresses: URLs named by items or the gateway may be internal. */
	allowPrivateFileHosts?: boolean;
	/** The gateway product (see nodes/shared/gateways); absent on credentials saved before the choice. */
	gateway?: string;
}

export type GatewayRequestContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

/**
 * The limits every request lives within. The deadline covers the whole answer (connecting, the
 * headers and the last byte of the body), not only a silent socket: a gateway trickling a byte
 * every few seconds is cut off at the deadline all the same.
 */
export const REQUEST_LIMITS = {
	deadlineMs: 60_000,
	/** Gateway JSON answers: Download Media brings whole files as base64. */
	maxAnswerBytes: 64 * 1024 * 1024,
	/** Media files the gateway points at. */
	maxGatewayFileBytes: 100 * 1024 * 1024,
	maxRedirects: 5,
} as const;

/** Limits of a file fetched from a URL a user or an input item gave (never with the credential). */
export const PUBLIC_FILE_LIMITS = {
	deadlineMs: 30_000,
	maxBytes: 5 * 1024 * 1024,
} as const;

export interface GatewayRequestOptions {
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	/** The input item the request is made for, so errors point at it. */
	itemIndex?: number;
	/** Total time for one attempt, from sending to the last byte of the answer. */
	timeoutMs?: number;
	/**
	 * Whether the request only reads (repeating it changes nothing), so that 502, 504 and a
	 * connection lost before the whole answer are retried too (see RETRY_POLICY). Default: true for
	 * GET, false for every other method; reads sent with POST (searches, lookups) say `read: true`.
	 */
	read?: boolean;
	/**
	 * The route answers a bare text when it has one to give (NestJS sends a string result as it
	 * is, not as JSON, e.g. WAHA's group invite code): an answer that is no JSON is that text.
	 */
	plainText?: boolean;
}

interface ResolvedGateway {
	baseUrl: string;
	origin: string;
	/** The API key and a Base URL password: never in a message. */
	secrets: string[];
	/** Handed to n8n's authentication with each request, so it does not read them again. */
	credentials: ICredentialsDecrypted;
	/** Whether files named by items or the gateway may be fetched from internal addresses. */
	allowPrivateFiles: boolean;
}

/**
 * The credential, read once per node run (its context) and handed to n8n with each request: n8n
 * loads and decrypts it from its database on every read (about 3 ms in n8n 2.41.1 with SQLite,
 * more than a request to a local gateway), and `httpRequestWithAuthentication` reads it again for
 * every request unless it is given. A failed read is not kept, so the next request tries again.
 */
interface ReadCredentials {
	data: GatewayCredentials;
	/** The same data as n8n's authentication takes it. */
	decrypted: ICredentialsDecrypted;
	/** The Base URL checked, once for the run. */
	baseUrlCheck: ReturnType<typeof normalizeBaseUrl>;
}

const credentialsByContext = new WeakMap<GatewayRequestContext, Promise<ReadCredentials>>();

async function readCredentials(this: GatewayRequestContext): Promise<ReadCredentials> {
	const data = await this.getCredentials(CREDENTIAL_TYPE);
	const reference = this.getNode().credentials?.[CREDENTIAL_TYPE];
	return {
		data: data as unknown as GatewayCredentials,
		baseUrlCheck: normalizeBaseUrl(data.baseUrl),
		decrypted: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: CREDENTIAL_TYPE,
			data,
		},
	};
}

async function credentialsOf(this: GatewayRequestContext): Promise<ReadCredentials> {
	let pending = credentialsByContext.get(this);
	if (!pending) {
		pending = readCredentials.call(this);
		credentialsByContext.set(this, pending);
		pending.catch(() => credentialsByContext.delete(this));
	}
	return await pending;
}

/** The gateway product the credential names, read with the rest of the credential (once per run). */
export async function selectedGateway(this: GatewayRequestContext): Promise<GatewayName> {
	const { data } = await credentialsOf.call(this);
	return gatewayNamed(data.gateway);
}

async function resolveGateway(
	this: GatewayRequestContext,
	itemIndex?: number,
): Promise<ResolvedGateway> {
	const { data: credentials, decrypted, baseUrlCheck } = await credentialsOf.call(this);
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	const description = 'Open the Messaging Gateway API credential and fix it.';
	if (!baseUrlCheck.ok) {
		throw new NodeOperationError(this.getNode(), redactSecret(baseUrlCheck.reason, apiKey), {
			itemIndex,
			description: 'Open the Messaging Gateway API credential and fix its Base URL.',
		});
	}
	if (apiKey.trim() === '') {
		throw new NodeOperationError(this.getNode(), 'The credential has no API Key', {
			itemIndex,
			description: `${description} Copy the API key from the gateway's dashboard or its configuration.`,
		});
	}
	return {
		baseUrl: baseUrlCheck.baseUrl,
		origin: baseUrlCheck.origin,
		secrets: [apiKey, ...baseUrlCheck.secrets],
		credentials: decrypted,
		allowPrivateFiles: credentials.allowPrivateFileHosts === true,
	};
}

/** Who may receive the API key on a request and on the redirects it leads to. */
type KeyPolicy =
	/** A gateway API route: the key goes with it; a redirect off the Base URL's origin is refused. */
	| 'gatewayApi'
	/** A file the gateway pointed at: the key only on the gateway's own file route, never elsewhere. */
	| 'gatewayFile'
	/** A URL a user or an item gave: never the key, wherever it points. */
	| 'public';

interface Answer {
	statusCode: number;
	headers: IDataObject;
	body: Buffer;
	/** The URL that answered, after redirects. */
	url: string;
}

interface FetchPlan {
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
interface FetchFailure {
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

function isFailure(value: unknown): value is FetchFailure {
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

function seconds(milliseconds: number): string {
	return `${Number((milliseconds / 1000).toFixed(1))} s`;
}

function megabytes(bytes: number): string {
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

function headerText(headers: IDataObject | undefined, name: string): string | undefined {
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
async function fetchWithRedirects(
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

/** Whether n8n's own SSRF protection refused the request (its SsrfBlocked…Error, maybe wrapped). */
function blockedByN8n(error: unknown): boolean {
	for (let cause = error, depth = 0; isObject(cause) && depth < 5; depth++) {
		if (typeof cause.name === 'string' && cause.name.startsWith('SsrfBlocked')) return true;
		cause = cause.cause;
	}
	return false;
}

/** The error for a request that got no usable answer: unreachable, too slow, too large, redirected away. */
function failureError(
	this: GatewayRequestContext,
	failure: FetchFailure,
	plan: FetchPlan,
	gateway: ResolvedGateway,
): NodeApiError | NodeOperationError {
	const onGateway = plan.target === 'Gateway';
	const where = onGateway ? displayUrl(gateway.baseUrl) : displayUrl(new URL(plan.url).origin);
	const reason = redactSecret(failure.message, gateway.secrets);
	const what = onGateway ? 'Gateway' : `${plan.target}: the file host`;
	const message =
		failure.kind === 'network' || failure.kind === 'deadline'
			? `${what} unreachable at ${where} (${reason})`
			: `${what} at ${where} could not be used (${reason})`;
	if (failure.kind === 'network' && blockedByN8n(failure.original)) {
		return new NodeApiError(
			this.getNode(),
			{ message: reason },
			{
				message: `${what} at ${where} was blocked by n8n's SSRF protection (${reason})`,
				description: onGateway
					? "n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED) blocks private and local addresses for every node. If the gateway runs on your own network, allow it in n8n's environment: N8N_SSRF_ALLOWED_HOSTNAMES=<its host name> or N8N_SSRF_ALLOWED_IP_RANGES=<its address>/32."
					: "n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED) blocks this address for every node; an n8n administrator can allow it with N8N_SSRF_ALLOWED_HOSTNAMES or N8N_SSRF_ALLOWED_IP_RANGES.",
				itemIndex: plan.itemIndex,
			},
		);
	}
	if (failure.kind === 'internalAddress') {
		return new NodeOperationError(
			this.getNode(),
			`${onGateway ? 'A file the gateway named' : plan.target}: n8n does not fetch files from internal addresses (${reason})`,
			{
				itemIndex: plan.itemIndex,
				description:
					'Loopback, private, link-local, carrier-grade NAT and unique-local addresses are refused in every spelling, also when a name resolves to one or a redirect leads there, so a URL in a message cannot reach your internal network. If the file is on your own network, turn on "Fetch Files From Private Addresses" in the Messaging Gateway API credential.',
			},
		);
	}
	const descriptions: Record<Exclude<FetchFailure['kind'], 'internalAddress'>, string> = {
		network: onGateway
			? 'Check that the gateway is running and that the Base URL of the Messaging Gateway API credential (scheme, host and port) is right and reachable from n8n.'
			: 'Check that the URL is right and reachable from n8n.',
		deadline: onGateway
			? `Every request has ${seconds(plan.deadlineMs)} to be answered completely. Check the gateway's load and logs, or the network between n8n and the gateway.`
			: `The file must arrive completely within ${seconds(plan.deadlineMs)}.`,
		tooLarge: `Answers are limited to ${megabytes(plan.maxBytes)}.`,
		redirect: onGateway
			? 'If the gateway moved (for example from http:// to https://), put its new address as the Base URL of the credential.'
			: 'Use a direct http(s) link to the file.',
	};
	const cause = failure.original ?? failure;
	return new NodeApiError(
		this.getNode(),
		{
			message: redactSecret(
				cause instanceof Error ? cause.message : String(cause),
				gateway.secrets,
			),
		},
		{ message, description: descriptions[failure.kind], itemIndex: plan.itemIndex },
	);
}

/**
 * "Gateway error <code>: <words>" with the answer, secrets removed, in the error's details. `words`
 * defaults to the gateway's own message found in `body`.
 */
function gatewayError(
	this: GatewayRequestContext,
	body: unknown,
	statusCode: number,
	gateway: ResolvedGateway,
	itemIndex: number | undefined,
	explanation: { description: string; words?: string },
): NodeApiError {
	const words =
		explanation.words ?? redactSecret(extractGatewayMessage(body, statusCode), gateway.secrets);
	return new NodeApiError(this.getNode(), errorBodyForDetails(body, statusCode, gateway.secrets), {
		message: `Gateway error ${statusCode}: ${words}`,
		description: explanation.description,
		httpCode: String(statusCode),
		itemIndex,
	});
}

/** An HTTP error answer: the gateway's, or a file host's (which never got the key). */
function statusError(
	this: GatewayRequestContext,
	answer: Answer,
	plan: FetchPlan,
	gateway: ResolvedGateway,
): NodeApiError {
	const { statusCode } = answer;
	const body = answer.body.toString('utf8');
	if (plan.target === 'Gateway') {
		const licence = licenceRequired(statusCode, body);
		if (licence) {
			return gatewayError.call(this, body, statusCode, gateway, plan.itemIndex, {
				words: 'the Evolution API server is not activated (LICENSE_REQUIRED)',
				description: redactSecret(licenceHint(licence.registerUrl), gateway.secrets),
			});
		}
		const words = redactSecret(extractGatewayMessage(body, statusCode), gateway.secrets);
		// Express and NestJS answer a route they do not have with "Cannot <METHOD> <path>".
		const missingRoute = /\bCannot (GET|POST|PUT|PATCH|DELETE) (\/[^\s"'<]*)/.exec(words);
		return gatewayError.call(this, body, statusCode, gateway, plan.itemIndex, {
			words,
			description:
				statusCode === 404 && missingRoute
					? `This gateway does not offer this operation: it has no ${missingRoute[1]} ${missingRoute[2].replace(/[.,;:]+$/, '')} endpoint. It may be another product or version than the one this operation comes from; the README's compatibility table says which gateways have it.`
					: hintForStatus(statusCode),
		});
	}
	const hostMessage = redactSecret(extractGatewayMessage(body, statusCode), gateway.secrets);
	return new NodeApiError(this.getNode(), errorBodyForDetails(body, statusCode, gateway.secrets), {
		message: `${plan.target}: the file host answered ${statusCode} (${hostMessage})`,
		description:
			statusCode === 401 || statusCode === 403
				? "The API key is sent only to the Base URL's own address. If this file is on the gateway under another address, make the gateway write its file links with the Base URL's address."
				: 'Check that the URL is right and public.',
		httpCode: String(statusCode),
		itemIndex: plan.itemIndex,
	});
}

/**
 * When a request waits to be retried (429/503 with Retry-After, or backoff), every request of the
 * same run waits: items sent side by side (Simultaneous Chats) must not go on pressing a gateway
 * that asked for a pause or is failing.
 */
const pausedUntil = new WeakMap<GatewayRequestContext, number>();

/** Why a request that may already have been done was not sent again. */
const NOT_REPEATED =
	'It was not sent again: the gateway may have done it before the answer was lost, and a second try could do it twice. Check before running it again.';

/**
 * Sends a request and its redirects, retries as RETRY_POLICY says (429/503 for every request; 502,
 * 504 and a lost connection only for a read), with backoff honouring Retry-After, and turns every
 * failure into an n8n error. Returns a 2xx answer. This is the one place that decides whether a
 * request reads: `read` as its call site says, else by its method (see isRead). Each attempt has
 * the whole deadline; one that runs out of it is not retried.
 */
async function fetchWithRetries(
	this: GatewayRequestContext,
	plan: FetchPlan,
	gateway: ResolvedGateway,
	read?: boolean,
): Promise<Answer> {
	const reads = isRead(plan.method, read);
	for (let attempt = 1; ; attempt++) {
		const pauseMs = (pausedUntil.get(this) ?? 0) - Date.now();
		if (pauseMs > 0) await sleep(pauseMs);
		const answer = await fetchWithRedirects.call(this, plan, gateway);
		const failed = isFailure(answer);
		if (!failed && answer.statusCode >= 200 && answer.statusCode < 300) return answer;
		const repeat = !failed
			? licenceRequired(answer.statusCode, answer.body)
				? 'no'
				: repeatAfterStatus(answer.statusCode)
			: answer.kind === 'network'
				? repeatAfterFailure(networkFailureOf(answer.original))
				: 'no';
		const retry = repeat === 'yes' || (repeat === 'ifRead' && reads);
		if (retry && attempt <= RETRY_POLICY.maxRetries) {
			const retryAfter = failed ? undefined : answer.headers['retry-after'];
			const until = Date.now() + retryDelayMs(attempt - 1, retryAfter);
			pausedUntil.set(this, Math.max(pausedUntil.get(this) ?? 0, until));
			continue;
		}
		const error = failed
			? failureError.call(this, answer, plan, gateway)
			: statusError.call(this, answer, plan, gateway);
		const note = attempt > 1 ? `Tried ${attempt} times.` : repeat === 'ifRead' ? NOT_REPEATED : '';
		if (note) error.description = `${error.description ?? ''} ${note}`.trim();
		throw error;
	}
}

/** A 2xx whose body says the request failed (`{success:false, …}` or an error with an HTTP status inside). */
function failureInside(body: unknown): number | undefined {
	if (!isObject(body)) return undefined;
	if (body.success === false) return 0;
	const status = Number(body.statusCode ?? body.status);
	if (Number.isInteger(status) && status >= 400 && status < 600 && body.error !== undefined) {
		return status;
	}
	return undefined;
}

/**
 * The one way both nodes talk to the gateway: JSON in, JSON out, the apikey header added by
 * the credential, 429/503 (and for a read, `options.read`, also 502/504 and a lost connection)
 * retried with backoff, every failure turned into an n8n error that
 * names the HTTP code, the gateway's own message and what to do about it. A 2xx that is not
 * JSON, or that says it failed, is an error too. `path` must come from `gatewayPath`, which
 * encodes the user-supplied segments.
 */
export async function gatewayApiRequest<T = unknown>(
	this: GatewayRequestContext,
	method: IHttpRequestMethods,
	path: string,
	options: GatewayRequestOptions = {},
): Promise<T> {
	const { body, qs, itemIndex, timeoutMs = REQUEST_LIMITS.deadlineMs, read, plainText } = options;
	const gateway = await resolveGateway.call(this, itemIndex);
	const plan: FetchPlan = {
		method,
		url: joinUrl(gateway.baseUrl, path),
		body,
		qs,
		policy: 'gatewayApi',
		deadlineMs: timeoutMs,
		maxBytes: REQUEST_LIMITS.maxAnswerBytes,
		itemIndex,
		target: 'Gateway',
	};
	const answer = await fetchWithRetries.call(this, plan, gateway, read);
	const text = answer.body.toString('utf8');
	if (text.trim() === '') return undefined as T;
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		if (plainText) return text as T;
		const shown = redactSecret(extractGatewayMessage(text, answer.statusCode), gateway.secrets);
		throw gatewayError.call(this, text, answer.statusCode, gateway, itemIndex, {
			words: `the answer is not JSON (${shown})`,
			description:
				'The Base URL may point at a web page (a login page or a proxy) instead of the gateway API, or the gateway cut its answer short. Check the Base URL and the gateway logs.',
		});
	}
	const insideStatus = failureInside(parsed);
	if (insideStatus !== undefined) {
		const statusCode = insideStatus || answer.statusCode;
		throw gatewayError.call(this, parsed, statusCode, gateway, itemIndex, {
			description: `The gateway answered ${answer.statusCode} but reported a failure. ${hintForStatus(statusCode)}`,
		});
	}
	return parsed as T;
}

export interface DownloadedFile {
	data: Buffer;
	mimeType?: string;
	fileName?: string;
}

function fileNameFromDisposition(header: unknown): string | undefined {
	if (typeof header !== 'string') return undefined;
	const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
	if (!match) return undefined;
	try {
		return decodeURIComponent(match[1]);
	} catch {
		return match[1];
	}
}

function downloadedFile(answer: Answer): DownloadedFile {
	const contentType = headerText(answer.headers, 'content-type');
	let lastSegment = '';
	try {
		lastSegment = decodeURIComponent(new URL(answer.url).pathname.split('/').pop() ?? '');
	} catch {
		lastSegment = '';
	}
	return {
		data: answer.body,
		mimeType: contentType ? contentType.split(';')[0].trim().toLowerCase() : undefined,
		fileName:
			fileNameFromDisposition(answer.headers['content-disposition']) ?? (lastSegment || undefined),
	};
}

/** An absolute http(s) URL, or undefined. */
function httpUrl(raw: string, base?: string): URL | undefined {
	try {
		const url = new URL(raw, base);
		return /^https?:$/.test(url.protocol) && url.hostname !== '' ? url : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Downloads a media file the gateway pointed at (a message's media URL, a profile picture). The
 * API key goes only to the gateway's own file route on the Base URL's origin; a file elsewhere, or
 * a redirect elsewhere, is fetched without it.
 */
export async function gatewayDownloadFile(
	this: GatewayRequestContext,
	fileUrl: string,
	itemIndex?: number,
): Promise<DownloadedFile> {
	const gateway = await resolveGateway.call(this, itemIndex);
	const url = httpUrl(fileUrl, `${gateway.baseUrl}/`);
	if (!url) {
		throw new NodeApiError(
			this.getNode(),
			{ message: 'unusable media URL' },
			{
				message: `The gateway gave a media URL that is not http(s): "${redactSecret(displayUrl(String(fileUrl)), gateway.secrets)}"`,
				description: 'Only http(s) files are downloaded. Check how the gateway stores media.',
				itemIndex,
			},
		);
	}
	const answer = await fetchWithRetries.call(
		this,
		{
			method: 'GET',
			url: url.toString(),
			policy: 'gatewayFile',
			deadlineMs: REQUEST_LIMITS.deadlineMs,
			maxBytes: REQUEST_LIMITS.maxGatewayFileBytes,
			itemIndex,
			// A file on the gateway itself fails as the gateway does; one elsewhere names its host.
			target: url.origin === gateway.origin ? 'Gateway' : 'Media file',
		},
		gateway,
	);
	return downloadedFile(answer);
}

/**
 * Fetches a file from a URL a user or an input item gave (e.g. a preview image the gateway wants
 * inline): http(s) only, never with the API key (even on the gateway's own address), at most
 * PUBLIC_FILE_LIMITS.maxBytes within PUBLIC_FILE_LIMITS.deadlineMs, and, when `mimePrefix` is
 * given, only a file of that type. `field` names the field the URL came from.
 */
export async function fetchPublicFile(
	this: GatewayRequestContext,
	fileUrl: string,
	field: string,
	itemIndex: number,
	mimePrefix?: string,
): Promise<DownloadedFile> {
	const gateway = await resolveGateway.call(this, itemIndex);
	const url = httpUrl(fileUrl);
	if (!url) {
		throw new NodeOperationError(
			this.getNode(),
			`${field} must be an http(s) URL (got "${displayUrl(fileUrl)}")`,
			{ itemIndex },
		);
	}
	const answer = await fetchWithRetries.call(
		this,
		{
			method: 'GET',
			url: url.toString(),
			policy: 'public',
			deadlineMs: PUBLIC_FILE_LIMITS.deadlineMs,
			maxBytes: PUBLIC_FILE_LIMITS.maxBytes,
			itemIndex,
			target: field,
		},
		gateway,
	);
	const file = downloadedFile(answer);
	if (mimePrefix && !file.mimeType?.startsWith(mimePrefix)) {
		throw new NodeOperationError(
			this.getNode(),
			`${field} must point at a file of type ${mimePrefix}* (the host sent ${file.mimeType ?? 'no content type'})`,
			{ itemIndex, description: 'Use a direct link to the file, not to a web page about it.' },
		);
	}
	return file;
}
