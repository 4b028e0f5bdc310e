// Public types of the simulator's programmatic API (re-exported by index.cts).

/**
 * Which gateway the simulator plays: `spec` (the spec's merge of WAHA `/api/...` and Evolution v1
 * instance routes), `evolution-v2` (Evolution API 2.3.6's routes, bodies and deliveries only) or
 * `waha` (WAHA 2026.x's routes, bodies and webhooks only).
 */
export type Gateway = 'spec' | 'evolution-v2' | 'waha';

/** The Evolution API release the `evolution-v2` gateway plays (what changes between them: see docs/using-the-nodes.md). */
export type EvolutionVersion = '2.3.0' | '2.3.6' | '2.3.7' | '2.4.0';

/** The WAHA engine the `waha` gateway plays: it decides the shape of `_data` and of `from`/`to`. */
export type WahaEngine = 'NOWEB' | 'GOWS' | 'WEBJS';

export interface SimulatorOptions {
	/** 0 (the default) picks a free port. */
	port?: number;
	/** Defaults to 127.0.0.1. */
	host?: string;
	/** The global API key; defaults to SEED.defaultApiKey. */
	apiKey?: string;
	/**
	 * The header the key is read from: `apikey` (the spec's, the default) or `x-api-key` (WAHA's,
	 * the default of the `waha` gateway). A key in the other header counts as no key, as on the real products.
	 */
	apiKeyHeader?: 'apikey' | 'x-api-key';
	/** The gateway it plays; defaults to `spec`. Seed data and the control API are the same for every gateway. */
	gateway?: Gateway;
	/** `evolution-v2` only: the release played; defaults to `2.3.6`. */
	evolutionVersion?: EvolutionVersion;
	/**
	 * `evolution-v2` 2.4.0 only: whether the instance's licence is activated; defaults to true. When
	 * false, every business route answers 503 LICENSE_REQUIRED until it is activated (`setLicensed`).
	 */
	licensed?: boolean;
	/**
	 * `evolution-v2` only: Evolution's IsOnWhatsapp number cache (`DATABASE_SAVE_IS_ON_WHATSAPP`,
	 * true in its .env.example); defaults to true. 2.3.6, 2.3.7 and 2.4.0 write it from each message
	 * and whatsappNumbers answer, and whatsappNumbers answers from it first (a LID cached beside a
	 * phone is answered as the phone). False: whatsappNumbers never reads or writes it (2.3.0: no effect).
	 */
	evolutionNumberCache?: boolean;
	/** `waha` only: the engine played; defaults to `NOWEB`. */
	wahaEngine?: WahaEngine;
	/** `waha` NOWEB only: whether the session runs NOWEB's store; defaults to true. Without it the LID routes answer 400. */
	wahaStore?: boolean;
	/**
	 * Multiplies every delay between a delivery's attempts (not the request timeouts); defaults to 1,
	 * the gateway's own pace. 0.01 plays Evolution's ~20 minutes of retries in ~12 s; 0 retries at once.
	 */
	deliveryClockScale?: number;
	/**
	 * The request timeout of every delivery attempt, in ms; defaults to the gateway's own (Evolution
	 * v2 30 000, WAHA none, spec 10 000 as the harness's guard). Never scaled.
	 */
	deliveryTimeoutMs?: number;
}

export interface RecordedRequest {
	method: string;
	/** Raw path as received (still percent-encoded), without the query string. */
	path: string;
	/** Repeated keys become arrays. */
	query: Record<string, string | string[]>;
	/** Lower-case names; the API key header is never stored. */
	headers: Record<string, string>;
	/** What the apikey header was, judged by the route that answered. */
	auth: 'valid' | 'invalid' | 'missing';
	/** Parsed JSON; the raw string when not JSON; undefined when empty. */
	body: unknown;
	at: number;
	/** Set when an injected fault answered this request instead of the gateway logic. */
	faulted?: boolean;
}

/** One attempt of a webhook delivery, as the simulator logs it. */
export interface WebhookDelivery {
	/** The same on every attempt of one event's delivery to one URL. */
	deliveryId: string;
	/** 1 for the first attempt, 2 for the first retry… */
	attempt: number;
	/** The gateway's last attempt: it succeeded, got a status it never retries, or was the last allowed. */
	final?: true;
	/** Otherwise: how long the gateway waits before its next attempt (its own time, before the clock's scale). */
	retryInMs?: number;
	url: string;
	/** Lower-case dotted, as in the envelope: `messages.upsert`. */
	event: string;
	/** The JSON envelope: free-form, so tests can index into it. */
	body: any;
	/** The headers posted with it (Content-Length aside), as the gateway names them. */
	headers?: Record<string, string>;
	status?: number;
	error?: string;
	/** The receiver's response body (first 4 KB), for debugging. */
	responseBody?: string;
	/** When the attempt ended (answer, error or timeout). */
	at: number;
}

/** One event's delivery to one URL: its attempts so far and how it ended (`deliveryOutcomes()`). */
export interface DeliveryOutcome {
	deliveryId: string;
	url: string;
	event: string;
	/** The envelope, the same on every attempt. */
	body: any;
	/** In order: each attempt's status, or the error that stood for one, and when it ended. */
	attempts: Array<{ attempt: number; status?: number; error?: string; at: number }>;
	/** The gateway is done with it: no retry is pending or on its way. */
	final: boolean;
	/** One of its attempts was answered with a 2xx. */
	succeeded: boolean;
}

export interface FaultRule {
	/**
	 * Which requests the rule answers: `path` is a substring of the raw path, `body` a substring of
	 * the raw request body (e.g. one chat's number, so a fault hits the same items on every run).
	 */
	match?: { method?: string; path?: string; body?: string };
	/** How many matching requests the rule answers; default 1. */
	times?: number;
	status?: number;
	body?: unknown;
	headers?: Record<string, string>;
	/** Answer with this text/html body (status defaults to 502). */
	html?: string;
	/** Answer with an empty body (status defaults to 500). */
	empty?: boolean;
	/** Wait before answering; alone, the request is then answered normally. */
	latencyMs?: number;
	/** Destroy the socket without answering. */
	dropSocket?: boolean;
}

export type InstanceState = 'open' | 'close' | 'connecting';

export interface InboundMessageInput {
	/** Defaults to the connected seed instance. */
	instance?: string;
	/**
	 * The contact who wrote (digits, `<digits>@c.us`, `<digits>@s.messenger.net`, or a LID
	 * `<digits>@lid`, whose direct chat is then the LID chat). With `fromMe`, the contact written to.
	 */
	from: string;
	/** Deliver into this group (`<id>@g.us`) instead of the 1:1 chat with `from`. */
	groupId?: string;
	text?: string;
	/** Without `base64`: a sample PDF when mimetype is application/pdf, else the sample PNG photo. */
	media?: { mimetype?: string; fileName?: string; base64?: string; caption?: string };
	location?: { latitude: number; longitude: number; name?: string; address?: string };
	vcard?: { displayName: string; vcard: string };
	/** Full or short id of the message this one replies to. */
	replyTo?: string;
	/** Defaults to the contact's push name. */
	pushName?: string;
	/** A message the account's owner typed on the phone (`source: "app"`). */
	fromMe?: boolean;
	/** 20-character short id; generated when absent. */
	id?: string;
	/** Seconds; defaults to now. */
	timestamp?: number;
}

export interface AckInput {
	instance: string;
	/** Full or short id of a message. */
	messageId: string;
	/** WAHA's ack levels: -1 ERROR, 0 PENDING, 1 SERVER, 2 DEVICE, 3 READ, 4 PLAYED. */
	ack: number;
}

export interface DeletionInput {
	instance: string;
	chatId: string;
	messageId: string;
}

/** A stored message in every shape tests need. */
export interface MessageSnapshot {
	/** Full id: `<fromMe>_<chatId>_<shortId>`. */
	id: string;
	shortId: string;
	chatId: string;
	remoteJid: string;
	fromMe: boolean;
	timestamp: number;
	/** As GET /api/{session}/chats/{chatId}/messages/{id} returns it. */
	waha: Record<string, unknown>;
	/** As the `data` of a messages.upsert delivery (without base64). */
	evolution: Record<string, unknown>;
}
