// Helpers for tests that talk to a simulator: an HTTP client and a webhook receiver.
import axios, { type AxiosInstance } from 'axios';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { startSimulator, type Simulator, type SimulatorOptions } from './index.cts';

/**
 * One simulator for the calling test file: started in beforeAll, reset after each test, stopped
 * in afterAll. The returned object forwards to it, so tests write `sim.url`, `sim.requests`...
 */
export function useSimulator(options?: SimulatorOptions): Simulator {
	let current: Simulator | undefined;
	beforeAll(async () => {
		current = await startSimulator(options);
	});
	afterEach(() => current?.reset());
	afterAll(async () => {
		await current?.stop();
	});
	return startedInBeforeAll('The simulator', () => current);
}

/** Forwards to what a beforeAll hook starts, so a test file can hold it before it exists. */
function startedInBeforeAll<T extends object>(what: string, current: () => T | undefined): T {
	return new Proxy({} as T, {
		get(_target, property) {
			const started = current();
			if (!started) throw new Error(`${what} starts in beforeAll; use it inside hooks and tests`);
			return Reflect.get(started, property);
		},
	});
}

/**
 * An axios client for the simulator that never throws on HTTP status. `apiKey: null` sends no
 * key header at all; `keyHeader` is the header the key goes in (WAHA's is X-Api-Key).
 */
export function gatewayClient(
	simulator: { url: string; apiKey: string },
	apiKey: string | null = simulator.apiKey,
	keyHeader = 'apikey',
): AxiosInstance {
	return axios.create({
		baseURL: simulator.url,
		headers: apiKey === null ? {} : { [keyHeader]: apiKey },
		validateStatus: () => true,
	});
}

/** A file the gateway serves (e.g. a media URL), fetched with the API key; fails the test unless 200. */
export async function gatewayFile(
	simulator: { url: string; apiKey: string },
	path: string,
): Promise<Buffer> {
	const response = await gatewayClient(simulator).get(path, { responseType: 'arraybuffer' });
	expect(response.status).toBe(200);
	return Buffer.from(response.data as ArrayBuffer);
}

/** GET path of one message in the session family, with chat and message ids percent-encoded. */
export function messagePath(session: string, chatId: string, messageId: string): string {
	return `/api/${session}/chats/${encodeURIComponent(chatId)}/messages/${encodeURIComponent(messageId)}`;
}

export interface ReceivedWebhook {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	body: unknown;
	/** The body exactly as received (what a signature is computed over). */
	rawBody: string;
}

export interface WebhookReceiver {
	/** e.g. http://127.0.0.1:40001/hooks */
	url: string;
	received: ReceivedWebhook[];
	/** The status the receiver answers with (default 200). */
	respondWith(status: number): void;
	stop(): Promise<void>;
}

/** A local HTTP server that records the webhook deliveries it gets. */
export function startWebhookReceiver(basePath = '/hooks'): Promise<WebhookReceiver> {
	const received: ReceivedWebhook[] = [];
	let status = 200;
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			let body: unknown = text;
			try {
				body = JSON.parse(text);
			} catch {
				// keep the raw text
			}
			received.push({
				method: request.method ?? '',
				path: request.url ?? '',
				headers: request.headers,
				body,
				rawBody: text,
			});
			response.writeHead(status, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify({ received: true }));
		});
	});
	return new Promise((resolve) => {
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as AddressInfo;
			resolve({
				url: `http://127.0.0.1:${port}${basePath}`,
				received,
				respondWith: (next) => {
					status = next;
				},
				stop: () =>
					new Promise<void>((done) => {
						server.close(() => done());
						server.closeAllConnections();
					}),
			});
		});
	});
}

/**
 * A webhook receiver for the calling test file (or describe block): started in beforeAll, emptied
 * and answering 200 again after each test, stopped in afterAll.
 */
export function useWebhookReceiver(): WebhookReceiver {
	let current: WebhookReceiver | undefined;
	beforeAll(async () => {
		current = await startWebhookReceiver();
	});
	afterEach(() => {
		current?.received.splice(0);
		current?.respondWith(200);
	});
	afterAll(async () => {
		await current?.stop();
	});
	return startedInBeforeAll('The receiver', () => current);
}

/** A URL on which nothing listens: deliveries to it fail with a connection error. */
export async function unusedUrl(): Promise<string> {
	const server = http.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return `http://127.0.0.1:${port}/gone`;
}

/** How many timers keep Node's event loop alive now (an unref'd timer does not). */
export function timersKeepingNodeAlive(): number {
	return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}
