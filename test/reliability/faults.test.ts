/**
 * The fault matrix: every way a gateway (or the network to it) can misbehave, run through the real
 * node or the transport probe inside n8n's engine against a scripted faulty server. Each case
 * asserts the error class, HTTP code, message, hint, how many requests were made (retries) and how
 * long it took, and that the API key appears nowhere in what came out.
 */
import type { INodeParameters, Logger } from 'n8n-workflow';
import { LoggerProxy } from 'n8n-workflow';

import { MessagingGatewayApi } from '../../credentials/MessagingGatewayApi.credentials';
import { MAX_PAGES } from '../../nodes/MessagingGateway/helpers/pagination';
import { PUBLIC_FILE_LIMITS, REQUEST_LIMITS } from '../../nodes/shared/transport';
import { RETRY_POLICY } from '../../nodes/shared/transport/retry';
import { outputJson, runGateway, byId } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';
import { runNode } from '../support/n8n-harness.cts';
import type { RunNodeResult } from '../support/n8n-harness.cts';
import { PROBE_NODE_TYPE, probeNode } from '../support/probe-node.cts';
import { startScriptedServer, unusedLocalUrl } from '../support/scripted-server.cts';
import type { ScriptedResponse, ScriptedServer } from '../support/scripted-server.cts';
import { expectReadmeSection } from '../support/readme-section.cts';

const MATRIX_KEY = 'dummy-fault-matrix-key-7d1e0b93';
const URL_PASSWORD_VALUE = 'dummy-url-pass-51c2';
const SESSION = 'acme-sales';
const SENT = { key: { remoteJid: '5511999999999@s.messenger.net', fromMe: true, id: '3EB0AA' } };

let server: ScriptedServer;
let otherHost: ScriptedServer;

/** Every line n8n's logger would write while the matrix runs, to search for secrets. */
const logLines: string[] = [];
const capturingLogger = Object.fromEntries(
	['error', 'warn', 'info', 'debug', 'verbose'].map((level) => [
		level,
		(message: string, meta?: object) =>
			logLines.push(`${level} ${message} ${JSON.stringify(meta ?? {})}`),
	]),
) as unknown as Logger;

beforeAll(() => LoggerProxy.init(capturingLogger));

beforeEach(async () => {
	server = await startScriptedServer();
	otherHost = await startScriptedServer();
	server.answerEveryRequestWith({ status: 201, body: SENT });
});

afterEach(async () => {
	await server.stop();
	await otherHost.stop();
});

/** Where a case sends: Send Text through the real node, or one request through the transport probe. */
type Route = { node: INodeParameters } | { probe: Record<string, unknown> };

const SEND_TEXT: Route = {
	node: {
		resource: 'message',
		operation: 'sendText',
		session: SESSION,
		chatId: byId('+55 11 99999-9999'),
		text: 'Hello',
	},
};

/** Reads, through the real node: Chat Get Many (GET) and Check Number (a read sent with POST). */
const CHAT_GET_MANY: Route = { node: { resource: 'chat', operation: 'getMany', session: SESSION } };
const CHECK_NUMBER: Route = {
	node: {
		resource: 'contact',
		operation: 'checkNumber',
		session: SESSION,
		numbers: '+55 11 99999-9999',
	},
};
const NO_CHATS: ScriptedResponse = { status: 200, body: [] };
const NUMBER_EXISTS: ScriptedResponse = {
	status: 200,
	body: [{ exists: true, jid: '5511999999999@s.messenger.net', number: '5511999999999' }],
};
/** What a write that met a 502, a 504 or a lost connection says. */
const NOT_SENT_AGAIN = /It was not sent again: the gateway may have done it/;

function probeRoute(parameters: Record<string, unknown>): Route {
	return { probe: { method: 'GET', path: '/api/contacts', ...parameters } };
}

async function runRoute(
	route: Route,
	baseUrl: string,
	options: RunGatewayOptions = {},
): Promise<RunNodeResult> {
	if ('node' in route) {
		return await runGateway({ url: baseUrl, apiKey: MATRIX_KEY }, route.node, options);
	}
	return await runNode({
		nodeTypes: { [PROBE_NODE_TYPE]: probeNode },
		credentialTypes: { messagingGatewayApi: new MessagingGatewayApi() },
		credentials: {
			messagingGatewayApi: {
				baseUrl,
				apiKey: options.apiKey ?? MATRIX_KEY,
				allowPrivateFileHosts: options.allowPrivateFileHosts === true,
			},
		},
		type: PROBE_NODE_TYPE,
		parameters: route.probe as INodeParameters,
		items: options.items,
		onError: options.onError,
	});
}

/** The key (and the Base URL password) must not be in any output item or error. */
function expectNoSecretsIn(result: RunNodeResult): void {
	const everything = JSON.stringify({ outputs: result.outputs, error: result.error });
	expect(everything).not.toContain(MATRIX_KEY);
	expect(everything).not.toContain(URL_PASSWORD_VALUE);
}

interface FaultCase {
	fault: string;
	answers?: ScriptedResponse[];
	route?: Route;
	/** Where the credential points; default the scripted server. */
	baseUrl?: () => Promise<string>;
	outcome: 'error' | 'success';
	errorClass?: 'NodeApiError' | 'NodeOperationError';
	httpCode?: string | null;
	message?: RegExp;
	hint?: RegExp;
	/** Requests the faulty server received: 1 + retries. */
	requests: number;
	minSeconds?: number;
	maxSeconds: number;
}

/** The same answer to the first try and every retry, asking to retry at once. */
const everyTry = (status: number, message: string): ScriptedResponse[] =>
	Array.from({ length: RETRY_POLICY.maxRetries + 1 }, () => ({
		status,
		headers: { 'retry-after': '0' },
		body: { message },
	}));

const html502 =
	'<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>';
const loginPage =
	'<!doctype html><html><head><title>Sign in - Gateway Dashboard</title></head><body><form>…</form></body></html>';
const bigJson = (megabytes: number) =>
	`{"key":{"id":"3EB0BIG"},"padding":"${'x'.repeat(megabytes * 1024 * 1024)}"}`;

const FAULTS: FaultCase[] = [
	{
		fault: '400 with a nested-array message',
		answers: [
			{
				status: 400,
				body: {
					status: 400,
					error: 'Bad Request',
					response: { message: [['instance requires property "textMessage"']] },
				},
			},
		],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '400',
		message: /^Gateway error 400: instance requires property "textMessage"$/,
		hint: /rejected the parameters/,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: '401 unauthorized',
		answers: [
			{
				status: 401,
				body: { status: 401, error: 'Unauthorized', response: { message: 'Unauthorized' } },
			},
		],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '401',
		message: /^Gateway error 401: Unauthorized$/,
		hint: /API Key/,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: '403 forbidden',
		answers: [
			{
				status: 403,
				body: { status: 403, error: 'Forbidden', response: { message: 'Forbidden' } },
			},
		],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '403',
		message: /^Gateway error 403: Forbidden$/,
		hint: /may not use this session/,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: '404 unknown instance',
		answers: [
			{
				status: 404,
				body: {
					status: 404,
					error: 'Not Found',
					response: { message: ['The "acme-sales" instance does not exist'] },
				},
			},
		],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '404',
		message: /^Gateway error 404: The "acme-sales" instance does not exist$/,
		hint: /not found/,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: '422 with an object body',
		answers: [
			{
				status: 422,
				body: {
					error: 'Session status is not as expected',
					session: SESSION,
					status: 'STARTING',
					expected: ['WORKING'],
				},
			},
		],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '422',
		message:
			/^Gateway error 422: Session status is not as expected \(session "acme-sales" is STARTING, expected WORKING\)$/,
		hint: /not ready/,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: '429 with Retry-After, every time',
		answers: everyTry(429, 'Too many requests'),
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '429',
		message: /^Gateway error 429: Too many requests$/,
		hint: /retried/,
		requests: 4,
		maxSeconds: 3,
	},
	{
		fault: '429 without Retry-After, once',
		answers: [{ status: 429, body: { message: 'Too many requests' } }],
		outcome: 'success',
		requests: 2,
		minSeconds: 0.9,
		maxSeconds: 4,
	},
	{
		fault: '500 internal error',
		answers: [
			{
				status: 500,
				body: {
					status: 500,
					error: 'Internal Server Error',
					response: { message: ['Connection Closed'] },
				},
			},
		],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '500',
		message: /^Gateway error 500: Connection Closed$/,
		hint: /gateway's logs/,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: '500 with an empty body',
		answers: [{ status: 500, body: '' }],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '500',
		message:
			/^Gateway error 500: The gateway answered 500 Internal Server Error with an empty body$/,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: '501 not implemented',
		answers: [
			{
				status: 501,
				body: {
					statusCode: 501,
					message: "The method is not implemented by 'NOWEB' engine.",
					error: 'Not Implemented',
				},
			},
		],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '501',
		message: /^Gateway error 501: The method is not implemented by 'NOWEB' engine\.$/,
		hint: /does not implement/,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: '502 HTML page from a proxy, on a send',
		answers: [{ status: 502, headers: { 'content-type': 'text/html' }, body: html502 }],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '502',
		message:
			/^Gateway error 502: The gateway answered 502 Bad Gateway with an HTML page: "502 Bad Gateway"$/,
		hint: NOT_SENT_AGAIN,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: '502 HTML page from a proxy once, on a read (Chat Get Many)',
		route: CHAT_GET_MANY,
		answers: [{ status: 502, headers: { 'content-type': 'text/html' }, body: html502 }, NO_CHATS],
		outcome: 'success',
		requests: 2,
		minSeconds: 0.9,
		maxSeconds: 4,
	},
	{
		fault: '502 on a read, every time',
		route: CHAT_GET_MANY,
		answers: everyTry(502, 'upstream connect error'),
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '502',
		message: /^Gateway error 502: upstream connect error$/,
		hint: /Tried 4 times\.$/,
		requests: 4,
		maxSeconds: 3,
	},
	{
		fault: '503 with Retry-After, then success',
		answers: [{ status: 503, headers: { 'retry-after': '1' }, body: { message: 'Restarting' } }],
		outcome: 'success',
		requests: 2,
		minSeconds: 0.9,
		maxSeconds: 4,
	},
	{
		fault: '503 with Retry-After, every time',
		answers: everyTry(503, 'Restarting'),
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '503',
		message: /^Gateway error 503: Restarting$/,
		hint: /temporarily unavailable/,
		requests: 4,
		maxSeconds: 3,
	},
	{
		fault: '504 gateway timeout, on a send',
		answers: [{ status: 504, body: '' }],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '504',
		message: /^Gateway error 504: /,
		hint: NOT_SENT_AGAIN,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: '504 gateway timeout once, on a read sent with POST (Check Number)',
		route: CHECK_NUMBER,
		answers: [{ status: 504, body: '' }, NUMBER_EXISTS],
		outcome: 'success',
		requests: 2,
		minSeconds: 0.9,
		maxSeconds: 4,
	},
	{
		fault: '200 with an HTML login page',
		answers: [{ status: 200, headers: { 'content-type': 'text/html' }, body: loginPage }],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '200',
		message: /^Gateway error 200: the answer is not JSON \(.*Sign in - Gateway Dashboard/,
		hint: /Base URL/,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: '200 with plain text',
		answers: [{ status: 200, headers: { 'content-type': 'text/plain' }, body: 'OK' }],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '200',
		message: /^Gateway error 200: the answer is not JSON \(OK\)$/,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: '200 with truncated JSON',
		answers: [
			{
				status: 200,
				headers: { 'content-type': 'application/json' },
				body: '{"key":{"remoteJid":"55119',
			},
		],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '200',
		message: /^Gateway error 200: the answer is not JSON/,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: '200 with success:false inside',
		answers: [
			{ status: 200, body: { success: false, error: 'Session acme-sales is not connected' } },
		],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '200',
		message: /^Gateway error 200: Session acme-sales is not connected$/,
		hint: /reported a failure/,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: '200 with an error status inside',
		answers: [
			{
				status: 200,
				body: { status: 400, error: 'Bad Request', response: { message: ['Invalid format'] } },
			},
		],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: '400',
		message: /^Gateway error 400: Invalid format$/,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: 'slow trickle (a byte every 200 ms, never ending)',
		route: probeRoute({ timeoutMs: 1500 }),
		answers: [{ status: 200, trickle: { chunk: ' ', everyMs: 200 } }],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: null,
		message:
			/^Gateway unreachable at http:\/\/127\.0\.0\.1:\d+ \(no complete answer within 1\.5 s\)$/,
		hint: /1\.5 s to be answered completely/,
		requests: 1,
		minSeconds: 1.4,
		maxSeconds: 3,
	},
	{
		fault: 'no answer at all (headers never come)',
		route: probeRoute({ timeoutMs: 1000 }),
		answers: [{ status: 200, delayMs: 5000, body: {} }],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: null,
		message: /\(no complete answer within 1 s\)$/,
		requests: 1,
		minSeconds: 0.9,
		maxSeconds: 2.5,
	},
	{
		fault: 'connection refused',
		baseUrl: unusedLocalUrl,
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: null,
		message: /^Gateway unreachable at http:\/\/127\.0\.0\.1:\d+ \(connection refused\)$/,
		hint: /Base URL/,
		requests: 0,
		maxSeconds: 2,
	},
	{
		fault: 'host name not found',
		baseUrl: async () => 'http://gateway.invalid',
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: null,
		message:
			/^Gateway unreachable at http:\/\/gateway\.invalid \(host name (not found|could not be resolved)\)$/,
		requests: 0,
		maxSeconds: 5,
	},
	{
		fault: 'dropped socket, on a send',
		answers: [{ dropSocket: true }],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: null,
		message: /\(the connection was closed before an answer\)$/,
		hint: NOT_SENT_AGAIN,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: 'dropped socket once, on a read (Chat Get Many)',
		route: CHAT_GET_MANY,
		answers: [{ dropSocket: true }, NO_CHATS],
		outcome: 'success',
		requests: 2,
		minSeconds: 0.9,
		maxSeconds: 4,
	},
	{
		fault: 'answer cut short mid-body, on a send',
		answers: [{ status: 201, cutShort: true, body: SENT }],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: null,
		message: /^Gateway unreachable at /,
		hint: NOT_SENT_AGAIN,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: 'answer cut short mid-body once, on a read (Check Number)',
		route: CHECK_NUMBER,
		answers: [{ ...NUMBER_EXISTS, cutShort: true }, NUMBER_EXISTS],
		outcome: 'success',
		requests: 2,
		minSeconds: 0.9,
		maxSeconds: 4,
	},
	{
		fault: '30 MB answer',
		answers: [{ status: 201, headers: { 'content-type': 'application/json' }, body: bigJson(30) }],
		outcome: 'success',
		requests: 1,
		maxSeconds: 10,
	},
	{
		fault: '70 MB answer (over the 64 MB limit)',
		answers: [{ status: 201, headers: { 'content-type': 'application/json' }, body: bigJson(70) }],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: null,
		message: /could not be used \(the answer is larger than 64 MB\)$/,
		hint: /limited to 64 MB/,
		requests: 1,
		maxSeconds: 10,
	},
	{
		fault: 'redirect to another host',
		answers: [{ status: 302, headers: { location: 'OTHER_HOST/message/sendText/acme-sales' } }],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: null,
		message: /redirected to http:\/\/127\.0\.0\.1:\d+, another address than the Base URL/,
		hint: /new address as the Base URL/,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: 'redirect to a file: URL',
		answers: [{ status: 307, headers: { location: 'file:///etc/passwd' } }],
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: null,
		message: /could not be used/,
		requests: 1,
		maxSeconds: 2,
	},
	{
		fault: 'redirect on the same host (307)',
		answers: [{ status: 307, headers: { location: '/v2/message/sendText/acme-sales' } }],
		outcome: 'success',
		requests: 2,
		maxSeconds: 2,
	},
	{
		fault: 'redirect loop on the same host',
		answers: Array.from({ length: 8 }, () => ({ status: 302, headers: { location: '/loop' } })),
		outcome: 'error',
		errorClass: 'NodeApiError',
		httpCode: null,
		message: /more than 5 redirects/,
		requests: 6,
		maxSeconds: 2,
	},
];

/** What each case measured, for docs/reliability.md. */
const measured: Array<{ fault: string; outcome: string; code: string; requests: number }> = [];

function withOtherHost(answers: ScriptedResponse[]): ScriptedResponse[] {
	return answers.map((answer) =>
		answer.headers?.location?.startsWith('OTHER_HOST')
			? {
					...answer,
					headers: {
						...answer.headers,
						location: answer.headers.location.replace('OTHER_HOST', otherHost.url),
					},
				}
			: answer,
	);
}

describe('gateway faults', () => {
	it.each(FAULTS)('$fault', async (fault) => {
		server.respondWith(...withOtherHost(fault.answers ?? []));
		const baseUrl = fault.baseUrl ? await fault.baseUrl() : server.url;
		const started = Date.now();
		const result = await runRoute(fault.route ?? SEND_TEXT, baseUrl);
		const seconds = (Date.now() - started) / 1000;

		expect(result.status).toBe(fault.outcome);
		if (fault.outcome === 'error') {
			expect(result.error?.name).toBe(fault.errorClass);
			expect(result.error?.httpCode ?? null).toBe(fault.httpCode);
			expect(result.error?.message).toMatch(fault.message!);
			if (fault.hint) expect(result.error?.description).toMatch(fault.hint);
		}
		expect(server.requests).toHaveLength(fault.requests);
		// The key went only to the gateway, and nothing reached the other host.
		expect(server.requests.every((request) => request.headers.apikey === MATRIX_KEY)).toBe(true);
		expect(otherHost.requests).toEqual([]);
		if (fault.minSeconds !== undefined) expect(seconds).toBeGreaterThanOrEqual(fault.minSeconds);
		expect(seconds).toBeLessThan(fault.maxSeconds);
		expectNoSecretsIn(result);
		measured.push({
			fault: fault.fault,
			outcome: fault.outcome === 'error' ? `${fault.errorClass}` : 'success',
			code: fault.httpCode ?? (fault.outcome === 'error' ? '—' : '2xx'),
			requests: server.requests.length,
		});
	});
});

describe('both continue modes: N items in, N out, paired', () => {
	it.each([
		['continueRegularOutput', 5, 0],
		['continueErrorOutput', 3, 2],
	] as const)('%s', async (onError, onSuccessOutput, onErrorOutput) => {
		// Items 1 and 3 meet a fault; the others are sent.
		server.respondWith(
			{ status: 201, body: SENT },
			{ status: 500, body: { response: { message: ['Connection Closed'] } } },
			{ status: 201, body: SENT },
			{ status: 200, body: 'not json' },
			{ status: 201, body: SENT },
		);
		const result = await runRoute(SEND_TEXT, server.url, {
			onError,
			items: [0, 1, 2, 3, 4].map((index) => ({ json: { index } })),
		});

		expect(result.status).toBe('success');
		expect(server.requests).toHaveLength(5);
		const success = result.outputs[0] ?? [];
		const errors = result.outputs[1] ?? [];
		expect(success).toHaveLength(onSuccessOutput);
		expect(errors).toHaveLength(onErrorOutput);
		const paired = [...success, ...errors].map(
			(item) => (item.pairedItem as { item: number }).item,
		);
		expect(paired.sort()).toEqual([0, 1, 2, 3, 4]);
		const failed =
			onError === 'continueErrorOutput' ? errors : success.filter((item) => item.json.error);
		expect(failed.map((item) => (item.pairedItem as { item: number }).item)).toEqual([1, 3]);
		expect(failed.map((item) => item.json.error)).toEqual([
			'Gateway error 500: Connection Closed',
			expect.stringMatching(/^Gateway error 200: the answer is not JSON/),
		]);
		expectNoSecretsIn(result);
	});
});

describe('a 2xx that is not what the operation returns', () => {
	const GROUP_GET: Route = {
		node: {
			resource: 'group',
			operation: 'get',
			session: SESSION,
			groupId: byId('120363012345678901@g.us'),
		},
	};
	const DELETE_PICTURE: Route = {
		node: { resource: 'profile', operation: 'deletePicture', session: SESSION },
	};

	it.each([
		[
			'Group Get answered with a list',
			GROUP_GET,
			[{ id: 'a' }],
			/^Gateway error: the answer is not an object \(got a list/,
		],
		[
			'Group Get answered with nothing',
			GROUP_GET,
			'',
			/^Gateway error: the answer is not an object \(got nothing\)/,
		],
		[
			'Send Text answered with a JSON text',
			SEND_TEXT,
			'"queued"',
			/^Gateway error: the answer is not an object \(got a string \(queued\)\)/,
		],
		[
			'Delete Picture answered with false',
			DELETE_PICTURE,
			'false',
			/^Gateway error: the answer is not an object \(got a boolean \(false\)\)/,
		],
	])('%s is an error, not a success', async (_name, route, body, message) => {
		server.respondWith({
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: typeof body === 'string' ? body : JSON.stringify(body),
		});

		const result = await runRoute(route, server.url);

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(message);
		expect(server.requests).toHaveLength(1);
	});
});

describe('the credential', () => {
	it.each([
		['a query in the Base URL', () => `${server.url}/?tenant=a`, /must not contain a query/],
		[
			'a fragment in the Base URL',
			() => `${server.url}/#top`,
			/must not contain a query \(\?…\) or a fragment/,
		],
		[
			'a Base URL without a host',
			() => 'http://',
			/must start with http:\/\/ or https:\/\/ and name a host/,
		],
	])('refuses %s before any request', async (_name, baseUrl, message) => {
		const result = await runRoute(SEND_TEXT, baseUrl());

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(message);
		expect(server.requests).toEqual([]);
	});

	it('refuses an empty API key before any request', async () => {
		const result = await runRoute(SEND_TEXT, server.url, { apiKey: '   ' });

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe('The credential has no API Key');
		expect(server.requests).toEqual([]);
	});

	it.each([
		[
			'a gateway error',
			() => server.url,
			{ status: 500, body: { message: `no user admin:${URL_PASSWORD_VALUE}` } },
		],
		['an unreachable gateway', unusedLocalUrl, undefined],
	])('keeps a Base URL password out of %s', async (_name, target, answer) => {
		if (answer) server.respondWith(answer);
		const base = new URL(await target());
		const result = await runRoute(SEND_TEXT, `http://admin:${URL_PASSWORD_VALUE}@${base.host}`);

		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(
			/^Gateway (error 500|unreachable at http:\/\/admin:\*\*\*@127\.0\.0\.1)/,
		);
		expectNoSecretsIn(result);
	});
});

describe('paging stops', () => {
	const chats = (from: number, count: number) =>
		Array.from({ length: count }, (_, index) => ({
			id: `55219${String(from + index).padStart(8, '0')}@c.us`,
		}));
	const getAllChats: Route = {
		node: { resource: 'chat', operation: 'getMany', session: SESSION, returnAll: true },
	};

	it('when the gateway ignores the offset and repeats its page', async () => {
		server.answerEveryRequestWith({ status: 200, body: chats(0, 20) });

		const result = await runRoute(getAllChats, server.url);

		expect(server.requests).toHaveLength(2);
		expect(outputJson(result)).toHaveLength(20);
	});

	it('on an empty page', async () => {
		server.respondWith({ status: 200, body: chats(0, 20) }, { status: 200, body: [] });

		const result = await runRoute(getAllChats, server.url);

		expect(server.requests).toHaveLength(2);
		expect(outputJson(result)).toHaveLength(20);
	});

	it('on a page shorter than asked', async () => {
		server.respondWith({ status: 200, body: chats(0, 20) }, { status: 200, body: chats(20, 7) });

		const result = await runRoute(getAllChats, server.url);

		expect(server.requests).toHaveLength(2);
		expect(outputJson(result)).toHaveLength(27);
	});

	it(`after ${MAX_PAGES} pages of a gateway that never ends`, async () => {
		server.respondWith(
			...Array.from({ length: MAX_PAGES + 5 }, (_, page) => ({
				status: 200,
				body: chats(page * 20, 20),
			})),
		);

		const result = await runRoute(getAllChats, server.url);

		expect(server.requests).toHaveLength(MAX_PAGES);
		expect(outputJson(result)).toHaveLength(MAX_PAGES * 20);
	});

	it('when a cursor repeats', async () => {
		const page = (from: number) => ({
			status: 200,
			body: {
				page: { endCursor: 'same', hasNextPage: true },
				channels: chats(from, 3).map((chat) => ({ ...chat, name: chat.id })),
			},
		});
		server.respondWith(page(0), page(3), page(6));

		const result = await runRoute(
			{
				node: {
					resource: 'channel',
					operation: 'search',
					session: SESSION,
					view: 'POPULAR',
					countries: 'US',
					returnAll: true,
				},
			},
			server.url,
		);

		expect(result.status).toBe('success');
		expect(server.requests).toHaveLength(2);
	});
});

describe('files: the key only on the gateway own file route', () => {
	const download = (downloadUrl: string) => probeRoute({ downloadUrl });

	it.each([
		['a file on the gateway file route', '/api/files/acme-sales/a.jpg', 'valid key'],
		['another gateway route named as a file', '/instance/fetchInstances', 'no key'],
	])('%s', async (_name, path, expected) => {
		server.respondWith({ status: 200, headers: { 'content-type': 'image/jpeg' }, body: 'jpeg' });

		const result = await runRoute(download(`${server.url}${path}`), server.url);

		expect(result.status).toBe('success');
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0].headers.apikey ? 'valid key' : 'no key').toBe(expected);
	});

	it('follows a file moved to another host without the key', async () => {
		server.respondWith({ status: 302, headers: { location: `${otherHost.url}/cdn/a.jpg` } });
		otherHost.respondWith({ status: 200, headers: { 'content-type': 'image/jpeg' }, body: 'jpeg' });

		// The other host, on loopback here, stands for a public one.
		const result = await runRoute(
			download(`${server.url}/api/files/acme-sales/a.jpg`),
			server.url,
			{
				allowPrivateFileHosts: true,
			},
		);

		expect(outputJson(result)).toEqual([
			{ mimeType: 'image/jpeg', fileName: 'a.jpg', text: 'jpeg' },
		]);
		expect(server.requests[0].headers.apikey).toBe(MATRIX_KEY);
		expect(otherHost.requests).toHaveLength(1);
		expect(otherHost.requests[0].headers.apikey).toBeUndefined();
	});

	it('refuses a media URL that is not http(s), naming it', async () => {
		const result = await runRoute(download('file:///etc/passwd'), server.url);

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(
			'The gateway gave a media URL that is not http(s): "file:///etc/passwd"',
		);
		expect(server.requests).toEqual([]);
	});
});

describe('logs', () => {
	it('hold no secret after the whole matrix', () => {
		expect(logLines.length).toBeGreaterThan(0);
		expect(logLines.join('\n')).not.toContain(MATRIX_KEY);
		expect(logLines.join('\n')).not.toContain(URL_PASSWORD_VALUE);
	});
});

describe('docs/reliability.md', () => {
	it('states the request rules with the limits the code uses', () => {
		const mb = (bytes: number) => `${bytes / (1024 * 1024)} MB`;
		const s = (ms: number) => `${ms / 1000} s`;
		const backoff = Array.from({ length: RETRY_POLICY.maxRetries }, (_, retry) =>
			s(RETRY_POLICY.baseDelayMs * 2 ** retry),
		).join(', ');
		expectReadmeSection(
			'reliability:rules',
			[
				`- **The API key goes only to the Base URL's origin.** Redirects are followed by hand: a gateway API route that redirects to another address is an error (put the new address in the credential); at most ${REQUEST_LIMITS.maxRedirects} redirects.`,
				"- **Files the gateway points at** (a message's media, a profile picture) get the key only on the gateway's own file route (`/api/files/…` under the Base URL); a file elsewhere, or moved elsewhere by a redirect, is fetched without it. Only http(s); at most " +
					`${mb(REQUEST_LIMITS.maxGatewayFileBytes)}.`,
				`- **URLs from a user or an item** (Send Link Preview's image in the "JID + Session ID" body style) are fetched by n8n without the key, even on the gateway's own address: http(s) only, at most ${mb(PUBLIC_FILE_LIMITS.maxBytes)} within ${s(PUBLIC_FILE_LIMITS.deadlineMs)}, and only when the host says it is an image.`,
				"- **No file from an internal address on someone else's word.** A URL an input item or the gateway named (a preview image; a message's media or a profile picture elsewhere than the Base URL) is refused before anything is sent when it leads to a loopback, private, link-local, carrier-grade NAT, unique-local, IPv4-mapped or other special address: in every spelling (`2852039166`, `0x7f.1`, `[::ffff:a9fe:a9fe]`, `localhost.`), when its name resolves to one (judged on every address the name has, and the request then goes to the address judged), and on every redirect. On n8n 1.x, which gives nodes no resolver, a name is judged by the address it connected to and its answer dropped unread. *Fetch Files From Private Addresses* in the credential lets files on your own network through; the Base URL is yours and always used. n8n's own `N8N_SSRF_PROTECTION_ENABLED` applies on top: when it is on, its rules hold for every request, the gateway's included (see Troubleshooting).",
				`- **Every request has a total deadline** of ${s(REQUEST_LIMITS.deadlineMs)} from sending to the last byte of the answer; a gateway answer may be at most ${mb(REQUEST_LIMITS.maxAnswerBytes)}.`,
				`- **${RETRY_POLICY.retryableStatusCodes.join(' and ')} are retried** for every request (they mean "not done, try later"): up to ${RETRY_POLICY.maxRetries} times, after the Retry-After the gateway asks for (capped at ${s(RETRY_POLICY.maxDelayMs)}) or else after ${backoff}. A request that ran out of its deadline is not retried, and an error after retries says how many times the request was tried.`,
				`- **Reads are also retried on ${RETRY_POLICY.readRetryableStatusCodes.join(', ')} and a lost connection** (reset, hung up, an answer cut short), the same way: lists, lookups, searches and file downloads, also those sent with POST (Check Number, Get Profile Picture, Get Business Profile, Download Media, Find Status Messages, Channel Search), the pickers' lists and the trigger's look at the session's webhook. **Sends and every other change are not** (edit, delete, react, mark as read, groups, channels, webhooks, presence, pairing code, log out, restart, profile): such an answer does not say whether the gateway already did it, and a second try could send a message twice, so the item fails at once and the error says so. Nothing else is retried.`,
				`- **A 2xx that is not what was asked for is an error**: an answer that is not JSON (a login page, plain text, a cut-off body) or one that says it failed (\`success: false\`, an error status inside).`,
				`- **Return All** stops on an empty page, a page shorter than asked (offset paging), a page or cursor the gateway already sent, and after ${MAX_PAGES} pages.`,
				'- **Names in paths** (session, chat, group, message) are one encoded segment each; `.` and `..` are refused.',
				'- **No secret in outputs, errors or logs**: the API key and a password in the Base URL are replaced by `[redacted]` / `***`.',
			].join('\n'),
		);
	});

	it('shows the fault matrix as measured', () => {
		expect(measured).toHaveLength(FAULTS.length);
		const rows = measured.map(
			(row) => `| ${row.fault} | ${row.outcome} | ${row.code} | ${row.requests} |`,
		);
		expectReadmeSection(
			'reliability:faults',
			[
				`${FAULTS.length} faults, each run through the node in n8n's engine against a scripted gateway; in every one the API key appears in no output and no error, and no request reached another host.`,
				'',
				'| Fault | Outcome | HTTP code | Requests (1 + retries) |',
				'| --- | --- | --- | --- |',
				...rows,
			].join('\n'),
		);
	});
});
