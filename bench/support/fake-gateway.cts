/**
 * A gateway that answers as fast as Node can: canned Send Text answers and a fixed list of chats
 * for the overview, no validation, no state. The floor every variant of the in-process bench
 * shares, so the ratios show the client side only.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_API_KEY = 'bench-api-key';
export const FAKE_SESSION = 'bench';

export interface FakeGateway {
	baseUrl: string;
	/** Requests answered so far. */
	requests(): number;
	close(): Promise<void>;
}

function chat(index: number) {
	const number = String(5511900000000 + index);
	return { id: `${number}@c.us`, name: `Contact ${index}`, picture: null, lastMessage: null };
}

export async function startFakeGateway(chatCount: number): Promise<FakeGateway> {
	const chats = Array.from({ length: chatCount }, (_, index) => chat(index));
	let answered = 0;
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			answered++;
			const url = new URL(request.url ?? '/', 'http://gateway');
			let status = 200;
			let body: unknown;
			if (request.headers.apikey !== FAKE_API_KEY) {
				status = 401;
				body = { status: 401, error: 'Unauthorized', response: { message: 'Unauthorized' } };
			} else if (request.method === 'POST' && url.pathname.startsWith('/message/sendText/')) {
				const sent = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
					number?: string;
					textMessage?: { text?: string };
				};
				status = 201;
				body = {
					key: { remoteJid: `${sent.number}@s.whatsapp.net`, fromMe: true, id: `3EB0${answered}` },
					message: { extendedTextMessage: { text: sent.textMessage?.text ?? '' } },
					messageTimestamp: '1700000000',
					status: 'PENDING',
				};
			} else if (request.method === 'GET' && url.pathname.endsWith('/chats/overview')) {
				const limit = Number(url.searchParams.get('limit') ?? 20);
				const offset = Number(url.searchParams.get('offset') ?? 0);
				body = chats.slice(offset, offset + limit);
			} else {
				status = 404;
				body = { statusCode: 404, message: `Cannot ${request.method} ${url.pathname}` };
			}
			const payload = JSON.stringify(body);
			response.writeHead(status, {
				'content-type': 'application/json',
				'content-length': Buffer.byteLength(payload),
			});
			response.end(payload);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		requests: () => answered,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
