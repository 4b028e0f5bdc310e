// Webhook configuration rules and deliveries, as Evolution API v1 does them.
import http from 'node:http';
import https from 'node:https';

import type { WebhookDelivery } from './types.cts';
import type { Instance, WebhookConfig } from './state.cts';

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

const DELIVERY_TIMEOUT_MS = 10_000;
const RESPONSE_BODY_LIMIT = 4096;

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

/** One POST a gateway makes for an event: where, the exact body text, and its own headers. */
export interface PreparedDelivery {
	url: string;
	event: string;
	payload: string;
	headers: Record<string, string>;
}

/** How a gateway posts its deliveries: which configured URLs it posts to, and with which extra headers. */
export interface DeliveryFlavour {
	postsTo(url: string): boolean;
	headers(config: WebhookConfig): Record<string, string>;
	/** How the gateway writes identifiers in what it posts (see dialects.cts). */
	wire?: { outgoing(json: string): string };
	/**
	 * A gateway with its own webhook model (WAHA: several webhooks per session, its envelope and
	 * signed headers) prepares its POSTs itself; the Evolution envelope is then not used.
	 */
	prepare?(instance: Instance, event: WebhookEvent, data: unknown): PreparedDelivery[];
}

/** Evolution v1: URLs that passed its isURL check, no headers of the user's. */
export const EVOLUTION_V1_DELIVERY: DeliveryFlavour = {
	postsTo: isWebhookUrl,
	headers: () => ({}),
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

export class WebhookDispatcher implements EventSink {
	readonly deliveries: WebhookDelivery[] = [];
	private readonly waiters = new Set<Waiter>();
	private readonly inFlight = new Set<http.ClientRequest>();
	/** Bumped on reset so answers to older deliveries are not logged into the fresh log. */
	private generation = 0;

	constructor(
		private readonly serverUrl: () => string,
		private readonly flavour: DeliveryFlavour = EVOLUTION_V1_DELIVERY,
	) {}

	emit(instance: Instance, event: WebhookEvent, data: unknown): void {
		if (this.flavour.prepare) {
			for (const delivery of this.flavour.prepare(instance, event, data))
				this.post(delivery.url, delivery.event, delivery.payload, delivery.headers);
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
		const posted = this.flavour.wire ? this.flavour.wire.outgoing(json) : json;
		this.post(url, payloadName, posted, headers);
	}

	/** One attempt, no retries: the outcome is logged with the body and the headers sent. */
	private post(
		url: string,
		event: string,
		payload: string,
		extraHeaders: Record<string, string>,
	): void {
		const generation = this.generation;
		const body = JSON.parse(payload);
		const headers: Record<string, string> = {
			'Content-Type': 'application/json',
			Accept: 'application/json, text/plain, */*',
			...extraHeaders,
		};
		const finish = (outcome: Partial<WebhookDelivery>) => {
			if (generation !== this.generation) return;
			this.record({ url, event, body, headers, ...outcome, at: Date.now() });
		};
		let target: URL;
		try {
			target = new URL(url);
		} catch (error) {
			finish({ error: (error as Error).message });
			return;
		}
		const transport = target.protocol === 'https:' ? https : http;
		let request: http.ClientRequest;
		try {
			request = transport.request(
				target,
				{
					method: 'POST',
					headers: { ...headers, 'Content-Length': Buffer.byteLength(payload) },
					timeout: DELIVERY_TIMEOUT_MS,
				},
				(response) => this.collect(request, response, finish),
			);
		} catch (error) {
			// A header the user configured that HTTP cannot carry.
			finish({ error: (error as Error).message });
			return;
		}
		this.inFlight.add(request);
		request.on('timeout', () =>
			request.destroy(new Error(`No answer within ${DELIVERY_TIMEOUT_MS} ms`)),
		);
		request.on('error', (error) => {
			this.inFlight.delete(request);
			finish({ error: error.message });
		});
		request.end(payload);
	}

	private collect(
		request: http.ClientRequest,
		response: http.IncomingMessage,
		finish: (outcome: Partial<WebhookDelivery>) => void,
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
			finish({ status: response.statusCode, responseBody });
		});
		response.on('error', () => undefined);
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

	/** Forget the log and abandon deliveries still on their way. */
	reset(): void {
		this.generation++;
		this.deliveries.length = 0;
		for (const request of this.inFlight) request.destroy();
		this.inFlight.clear();
	}

	close(): void {
		this.reset();
		for (const waiter of this.waiters) waiter.reject(new Error('The simulator was stopped'));
		this.waiters.clear();
	}
}
