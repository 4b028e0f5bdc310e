import { randomBytes } from 'crypto';
import type { IDataObject, IHookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../shared/transport';

/** The gateway's webhook configuration of one session, as GET /webhook/find returns it. */
export interface RemoteWebhook {
	enabled: boolean;
	url: string;
	events: string[];
	webhook_by_events: boolean;
	webhook_base64: boolean;
}

/** What this trigger registered, kept in the node's static data. */
export interface OurRegistration {
	session: string;
	/** The n8n webhook URL with our secret token: the URL the gateway posts to. */
	url: string;
	events: string[];
	base64: boolean;
	token: string;
}

export interface TriggerStaticData extends IDataObject {
	registration?: OurRegistration & IDataObject;
	/** The registration we replaced, to put back when the trigger stops; null if there was none to keep. */
	previous?: (RemoteWebhook & IDataObject) | null;
}

export interface WantedRegistration {
	session: string;
	webhookUrl: string;
	events: string[];
	base64: boolean;
}

function sameEvents(left: string[], right: string[]): boolean {
	return left.length === right.length && [...left].sort().join(',') === [...right].sort().join(',');
}

function withToken(webhookUrl: string, token: string): string {
	return `${webhookUrl}${webhookUrl.includes('?') ? '&' : '?'}token=${token}`;
}

/** Whether a failed /webhook/find means "this gateway cannot tell" rather than a real error. */
function cannotTell(error: unknown): boolean {
	const { httpCode, message } = error as { httpCode?: string | null; message?: string };
	// The instance family answers an unknown route with 404 ["Cannot GET /webhook/find/x"]; an unknown
	// instance is also 404 but says the instance does not exist, which must not be hidden.
	if (httpCode === '404' && /Cannot GET/i.test(message ?? '')) return true;
	// A 2xx that is no JSON (an HTML page, plain text) says nothing about the registration.
	return /^2\d\d$/.test(httpCode ?? '');
}

/** The session's current webhook, or undefined when this gateway cannot tell (no find endpoint). */
export async function readRemoteWebhook(
	this: IHookFunctions,
	session: string,
): Promise<RemoteWebhook | undefined> {
	try {
		const found: unknown = await gatewayApiRequest.call(
			this,
			'GET',
			gatewayPath`/webhook/find/${session}`,
		);
		// Nothing (null, an empty answer) means nothing is registered; any other non-object is unreadable.
		if (
			found !== null &&
			found !== undefined &&
			(typeof found !== 'object' || Array.isArray(found))
		) {
			return undefined;
		}
		const outer = (found ?? undefined) as IDataObject | undefined;
		const config = (outer && typeof outer.webhook === 'object' ? outer.webhook : outer) as
			| IDataObject
			| undefined;
		return {
			enabled: config?.enabled === true,
			url: typeof config?.url === 'string' ? config.url : '',
			events: Array.isArray(config?.events) ? (config.events as string[]) : [],
			webhook_by_events: config?.webhook_by_events === true,
			webhook_base64: config?.webhook_base64 === true,
		};
	} catch (error) {
		if (cannotTell(error)) return undefined;
		throw new NodeApiError(this.getNode(), error as JsonObject);
	}
}

async function setRemoteWebhook(
	this: IHookFunctions,
	session: string,
	config: IDataObject,
): Promise<IDataObject> {
	return (await gatewayApiRequest.call(this, 'POST', gatewayPath`/webhook/set/${session}`, {
		body: config,
	})) as IDataObject;
}

/** checkExists: ours is registered for this URL and these events, and the gateway still points at us. */
export async function isRegistered(
	this: IHookFunctions,
	staticData: TriggerStaticData,
	wanted: WantedRegistration,
): Promise<boolean> {
	const ours = staticData.registration;
	if (
		!ours ||
		ours.session !== wanted.session ||
		ours.url !== withToken(wanted.webhookUrl, ours.token) ||
		ours.base64 !== wanted.base64 ||
		!sameEvents(ours.events, wanted.events)
	) {
		return false;
	}
	const remote = await readRemoteWebhook.call(this, wanted.session);
	return remote === undefined || (remote.enabled && remote.url === ours.url);
}

/** create: remember what was there, register our URL with a fresh secret token, check the echo. */
export async function register(
	this: IHookFunctions,
	staticData: TriggerStaticData,
	wanted: WantedRegistration,
): Promise<void> {
	const remote = await readRemoteWebhook.call(this, wanted.session);
	const previousOurs = staticData.registration;
	const remoteIsOurs =
		remote !== undefined && previousOurs !== undefined && remote.url === previousOurs.url;
	// Keep the registration we replace, unless it is an older one of ours (then keep what that one replaced).
	const previous = remoteIsOurs
		? (staticData.previous ?? null)
		: remote && remote.enabled && remote.url
			? remote
			: null;

	const token = randomBytes(24).toString('hex');
	const url = withToken(wanted.webhookUrl, token);
	const response = await setRemoteWebhook.call(this, wanted.session, {
		enabled: true,
		url,
		events: wanted.events,
		webhook_by_events: false,
		webhook_base64: wanted.base64,
	});
	const echoed = (response?.webhook as IDataObject | undefined)?.webhook as IDataObject | undefined;
	if (echoed?.url !== url) {
		throw new NodeApiError(this.getNode(), (response ?? {}) as JsonObject, {
			message: `The gateway did not register the webhook for session "${wanted.session}"`,
			description:
				'Its answer to POST /webhook/set did not echo the n8n webhook URL. Check the gateway version and logs.',
		});
	}
	staticData.registration = {
		session: wanted.session,
		url,
		events: [...wanted.events],
		base64: wanted.base64,
		token,
	};
	staticData.previous = previous as TriggerStaticData['previous'];
}

/**
 * delete: only when the gateway still points at us: put back the registration we replaced, or
 * disable the webhook. Someone else's newer registration is left alone, and so is whatever is
 * registered when the gateway cannot tell (no /webhook/find): it may no longer be ours.
 */
export async function unregister(
	this: IHookFunctions,
	staticData: TriggerStaticData,
): Promise<void> {
	const ours = staticData.registration;
	if (!ours) return;
	const remote = await readRemoteWebhook.call(this, ours.session);
	if (remote === undefined) {
		this.logger.warn(
			`Messaging Gateway Trigger: the gateway cannot tell which webhook session "${ours.session}" has, so it was left as it is`,
		);
	} else if (remote.enabled && remote.url === ours.url) {
		const previous = staticData.previous;
		if (previous && previous.enabled && previous.url) {
			await setRemoteWebhook.call(this, ours.session, {
				enabled: true,
				url: previous.url,
				events: previous.events,
				webhook_by_events: previous.webhook_by_events,
				webhook_base64: previous.webhook_base64,
			});
		} else {
			// Disabling still needs a syntactically valid URL on the real gateway.
			await setRemoteWebhook.call(this, ours.session, {
				enabled: false,
				url: ours.url,
				events: [],
			});
		}
	}
	delete staticData.registration;
	delete staticData.previous;
}

export function assertNonEmptyEvents(this: IHookFunctions, events: string[]): void {
	if (events.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Events must contain at least one event', {
			description: 'Pick the events that should start the workflow, e.g. Messages Upsert.',
		});
	}
}
