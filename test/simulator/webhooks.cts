// Webhook configuration rules and deliveries: Evolution API v1's rules, and each gateway's attempts,
// request timeout and retries on a clock tests can speed up.
import http from 'node:http';
import https from 'node:https';

import { SimulatorInputError } from './errors.cts';
import type { DeliveryOutcome, WebhookDelivery } from './types.cts';
import type { Instance, WebhookConfig } from './state.cts';
import { isObject } from './validation.cts';

/** Subscription name (UPPER_SNAKE) -> `event` in the delivered envelope (lower.dotted). */
const EVENT_PAYLOAD_NAMES = {
	APPLICATION_STARTUP: 'application.startup',
	QRCODE_UPDATED: 'qrcode.updated',
	MESSAGES_SET: 'messages.set',
	MESSAGES_UPSERT: 'messages.upsert',
	MESSAGES_UPDATE: 'messages.update',
	MESSAGES_DELETE: 'messages.delete',
	SEND_MESSAGE: 'send.message',
	CONTACTS_SET: 'contacts.set',
	CONTACTS_UPSERT: 'contacts.upsert',
	CONTACTS_UPDATE: 'contacts.update',
	PRESENCE_UPDATE: 'presence.update',
	CHATS_SET: 'chats.set',
	CHATS_UPSERT: 'chats.upsert',
	CHATS_UPDATE: 'chats.update',
	CHATS_DELETE: 'chats.delete',
	GROUPS_UPSERT: 'groups.upsert',
	GROUP_UPDATE: 'groups.update',
	GROUP_PARTICIPANTS_UPDATE: 'group-participants.update',
	CONNECTION_UPDATE: 'connection.update',
	LABELS_EDIT: 'labels.edit',
	LABELS_ASSOCIATION: 'labels.association',
	CALL: 'call',
	NEW_JWT_TOKEN: 'new.jwt',
	TYPEBOT_START: 'typebot.start',
	TYPEBOT_CHANGE_STATUS: 'typebot.change-status',
	CHAMA_AI_ACTION: 'chama-ai.action',
} as const;

/** Events Evolution v2 raises that v1 has no subscription for. */
const V2_EVENT_PAYLOAD_NAMES = {
	MESSAGES_EDITED: 'messages.edited',
	SEND_MESSAGE_UPDATE: 'send.message.update',
	STATUS_INSTANCE: 'status.instance',
} as const;

/** WAHA's event names (its WAHAEvents enum, 2026.7.1), written the same in subscriptions and envelopes. */
export const WAHA_EVENTS = [
	'session.status',
	'message',
	'message.reaction',
	'message.any',
	'message.ack',
	'message.ack.group',
	'message.waiting',
	'message.revoked',
	'message.edited',
	'state.change',
	'group.join',
	'group.leave',
	'group.v2.join',
	'group.v2.leave',
	'group.v2.update',
	'group.v2.participants',
	'presence.update',
	'poll.vote',
	'poll.vote.failed',
	'chat.archive',
	'call.received',
	'call.accepted',
	'call.rejected',
	'label.upsert',
	'label.deleted',
	'label.chat.added',
	'label.chat.deleted',
	'event.response',
	'event.response.failed',
	'engine.event',
] as const;

export type WahaEvent = (typeof WAHA_EVENTS)[number];

type EvolutionEvent = keyof typeof EVENT_PAYLOAD_NAMES | keyof typeof V2_EVENT_PAYLOAD_NAMES;

export type WebhookEvent = EvolutionEvent | WahaEvent;

const PAYLOAD_NAMES: Record<EvolutionEvent, string> = {
	...EVENT_PAYLOAD_NAMES,
	...V2_EVENT_PAYLOAD_NAMES,
};

/** Every name POST /webhook/set accepts (Evolution v1); also what an empty `events` list expands to. */
export const WEBHOOK_EVENTS = Object.keys(EVENT_PAYLOAD_NAMES) as WebhookEvent[];

export const DISABLED_WEBHOOK: WebhookConfig = {
	enabled: false,
	url: '',
	events: [],
	webhook_by_events: false,
	webhook_base64: false,
};

const RESPONSE_BODY_LIMIT = 4096;
/** The longest wait one setTimeout takes (about 24.8 days). */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** `MESSAGES_UPSERT` -> `messages-upsert`, the suffix `webhook_by_events` appends. */
export function kebabEvent(event: string): string {
	return event.toLowerCase().replace(/_/g, '-');
}

/** The `isURL(url, {require_tld: false})` check Evolution applies before saving. */
export function isWebhookUrl(value: unknown): value is string {
	if (typeof value !== 'string' || /\s/.test(value)) return false;
	try {
		const url = new URL(value);
		return ['http:', 'https:', 'ftp:'].includes(url.protocol) && url.hostname !== '';
	} catch {
		return false;
	}
}

/** What one attempt came to: the receiver's status, or why there was none. */
export interface AttemptOutcome {
	status?: number;
	error?: string;
	/** The receiver's Retry-After header, as sent (WAHA's axios-retry honours it). */
	retryAfter?: string;
}

/**
 * When a gateway tries a failed delivery again: after failed attempt `attempt` (1-based), the delay
 * before the next one in milliseconds of the gateway's own clock, or undefined when it gives up.
 */
export type RetrySchedule = (attempt: number, outcome: AttemptOutcome) => number | undefined;

/** One attempt and no more. */
export const NO_RETRIES: RetrySchedule = () => undefined;

/** One POST a gateway makes for an event: where, the exact body text, and its own headers. */
export interface PreparedDelivery {
	url: string;
	event: string;
	payload: string;
	headers: Record<string, string>;
	/** How this one is retried, when it is not the flavour's way (WAHA: each webhook's `retries`). */
	retries?: RetrySchedule;
}

/** How a gateway posts its deliveries: which configured URLs it posts to, and with which extra headers. */
export interface DeliveryFlavour {
	postsTo(url: string): boolean;
	headers(config: WebhookConfig): Record<string, string>;
	/** The timeout the gateway sets on each attempt, in ms; undefined: it waits for an answer for ever. */
	timeoutMs: number | undefined;
	/** How it retries a failed delivery, unless the prepared delivery says otherwise. */
	retries: RetrySchedule;
	/** How the gateway writes identifiers in what it posts (see dialects.cts). */
	wire?: { outgoing(json: string): string };
	/**
	 * A gateway with its own webhook model (WAHA: several webhooks per session, its envelope and
	 * signed headers) prepares its POSTs itself; the Evolution envelope is then not used.
	 */
	prepare?(instance: Instance, event: WebhookEvent, data: unknown): PreparedDelivery[];
}

/**
 * Evolution v1 (1.8.2's sendDataWebhook): URLs that passed its isURL check, no headers of the
 * user's, one attempt and no retries. 1.8.2 sets no timeout either: the 10 s here is only the
 * harness's guard, so a silent receiver cannot hold a test for ever.
 */
export const EVOLUTION_V1_DELIVERY: DeliveryFlavour = {
	postsTo: isWebhookUrl,
	headers: () => ({}),
	timeoutMs: 10_000,
	retries: NO_RETRIES,
};

/** Anything that accepts events: the dispatcher itself, or a request's queue that sends after the response. */
export interface EventSink {
	emit(instance: Instance, event: WebhookEvent, data: unknown): void;
}

interface Waiter {
	count: number;
	resolve: (deliveries: WebhookDelivery[]) => void;
	reject: (error: Error) => void;
}

/**
 * The clock deliveries run on. `scale` multiplies every retry delay (0.01 plays Evolution's ~20
 * minutes of retries in ~12 s; 0: no waiting at all); `timeoutMs` replaces the gateway's request
 * timeout, which is never scaled (undefined: the gateway's own).
 */
export interface DeliveryClock {
	scale: number;
	timeoutMs?: number;
}

/** A change of the clock: fields left out stay as they are; `timeoutMs: null` is the gateway's own again. */
export interface DeliveryClockChange {
	scale?: number;
	timeoutMs?: number | null;
}

export const isClockScale = (value: unknown): value is number =>
	typeof value === 'number' && Number.isFinite(value) && value >= 0;

export const isTimeoutMs = (value: unknown): value is number =>
	typeof value === 'number' && Number.isFinite(value) && value > 0;

/** Checks a clock change given by a test or over HTTP. */
export function validDeliveryClockChange(change: unknown): DeliveryClockChange {
	if (!isObject(change)) throw new SimulatorInputError(400, 'The delivery clock must be an object');
	const { scale, timeoutMs } = change;
	if (scale !== undefined && !isClockScale(scale))
		throw new SimulatorInputError(400, 'scale must be a finite number, 0 or more');
	if (timeoutMs !== undefined && timeoutMs !== null && !isTimeoutMs(timeoutMs))
		throw new SimulatorInputError(
			400,
			'timeoutMs must be a number of milliseconds above 0, or null',
		);
	return { scale, timeoutMs };
}

/** A retry waiting for its turn: when it is due in real time, and what it does then. */
interface PendingRetry {
	dueAt: number;
	timer?: NodeJS.Timeout;
	run(): void;
}

const succeeded = (status: number | undefined) =>
	status !== undefined && status >= 200 && status <= 299;

export class WebhookDispatcher implements EventSink {
	readonly deliveries: WebhookDelivery[] = [];
	private readonly waiters = new Set<Waiter>();
	private readonly inFlight = new Set<http.ClientRequest>();
	private readonly pendingRetries = new Set<PendingRetry>();
	/** Bumped on reset so answers to older deliveries are not logged into the fresh log. */
	private generation = 0;
	private deliveryCount = 0;
	private clock: DeliveryClock;

	constructor(
		private readonly serverUrl: () => string,
		private readonly flavour: DeliveryFlavour = EVOLUTION_V1_DELIVERY,
		/** The clock a fresh (or reset) simulator runs on. */
		private readonly startingClock: DeliveryClock = { scale: 1 },
	) {
		this.clock = { ...startingClock };
	}

	emit(instance: Instance, event: WebhookEvent, data: unknown): void {
		if (this.flavour.prepare) {
			for (const delivery of this.flavour.prepare(instance, event, data)) this.deliver(delivery);
			return;
		}
		const config = instance.webhook;
		if (!config?.enabled || !this.flavour.postsTo(config.url) || !config.events.includes(event))
			return;
		const payloadName = PAYLOAD_NAMES[event as EvolutionEvent];
		const url = config.webhook_by_events ? `${config.url}/${kebabEvent(event)}` : config.url;
		const body: Record<string, unknown> = {
			event: payloadName,
			instance: instance.name,
			data,
			destination: config.url,
			date_time: new Date().toISOString(),
			sender: instance.wuid ?? undefined,
			server_url: this.serverUrl(),
			apikey: instance.token,
		};
		const headers = this.flavour.headers(config);
		const json = JSON.stringify(body);
		const payload = this.flavour.wire ? this.flavour.wire.outgoing(json) : json;
		this.deliver({ url, event: payloadName, payload, headers });
	}

	/** The clock deliveries run on now. */
	deliveryClock(): DeliveryClock {
		return { ...this.clock };
	}

	/**
	 * Changes the clock. Retries already waiting keep the part of their delay that has passed and
	 * wait the rest on the new scale; a new timeout applies to the attempts that start afterwards.
	 */
	setClock(change: DeliveryClockChange): void {
		const { scale, timeoutMs } = validDeliveryClockChange(change);
		if (timeoutMs === null) delete this.clock.timeoutMs;
		else if (timeoutMs !== undefined) this.clock.timeoutMs = timeoutMs;
		if (scale === undefined || scale === this.clock.scale) return;
		const before = this.clock.scale;
		this.clock.scale = scale;
		const now = Date.now();
		for (const pending of this.pendingRetries) {
			clearTimeout(pending.timer);
			const gatewayMsLeft = before === 0 ? 0 : Math.max(0, pending.dueAt - now) / before;
			this.arm(pending, gatewayMsLeft * scale);
		}
	}

	/**
	 * Every attempt of one delivery until the gateway is done with it: a 2xx, a status it never
	 * retries, or its last attempt. All attempts post the same body and headers (neither gateway
	 * rebuilds them for a retry) and share a `deliveryId` in the log.
	 */
	private deliver(delivery: PreparedDelivery): void {
		const retries = delivery.retries ?? this.flavour.retries;
		const deliveryId = `delivery-${++this.deliveryCount}`;
		const generation = this.generation;
		const headers: Record<string, string> = {
			'Content-Type': 'application/json',
			Accept: 'application/json, text/plain, */*',
			...delivery.headers,
		};
		const attempt = (number: number) => {
			this.post(delivery.url, delivery.payload, headers, (outcome, responseBody) => {
				if (generation !== this.generation) return;
				const delay = succeeded(outcome.status) ? undefined : retries(number, outcome);
				const answer =
					outcome.status === undefined
						? { error: outcome.error }
						: { status: outcome.status, responseBody };
				this.record({
					url: delivery.url,
					event: delivery.event,
					body: JSON.parse(delivery.payload),
					headers: { ...headers },
					deliveryId,
					attempt: number,
					...answer,
					at: Date.now(),
					...(delay === undefined ? { final: true } : { retryInMs: delay }),
				});
				if (delay !== undefined) this.scheduleRetry(delay, () => attempt(number + 1));
			});
		};
		attempt(1);
	}

	/** Waits `gatewayMs` of the gateway's time, on the current scale, without keeping Node alive. */
	private scheduleRetry(gatewayMs: number, run: () => void): void {
		const pending: PendingRetry = { dueAt: 0, run };
		this.pendingRetries.add(pending);
		this.arm(pending, Math.max(0, gatewayMs) * this.clock.scale);
	}

	private arm(pending: PendingRetry, realMs: number): void {
		pending.dueAt = Date.now() + realMs;
		const wake = () => {
			const left = pending.dueAt - Date.now();
			// A wait longer than one timer can hold takes several.
			if (left >= 1000) {
				pending.timer = setTimeout(wake, Math.min(left, LONGEST_TIMER_MS)).unref();
				return;
			}
			this.pendingRetries.delete(pending);
			pending.run();
		};
		pending.timer = setTimeout(wake, Math.min(realMs, LONGEST_TIMER_MS)).unref();
	}

	/** One attempt: `settle` gets the receiver's status and body, or the error that stood for them. */
	private post(
		url: string,
		payload: string,
		headers: Record<string, string>,
		settle: (outcome: AttemptOutcome, responseBody?: string) => void,
	): void {
		// A socket can fail after its answer began: the attempt still ends once, with one retry.
		let finished = false;
		const finish = (outcome: AttemptOutcome, responseBody?: string) => {
			if (finished) return;
			finished = true;
			settle(outcome, responseBody);
		};
		let target: URL;
		try {
			target = new URL(url);
		} catch (error) {
			finish({ error: (error as Error).message });
			return;
		}
		const transport = target.protocol === 'https:' ? https : http;
		const timeoutMs = this.clock.timeoutMs ?? this.flavour.timeoutMs;
		let request: http.ClientRequest;
		try {
			request = transport.request(
				target,
				{
					method: 'POST',
					headers: { ...headers, 'Content-Length': Buffer.byteLength(payload) },
					timeout: timeoutMs,
				},
				(response) => this.collect(request, response, finish),
			);
		} catch (error) {
			// A header the user configured that HTTP cannot carry.
			finish({ error: (error as Error).message });
			return;
		}
		this.inFlight.add(request);
		// Only a timeout of the gateway's: Node's global agent also reports 5 s of silence as 'timeout'.
		if (timeoutMs !== undefined)
			request.on('timeout', () => request.destroy(new Error(`No answer within ${timeoutMs} ms`)));
		request.on('error', (error) => {
			this.inFlight.delete(request);
			finish({ error: error.message });
		});
		request.end(payload);
	}

	private collect(
		request: http.ClientRequest,
		response: http.IncomingMessage,
		finish: (outcome: AttemptOutcome, responseBody?: string) => void,
	): void {
		const chunks: Buffer[] = [];
		let size = 0;
		response.on('data', (chunk: Buffer) => {
			if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk);
			size += chunk.length;
		});
		response.on('end', () => {
			this.inFlight.delete(request);
			const responseBody = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_BODY_LIMIT);
			const retryAfter = response.headers['retry-after'];
			finish({ status: response.statusCode, retryAfter }, responseBody);
		});
		// An answer cut short (the receiver stopped while sending it) fails the attempt, as each
		// gateway's HTTP client rejects it: it would otherwise never end.
		const cutShort = (error?: Error) => {
			this.inFlight.delete(request);
			finish({ error: error?.message ?? 'the answer was cut short' });
		};
		response.on('error', cutShort);
		response.on('close', () => {
			if (!response.complete) cutShort();
		});
	}

	private record(delivery: WebhookDelivery): void {
		this.deliveries.push(delivery);
		for (const waiter of this.waiters) {
			if (this.deliveries.length >= waiter.count) {
				this.waiters.delete(waiter);
				waiter.resolve([...this.deliveries]);
			}
		}
	}

	/** Each delivery in the log with its attempts, in the order of their first attempts. */
	outcomes(): DeliveryOutcome[] {
		const byId = new Map<string, DeliveryOutcome>();
		for (const entry of this.deliveries) {
			let outcome = byId.get(entry.deliveryId);
			if (!outcome) {
				outcome = {
					deliveryId: entry.deliveryId,
					url: entry.url,
					event: entry.event,
					body: entry.body,
					attempts: [],
					final: false,
					succeeded: false,
				};
				byId.set(entry.deliveryId, outcome);
			}
			const { attempt, status, error, at } = entry;
			outcome.attempts.push({ attempt, ...(status === undefined ? { error } : { status }), at });
			outcome.final ||= entry.final === true;
			outcome.succeeded ||= succeeded(status);
		}
		return [...byId.values()];
	}

	waitFor(count: number, timeoutMs: number): Promise<WebhookDelivery[]> {
		if (this.deliveries.length >= count) return Promise.resolve([...this.deliveries]);
		return new Promise((resolve, reject) => {
			const waiter: Waiter = {
				count,
				resolve: (deliveries) => {
					clearTimeout(timer);
					resolve(deliveries);
				},
				reject: (error) => {
					clearTimeout(timer);
					reject(error);
				},
			};
			const timer = setTimeout(() => {
				this.waiters.delete(waiter);
				const seen =
					this.deliveries.map((delivery) => `${delivery.event} -> ${delivery.url}`).join(', ') ||
					'none';
				reject(
					new Error(
						`Expected ${count} webhook deliveries within ${timeoutMs} ms, got ${this.deliveries.length}: ${seen}`,
					),
				);
			}, timeoutMs);
			this.waiters.add(waiter);
		});
	}

	/** Forget the log, abandon deliveries still on their way and their retries, and go back to the starting clock. */
	reset(): void {
		this.generation++;
		this.deliveries.length = 0;
		for (const pending of this.pendingRetries) clearTimeout(pending.timer);
		this.pendingRetries.clear();
		for (const request of this.inFlight) request.destroy();
		this.inFlight.clear();
		this.clock = { ...this.startingClock };
	}

	close(): void {
		this.reset();
		for (const waiter of this.waiters) waiter.reject(new Error('The simulator was stopped'));
		this.waiters.clear();
	}
}
