/**
 * A gateway that answers as fast as Node can: canned Send Text answers (as the spec's gateway,
 * Evolution API v2 and WAHA give them) and a fixed list of chats for the overview, no validation,
 * no state. The floor every variant of the in-process bench shares, so the ratios show the client
 * side only.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_API_KEY = 'bench-api-key';
export const FAKE_SESSION = 'bench';

/** The account the fake sends from, as WAHA names it in its answers. */
const OWN_CHAT_ID = '5511000000000@c.us';

/** What the fake answers, each as one gateway speaks it (the spec and Evolution API v2 share a route; their bodies differ). */
export type FakeRoute =
	| 'spec.sendText'
	| 'evolutionV2.sendText'
	| 'waha.sendText'
	| 'chatsOverview';

/** The headers the gateways read their key from, as Node names them: the spec's and Evolution's, and WAHA's. */
export type KeyHeader = 'apikey' | 'x-api-key';
const KEY_HEADERS: KeyHeader[] = ['apikey', 'x-api-key'];

export interface FakeGateway {
	baseUrl: string;
	/** Requests answered so far. */
	requests(): number;
	/** Requests answered so far on `route` with the key in `header`: which gateway a run really spoke. */
	answered(route: FakeRoute, header: KeyHeader): number;
	close(): Promise<void>;
}

interface Sent {
	number?: string;
	chatId?: string;
	text?: string;
	textMessage?: { text?: string };
}

/** The 201 answers to a sent text, by route: each gateway's own shape, as small as it keeps it. */
const SENT_ANSWERS: Record<
	Exclude<FakeRoute, 'chatsOverview'>,
	(sent: Sent, id: string) => unknown
> = {
	'spec.sendText': (sent, id) => ({
		key: { remoteJid: `${sent.number}@s.whatsapp.net`, fromMe: true, id },
		message: { extendedTextMessage: { text: sent.textMessage?.text ?? '' } },
		messageTimestamp: '1700000000',
		status: 'PENDING',
	}),
	// 2.3.6's prepareMessage: the stored message, its text as a plain conversation.
	'evolutionV2.sendText': (sent, id) => ({
		key: { remoteJid: `${sent.number}@s.whatsapp.net`, fromMe: true, id },
		pushName: 'Você',
		status: 'PENDING',
		message: { conversation: sent.text ?? '' },
		messageType: 'conversation',
		messageTimestamp: 1700000000,
		instanceId: 'bench-instance',
		source: 'web',
	}),
	// WAMessage, the full message ID in `id`, with the engine's own message in `_data`.
	'waha.sendText': (sent, id) => ({
		id: `true_${sent.chatId}_${id}`,
		timestamp: 1700000000,
		from: OWN_CHAT_ID,
		fromMe: true,
		source: 'api',
		to: sent.chatId,
		participant: null,
		body: sent.text ?? '',
		hasMedia: false,
		ack: 1,
		ackName: 'SERVER',
		_data: {
			key: { remoteJid: sent.chatId, fromMe: true, id },
			message: { conversation: sent.text ?? '' },
			messageTimestamp: 1700000000,
		},
		mediaUrl: null,
	}),
};

/** The gateways whose answers the spec's route can be given, for a control of the same size. */
const SIZED_AS = ['evolutionV2', 'waha'] as const;
export type SizedAs = (typeof SIZED_AS)[number];

/**
 * The session whose spec answers carry, beside the spec's own fields, the fields `gateway` answers
 * the same text with: the spec's route and handling, another gateway's answer size and shape.
 */
export function sizedSession(gateway: SizedAs): string {
	return `${FAKE_SESSION}-sized-as-${gateway}`;
}

/** The spec's answer with the fields of `gateway`'s answer to the same text added (the spec's win). */
function sizedSpecAnswer(gateway: SizedAs, sent: Sent, id: string): unknown {
	const text = sent.textMessage?.text ?? '';
	const asThere = SENT_ANSWERS[`${gateway}.sendText`](
		{ number: sent.number, chatId: `${sent.number}@c.us`, text },
		id,
	) as object;
	return { ...asThere, ...(SENT_ANSWERS['spec.sendText'](sent, id) as object) };
}

function chat(index: number) {
	const number = String(5511900000000 + index);
	return { id: `${number}@c.us`, name: `Contact ${index}`, picture: null, lastMessage: null };
}

/** The route a request is for, or undefined (404); `sent` reads its body only where needed. */
function routeOf(
	method: string | undefined,
	path: string,
	sent: () => Sent,
): FakeRoute | undefined {
	if (method === 'POST' && path.startsWith('/message/sendText/')) {
		return sent().textMessage === undefined ? 'evolutionV2.sendText' : 'spec.sendText';
	}
	if (method === 'POST' && path === '/api/sendText') return 'waha.sendText';
	if (method === 'GET' && path.endsWith('/chats/overview')) return 'chatsOverview';
	return undefined;
}

export async function startFakeGateway(chatCount: number): Promise<FakeGateway> {
	const chats = Array.from({ length: chatCount }, (_, index) => chat(index));
	let answered = 0;
	const byRoute = new Map<string, number>();
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			answered++;
			const url = new URL(request.url ?? '/', 'http://gateway');
			// Either gateway's header is accepted: which one came is counted, not enforced.
			const header = KEY_HEADERS.find((name) => request.headers[name] === FAKE_API_KEY);
			let sent: Sent | undefined;
			const body = () =>
				(sent ??= JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Sent);
			const route = header && routeOf(request.method, url.pathname, body);
			let status = 200;
			let answer: unknown;
			if (!header) {
				status = 401;
				answer = { status: 401, error: 'Unauthorized', response: { message: 'Unauthorized' } };
			} else if (!route) {
				status = 404;
				answer = { statusCode: 404, message: `Cannot ${request.method} ${url.pathname}` };
			} else if (route === 'chatsOverview') {
				const limit = Number(url.searchParams.get('limit') ?? 20);
				const offset = Number(url.searchParams.get('offset') ?? 0);
				answer = chats.slice(offset, offset + limit);
			} else {
				status = 201;
				const id = `3EB0${answered}`;
				const sizedAs = SIZED_AS.find(
					(gateway) => url.pathname === `/message/sendText/${sizedSession(gateway)}`,
				);
				answer =
					route === 'spec.sendText' && sizedAs
						? sizedSpecAnswer(sizedAs, body(), id)
						: SENT_ANSWERS[route](body(), id);
			}
			if (route) {
				const key = `${route} ${header}`;
				byRoute.set(key, (byRoute.get(key) ?? 0) + 1);
			}
			const payload = JSON.stringify(answer);
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
		answered: (route, header) => byRoute.get(`${route} ${header}`) ?? 0,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
