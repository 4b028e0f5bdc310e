/**
 * Requests to the gateway's API: retried as RETRY_POLICY says, with every failure an n8n error and
 * every answer checked to be JSON that does not report a failure.
 */
import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { resolveGateway } from './credentials';
import type { GatewayRequestContext, ResolvedGateway } from './credentials';
import {
	extractGatewayMessage,
	hintForStatus,
	licenceRequired,
	networkFailureOf,
	redactSecret,
} from './errors';
import { fetchWithRedirects, isFailure } from './fetch';
import type { Answer, FetchPlan } from './fetch';
import { REQUEST_LIMITS } from './limits';
import { failureError, gatewayError, statusError } from './n8n-errors';
import { isRead, repeatAfterFailure, repeatAfterStatus, retryDelayMs, RETRY_POLICY } from './retry';
import { joinUrl } from './url';
import { isObject } from '../values';

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
export async function fetchWithRetries(
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
