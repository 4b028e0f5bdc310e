/** 429 (rate limited) and 503 (temporarily unavailable) mean "try again later"; nothing else is retried. */
export const RETRY_POLICY = {
	retryableStatusCodes: [429, 503],
	maxRetries: 3,
	baseDelayMs: 1000,
	maxDelayMs: 30000,
} as const;

export function isRetryableStatus(statusCode: number): boolean {
	return (RETRY_POLICY.retryableStatusCodes as readonly number[]).includes(statusCode);
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
