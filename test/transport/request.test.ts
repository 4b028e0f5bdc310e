import { MessagingGatewayApi } from '../../credentials/MessagingGatewayApi.credentials';
import { runNode } from '../support/n8n-harness.cts';
import type { RunNodeOptions } from '../support/n8n-harness.cts';
import { PROBE_NODE_TYPE, probeNode } from '../support/probe-node.cts';
import { useFastRetries } from '../support/fast-retries.cts';
import { startScriptedServer, unusedLocalUrl } from '../support/scripted-server.cts';
import type { ScriptedResponse, ScriptedServer } from '../support/scripted-server.cts';
import { RETRY_POLICY } from '../../nodes/shared/transport/retry';

const API_KEY = 'dummy-gateway-key-4f9a1c';

let server: ScriptedServer;

beforeEach(async () => {
	server = await startScriptedServer();
});

afterEach(async () => {
	await server.stop();
});

function probe(
	parameters: Record<string, unknown>,
	extra: Partial<RunNodeOptions> & { baseUrl?: string; allowPrivateFileHosts?: boolean } = {},
) {
	const { baseUrl = server.url, allowPrivateFileHosts = false, ...rest } = extra;
	return runNode({
		nodeTypes: { [PROBE_NODE_TYPE]: probeNode },
		credentialTypes: { messagingGatewayApi: new MessagingGatewayApi() },
		credentials: { messagingGatewayApi: { baseUrl, apiKey: API_KEY, allowPrivateFileHosts } },
		type: PROBE_NODE_TYPE,
		parameters: { method: 'GET', path: '/', ...parameters } as never,
		...rest,
	});
}

describe('gatewayApiRequest: what it sends', () => {
	it('joins a base URL with spaces and trailing slashes to the path with one slash and sends the apikey header', async () => {
		const result = await probe(
			{ path: '/instance/restart/demo', method: 'PUT' },
			{ baseUrl: `  ${server.url}//  ` },
		);

		expect(result.status).toBe('success');
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0].method).toBe('PUT');
		expect(server.requests[0].url).toBe('/instance/restart/demo');
		expect(server.requests[0].headers.apikey).toBe(API_KEY);
		expect(result.outputs[0][0].json).toEqual({ response: { ok: true } });
	});

	it('sends JSON bodies and repeats array query parameters', async () => {
		await probe({
			method: 'POST',
			path: '/message/sendText/demo',
			body: JSON.stringify({ number: '5511999999999', textMessage: { text: 'hi' } }),
			qs: JSON.stringify({ ids: ['a@c.us', 'b@c.us'], limit: 2 }),
		});

		const request = server.requests[0];
		expect(request.url).toBe('/message/sendText/demo?ids=a%40c.us&ids=b%40c.us&limit=2');
		expect(request.headers['content-type']).toMatch(/application\/json/);
		expect(JSON.parse(request.body)).toEqual({
			number: '5511999999999',
			textMessage: { text: 'hi' },
		});
	});

	it('processes every input item with its own request and pairs the outputs', async () => {
		server.respondWith({ body: { n: 1 } }, { body: { n: 2 } }, { body: { n: 3 } });

		const result = await probe(
			{ path: '/x' },
			{ items: [{ json: {} }, { json: {} }, { json: {} }] },
		);

		expect(server.requests).toHaveLength(3);
		expect(result.outputs[0].map((item) => item.json.response)).toEqual([
			{ n: 1 },
			{ n: 2 },
			{ n: 3 },
		]);
		expect(result.outputs[0].map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});
});

describe('gatewayDownloadFile', () => {
	it('downloads a file on the gateway with the apikey header and reads its type and name', async () => {
		server.respondWith({
			headers: {
				'content-type': 'text/plain; charset=utf-8',
				'content-disposition': 'attachment; filename="note.txt"',
			},
			body: 'hello file',
		});

		const result = await probe({ downloadUrl: `${server.url}/api/files/demo/abc.txt` });

		expect(server.requests[0].url).toBe('/api/files/demo/abc.txt');
		expect(server.requests[0].headers.apikey).toBe(API_KEY);
		expect(result.outputs[0][0].json).toEqual({
			mimeType: 'text/plain',
			fileName: 'note.txt',
			text: 'hello file',
		});
	});

	it('never sends the apikey to a file on another host', async () => {
		const fileHost = await startScriptedServer();
		fileHost.respondWith({ headers: { 'content-type': 'image/png' }, body: 'png-bytes' });
		try {
			// The file host, on loopback here, stands for a public one.
			const result = await probe(
				{ downloadUrl: `${fileHost.url}/media/picture.png` },
				{ allowPrivateFileHosts: true },
			);

			expect(fileHost.requests).toHaveLength(1);
			expect(fileHost.requests[0].headers.apikey).toBeUndefined();
			expect(server.requests).toHaveLength(0);
			expect(result.outputs[0][0].json).toEqual({
				mimeType: 'image/png',
				fileName: 'picture.png',
				text: 'png-bytes',
			});
		} finally {
			await fileHost.stop();
		}
	});

	it('reports a missing file with the gateway message', async () => {
		server.respondWith({
			status: 404,
			body: { statusCode: 404, message: 'File not found', error: 'Not Found' },
		});

		const result = await probe({ downloadUrl: '/api/files/demo/missing.jpg' });

		expect(server.requests[0].url).toBe('/api/files/demo/missing.jpg');
		expect(result.error?.message).toBe('Gateway error 404: File not found');
	});
});

describe('gatewayApiRequest: retries', () => {
	it('retries 429 after the Retry-After seconds the gateway asks for, then returns the answer', async () => {
		server.respondWith(
			{
				status: 429,
				headers: { 'retry-after': '1' },
				body: { statusCode: 429, message: 'Too many' },
			},
			{ status: 200, body: { done: true } },
		);

		const result = await probe({ path: '/api/contacts' });

		expect(result.status).toBe('success');
		expect(result.outputs[0][0].json.response).toEqual({ done: true });
		expect(server.requests).toHaveLength(2);
		const waitedMs = server.requests[1].at - server.requests[0].at;
		expect(waitedMs).toBeGreaterThanOrEqual(900);
		expect(waitedMs).toBeLessThan(2900);
	});

	it('retries 503 up to 3 times and then reports the 503 with the gateway message', async () => {
		const unavailable = {
			status: 503,
			headers: { 'retry-after': '0' },
			body: { statusCode: 503, message: 'Engine restarting', error: 'Service Unavailable' },
		};
		server.respondWith(unavailable, unavailable, unavailable, unavailable, {
			body: { never: 'reached' },
		});

		const result = await probe({ path: '/api/contacts' });

		expect(server.requests).toHaveLength(4);
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('Gateway error 503: Engine restarting');
		expect(result.error?.httpCode).toBe('503');
		expect(result.error?.description).toMatch(/temporarily unavailable/);
	});

	// Evolution API 2.4.0's licence gate (src/licensing/runtime.ts): an operator's task, not a busy gateway.
	const licenceBody = (registerUrl: unknown) => ({
		error: 'service not activated',
		code: 'LICENSE_REQUIRED',
		register_url: registerUrl,
		instance_id: 'b7e3c1d2-0000-4000-8000-000000000001',
		docs_url: 'https://docs.evolutionfoundation.com.br/licensing',
		message: `This Evolution API instance is not activated. Open ${String(registerUrl)} to activate, or set AUTHENTICATION_API_KEY in your .env with a valid licensing key.`,
	});
	it.each([
		[
			'names the activation page it gave',
			'https://evo.example.com/manager/login',
			/open https:\/\/evo\.example\.com\/manager\/login \(the Evolution manager\)/,
		],
		[
			'points at /manager when it names no page',
			null,
			/open the Evolution manager \(\/manager on the server's address\)/,
		],
		[
			'never shows what is not a web address',
			'javascript:alert(1)',
			/open the Evolution manager \(\/manager on the server's address\)/,
		],
	])(
		'fails at once on 503 LICENSE_REQUIRED, saying to activate the Evolution API server, and %s',
		async (_name, registerUrl, where) => {
			server.respondWith(
				{ status: 503, body: licenceBody(registerUrl) },
				{ body: { never: 'reached' } },
			);

			const result = await probe({ path: '/message/sendText/demo', method: 'POST' });

			expect(server.requests).toHaveLength(1);
			expect(result.status).toBe('error');
			expect(result.error?.message).toBe(
				'Gateway error 503: the Evolution API server is not activated (LICENSE_REQUIRED)',
			);
			expect(result.error?.httpCode).toBe('503');
			expect(result.error?.description).toMatch(/^Activate your Evolution API server: /);
			expect(result.error?.description).toMatch(where);
			expect(result.error?.description).toMatch(/AUTHENTICATION_API_KEY/);
		},
	);

	it('still retries a 503 whose body only mentions LICENSE_REQUIRED in its words', async () => {
		const busy = {
			status: 503,
			headers: { 'retry-after': '0' },
			body: { message: 'Upstream busy; not a LICENSE_REQUIRED answer' },
		};
		server.respondWith(busy, { body: { done: true } });

		const result = await probe({ path: '/api/contacts' });

		expect(result.status).toBe('success');
		expect(server.requests).toHaveLength(2);
	});

	it('does not retry other errors such as 500', async () => {
		server.respondWith({
			status: 500,
			body: {
				status: 500,
				error: 'Internal Server Error',
				response: { message: 'Connection Closed' },
			},
		});

		const result = await probe({ path: '/chat/findStatusMessage/demo', method: 'POST' });

		expect(server.requests).toHaveLength(1);
		expect(result.error?.message).toBe('Gateway error 500: Connection Closed');
		expect(result.error?.description).toMatch(/gateway failed/);
	});
});

describe('reads are retried on a 502, a 504 or a lost connection; changes are not', () => {
	useFastRetries();

	const html502 = '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
	const FAULTS: Array<[string, ScriptedResponse]> = [
		[
			'a 502 from a proxy',
			{ status: 502, headers: { 'content-type': 'text/html' }, body: html502 },
		],
		['a 504 from a proxy', { status: 504, body: '' }],
		['a reset connection', { dropSocket: true }],
		['an answer cut short', { status: 200, cutShort: true, body: { padding: 'x'.repeat(200) } }],
	];
	const READS: Array<[string, Record<string, unknown>]> = [
		['GET', { method: 'GET', path: '/api/contacts' }],
		['POST saying read: true', { method: 'POST', path: '/chat/findChats/demo', read: 'true' }],
		['a file download', { downloadUrl: '/api/files/demo/a.jpg' }],
	];
	const CHANGES: Array<[string, Record<string, unknown>]> = [
		['POST', { method: 'POST', path: '/message/sendText/demo' }],
		['PUT', { method: 'PUT', path: '/instance/restart/demo' }],
		['DELETE', { method: 'DELETE', path: '/instance/logout/demo' }],
		['GET saying read: false', { method: 'GET', path: '/instance/connect/demo', read: 'false' }],
	];
	const each = (requests: Array<[string, Record<string, unknown>]>, read: boolean) =>
		requests.flatMap(([request, parameters]) =>
			FAULTS.map(([fault, answer]) => ({
				kind: read ? 'a read' : 'a change',
				outcome: read ? 'sent again, succeeds' : 'fails at once, sent once',
				request,
				fault,
				parameters,
				answer,
				read,
			})),
		);
	const OK = { status: 200, headers: { 'content-type': 'image/jpeg' }, body: '{"done":true}' };

	it.each([...each(READS, true), ...each(CHANGES, false)])(
		'$kind ($request) meeting $fault once: $outcome',
		async ({ parameters, answer, read }) => {
			server.respondWith(answer, OK);

			const result = await probe(parameters);

			expect(result.status).toBe(read ? 'success' : 'error');
			if (!read) expect(result.error?.description).toMatch(/It was not sent again/);
			expect(server.requests).toHaveLength(read ? 2 : 1);
			// Sent again, it is the same request.
			const sent = server.requests.map(({ method, url, body }) => `${method} ${url} ${body}`);
			expect(new Set(sent).size).toBe(1);
		},
	);

	it(`a read meeting 502 every time fails after ${RETRY_POLICY.maxRetries + 1} tries, with the 502 and the gateway's words`, async () => {
		const badGateway = { status: 502, body: { message: 'upstream connect error' } };
		server.respondWith(...Array.from({ length: 10 }, () => badGateway));

		const result = await probe({ method: 'POST', path: '/chat/findChats/demo', read: 'true' });

		expect(server.requests).toHaveLength(RETRY_POLICY.maxRetries + 1);
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.httpCode).toBe('502');
		expect(result.error?.message).toBe('Gateway error 502: upstream connect error');
		expect(result.error?.description).toBe(
			`The gateway failed while processing the request. Check the gateway's logs; trying again later may help. Tried ${RETRY_POLICY.maxRetries + 1} times.`,
		);
	});

	it('a read that runs out of its deadline is not sent again', async () => {
		server.respondWith({ delayMs: 2000, body: { late: true } });

		const result = await probe({ path: '/slow', timeoutMs: 300 });

		expect(result.error?.message).toMatch(/\(no complete answer within 0\.3 s\)$/);
		expect(server.requests).toHaveLength(1);
	});

	it('a read whose gateway refuses the connection is not retried', async () => {
		const deadUrl = await unusedLocalUrl();
		const started = Date.now();

		const result = await probe({ path: '/api/contacts' }, { baseUrl: deadUrl });

		expect(result.error?.message).toBe(`Gateway unreachable at ${deadUrl} (connection refused)`);
		expect(result.error?.description).not.toMatch(/Tried|not sent again/);
		expect(Date.now() - started).toBeLessThan(1000);
	});
});

describe('gatewayApiRequest: errors', () => {
	it.each([
		[
			'instance family, unknown instance (array message)',
			404,
			{
				status: 404,
				error: 'Not Found',
				response: { message: ['The "ghost" instance does not exist'] },
			},
			'Gateway error 404: The "ghost" instance does not exist',
			/not found, or the Base URL is wrong/,
		],
		[
			'instance family, wrong key (string message)',
			401,
			{ status: 401, error: 'Unauthorized', response: { message: 'Unauthorized' } },
			'Gateway error 401: Unauthorized',
			/Check the API Key/,
		],
		[
			'instance family, schema violation (nested array)',
			400,
			{
				status: 400,
				error: 'Bad Request',
				response: { message: [['instance requires property "textMessage"']] },
			},
			'Gateway error 400: instance requires property "textMessage"',
			/rejected the parameters/,
		],
		[
			'instance family, number not registered',
			400,
			{
				status: 400,
				error: 'Bad Request',
				response: {
					message: [
						{ exists: false, jid: '5511000000000@s.messenger.net', number: '5511000000000' },
					],
				},
			},
			'Gateway error 400: The number 5511000000000 is not registered on the messaging network',
			/rejected the parameters/,
		],
		[
			'session family, validation (array of strings)',
			400,
			{
				statusCode: 400,
				message: ['countries must contain at least 1 elements', 'view should not be empty'],
				error: 'Bad Request',
			},
			'Gateway error 400: countries must contain at least 1 elements; view should not be empty',
			/rejected the parameters/,
		],
		[
			'session family, session not ready (422 object body)',
			422,
			{
				error: 'Session status is not as expected. Try again later or restart the session',
				session: 'default',
				status: 'SCAN_QR_CODE',
				expected: ['WORKING'],
			},
			'Gateway error 422: Session status is not as expected. Try again later or restart the session (session "default" is SCAN_QR_CODE, expected WORKING)',
			/not ready for this operation/,
		],
		[
			'session family, not implemented',
			501,
			{
				statusCode: 501,
				message: "The method is not implemented by 'NOWEB' engine.",
				error: 'Not Implemented',
			},
			"Gateway error 501: The method is not implemented by 'NOWEB' engine.",
			/does not implement this operation/,
		],
		[
			'HTML error page from a proxy',
			502,
			'<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>',
			'Gateway error 502: The gateway answered 502 Bad Gateway with an HTML page: "502 Bad Gateway"',
			/gateway failed/,
		],
		[
			'WAHA (NestJS) without the route',
			404,
			{ statusCode: 404, message: 'Cannot POST /chat/whatsappNumbers/default', error: 'Not Found' },
			'Gateway error 404: Cannot POST /chat/whatsappNumbers/default',
			/^This gateway does not offer this operation: it has no POST \/chat\/whatsappNumbers\/default endpoint\./,
		],
		[
			'Evolution (Express) without the route, as an HTML page',
			404,
			'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Error</title></head><body><pre>Cannot GET /api/default/chats/overview</pre></body></html>',
			expect.stringMatching(/^Gateway error 404: .*Cannot GET \/api\/default\/chats\/overview/),
			/^This gateway does not offer this operation: it has no GET \/api\/default\/chats\/overview endpoint\./,
		],
		[
			'empty body',
			404,
			'',
			'Gateway error 404: The gateway answered 404 Not Found with an empty body',
			/not found/,
		],
	])(
		'%s becomes a NodeApiError with the HTTP code, the gateway message and a hint',
		async (_name, status, body, message, hint) => {
			server.respondWith({ status, body });

			// A write, so the 502 is not retried (reads are, see "reads are retried" below).
			const result = await probe({ path: '/any', method: 'POST' });

			expect(result.status).toBe('error');
			expect(result.error?.name).toBe('NodeApiError');
			expect(result.error?.message).toEqual(message);
			expect(result.error?.httpCode).toBe(String(status));
			expect(result.error?.description).toMatch(hint);
			expect(result.error?.context).toEqual(expect.objectContaining({ itemIndex: 0 }));
		},
	);

	it('reports a refused connection as "Gateway unreachable at <base URL>"', async () => {
		const deadUrl = await unusedLocalUrl();

		const result = await probe({ path: '/api/contacts' }, { baseUrl: `${deadUrl}/` });

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(`Gateway unreachable at ${deadUrl} (connection refused)`);
		expect(result.error?.description).toMatch(/Base URL/);
	});

	it('reports a gateway that never answers within the timeout as unreachable', async () => {
		server.respondWith({ delayMs: 2000, body: { late: true } });

		const result = await probe({ path: '/slow', timeoutMs: 300 });

		expect(result.error?.message).toBe(
			`Gateway unreachable at ${server.url} (no complete answer within 0.3 s)`,
		);
	});

	it('reports a dropped connection of a write as unreachable, and that it was not sent again', async () => {
		server.respondWith({ dropSocket: true });

		const result = await probe({ path: '/drop', method: 'POST' });

		expect(result.error?.message).toBe(
			`Gateway unreachable at ${server.url} (the connection was closed before an answer)`,
		);
		expect(result.error?.description).toMatch(
			/It was not sent again: the gateway may have done it/,
		);
		expect(server.requests).toHaveLength(1);
	});

	it('rejects a Base URL without http(s) before sending anything', async () => {
		const result = await probe({ path: '/x' }, { baseUrl: 'gateway.example.com' });

		expect(server.requests).toHaveLength(0);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(
			'The Base URL "gateway.example.com" must start with http:// or https:// and name a host, e.g. https://gateway.example.com',
		);
	});

	it('never lets the API key reach the error, even when the gateway echoes it', async () => {
		server.respondWith({
			status: 400,
			body: { statusCode: 400, message: `bad key ${API_KEY} used`, apikey: API_KEY },
		});

		const result = await probe({ path: '/x' });

		expect(result.error?.message).toBe('Gateway error 400: bad key [redacted] used');
		expect(JSON.stringify(result.run)).not.toContain(API_KEY);
	});

	it('with continueOnFail, turns each failing item into an error item and goes on', async () => {
		server.respondWith(
			{ body: { n: 1 } },
			{ status: 404, body: { statusCode: 404, message: 'Message not found', error: 'Not Found' } },
			{ body: { n: 3 } },
		);

		const result = await probe(
			{ path: '/x' },
			{ items: [{ json: {} }, { json: {} }, { json: {} }], onError: 'continueRegularOutput' },
		);

		expect(result.status).toBe('success');
		expect(result.outputs[0].map((item) => item.json)).toEqual([
			{ response: { n: 1 } },
			{ error: 'Gateway error 404: Message not found' },
			{ response: { n: 3 } },
		]);
		expect(result.outputs[0].map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});
});
