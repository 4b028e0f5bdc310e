/**
 * A scripted WAHA 2026.x for the trigger's tests: sessions with their whole `config` (PUT replaces
 * it whole, as WAHA's controller upserts `request.config`), the QR code route, a media file route,
 * and deliveries posted to every webhook of a session that subscribed to the event, each signed as
 * WAHA signs them (X-Webhook-Hmac: SHA-512 HMAC of the body with the entry's key, in hex). Every
 * request is recorded as the compatibility checks judge them (checkWaha).
 */
import { createHmac, randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { SentRequest } from '../compatibility/verdicts.cts';
import { qrCodePng } from '../simulator/png.cts';

/** The gateway's key (a test value). */
export const WAHA_KEY = ['waha', 'test', 'key'].join('-');

export interface WahaSession {
	name: string;
	status: string;
	config?: Record<string, unknown> | null;
	me?: { id: string; pushName: string } | null;
}

export interface WahaDelivery {
	url: string;
	status: number;
}

export interface ScriptedWaha {
	url: string;
	apiKey: string;
	/** Every request the gateway received (the API key header apart). */
	requests: Array<SentRequest & { apiKey?: string; accept?: string }>;
	sessions: Map<string, WahaSession>;
	/** The PNG the QR route shows now. */
	qrPng: Buffer;
	/** The bytes of the media file route (`/api/files/...`). */
	mediaBytes: Buffer;
	/** Posts an event to every webhook of the session that subscribed to it, signed; their answers. */
	deliver(
		session: string,
		event: string,
		payload: Record<string, unknown>,
	): Promise<WahaDelivery[]>;
	/** The envelope WAHA would post (for tests that post by hand). */
	envelope(
		session: string,
		event: string,
		payload: Record<string, unknown>,
	): Record<string, unknown>;
	reset(sessions: WahaSession[]): void;
	stop(): Promise<void>;
}

/** The signature WAHA puts in X-Webhook-Hmac. */
export function wahaSignature(body: string | Buffer, key: string): string {
	return createHmac('sha512', key).update(body).digest('hex');
}

function sessionInfo(session: WahaSession): Record<string, unknown> {
	return {
		name: session.name,
		status: session.status,
		config: session.config,
		me: session.me ?? null,
		presence: null,
		timestamps: { activity: null },
	};
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export async function startScriptedWaha(): Promise<ScriptedWaha> {
	const sessions = new Map<string, WahaSession>();
	const requests: ScriptedWaha['requests'] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://localhost');
			const text = Buffer.concat(chunks).toString('utf8');
			const body: unknown = text ? JSON.parse(text) : undefined;
			const query: Record<string, string | string[]> = {};
			for (const key of new Set(url.searchParams.keys())) {
				const values = url.searchParams.getAll(key);
				query[key] = values.length > 1 ? values : values[0];
			}
			requests.push({
				method: req.method ?? '',
				path: url.pathname,
				query,
				body,
				apiKey: req.headers['x-api-key'] as string | undefined,
				accept: req.headers.accept,
			});
			if (req.headers['x-api-key'] !== WAHA_KEY) {
				json(res, 401, { statusCode: 401, message: 'Unauthorized' });
				return;
			}
			const segments = url.pathname.split('/').slice(1).map(decodeURIComponent);
			if (segments[0] === 'api' && segments[1] === 'files') {
				res.writeHead(200, { 'content-type': 'image/jpeg' }).end(scripted.mediaBytes);
				return;
			}
			if (segments[0] === 'api' && segments[1] === 'sessions' && segments.length === 3) {
				const session = sessions.get(segments[2]);
				if (!session) {
					json(res, 404, { statusCode: 404, message: 'Session not found', error: 'Not Found' });
					return;
				}
				if (req.method === 'PUT')
					session.config = (body as { config?: WahaSession['config'] }).config;
				json(res, 200, sessionInfo(session));
				return;
			}
			if (segments[0] === 'api' && segments[2] === 'auth' && segments[3] === 'qr') {
				// WAHA's BufferResponseInterceptor: JSON only for exactly Accept: application/json.
				if (req.headers.accept === 'application/json') {
					json(res, 200, { mimetype: 'image/png', data: scripted.qrPng.toString('base64') });
				} else {
					res.writeHead(200, { 'content-type': 'image/png' }).end(scripted.qrPng);
				}
				return;
			}
			json(res, 404, { statusCode: 404, message: `Cannot ${req.method} ${url.pathname}` });
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;

	const envelope = (session: string, event: string, payload: Record<string, unknown>) => ({
		id: `evt_${randomUUID().replace(/-/g, '').slice(0, 26)}`,
		timestamp: Date.now(),
		event,
		session,
		me: sessions.get(session)?.me ?? undefined,
		payload,
		engine: 'NOWEB',
		environment: { version: '2026.7.1', engine: 'NOWEB', tier: 'PLUS', browser: null },
	});

	const scripted: ScriptedWaha = {
		url: `http://127.0.0.1:${port}`,
		apiKey: WAHA_KEY,
		requests,
		sessions,
		qrPng: qrCodePng('2@waha-test-qr'),
		mediaBytes: Buffer.from('a jpeg file, as far as this test knows'),
		envelope,
		async deliver(session, event, payload) {
			const webhooks = (sessions.get(session)?.config?.webhooks ?? []) as Array<{
				url: string;
				events: string[];
				hmac?: { key?: string };
			}>;
			const body = JSON.stringify(envelope(session, event, payload));
			const answers: WahaDelivery[] = [];
			for (const webhook of webhooks) {
				if (!webhook.events.includes(event) && !webhook.events.includes('*')) continue;
				// Only n8n listens here; other webhooks (a CRM's) are not posted to.
				if (!webhook.url.startsWith('http://127.0.0.1')) continue;
				const key = webhook.hmac?.key;
				const response = await fetch(webhook.url, {
					method: 'POST',
					headers: {
						'content-type': 'application/json',
						'user-agent': 'WAHA/2026.7.1',
						'x-webhook-request-id': randomUUID(),
						'x-webhook-timestamp': String(Date.now()),
						...(key
							? { 'x-webhook-hmac': wahaSignature(body, key), 'x-webhook-hmac-algorithm': 'sha512' }
							: {}),
					},
					body,
				});
				await response.arrayBuffer();
				answers.push({ url: webhook.url, status: response.status });
			}
			return answers;
		},
		reset(list) {
			sessions.clear();
			for (const session of list) sessions.set(session.name, structuredClone(session));
			requests.length = 0;
		},
		stop: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
	return scripted;
}
