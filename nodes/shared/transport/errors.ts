import type { JsonObject } from 'n8n-workflow';
import { isObject } from '../values';

const MAX_MESSAGE_LENGTH = 300;

const REASON_PHRASES: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	409: 'Conflict',
	422: 'Unprocessable Entity',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	501: 'Not Implemented',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

/** What to tell the user to do, per HTTP status of a gateway error. */
export function hintForStatus(statusCode: number): string {
	switch (statusCode) {
		case 400:
			return 'The gateway rejected the parameters. Check the fields named in the message.';
		case 401:
			return 'Check the API Key of the Messaging Gateway API credential: the gateway did not accept it.';
		case 403:
			return "This API key may not use this session. Use the gateway's global API key or the session's own key.";
		case 404:
			return 'The session (instance), chat, group, message or picture was not found, or the Base URL is wrong. Check the Session name, the IDs, and that the Base URL is the root of the gateway.';
		case 422:
			return 'The session is not ready for this operation (for example not paired yet, or already connected). Check its status, pair or restart it, then try again.';
		case 429:
			return 'The gateway is rate limiting. The request was retried; wait a little or set "Wait Between Items" to send more slowly.';
		case 501:
			return 'This gateway does not implement this operation.';
		case 503:
			return 'The gateway is temporarily unavailable. The request was retried; try again later.';
		default:
			if (statusCode >= 500) {
				return "The gateway failed while processing the request. Check the gateway's logs; trying again later may help.";
			}
			return 'The gateway refused the request. Check the parameters of this operation.';
	}
}

/**
 * Evolution API 2.4.0 answers every business route `503 {code: 'LICENSE_REQUIRED', register_url,
 * message, …}` until its operator activates the server: not a busy gateway, so never retried.
 * The activation page it names, or undefined when the answer is no such thing.
 */
export function licenceRequired(
	statusCode: number,
	body: Buffer | string,
): { registerUrl?: string } | undefined {
	if (statusCode !== 503) return undefined;
	const text = body.toString();
	// Most 503s are busy gateways with other bodies: look inside only when the code is there.
	if (!text.includes('LICENSE_REQUIRED')) return undefined;
	try {
		const parsed: unknown = JSON.parse(text);
		if (!isObject(parsed) || parsed.code !== 'LICENSE_REQUIRED') return undefined;
		const url = parsed.register_url;
		return typeof url === 'string' && /^https?:\/\/\S+$/.test(url) ? { registerUrl: url } : {};
	} catch {
		return undefined;
	}
}

/** What to do about an Evolution API server that is not activated (see licenceRequired). */
export function licenceHint(registerUrl: string | undefined): string {
	const where = registerUrl
		? `open ${registerUrl} (the Evolution manager) and follow its licence steps`
		: "open the Evolution manager (/manager on the server's address) and follow its licence steps";
	return `Activate your Evolution API server: ${where}, or set AUTHENTICATION_API_KEY in the server's .env to a valid licensing key and restart it. Evolution API 2.4.0 refuses every call with 503 LICENSE_REQUIRED until then; the request was not sent again, as waiting does not help.`;
}

export function reasonPhrase(statusCode: number): string {
	return REASON_PHRASES[statusCode] ?? (statusCode >= 500 ? 'Server Error' : 'Client Error');
}

function truncate(text: string): string {
	const singleLine = text.replace(/\s+/g, ' ').trim();
	return singleLine.length > MAX_MESSAGE_LENGTH
		? `${singleLine.slice(0, MAX_MESSAGE_LENGTH - 1)}…`
		: singleLine;
}

/**
 * Turns one entry of a gateway message (a string, a nested array, or an object such as the
 * instance family's `{exists:false, jid, number}` or `{property, message}`) into readable text.
 */
function messageText(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (Array.isArray(value)) {
		return value
			.map(messageText)
			.filter((text) => text !== '')
			.join('; ');
	}
	if (isObject(value)) {
		if (value.exists === false && (value.number || value.jid)) {
			return `The number ${String(value.number ?? value.jid)} is not registered on the messaging network`;
		}
		if (typeof value.property === 'string' && value.message !== undefined) {
			return `${value.property}: ${messageText(value.message)}`;
		}
		if (value.message !== undefined) return messageText(value.message);
		return JSON.stringify(value);
	}
	return '';
}

function htmlText(html: string): string {
	// Express's own error page (Evolution API) says what happened in <pre>, under the title "Error".
	const preformatted = /<pre[^>]*>([\s\S]*?)<\/pre>/i.exec(html)?.[1];
	const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
	const heading = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
	const text = (preformatted ?? title ?? heading ?? html)
		.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, ' ')
		.replace(/<[^>]+>/g, ' ');
	return truncate(text);
}

function objectMessage(body: Record<string, unknown>): string {
	// Instance family: {status, error, response: {message}}
	if (isObject(body.response) && body.response.message !== undefined) {
		return messageText(body.response.message);
	}
	// Session family, unexpected session status (the body is the exception object itself)
	if (
		typeof body.error === 'string' &&
		typeof body.status === 'string' &&
		body.session !== undefined
	) {
		const expected = Array.isArray(body.expected) ? `, expected ${body.expected.join(' or ')}` : '';
		return `${body.error} (session "${String(body.session)}" is ${body.status}${expected})`;
	}
	// Session family: {statusCode, message, error}; unhandled 500s carry {exception: {message}}
	if (body.message !== undefined) return messageText(body.message);
	if (isObject(body.exception) && body.exception.message !== undefined) {
		return messageText(body.exception.message);
	}
	if (typeof body.error === 'string') return body.error;
	if (isObject(body.error)) return objectMessage(body.error);
	return JSON.stringify(body);
}

/** The gateway's own error message from any body it may send: JSON of either family, HTML, text or nothing. */
export function extractGatewayMessage(body: unknown, statusCode: number): string {
	const fallback = `The gateway answered ${statusCode} ${reasonPhrase(statusCode)}`;
	if (body === undefined || body === null) return `${fallback} with an empty body`;
	if (typeof body === 'string') {
		const text = body.trim();
		if (text === '') return `${fallback} with an empty body`;
		if (/^[[{]/.test(text)) {
			try {
				return extractGatewayMessage(JSON.parse(text), statusCode);
			} catch {
				return truncate(text);
			}
		}
		if (/^<|<html|<body/i.test(text)) {
			const pageText = htmlText(text);
			return pageText
				? `${fallback} with an HTML page: "${pageText}"`
				: `${fallback} with an HTML page`;
		}
		return truncate(text);
	}
	if (Buffer.isBuffer(body) || body instanceof ArrayBuffer) {
		return extractGatewayMessage(Buffer.from(body as ArrayBuffer).toString('utf8'), statusCode);
	}
	const text = truncate(
		Array.isArray(body) ? messageText(body) : isObject(body) ? objectMessage(body) : '',
	);
	return text === '' ? fallback : text;
}

/**
 * Replaces every occurrence of the secrets (the API key, a password in the Base URL), also
 * URL-encoded, so none reaches an error, an output or a log.
 */
export function redactSecret<T>(value: T, secret: string | readonly string[]): T {
	const secrets = (typeof secret === 'string' ? [secret] : secret)
		.flatMap((entry) => [entry, encodeURIComponent(entry)])
		.filter((entry) => entry.length > 0)
		// Longest first, so a secret that contains another is replaced whole.
		.sort((left, right) => right.length - left.length);
	return redactAll(value, secrets);
}

function redactAll<T>(value: T, secrets: string[]): T {
	if (secrets.length === 0) return value;
	if (typeof value === 'string') {
		return secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), value) as T;
	}
	if (Array.isArray(value)) return value.map((entry) => redactAll(entry, secrets)) as T;
	if (isObject(value)) {
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [key, redactAll(entry, secrets)]),
		) as T;
	}
	return value;
}

const NETWORK_ERROR_TEXT: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ENOTFOUND: 'host name not found',
	EAI_AGAIN: 'host name could not be resolved',
	ETIMEDOUT: 'no answer in time',
	ECONNABORTED: 'no answer in time',
	ECONNRESET: 'the connection was closed before an answer',
	EHOSTUNREACH: 'host unreachable',
	ENETUNREACH: 'network unreachable',
	EPROTO: 'TLS/protocol mismatch',
	CERT_HAS_EXPIRED: 'its TLS certificate has expired',
	DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
};

export interface NetworkFailure {
	code?: string;
	message?: string;
}

/** Finds the low-level cause (code and message) of a failed request, however n8n wrapped it. */
export function networkFailureOf(error: unknown): NetworkFailure {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && isObject(current); depth++) {
		const code = current.code;
		if (typeof code === 'string' && /^[A-Z_]+$/.test(code) && code !== 'ERR_BAD_RESPONSE') {
			return { code, message: typeof current.message === 'string' ? current.message : undefined };
		}
		current = current.cause;
	}
	const message = error instanceof Error ? error.message : undefined;
	return { code: undefined, message };
}

export function describeNetworkFailure(failure: NetworkFailure): string {
	if (failure.code && NETWORK_ERROR_TEXT[failure.code]) return NETWORK_ERROR_TEXT[failure.code];
	if (failure.message && /socket hang up/i.test(failure.message))
		return NETWORK_ERROR_TEXT.ECONNRESET;
	if (failure.message && /timeout/i.test(failure.message)) return NETWORK_ERROR_TEXT.ETIMEDOUT;
	return failure.message ? truncate(failure.message) : 'no answer';
}

/** A plain, secret-free copy of the gateway's error body for the error's details panel. */
export function errorBodyForDetails(
	body: unknown,
	statusCode: number,
	secret: string | readonly string[],
): JsonObject {
	const details: JsonObject = { statusCode };
	if (isObject(body) || Array.isArray(body)) {
		details.gatewayResponse = redactSecret(body, secret) as JsonObject;
	} else if (typeof body === 'string' && body.trim() !== '') {
		details.gatewayResponse = redactSecret(truncate(body), secret);
	}
	return details;
}
