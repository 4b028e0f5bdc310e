// WAHA 2026.x's side of sessions and webhooks: a session's status and config (several webhooks, each
// with its events, HMAC key and custom headers), the events the control API's happenings raise, and
// how each delivery is enveloped, signed, posted and retried (src/core/webhooks.core.ts and its sender).
import { createHmac, randomBytes } from 'node:crypto';

import { enterConnectionState, type GatewayEvents, type ParticipantsUpdate } from './events.cts';
import { fullMessageId, personChatId, personOf } from './ids.cts';
import { evolutionUpsertData, wahaMessage } from './render.cts';
import type { WahaEngine } from './types.cts';
import {
	ACK_NAMES,
	ownerChatId,
	senderChatId,
	type ConnectionState,
	type Instance,
	type StoredMessage,
} from './state.cts';
import { isObject, type JsonObject } from './validation.cts';
import {
	LONGEST_TIMER_MS,
	WAHA_EVENTS,
	type DeliveryFlavour,
	type EventSink,
	type PreparedDelivery,
	type RetrySchedule,
	type WebhookEvent,
} from './webhooks.cts';

export const WAHA_VERSION = '2026.7.1';
/** The engine played unless the options name another (ids and errors are NOWEB's for every engine). */
export const DEFAULT_WAHA_ENGINE: WahaEngine = 'NOWEB';

/** GET /api/server/version, and the `environment` of every delivery (WAHAEnvironment). */
export function wahaEnvironment(engine: WahaEngine = DEFAULT_WAHA_ENGINE) {
	return {
		version: WAHA_VERSION,
		engine,
		tier: 'CORE',
		browser: '/usr/bin/chromium',
		platform: 'linux/x64',
		worker: { id: null },
	};
}

export type WahaStatus = 'STOPPED' | 'STARTING' | 'SCAN_QR_CODE' | 'WORKING' | 'FAILED';

/** WebhookConfig as SessionConfig.webhooks holds it. */
export interface WahaWebhook {
	url: string;
	events: string[];
	hmac?: { key?: string } | null;
	retries?: unknown;
	customHeaders?: Array<{ name: string; value: string }> | null;
}

export interface WahaSession {
	status: WahaStatus;
	/** The last status changes, newest last (WASessionStatusBody.statuses). */
	statuses: Array<{ status: WahaStatus; timestamp: number }>;
	/** SessionConfig as last given to POST /api/sessions or PUT /api/sessions/{session}; undefined when none. */
	config?: JsonObject;
	/** The session holds WhatsApp credentials: a start goes WORKING instead of SCAN_QR_CODE. */
	authenticated: boolean;
	/** The QR code the session shows while SCAN_QR_CODE. */
	qr?: string;
}

const STATUS_HISTORY = 3;
const sessions = new WeakMap<Instance, WahaSession>();

function initialStatus(instance: Instance): WahaStatus {
	if (instance.state === 'open') return 'WORKING';
	return instance.state === 'connecting' ? 'SCAN_QR_CODE' : 'STOPPED';
}

/** The WAHA side of an instance, made from its connection state the first time it is asked for. */
export function wahaSession(instance: Instance): WahaSession {
	let session = sessions.get(instance);
	if (!session) {
		const status = initialStatus(instance);
		session = {
			status,
			statuses: [{ status, timestamp: Date.now() }],
			authenticated: instance.state === 'open',
		};
		sessions.set(instance, session);
	}
	return session;
}

/** The webhooks of a session's config (`config.webhooks`), as given. */
export function webhooksOf(instance: Instance): WahaWebhook[] {
	const webhooks = wahaSession(instance).config?.webhooks;
	return Array.isArray(webhooks) ? (webhooks.filter(isObject) as unknown as WahaWebhook[]) : [];
}

const CONNECTION_OF: Record<WahaStatus, ConnectionState> = {
	STOPPED: 'close',
	FAILED: 'close',
	STARTING: 'connecting',
	SCAN_QR_CODE: 'connecting',
	WORKING: 'open',
};

/** MeInfo while the session is logged in (with the account's LID once it has one); WAHA leaves `me` out otherwise. */
export function meInfo(
	instance: Instance,
): { id: string; pushName: string; lid?: string } | undefined {
	if (wahaSession(instance).status !== 'WORKING') return undefined;
	const me = { id: ownerChatId(instance), pushName: instance.profileName };
	return instance.lid ? { ...me, lid: instance.lid } : me;
}

/** Moves a session to a status and announces it with `session.status`. */
export function changeWahaStatus(sink: EventSink, instance: Instance, status: WahaStatus): void {
	const session = wahaSession(instance);
	session.status = status;
	session.statuses = [...session.statuses, { status, timestamp: Date.now() }].slice(
		-STATUS_HISTORY,
	);
	if (status === 'WORKING') session.authenticated = true;
	if (status !== 'SCAN_QR_CODE') session.qr = undefined;
	enterConnectionState(instance, CONNECTION_OF[status]);
	sink.emit(instance, 'session.status', {
		name: instance.name,
		status,
		statuses: session.statuses,
	});
}

/** A start: STARTING, then WORKING with credentials, SCAN_QR_CODE without. */
export function startWahaSession(sink: EventSink, instance: Instance): void {
	changeWahaStatus(sink, instance, 'STARTING');
	changeWahaStatus(
		sink,
		instance,
		wahaSession(instance).authenticated ? 'WORKING' : 'SCAN_QR_CODE',
	);
}

/**
 * A message as WAHA's events carry it, shaped as `engine` does: WAMessage with its `source` and the
 * deprecated `mediaUrl`.
 */
export function wahaEventMessage(
	instance: Instance,
	message: StoredMessage,
	baseUrl: string,
	engine: WahaEngine = DEFAULT_WAHA_ENGINE,
): Record<string, unknown> {
	const rendered = wahaMessage(instance, message, baseUrl, true, engine);
	const media = rendered.media as { url?: string } | null | undefined;
	return { ...rendered, mediaUrl: media?.url ?? null };
}

/** `message` for what others write, `message.any` for every message, own ones included. */
function messageEmitter(engine: WahaEngine): GatewayEvents['message'] {
	return (sink, baseUrl, instance, message) => {
		const payload = wahaEventMessage(instance, message, baseUrl, engine);
		if (!message.fromMe) sink.emit(instance, 'message', payload);
		sink.emit(instance, 'message.any', payload);
	};
}

/** `message.revoked`: the message as it was, and its short id. */
export function emitRevoked(
	sink: EventSink,
	instance: Instance,
	message: StoredMessage,
	before: Record<string, unknown>,
): void {
	sink.emit(instance, 'message.revoked', { before, revokedMessageId: message.shortId });
}

/** `message.ack`: WAMessageAckBody of one message. */
export function emitAck(sink: EventSink, instance: Instance, message: StoredMessage): void {
	const me = ownerChatId(instance);
	sink.emit(instance, 'message.ack', {
		id: fullMessageId(message.fromMe, message.chatId, message.shortId),
		from: message.fromMe ? me : message.chatId,
		to: message.fromMe ? message.chatId : me,
		participant: senderChatId(instance, message),
		fromMe: message.fromMe,
		ack: message.ack,
		ackName: ACK_NAMES[message.ack] ?? 'UNKNOWN',
	});
}

/**
 * `message.reaction`: who reacted (the account here) with what, to which message. No engine puts
 * `_data` on it, so a reaction in a LID chat never carries the phone (WAHA issue #2010).
 */
export function emitReaction(
	sink: EventSink,
	instance: Instance,
	message: StoredMessage,
	text: string,
): void {
	const me = ownerChatId(instance);
	sink.emit(instance, 'message.reaction', {
		id: fullMessageId(true, message.chatId, newEventId().slice(4, 24).toUpperCase()),
		timestamp: Math.floor(Date.now() / 1000),
		from: me,
		fromMe: true,
		source: 'api',
		to: message.chatId,
		participant: me,
		reaction: { text, messageId: fullMessageId(message.fromMe, message.chatId, message.shortId) },
	});
}

const PARTICIPANT_EVENT_TYPES: Record<string, string> = {
	add: 'join',
	remove: 'leave',
	promote: 'promote',
	demote: 'demote',
};

/** `group.v2.participants`: GroupV2ParticipantsEvent. */
function emitParticipants(
	sink: EventSink,
	_baseUrl: string,
	instance: Instance,
	update: ParticipantsUpdate,
): void {
	const group = instance.groups.get(update.id);
	const role = (number: string) => {
		const member = group?.participants.find((participant) => participant.number === number);
		if (!member) return 'left';
		return member.admin ?? 'participant';
	};
	sink.emit(instance, 'group.v2.participants', {
		type: PARTICIPANT_EVENT_TYPES[update.action] ?? update.action,
		timestamp: Math.floor(Date.now() / 1000),
		group: { id: update.id },
		participants: update.participants.map((jid) => {
			const person = personOf(jid);
			return { id: personChatId(person), role: role(person) };
		}),
		_data: update,
	});
}

/**
 * A connection change from the control API: open is WORKING, connecting is SCAN_QR_CODE, close is
 * FAILED for a session that was working (WhatsApp dropped the device) and STOPPED otherwise.
 */
function connectionChange(
	sink: EventSink,
	_baseUrl: string,
	instance: Instance,
	state: ConnectionState,
): void {
	const current = wahaSession(instance).status;
	const status: WahaStatus =
		state === 'open'
			? 'WORKING'
			: state === 'connecting'
				? 'SCAN_QR_CODE'
				: current === 'WORKING'
					? 'FAILED'
					: 'STOPPED';
	if (state === 'close' && status === 'FAILED') wahaSession(instance).authenticated = false;
	changeWahaStatus(sink, instance, status);
}

/** What the control API's happenings raise in WAHA, messages shaped as `engine` does. */
export function wahaEventsOf(engine: WahaEngine): GatewayEvents {
	return {
		message: messageEmitter(engine),
		deletion: (sink, instance, message, baseUrl = '') =>
			emitRevoked(sink, instance, message, wahaEventMessage(instance, message, baseUrl, engine)),
		connection: connectionChange,
		participants: emitParticipants,
		ack: emitAck,
		upsertData: (instance, message, baseUrl) => evolutionUpsertData(instance, message, baseUrl),
	};
}

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/** A lower-case ULID: ten characters of time (ms), sixteen random. */
export function ulid(now = Date.now()): string {
	let time = '';
	let rest = now;
	for (let index = 0; index < 10; index++) {
		time = CROCKFORD[rest % 32] + time;
		rest = Math.floor(rest / 32);
	}
	let random = '';
	for (const byte of randomBytes(16)) random += CROCKFORD[byte % 32];
	return time + random;
}

/** WAHAWebhook.id: `evt_` and a lower-case ULID. */
export function newEventId(): string {
	return `evt_${ulid()}`;
}

/** `*` stands for every event but engine.event; unknown names never match. */
function subscribes(webhook: WahaWebhook, event: string): boolean {
	const events = Array.isArray(webhook.events) ? webhook.events : [];
	if (events.includes('*')) return event !== 'engine.event';
	return events.includes(event);
}

/** X-Webhook-Hmac: the hex HMAC-SHA512 of the exact body bytes, keyed with `hmac.key`. */
export function webhookHmac(body: string, key: string): string {
	return createHmac('sha512', key).update(body, 'utf8').digest('hex');
}

/**
 * One POST per webhook of the session that subscribes to the event, each with WAHA's envelope and
 * headers: User-Agent WAHA/<version>, a request id and timestamp, the HMAC when a key is set, then
 * the webhook's custom headers.
 */
function prepareDeliveries(
	instance: Instance,
	event: WebhookEvent,
	data: unknown,
	engine: WahaEngine,
	wire?: { outgoing(json: string): string },
): PreparedDelivery[] {
	if (!(WAHA_EVENTS as readonly string[]).includes(event)) return [];
	const targets = webhooksOf(instance).filter(
		(webhook) =>
			typeof webhook.url === 'string' &&
			/^https?:\/\//.test(webhook.url) &&
			subscribes(webhook, event),
	);
	if (targets.length === 0) return [];
	const timestamp = Date.now();
	const metadata = wahaSession(instance).config?.metadata;
	const envelope = {
		id: newEventId(),
		timestamp,
		event,
		session: instance.name,
		metadata: isObject(metadata) ? metadata : undefined,
		me: meInfo(instance),
		payload: data,
		engine,
		environment: wahaEnvironment(engine),
	};
	// Identifiers as WAHA writes them, before anything is signed.
	const json = JSON.stringify(envelope);
	const payload = wire ? wire.outgoing(json) : json;
	return targets.map((webhook) => {
		const headers: Record<string, string> = {
			'Content-Type': 'application/json',
			'User-Agent': `WAHA/${WAHA_VERSION}`,
			'X-Webhook-Request-Id': ulid(),
			'X-Webhook-Timestamp': String(timestamp),
		};
		const key = webhook.hmac?.key;
		if (typeof key === 'string' && key !== '') {
			headers['X-Webhook-Hmac'] = webhookHmac(payload, key);
			headers['X-Webhook-Hmac-Algorithm'] = 'sha512';
		}
		for (const header of webhook.customHeaders ?? []) {
			if (isObject(header) && typeof header.name === 'string')
				headers[header.name] = String(header.value ?? '');
		}
		return { url: webhook.url, event, payload, headers, retries: wahaRetries(webhook.retries) };
	});
}

/** WebhookSender's DEFAULT_RETRY_ATTEMPTS and DEFAULT_RETRY_DELAY_SECONDS. */
const WAHA_RETRY_DEFAULTS = { attempts: 15, delaySeconds: 2 };

/** axios-retry's retryAfter(): the receiver's Retry-After (seconds or an HTTP date) in ms; 0 without one. */
function retryAfterMs(header: string | undefined): number {
	if (!header) return 0;
	let ms = (Number(header) || 0) * 1000;
	if (ms === 0) ms = (new Date(header).valueOf() || 0) - Date.now();
	return Math.max(0, ms);
}

/** WebhookSender.buildRetryDelay: the wait before retry `retry` (1, 2, …) in ms, never under Retry-After. */
function wahaRetryDelay(policy: unknown, delayMs: number) {
	if (!delayMs) return (_retry: number, retryAfter: number) => retryAfter;
	switch (policy) {
		case 'linear':
			return (retry: number, retryAfter: number) => Math.max(retry * delayMs, retryAfter);
		case 'exponential':
			return (retry: number, retryAfter: number) => {
				const delay = Math.max(2 ** retry * delayMs, retryAfter);
				return delay + delay * 0.2 * Math.random();
			};
		default:
			// 'constant', and no policy (or one WAHA does not know).
			return (_retry: number, retryAfter: number) => Math.max(delayMs, retryAfter);
	}
}

/**
 * How WAHA retries one webhook's deliveries (WebhookSender.buildAxiosInstance, axios-retry 4.5):
 * `retries.attempts` (default 15) is axios-retry's `retries`, the number of retries after the first
 * request; retryCondition is always true, so every failure is retried, 4xx included; the delay
 * follows `retries.policy` and `retries.delaySeconds` (default 2). axios-retry sends the same
 * config again, so every retry carries the first request's body and headers, request id included.
 */
export function wahaRetries(retries: unknown): RetrySchedule {
	const given = isObject(retries) ? retries : {};
	const allowedRetries = Number(given.attempts ?? WAHA_RETRY_DEFAULTS.attempts);
	const delayMs = Number(given.delaySeconds ?? WAHA_RETRY_DEFAULTS.delaySeconds) * 1000;
	const delayOf = wahaRetryDelay(given.policy, delayMs);
	return (attempt, outcome) => {
		// Attempt n failed after n - 1 retries; axios-retry retries while retryCount < retries.
		if (!(attempt - 1 < allowedRetries)) return undefined;
		const delay = delayOf(attempt, retryAfterMs(outcome.retryAfter));
		// Node's setTimeout fires a wait it cannot hold after 1 ms (TimeoutOverflowWarning).
		return delay > LONGEST_TIMER_MS ? 1 : delay;
	};
}

/** WAHA's deliveries from `engine`, with identifiers written as `wire` writes them (WhatsApp's JIDs). */
export function wahaDelivery(
	engine: WahaEngine,
	wire?: { outgoing(json: string): string },
): DeliveryFlavour {
	return {
		postsTo: (url) => /^https?:\/\//.test(url),
		headers: () => ({}),
		// axios' default, no timeout: agentkeepalive's 8 s socket timeout reaches only
		// follow-redirects' request, which no one listens to, so a silent receiver holds the POST.
		timeoutMs: undefined,
		retries: wahaRetries(undefined),
		prepare: (instance, event, data) => prepareDeliveries(instance, event, data, engine, wire),
	};
}
