import type { NetworkFailure } from './errors';

/**
 * When a request is sent again, with the same backoff and at most `maxRetries` times:
 * - 429 (rate limited) and 503 (temporarily unavailable) mean "not done, try again later": every
 *   request is retried on them.
 * - 502 and 504 (a proxy got no good answer from the gateway) and a connection lost before the
 *   whole answer came do not say whether the gateway acted: only a read is retried on them. A send
 *   (or any other change) may already be done, and sending it again could do it twice.
 * Nothing else is retried, and a request that ran out of its deadline is not either.
 */
export const RETRY_POLICY = {
	retryableStatusCodes: [429, 503],
	readRetryableStatusCodes: [502, 504],
	maxRetries: 3,
	baseDelayMs: 1000,
	maxDelayMs: 30000,
} as const;

/**
 * Whether a request only reads, so that repeating it changes nothing: what its call site says
 * (`read`), or else GET (and HEAD) read and every other method changes something. Reads sent with
 * POST (searches, lookups) must say so.
 */
export function isRead(method: string, read?: boolean): boolean {
	return read ?? (method === 'GET' || method === 'HEAD');
}

/**
 * What an answer says about sending the request again: `yes`, it was not done (429, 503);
 * `ifRead`, it may have been done (502, 504, a lost connection), so only a read goes again; `no`.
 */
export type Repeat = 'yes' | 'ifRead' | 'no';

export function repeatAfterStatus(statusCode: number): Repeat {
	if ((RETRY_POLICY.retryableStatusCodes as readonly number[]).includes(statusCode)) return 'yes';
	if ((RETRY_POLICY.readRetryableStatusCodes as readonly number[]).includes(statusCode)) {
		return 'ifRead';
	}
	return 'no';
}

/** Error codes of a connection lost before the whole answer came: reset, hung up, cut short. */
const LOST_CONNECTION_CODES = [
	'ECONNRESET',
	'EPIPE',
	'UND_ERR_SOCKET',
	'ERR_STREAM_PREMATURE_CLOSE',
];

/**
 * A network failure that is a connection lost on the way (reset, hung up, an answer cut short)
 * may be retried by a read. A refused connection or an unknown host says the Base URL is wrong or the
 * gateway is down, and a timeout is the deadline's: those are not retried.
 */
export function repeatAfterFailure(failure: NetworkFailure): Repeat {
	const lost =
		(failure.code !== undefined && LOST_CONNECTION_CODES.includes(failure.code)) ||
		/socket hang up|other side closed|premature close/i.test(failure.message ?? '');
	return lost ? 'ifRead' : 'no';
}

/**
 * How long to wait before retry number `retryNumber` (0-based): the gateway's Retry-After
 * (seconds or an HTTP date) when it sends one, otherwise exponential backoff; capped either way.
 */
export function retryDelayMs(
	retryNumber: number,
	retryAfterHeader?: unknown,
	now: number = Date.now(),
): number {
	const retryAfterMs = parseRetryAfterMs(retryAfterHeader, now);
	const delay = retryAfterMs ?? RETRY_POLICY.baseDelayMs * 2 ** retryNumber;
	return Math.min(Math.max(delay, 0), RETRY_POLICY.maxDelayMs);
}

function parseRetryAfterMs(header: unknown, now: number): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value === 'number') return value * 1000;
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim()) * 1000;
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : date - now;
}
