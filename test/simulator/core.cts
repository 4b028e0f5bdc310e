// Everything one simulator owns: state, logs, pending faults, the webhook dispatcher. No module-level state,
// so any number of simulators can run side by side.
import type { IncomingHttpHeaders } from 'node:http';

import { EVOLUTION_V1_EVENTS, type GatewayEvents } from './events.cts';
import { buildSeedState } from './seed.cts';
import type { Instance, SimState } from './state.cts';
import type {
	EvolutionVersion,
	FaultRule,
	Gateway,
	RecordedRequest,
	WahaEngine,
} from './types.cts';
import {
	EVOLUTION_V1_DELIVERY,
	WebhookDispatcher,
	type DeliveryClock,
	type DeliveryFlavour,
	type EventSink,
	type WebhookEvent,
} from './webhooks.cts';

/** What the simulator plays within its gateway: the release, the engine, how the server is set up. */
export interface Played {
	gateway: Gateway;
	evolutionVersion: EvolutionVersion;
	/** The licence state a fresh (or reset) simulator starts with. */
	licensed: boolean;
	/** Evolution 2.3.6+'s IsOnWhatsapp number cache is on (`DATABASE_SAVE_IS_ON_WHATSAPP=true`). */
	evolutionNumberCache: boolean;
	wahaEngine: WahaEngine;
	wahaStore: boolean;
}

export const DEFAULT_PLAYED: Played = {
	gateway: 'spec',
	evolutionVersion: '2.3.6',
	licensed: true,
	evolutionNumberCache: true,
	wahaEngine: 'NOWEB',
	wahaStore: true,
};

/** The WAHA engine a simulator plays; none outside WAHA mode (the spec's session family is engine-less). */
export function wahaEngineOf(core: Core): WahaEngine | undefined {
	return core.played.gateway === 'waha' ? core.played.wahaEngine : undefined;
}

export class Core {
	state: SimState = buildSeedState();
	readonly requests: RecordedRequest[] = [];
	readonly faults: FaultRule[] = [];
	readonly webhooks: WebhookDispatcher;
	/** Aborted on stop, so pending latency and send delays end at once. */
	readonly lifetime = new AbortController();
	baseUrl = '';
	/** Whether Evolution 2.4.0's licence is activated now (its gate answers 503 while it is not). */
	licensed: boolean;

	/**
	 * `gatewayEvents`: what the control API's happenings raise; `delivery`: how webhooks are posted
	 * (the gateway's); `deliveryClock`: the pace of their retries and their timeout, as started.
	 */
	constructor(
		readonly apiKey: string,
		readonly gatewayEvents: GatewayEvents = EVOLUTION_V1_EVENTS,
		delivery: DeliveryFlavour = EVOLUTION_V1_DELIVERY,
		readonly played: Played = DEFAULT_PLAYED,
		deliveryClock: DeliveryClock = { scale: 1 },
	) {
		this.webhooks = new WebhookDispatcher(() => this.baseUrl, delivery, deliveryClock);
		this.licensed = played.licensed;
	}

	instance(name: string): Instance | undefined {
		return this.state.instances.get(name);
	}

	/**
	 * Back to the seed: state, request log, deliveries (retries still waiting are dropped), faults,
	 * webhook configs, the licence and the delivery clock.
	 */
	reset(): void {
		this.state = buildSeedState();
		this.licensed = this.played.licensed;
		this.requests.length = 0;
		this.faults.length = 0;
		this.webhooks.reset();
	}
}

export type Family = 'session' | 'instance' | 'control';

export interface Reply {
	status: number;
	/** Serialised as JSON unless `raw` is given; undefined sends an empty body. */
	body?: unknown;
	raw?: Buffer;
	contentType?: string;
	headers?: Record<string, string>;
}

export interface RequestContext {
	core: Core;
	method: string;
	/** Raw path, still percent-encoded, without the query string. */
	rawPath: string;
	/** Path and query as received (what Evolution's "Cannot POST ..." message quotes). */
	url: string;
	params: Record<string, string>;
	query: Record<string, string | string[]>;
	headers: IncomingHttpHeaders;
	body: unknown;
	apiKey: string | undefined;
	/** Webhook events raised while handling; they are sent once the response has gone out. */
	events: EventSink;
	/**
	 * The body as the client sent it, before the gateway's `wire` rewrite made its identifiers the
	 * simulator's (`body`): for routes that must tell apart how a JID was spelt.
	 */
	sentBody?: unknown;
	/** Tells the request log how the route judged the apikey header. */
	setAuth(auth: RecordedRequest['auth']): void;
}

export type Handler = (context: RequestContext) => Reply | Promise<Reply>;

export interface Route {
	method: string;
	/** Segments separated by `/`; `:name` captures one (percent-decoded) segment. */
	pattern: string;
	family: Family;
	handler: Handler;
}

/** Queues events during a request and sends them after the response, as Evolution's fire-and-forget does. */
export class DeferredEvents implements EventSink {
	private readonly queued: Array<[Instance, WebhookEvent, unknown]> = [];

	constructor(private readonly target: EventSink) {}

	emit(instance: Instance, event: WebhookEvent, data: unknown): void {
		this.queued.push([instance, event, data]);
	}

	flush(): void {
		for (const [instance, event, data] of this.queued.splice(0))
			this.target.emit(instance, event, data);
	}
}
