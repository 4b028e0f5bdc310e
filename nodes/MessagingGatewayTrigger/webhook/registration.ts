import { randomBytes } from 'crypto';
import type { IDataObject, IHookFunctions, IWebhookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { INSTANCE_EVENT_NAMES } from '../../shared/events';
import type { RemoteWebhook, WebhookDialect } from '../../shared/gateways';
import { describeValue } from '../../shared/values';
import { Redactor } from '../../shared/secrets';
import { readRemoteWebhook, setRemoteWebhook } from './remote-webhook';

/** What this trigger registered, kept in the node's static data. */
export interface OurRegistration {
	session: string;
	/** The n8n webhook URL with our secret token: the URL the gateway posts to. */
	url: string;
	events: string[];
	base64: boolean;
	token: string;
	/** The header the gateway sends the token in (Evolution API v2); absent: the URL's query. */
	tokenHeader?: string;
	/**
	 * WAHA: deliveries are WAHA's envelopes, signed with `token` as their HMAC key (X-Webhook-Hmac);
	 * the key never travels with them. Absent: Evolution's envelopes, the token sent along.
	 */
	gateway?: 'waha';
}

/** What the trigger keeps in the node's static data for one session it watches. */
export interface SessionState extends IDataObject {
	registration?: OurRegistration & IDataObject;
	/** The registration we replaced, to put back when the trigger stops; null if there was none to keep. */
	previous?: (RemoteWebhook & IDataObject) | null;
	/** The deliveries that started an execution (delivery-memory.ts's record). */
	delivered?: string;
	/** When the workflow was activated (Unix seconds): a catch-up reads nothing from before. */
	activatedAt?: number;
}

/**
 * The node's static data: with Sessions to Watch on One Session (and in every trigger saved before
 * there was a choice), that session's state itself; with several or all, each one's under `sessions`.
 */
export interface TriggerStaticData extends SessionState {
	sessions?: WatchedSession[];
}

/**
 * A session watched with others, and its state. A list, not an object keyed by name: a session
 * may be named `__proto__` or `constructor`, which an object would answer for from its prototype.
 */
export interface WatchedSession extends SessionState {
	session: string;
}

export interface WantedRegistration {
	session: string;
	webhookUrl: string;
	events: string[];
	base64: boolean;
	/** Whether a webhook the gateway cannot show (no /webhook/find) may be replaced. */
	replaceUnseen: boolean;
	/** Filters > Ignore Own Messages: WAHA subscribes to other events for own messages. */
	ignoreOwnMessages: boolean;
	/** Options > Redeliver For (Minutes): how long WAHA retries a delivery n8n did not take. */
	redeliverMinutes: number;
	/** Options > Catch Up Missed Messages (Hours): WAHA checks that the session keeps messages. */
	catchUpHours: number;
}

/**
 * How the trigger keeps its webhook on one gateway: checkExists, create and delete of n8n's
 * webhook methods. A gateway with one webhook per session replaces it and puts the previous one
 * back (replacingRegistrar below); WAHA, which keeps several, adds its own beside the others and
 * removes only its own (the trigger's gateways/waha/webhook.ts).
 */
export interface WebhookRegistrar {
	isRegistered(
		this: IHookFunctions,
		staticData: SessionState,
		wanted: WantedRegistration,
	): Promise<boolean>;
	register(
		this: IHookFunctions,
		staticData: SessionState,
		wanted: WantedRegistration,
	): Promise<void>;
	unregister(this: IHookFunctions, staticData: SessionState): Promise<void>;
}

/** The same event names, in any order. */
export function sameEvents(left: readonly string[], right: readonly string[]): boolean {
	return left.length === right.length && [...left].sort().join(',') === [...right].sort().join(',');
}

/** The URL the gateway posts to: with the token in its query, unless the gateway sends it in a header. */
function registeredUrl(dialect: WebhookDialect, webhookUrl: string, token: string): string {
	if (dialect.tokenHeader) return webhookUrl;
	return `${webhookUrl}${webhookUrl.includes('?') ? '&' : '?'}token=${token}`;
}

/** Our registered URL without the token registeredUrl put in its query. */
function withoutToken(ours: OurRegistration): string {
	const query = `token=${ours.token}`;
	return ours.url.endsWith(query) ? ours.url.slice(0, -query.length - 1) : ours.url;
}

/** The secret token this package registers with (see register): 24 random bytes in hex. */
const OUR_TOKEN = /^[0-9a-f]{48}$/;

/**
 * The URL (without its token) of another Messaging Gateway Trigger that the session's webhook
 * delivers to, or undefined: an enabled webhook carrying a token of ours (in its query, or in the
 * dialect's header) whose n8n webhook is not this node's (the node's webhook ID and path end its
 * URL, in production and in test mode alike).
 */
function anotherTriggerHolding(
	dialect: WebhookDialect,
	remote: RemoteWebhook | undefined,
	webhookUrl: string,
): string | undefined {
	if (!remote?.enabled || typeof remote.url !== 'string') return undefined;
	const token = dialect.tokenHeader
		? remote.headers?.[dialect.tokenHeader]
		: /[?&]token=([^&]*)$/.exec(remote.url)?.[1];
	if (typeof token !== 'string' || !OUR_TOKEN.test(token)) return undefined;
	const address = remote.url.replace(/[?&]token=[0-9a-f]{48}$/, '');
	const nodePath = (url: string) => url.split('?')[0].split('/').slice(-2).join('/');
	return nodePath(address) === nodePath(webhookUrl) ? undefined : address;
}

/** The start of log lines, so the trigger's decisions are found in n8n's log. */
export const LOG_PREFIX = 'Messaging Gateway Trigger:';

/** checkExists: ours is registered for this URL and these events, and the gateway still points at us. */
export async function isRegistered(
	this: IHookFunctions,
	dialect: WebhookDialect,
	staticData: SessionState,
	wanted: WantedRegistration,
): Promise<boolean> {
	const ours = staticData.registration;
	if (
		!ours ||
		ours.session !== wanted.session ||
		(ours.tokenHeader ?? undefined) !== dialect.tokenHeader ||
		ours.url !== registeredUrl(dialect, wanted.webhookUrl, ours.token) ||
		ours.base64 !== wanted.base64 ||
		!sameEvents(ours.events, wanted.events)
	) {
		return false;
	}
	const remote = await readRemoteWebhook.call(this, dialect, wanted.session, [ours.token]);
	if (remote === undefined) {
		// Registering again would replace whatever is there, maybe someone else's: keep ours as made.
		this.logger.info(
			`${LOG_PREFIX} the gateway cannot tell which webhook session "${wanted.session}" has; the webhook this trigger registered earlier is taken to be in place`,
		);
		return true;
	}
	return remote.enabled && remote.url === ours.url;
}

/**
 * create: remember what was there, register our URL with a fresh secret token, check the echo.
 * When the gateway cannot tell what is there, registering could drop someone else's webhook with
 * no way to put it back: that needs the user's consent (wanted.replaceUnseen).
 */
export async function register(
	this: IHookFunctions,
	dialect: WebhookDialect,
	staticData: SessionState,
	wanted: WantedRegistration,
): Promise<void> {
	const unknownEvents = dialect.events
		? wanted.events.filter((event) => !dialect.events!.has(event))
		: [];
	if (unknownEvents.length > 0) {
		throw new NodeOperationError(
			this.getNode(),
			`${dialect.gatewayLabel} has no event ${unknownEvents.join(', ')}: the trigger was not registered`,
			{ description: `Remove ${unknownEvents.join(', ')} from Events.` },
		);
	}
	const previousOurs = staticData.registration;
	const oldTokens = previousOurs ? [previousOurs.token] : [];
	const remote = await readRemoteWebhook.call(this, dialect, wanted.session, oldTokens);
	if (remote === undefined && !wanted.replaceUnseen) {
		throw new NodeOperationError(
			this.getNode(),
			`The gateway cannot tell which webhook session "${wanted.session}" has, so the trigger did not replace it`,
			{
				description:
					'The gateway keeps one webhook per session, and this one does not show it (no /webhook/find). Registering the trigger would replace that webhook, perhaps one another tool set, with no way to put it back. To accept that, turn on Options > Replace an Unseen Webhook.',
			},
		);
	}
	if (remote === undefined) {
		this.logger.warn(
			`${LOG_PREFIX} the gateway cannot tell which webhook session "${wanted.session}" has; it is replaced as Replace an Unseen Webhook allows, and cannot be put back when the trigger stops`,
		);
	}
	const holder = anotherTriggerHolding(dialect, remote, wanted.webhookUrl);
	// "Listen for test event" may borrow the session's webhook: it puts it back when it stops.
	if (holder !== undefined && this.getActivationMode() !== 'manual') {
		throw new NodeOperationError(
			this.getNode(),
			`Session "${wanted.session}" already delivers to another Messaging Gateway Trigger (${holder}), so this trigger did not take it over`,
			{
				description: `${dialect.gatewayLabel} keeps one webhook per session. Deactivate the workflow whose trigger has that URL, or choose another session. If that workflow no longer exists, turn its webhook off (Messaging Gateway → Webhook → Set, Enabled off) and activate this one again.`,
			},
		);
	}
	const remoteIsOurs =
		remote !== undefined && previousOurs !== undefined && remote.url === previousOurs.url;
	// Keep the registration we replace (a disabled one too: it is put back as it was), unless it is
	// an older one of ours (then keep what that one replaced); when the gateway cannot tell, what an
	// earlier registration of ours replaced.
	const previous =
		remoteIsOurs || (remote === undefined && previousOurs?.session === wanted.session)
			? (staticData.previous ?? null)
			: remote?.url
				? remote
				: null;

	const token = randomBytes(24).toString('hex');
	const url = registeredUrl(dialect, wanted.webhookUrl, token);
	const tokens = [token, ...oldTokens];
	const response = await setRemoteWebhook.call(
		this,
		dialect,
		wanted.session,
		{
			enabled: true,
			url,
			events: wanted.events,
			webhook_by_events: false,
			webhook_base64: wanted.base64,
			...(dialect.tokenHeader ? { headers: { [dialect.tokenHeader]: token } } : {}),
		},
		tokens,
	);
	if (dialect.echoedUrl(response) !== url) {
		throw new NodeApiError(
			this.getNode(),
			new Redactor(tokens).data(response ?? {}) as JsonObject,
			{
				message: `The gateway did not register the webhook for session "${wanted.session}"`,
				description:
					'Its answer to POST /webhook/set did not echo the n8n webhook URL. Check the gateway version and logs.',
			},
		);
	}
	staticData.registration = {
		session: wanted.session,
		url,
		events: [...wanted.events],
		base64: wanted.base64,
		token,
		...(dialect.tokenHeader ? { tokenHeader: dialect.tokenHeader } : {}),
	};
	staticData.previous = previous as SessionState['previous'];
}

/**
 * delete: only when the gateway still points at us: put back the registration we replaced, or
 * disable the webhook. Someone else's newer registration is left alone, and so is whatever is
 * registered when the gateway cannot tell (no /webhook/find): it may no longer be ours.
 */
export async function unregister(
	this: IHookFunctions,
	dialect: WebhookDialect,
	staticData: SessionState,
): Promise<void> {
	const ours = staticData.registration;
	if (!ours) return;
	const tokens = [ours.token];
	const remote = await readRemoteWebhook.call(this, dialect, ours.session, tokens);
	if (remote === undefined) {
		this.logger.warn(
			`${LOG_PREFIX} the gateway cannot tell which webhook session "${ours.session}" has, so it was left as it is`,
		);
	} else if (remote.enabled && remote.url === ours.url) {
		const previous = staticData.previous;
		// The row as it was, disabled ones too; with none, a disabled row that keeps no token.
		const restored: RemoteWebhook = previous?.url
			? previous
			: {
					enabled: false,
					url: withoutToken(ours),
					events: [],
					webhook_by_events: false,
					webhook_base64: false,
				};
		await setRemoteWebhook.call(this, dialect, ours.session, restored, tokens);
	} else {
		this.logger.info(
			`${LOG_PREFIX} session "${ours.session}" has another webhook now, so it was left as it is`,
		);
	}
	delete staticData.registration;
	delete staticData.previous;
}

/** A gateway that keeps one webhook per session, spoken in `dialect`: replace, then put back. */
export function replacingRegistrar(dialect: WebhookDialect): WebhookRegistrar {
	return {
		async isRegistered(staticData, wanted) {
			return await isRegistered.call(this, dialect, staticData, wanted);
		},
		async register(staticData, wanted) {
			await register.call(this, dialect, staticData, wanted);
		},
		async unregister(staticData) {
			await unregister.call(this, dialect, staticData);
		},
	};
}

/**
 * The Events parameter as the gateway takes it: a non-empty list of known event names, each once.
 * Anything else (an expression giving text, an unknown name) fails before any request.
 */
export function checkedEvents(this: IHookFunctions | IWebhookFunctions, raw: unknown): string[] {
	const description = 'Pick the events that should start the workflow, e.g. Message Received.';
	if (!Array.isArray(raw) || raw.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			Array.isArray(raw)
				? 'Events must contain at least one event'
				: `Events must be a list of event names (got ${describeValue(raw)})`,
			{ description },
		);
	}
	// Checked without new lists when every name is known (every event reads this parameter).
	if (!raw.every((event) => INSTANCE_EVENT_NAMES.has(event))) {
		const unknown = raw.filter((event) => !INSTANCE_EVENT_NAMES.has(event)) as unknown[];
		throw new NodeOperationError(
			this.getNode(),
			`Events must be event names such as MESSAGES_UPSERT (got ${unknown.map(describeValue).join(', ')})`,
			{ description },
		);
	}
	// Each once; one event (the usual choice) needs no set to say so.
	return raw.length === 1 ? [raw[0] as string] : [...new Set(raw as string[])];
}

/**
 * A number option checked at activation with the parser deliveries read it with (a delivery falls
 * back to the default instead): unusable, it fails naming the field, before any request.
 */
export function checkedNumber(
	this: IHookFunctions,
	raw: unknown,
	parse: (raw: unknown) => number | undefined,
	expected: string,
): number {
	const value = parse(raw);
	if (value === undefined) {
		throw new NodeOperationError(this.getNode(), `${expected} (got ${describeValue(raw)})`);
	}
	return value;
}
