/** A tiny HTTP server whose answers the test scripts, recording every request it receives. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedResponse {
	status?: number;
	headers?: Record<string, string>;
	/** An object is sent as JSON; a string is sent as it is. */
	body?: unknown;
	/** Close the socket without answering. */
	dropSocket?: boolean;
	/** Send the headers (with the whole body's Content-Length) and half the body, then close the socket. */
	cutShort?: boolean;
	delayMs?: number;
	/** Send the headers, then `chunk` every `everyMs` until `count` chunks (forever if absent) or the client leaves. */
	trickle?: { chunk: string; everyMs: number; count?: number };
}

export interface ReceivedRequest {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
	at: number;
}

export interface ScriptedServer {
	url: string;
	requests: ReceivedRequest[];
	/** Queues answers for the next requests; when the queue is empty the server gives its default answer. */
	respondWith(...responses: ScriptedResponse[]): void;
	/** Changes the default answer (initially 200 {"ok":true}), e.g. a gateway that rejects every request. */
	answerEveryRequestWith(response: ScriptedResponse): void;
	stop(): Promise<void>;
}

function trickleAnswer(
	res: http.ServerResponse,
	answer: ScriptedResponse,
	pendingAnswers: Set<NodeJS.Timeout>,
): void {
	const { chunk, everyMs, count } = answer.trickle!;
	res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
	let sent = 0;
	const timer = setInterval(() => {
		if (res.destroyed || (count !== undefined && sent >= count)) {
			clearInterval(timer);
			pendingAnswers.delete(timer);
			if (!res.destroyed) res.end();
			return;
		}
		res.write(chunk);
		sent++;
	}, everyMs);
	pendingAnswers.add(timer);
}

export async function startScriptedServer(): Promise<ScriptedServer> {
	const requests: ReceivedRequest[] = [];
	const queue: ScriptedResponse[] = [];
	let defaultAnswer: ScriptedResponse = { status: 200, body: { ok: true } };
	const pendingAnswers = new Set<NodeJS.Timeout>();
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			requests.push({
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
				at: Date.now(),
			});
			const answer = queue.shift() ?? defaultAnswer;
			const send = () => {
				if (answer.dropSocket) {
					req.socket.destroy();
					return;
				}
				if (answer.trickle) {
					trickleAnswer(res, answer, pendingAnswers);
					return;
				}
				const isJson = answer.body !== undefined && typeof answer.body !== 'string';
				const text = isJson
					? JSON.stringify(answer.body)
					: ((answer.body as string | undefined) ?? '');
				res.writeHead(answer.status ?? 200, {
					...(isJson ? { 'content-type': 'application/json' } : {}),
					...(answer.cutShort ? { 'content-length': String(Buffer.byteLength(text)) } : {}),
					...answer.headers,
				});
				if (answer.cutShort) {
					res.write(text.slice(0, Math.floor(text.length / 2)), () => req.socket.destroy());
					return;
				}
				res.end(text);
			};
			if (!answer.delayMs) {
				send();
				return;
			}
			const timer = setTimeout(() => {
				pendingAnswers.delete(timer);
				send();
			}, answer.delayMs);
			pendingAnswers.add(timer);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		respondWith: (...responses) => queue.push(...responses),
		answerEveryRequestWith: (response) => {
			defaultAnswer = response;
		},
		stop: () =>
			new Promise<void>((resolve) => {
				pendingAnswers.forEach((timer) => clearInterval(timer));
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** A URL on which nothing listens: a port that was just free. */
export async function unusedLocalUrl(): Promise<string> {
	const server = http.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return `http://127.0.0.1:${port}`;
}

/**
 * A scripted server for a test file: started in beforeAll, stopped in afterAll, its log of
 * requests cleared before each test; the getter fails when called before it started.
 */
export function useScriptedServer(): () => ScriptedServer {
	let server: ScriptedServer | undefined;
	beforeAll(async () => {
		server = await startScriptedServer();
	});
	afterAll(async () => {
		await server?.stop();
	});
	beforeEach(() => {
		if (server) server.requests.length = 0;
	});
	return () => {
		if (!server) throw new Error('The scripted gateway starts in beforeAll');
		return server;
	};
}
