/**
 * The trigger's webhook on WAHA (2026.x). WAHA keeps a list of webhooks per session, in the
 * session's `config.webhooks` (`{url, events, hmac: {key}, retries, customHeaders}`), read with
 * `GET /api/sessions/{session}` and written with `PUT /api/sessions/{session}`, whose `config`
 * replaces the stored one whole (its controller upserts `request.config` as it is, nothing merged).
 * So the trigger reads the whole config, adds or removes its own entry (found by its URL), and
 * writes the rest back as it was read. WAHA signs each delivery with the entry's HMAC key
 * (`X-Webhook-Hmac`, SHA-512 of the body): the key is the trigger's secret and never travels.
 * The session read also tells whether it keeps the messages a catch-up reads (message-store.ts).
 */
import { randomBytes } from 'crypto';
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type {
	SessionState,
	WantedRegistration,
	WebhookRegistrar,
} from '../../webhook/registration';
import { LOG_PREFIX, sameEvents } from '../../webhook/registration';
import { Redactor } from '../../../shared/secrets';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { asObject, describeValue } from '../../../shared/values';
import { eventsWahaLacks, wahaEventsFor } from '../../../shared/gateways/waha/events';
import { checkMessageStore } from './message-store';

/** The session as GET /api/sessions/{session} gives it: the answer, its whole config, its webhooks. */
interface SessionWebhooks {
	info: IDataObject;
	config: IDataObject;
	webhooks: IDataObject[];
}

function unreadableSession(this: IHookFunctions, session: string, what: string): NodeApiError {
	return new NodeApiError(
		this.getNode(),
		{ message: what },
		{
			message: `WAHA's answer for session "${session}" is no session configuration (${what}), so the trigger changed nothing`,
			description: 'Check that the Base URL points at WAHA 2026.x and that the session exists.',
		},
	);
}

/**
 * Reads the session's config. `secrets` are redacted from errors (the answer holds HMAC keys, ours
 * and other webhooks'); the answer itself is never quoted.
 */
async function readSessionWebhooks(
	this: IHookFunctions,
	session: string,
	secrets: string[],
): Promise<SessionWebhooks> {
	let answer: unknown;
	try {
		answer = await gatewayApiRequest.call(this, 'GET', gatewayPath`/api/sessions/${session}`);
	} catch (error) {
		throw new Redactor(secrets).error(error);
	}
	const info = asObject(answer);
	if (!info) throw unreadableSession.call(this, session, `got ${kindOf(answer)}`);
	// A session created without a config has none (null or absent): nothing to keep but ours.
	const config = info.config === null || info.config === undefined ? {} : asObject(info.config);
	if (!config) throw unreadableSession.call(this, session, `config is ${kindOf(info.config)}`);
	const listed = config.webhooks;
	if (listed !== undefined && listed !== null && !Array.isArray(listed)) {
		throw unreadableSession.call(this, session, `config.webhooks is ${kindOf(listed)}`);
	}
	return { info, config, webhooks: (listed ?? []) as IDataObject[] };
}

/** What a value is, never what it holds (a session's config holds other webhooks' keys). */
function kindOf(value: unknown): string {
	if (value === null || value === undefined) return describeValue(value);
	return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

/** Writes the session's config back with `webhooks`, every other setting as it was read. */
async function writeSessionWebhooks(
	this: IHookFunctions,
	session: string,
	read: SessionWebhooks,
	webhooks: IDataObject[],
	secrets: string[],
): Promise<IDataObject | undefined> {
	try {
		return asObject(
			await gatewayApiRequest.call(this, 'PUT', gatewayPath`/api/sessions/${session}`, {
				body: { config: { ...read.config, webhooks } },
			}),
		);
	} catch (error) {
		throw new Redactor(secrets).error(error);
	}
}

function urlOf(entry: unknown): unknown {
	return asObject(entry)?.url;
}

function isNotFound(error: unknown): boolean {
	return (error as { httpCode?: string | null }).httpCode === '404';
}

/** The pause between WAHA's tries of a delivery n8n did not take. */
export const WAHA_RETRY_DELAY_SECONDS = 10;

/**
 * WAHA's retries for our entry: a try every 10 s for the minutes asked. Without them WAHA gives up
 * after 15 tries 2 s apart (about 30 s): an n8n restart longer than that lost its messages.
 * `attempts` counts the tries after the first (axios-retry's `retries`).
 */
export function wahaRetries(minutes: number): IDataObject {
	return {
		policy: 'constant',
		delaySeconds: WAHA_RETRY_DELAY_SECONDS,
		attempts: Math.ceil((minutes * 60) / WAHA_RETRY_DELAY_SECONDS),
	};
}

/** Our entry: the trigger's own URL, its events, its HMAC key and its retries. */
function ourEntry(url: string, events: string[], key: string, minutes: number): IDataObject {
	return { url, events, hmac: { key }, retries: wahaRetries(minutes) };
}

/** The same retries (an entry registered before retries were asked for has none). */
function sameRetries(retries: unknown, minutes: number): boolean {
	const entry = asObject(retries);
	const wanted = wahaRetries(minutes);
	return (
		entry !== undefined &&
		Object.keys(wanted).every((name) => entry[name] === wanted[name]) &&
		Object.keys(entry).length === Object.keys(wanted).length
	);
}

export const WAHA_WEBHOOKS: WebhookRegistrar = {
	/** Ours is registered with these events and this key, and the session still lists it. */
	async isRegistered(
		this: IHookFunctions,
		staticData: SessionState,
		wanted: WantedRegistration,
	): Promise<boolean> {
		const ours = staticData.registration;
		if (
			!ours ||
			ours.gateway !== 'waha' ||
			ours.session !== wanted.session ||
			ours.url !== wanted.webhookUrl ||
			ours.base64 !== wanted.base64 ||
			!sameEvents(ours.events, wanted.events)
		) {
			return false;
		}
		const read = await readSessionWebhooks.call(this, wanted.session, [ours.token]);
		const entry = asObject(read.webhooks.find((webhook) => urlOf(webhook) === ours.url));
		const events = entry?.events;
		const registered =
			entry !== undefined &&
			asObject(entry.hmac)?.key === ours.token &&
			sameRetries(entry.retries, wanted.redeliverMinutes) &&
			Array.isArray(events) &&
			sameEvents(events as string[], wahaEventsFor(wanted.events, wanted.ignoreOwnMessages));
		// Not registered: n8n calls register next, which checks the session it reads.
		if (registered) {
			checkMessageStore.call(this, wanted.session, wanted.catchUpHours, read.info, read.config);
		}
		return registered;
	},

	/**
	 * Adds our entry (or replaces an older one of ours, in its place) with a fresh key; every other
	 * webhook and setting of the session is written back as it was read. An event WAHA has not
	 * is refused by name before any request; a session that keeps no messages for Catch Up Missed
	 * Messages, once read (checkMessageStore).
	 */
	async register(
		this: IHookFunctions,
		staticData: SessionState,
		wanted: WantedRegistration,
	): Promise<void> {
		const lacking = eventsWahaLacks(wanted.events);
		if (lacking.length > 0) {
			throw new NodeOperationError(
				this.getNode(),
				`WAHA has no event ${lacking.join(', ')}: the trigger was not registered`,
				{ description: `Remove ${lacking.join(', ')} from Events.` },
			);
		}
		const previousOurs = staticData.registration;
		const key = randomBytes(32).toString('hex');
		const secrets = previousOurs ? [key, previousOurs.token] : [key];
		const read = await readSessionWebhooks.call(this, wanted.session, secrets);
		checkMessageStore.call(this, wanted.session, wanted.catchUpHours, read.info, read.config);
		const entry = ourEntry(
			wanted.webhookUrl,
			wahaEventsFor(wanted.events, wanted.ignoreOwnMessages),
			key,
			wanted.redeliverMinutes,
		);
		// Our URL is this trigger's alone (n8n's webhook ID): an entry with it is an older one of ours.
		const isOurs = (webhook: unknown) =>
			urlOf(webhook) === wanted.webhookUrl ||
			(previousOurs?.session === wanted.session && urlOf(webhook) === previousOurs.url);
		const place = read.webhooks.findIndex(isOurs);
		const others = read.webhooks.filter((webhook) => !isOurs(webhook));
		const webhooks =
			place === -1
				? [...others, entry]
				: [...others.slice(0, place), entry, ...others.slice(place)];
		const answer = await writeSessionWebhooks.call(this, wanted.session, read, webhooks, secrets);
		const echoed = asObject(answer?.config)?.webhooks;
		if (Array.isArray(echoed) && !echoed.some((webhook) => urlOf(webhook) === wanted.webhookUrl)) {
			throw new NodeApiError(
				this.getNode(),
				{ message: 'webhook not listed' },
				{
					message: `WAHA did not register the webhook for session "${wanted.session}"`,
					description:
						'Its answer to PUT /api/sessions/{session} does not list the n8n webhook URL. Check the WAHA version and logs.',
				},
			);
		}
		staticData.registration = {
			session: wanted.session,
			url: wanted.webhookUrl,
			events: [...wanted.events],
			base64: wanted.base64,
			token: key,
			gateway: 'waha',
		};
		delete staticData.previous;
	},

	/** Removes our entry, found by our URL; every other webhook and setting stays as it is. */
	async unregister(this: IHookFunctions, staticData: SessionState): Promise<void> {
		const ours = staticData.registration;
		if (!ours) return;
		const secrets = [ours.token];
		let read: SessionWebhooks | undefined;
		try {
			read = await readSessionWebhooks.call(this, ours.session, secrets);
		} catch (error) {
			// A session deleted meanwhile has no webhook of ours left to remove.
			if (!isNotFound(error)) throw new Redactor(secrets).error(error);
			this.logger.info(`${LOG_PREFIX} WAHA has no session "${ours.session}" any more`);
		}
		if (read) {
			const others = read.webhooks.filter((webhook) => urlOf(webhook) !== ours.url);
			if (others.length === read.webhooks.length) {
				this.logger.info(
					`${LOG_PREFIX} session "${ours.session}" no longer lists this trigger's webhook, so it was left as it is`,
				);
			} else {
				await writeSessionWebhooks.call(this, ours.session, read, others, secrets);
			}
		}
		delete staticData.registration;
		delete staticData.previous;
	},
};
