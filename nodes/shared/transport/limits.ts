// The time and size limits of every fetch, in one place for the code and for the tests that check them.

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
