// The two error dialects: Evolution API v1 (instance family) and NestJS/WAHA (session family).
import { STATUS_CODES } from 'node:http';

/** Thrown by route handlers; the server turns it into the response as given. */
export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown,
		readonly headers: Record<string, string> = {},
	) {
		super(`HTTP ${status}`);
	}
}

function reason(status: number): string {
	return STATUS_CODES[status] ?? 'Error';
}

/**
 * Evolution: `{status, error, response: {message}}`. `message` is whatever the exception was built
 * with: usually an array of its constructor arguments, sometimes a plain string.
 */
export const evolutionError = {
	of(status: number, message: unknown): HttpError {
		return new HttpError(status, { status, error: reason(status), response: { message } });
	},
	unauthorized(): HttpError {
		return evolutionError.of(401, 'Unauthorized');
	},
	instanceNotFound(instance: string): HttpError {
		return evolutionError.of(404, [`The "${instance}" instance does not exist`]);
	},
	routeNotFound(method: string, url: string): HttpError {
		return evolutionError.of(404, [`Cannot ${method} ${url}`]);
	},
	/** dataValidate wraps its list of messages once more: `[["instance requires property \"x\""]]`. */
	schema(messages: string[]): HttpError {
		return evolutionError.of(400, [messages]);
	},
	badRequest(...items: unknown[]): HttpError {
		return evolutionError.of(400, items);
	},
	notFound(...items: unknown[]): HttpError {
		return evolutionError.of(404, items);
	},
	/** What an instance whose socket is not open answers: an unhandled error with a string message. */
	connectionClosed(): HttpError {
		return evolutionError.of(500, 'Connection Closed');
	},
	invalidJson(detail: string): HttpError {
		return evolutionError.of(400, detail);
	},
};

/** NestJS/WAHA: `{statusCode, message, error}`; validation messages are arrays of strings. */
export const nestError = {
	of(status: number, message: string | string[]): HttpError {
		return new HttpError(status, { statusCode: status, message, error: reason(status) });
	},
	unauthorized(): HttpError {
		return new HttpError(401, { statusCode: 401, message: 'Unauthorized' });
	},
	validation(messages: string[]): HttpError {
		return nestError.of(400, messages);
	},
	notFound(message: string): HttpError {
		return nestError.of(404, message);
	},
	routeNotFound(method: string, path: string): HttpError {
		return nestError.of(404, `Cannot ${method} ${path}`);
	},
	sessionNotFound(session: string): HttpError {
		return nestError.notFound(
			`We didn't find a session with name '${session}'.\nPlease start it first by using POST /api/sessions/${session}/start request`,
		);
	},
	/** WAHA throws this exception with an object, and Nest sends such objects as the whole body. */
	sessionStatus(session: string, status: string, expected: string[]): HttpError {
		return new HttpError(422, {
			error: 'Session status is not as expected. Try again later or restart the session',
			session,
			status,
			expected,
		});
	},
	unprocessable(message: string): HttpError {
		return nestError.of(422, message);
	},
	notImplemented(message: string): HttpError {
		return nestError.of(501, message);
	},
};

/** Errors of the /__sim/ control API and of the programmatic API (`{error}` bodies). */
export class SimulatorInputError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}
