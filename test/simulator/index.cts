// Programmatic entry point: start a simulator (port 0 for tests), drive it, stop it.
import {
	injectDeletion,
	injectInbound,
	setConnectionState,
	setLicence,
	snapshotOf,
	validFaultRule,
} from './control.cts';
import { Core, DEFAULT_PLAYED, type Played } from './core.cts';
import { DIALECTS } from './dialects.cts';
import { DEFAULT_API_KEY } from './seed.cts';
import { SimulatorServer } from './server.cts';
import { labelChatId } from './routes/labels.cts';
import {
	ACK_STATUSES,
	chatLabelIds,
	findMessage,
	postedStatuses,
	recordStatus,
	type PostedStatus,
	type WebhookConfig,
} from './state.cts';
import { webhooksOf, type WahaWebhook } from './waha-events.cts';
import {
	isClockScale,
	isTimeoutMs,
	type DeliveryClock,
	type DeliveryClockChange,
} from './webhooks.cts';
import type {
	AckInput,
	DeletionInput,
	DeliveryOutcome,
	EvolutionVersion,
	FaultRule,
	InboundMessageInput,
	InstanceState,
	MessageSnapshot,
	RecordedRequest,
	SimulatorOptions,
	WahaEngine,
	WebhookDelivery,
} from './types.cts';

export type {
	AckInput,
	DeletionInput,
	DeliveryOutcome,
	EvolutionVersion,
	FaultRule,
	Gateway,
	InboundMessageInput,
	InstanceState,
	MessageSnapshot,
	RecordedRequest,
	SimulatorOptions,
	WahaEngine,
	WebhookDelivery,
} from './types.cts';
export type { PostedStatus, WebhookConfig } from './state.cts';
export type { DeliveryClock, DeliveryClockChange } from './webhooks.cts';
export type { WahaWebhook } from './waha-events.cts';
export { judgeWaha } from './routes/waha-common.cts';
export { webhookHmac } from './waha-events.cts';
export { SEED, DEFAULT_API_KEY } from './seed.cts';
export { EVOLUTION_V2_SEED } from './dialects.cts';
export { WEBHOOK_EVENTS } from './webhooks.cts';
export { LICENCE_INSTANCE_ID } from './evolution-licence.cts';

export interface Simulator {
	/** e.g. http://127.0.0.1:41234 (no trailing slash). */
	readonly url: string;
	readonly apiKey: string;
	/** API requests in arrival order (not /__sim/ control calls). Cleared in place by reset(). */
	readonly requests: RecordedRequest[];
	/**
	 * Webhook delivery attempts (with status or error), in completion order: one entry per attempt,
	 * the attempts of one delivery sharing a `deliveryId`, the gateway's last one marked `final`.
	 */
	readonly deliveries: WebhookDelivery[];
	/** Closes the server; deliveries in flight are abandoned and waiting retries cancelled. */
	stop(): Promise<void>;
	/**
	 * Back to the seed state; clears both logs, pending faults and webhook configurations, abandons
	 * deliveries in flight, cancels waiting retries and restores the options' delivery clock.
	 */
	reset(): void;
	/** Queues a rule; rules are consumed in order by the next matching requests, before auth. */
	injectFault(rule: FaultRule): void;
	injectInboundMessage(input: InboundMessageInput): Promise<MessageSnapshot>;
	injectDeletion(input: DeletionInput): Promise<void>;
	setInstanceState(instance: string, state: InstanceState): void;
	/** Resolves once `deliveries.length >= count`; rejects after `timeoutMs` (default 5000). */
	waitForDeliveries(count: number, timeoutMs?: number): Promise<WebhookDelivery[]>;
	/** A stored message by full or short id, in every shape; undefined when unknown or deleted. */
	findMessage(instance: string, messageId: string): MessageSnapshot | undefined;
	/** The instance's stored webhook configuration (null when never set). */
	getWebhook(instance: string): WebhookConfig | null;
	/** WAHA: the session's `config.webhooks` as last set (a copy; empty when none, and in other modes). */
	getWebhooks(session: string): WahaWebhook[];
	/**
	 * The recipient's device acknowledged one of the account's messages (2 DEVICE, 3 READ, 4 PLAYED):
	 * the message's ack changes; WAHA announces it with `message.ack`.
	 */
	injectAck(input: AckInput): void;
	getInstanceState(instance: string): InstanceState | undefined;
	/**
	 * Evolution 2.4.0 (`evolution-v2` with `evolutionVersion: '2.4.0'`): activates (true) or
	 * deactivates (false) the licence; while it is not active every business route answers 503
	 * LICENSE_REQUIRED. Throws for any other gateway or release. reset() restores the `licensed` option.
	 */
	setLicensed(active: boolean): void;
	/**
	 * Changes the pace of delivery retries (`scale`, as `deliveryClockScale`) and the request timeout
	 * (`timeoutMs`, as `deliveryTimeoutMs`; null: the gateway's own). Fields left out stay; retries
	 * already waiting wait the rest of their delay on the new scale. reset() restores the options.
	 */
	setDeliveryClock(change: DeliveryClockChange): void;
	/** The delivery clock in force: `{scale, timeoutMs?}` (no timeoutMs: the gateway's own). */
	getDeliveryClock(): DeliveryClock;
	/** Each delivery in `deliveries`, its attempts grouped: statuses or errors, whether it is final and succeeded. */
	deliveryOutcomes(): DeliveryOutcome[];
	/**
	 * The statuses (stories) posted through the gateway, in posting order, of one instance (WAHA:
	 * session) or of all; copies, with JIDs as the gateway writes them.
	 */
	statuses(instance?: string): PostedStatus[];
	/**
	 * A chat's WhatsApp Business label IDs on one instance (WAHA: session), in the order they were
	 * added; an ID whose label does not exist is listed too (the gateways add it all the same). The
	 * chat in any spelling (`…@c.us`, `…@s.whatsapp.net`, digits, a group or a LID); `[]` for a chat
	 * without labels or an unknown instance.
	 */
	chatLabels(instance: string, chatId: string): string[];
	/** Requests to paths containing `pathPart` (and of `method`, when given). */
	requestsTo(pathPart: string, method?: string): RecordedRequest[];
	clearLogs(): void;
}

const DEFAULT_DELIVERY_WAIT_MS = 5000;

const EVOLUTION_VERSIONS: EvolutionVersion[] = ['2.3.0', '2.3.6', '2.3.7', '2.4.0'];
const WAHA_ENGINES: WahaEngine[] = ['NOWEB', 'GOWS', 'WEBJS'];

/**
 * The release or engine the options ask for. Options of another gateway are refused rather than
 * ignored, so a test cannot believe it plays something it does not.
 */
function playedOf(options: SimulatorOptions): Played {
	const gateway = options.gateway ?? 'spec';
	const given = (name: keyof SimulatorOptions) => options[name] !== undefined;
	for (const name of ['evolutionVersion', 'licensed', 'evolutionNumberCache'] as const) {
		if (given(name) && gateway !== 'evolution-v2')
			throw new Error(`${name} applies to the evolution-v2 gateway, not "${gateway}"`);
	}
	for (const name of ['wahaEngine', 'wahaStore'] as const) {
		if (given(name) && gateway !== 'waha')
			throw new Error(`${name} applies to the waha gateway, not "${gateway}"`);
	}
	const played: Played = {
		gateway,
		evolutionVersion: options.evolutionVersion ?? DEFAULT_PLAYED.evolutionVersion,
		licensed: options.licensed ?? DEFAULT_PLAYED.licensed,
		evolutionNumberCache: options.evolutionNumberCache ?? DEFAULT_PLAYED.evolutionNumberCache,
		wahaEngine: options.wahaEngine ?? DEFAULT_PLAYED.wahaEngine,
		wahaStore: options.wahaStore ?? DEFAULT_PLAYED.wahaStore,
	};
	if (!EVOLUTION_VERSIONS.includes(played.evolutionVersion))
		throw new Error(`evolutionVersion must be one of ${EVOLUTION_VERSIONS.join(', ')}`);
	if (!WAHA_ENGINES.includes(played.wahaEngine))
		throw new Error(`wahaEngine must be one of ${WAHA_ENGINES.join(', ')}`);
	if (!played.licensed && played.evolutionVersion !== '2.4.0')
		throw new Error(
			'licensed: false needs evolutionVersion 2.4.0 (earlier releases have no licence)',
		);
	return played;
}

/** The delivery clock the options ask for; a bad value is refused like any other option. */
function deliveryClockOf(options: SimulatorOptions): DeliveryClock {
	const { deliveryClockScale: scale = 1, deliveryTimeoutMs: timeoutMs } = options;
	if (!isClockScale(scale))
		throw new Error('deliveryClockScale must be a finite number, 0 or more');
	if (timeoutMs === undefined) return { scale };
	if (!isTimeoutMs(timeoutMs))
		throw new Error('deliveryTimeoutMs must be a number of milliseconds above 0');
	return { scale, timeoutMs };
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
	const makeDialect = DIALECTS[options.gateway ?? 'spec'];
	if (!makeDialect) throw new Error(`Unknown gateway "${options.gateway}"`);
	const played = playedOf(options);
	const deliveryClock = deliveryClockOf(options);
	const dialect = makeDialect(played);
	const core = new Core(
		options.apiKey ?? DEFAULT_API_KEY,
		dialect.events,
		dialect.delivery,
		played,
		deliveryClock,
	);
	const server = new SimulatorServer(
		core,
		dialect.routes,
		options.apiKeyHeader ?? dialect.apiKeyHeader,
		dialect.familyOf,
		dialect.wire,
		dialect.gate,
	);
	core.baseUrl = await server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
	let stopped: Promise<void> | undefined;
	/** A message as the gateway shows it (its identifiers as it writes them on the wire). */
	const asSent = (snapshot: MessageSnapshot): MessageSnapshot =>
		dialect.wire ? JSON.parse(dialect.wire.outgoing(JSON.stringify(snapshot))) : snapshot;
	/** A copy of statuses as the gateway writes their JIDs. */
	const statusesAsSent = (statuses: PostedStatus[]): PostedStatus[] =>
		JSON.parse(dialect.wire?.outgoing(JSON.stringify(statuses)) ?? JSON.stringify(statuses));

	return {
		url: core.baseUrl,
		apiKey: core.apiKey,
		requests: core.requests,
		deliveries: core.webhooks.deliveries,
		stop() {
			stopped ??= (async () => {
				core.lifetime.abort();
				core.webhooks.close();
				await server.close();
			})();
			return stopped;
		},
		reset: () => core.reset(),
		injectFault: (rule) => {
			core.faults.push(validFaultRule(rule));
		},
		injectInboundMessage: async (input) => asSent(await injectInbound(core, core.webhooks, input)),
		injectDeletion: async (input) => {
			injectDeletion(core, core.webhooks, input);
		},
		setInstanceState: (instance, state) => setConnectionState(core, core.webhooks, instance, state),
		waitForDeliveries: (count, timeoutMs = DEFAULT_DELIVERY_WAIT_MS) =>
			core.webhooks.waitFor(count, timeoutMs),
		findMessage: (instanceName, messageId) => {
			const instance = core.instance(instanceName);
			const message = instance && findMessage(instance, messageId);
			return instance && message ? asSent(snapshotOf(core, instance, message)) : undefined;
		},
		getWebhook: (instance) => {
			const config = core.instance(instance)?.webhook;
			return config ? { ...config, events: [...config.events] } : null;
		},
		getWebhooks: (session) => {
			const instance = core.instance(session);
			return instance ? structuredClone(webhooksOf(instance)) : [];
		},
		injectAck: ({ instance: name, messageId, ack }) => {
			const instance = core.instance(name);
			const message = instance && findMessage(instance, messageId);
			if (!instance || !message) throw new Error(`No message ${messageId} in ${name}`);
			if (!(ack in ACK_STATUSES)) throw new Error(`ack must be one of -1, 0, 1, 2, 3, 4`);
			message.ack = ack;
			recordStatus(message, ACK_STATUSES[ack]);
			core.gatewayEvents.ack?.(core.webhooks, instance, message);
		},
		getInstanceState: (instance) => core.instance(instance)?.state,
		setLicensed: (active) => setLicence(core, active),
		setDeliveryClock: (change) => core.webhooks.setClock(change),
		getDeliveryClock: () => core.webhooks.deliveryClock(),
		deliveryOutcomes: () => core.webhooks.outcomes(),
		statuses: (instance) =>
			statusesAsSent(
				postedStatuses(core.state).filter(
					(status) => instance === undefined || status.instance === instance,
				),
			),
		chatLabels: (name, chatId) => {
			const instance = core.instance(name);
			return instance ? chatLabelIds(instance, labelChatId(chatId)) : [];
		},
		requestsTo: (pathPart, method) =>
			core.requests.filter(
				(request) =>
					request.path.includes(pathPart) && (!method || request.method === method.toUpperCase()),
			),
		clearLogs: () => {
			core.requests.length = 0;
			core.webhooks.deliveries.length = 0;
		},
	};
}
