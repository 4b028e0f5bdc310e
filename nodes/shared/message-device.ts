/**
 * Whether a message the account sent itself (fromMe) was typed by a person on one of the account's
 * devices, or sent through the gateway's API. No gateway marks API sends in the history it keeps;
 * a WhatsApp message ID tells the kind of device that made it (Baileys' getDevice, which Evolution
 * API stores as a message's `source`): iOS `3A…` (20 characters), Android 21 or 32 characters,
 * WhatsApp Desktop `3F…` or 18. The gateways' own sends are made as WhatsApp Web makes them
 * (`3EB0…`, 22 characters: Baileys, whatsmeow) or by older Baileys (`BAE5…`, 16): a person typing
 * on WhatsApp Web is therefore told from the API by no gateway's history.
 */

/** The kinds of device Baileys' getDevice names. */
export type MessageDevice = 'ios' | 'android' | 'desktop' | 'web' | 'unknown';

/** The kinds of device only a person types on. */
const PERSON_DEVICES: ReadonlySet<string> = new Set<MessageDevice>(['ios', 'android', 'desktop']);

/** The kind of device that made a message ID (the short ID, the last part of a full one). */
export function deviceOfMessageId(shortId: string): MessageDevice {
	if (/^3A.{18}$/.test(shortId)) return 'ios';
	if (/^3E.{20}$/.test(shortId)) return 'web';
	if (/^(.{21}|.{32})$/.test(shortId)) return 'android';
	return /^(3F|.{18}$)/.test(shortId) ? 'desktop' : 'unknown';
}

/**
 * Whether a person typed the account's own message, from what the gateway's record says of it:
 * `source` as the gateway gives it (`api` or `app` as the spec's events; a kind of device as
 * Evolution API stores it), else the kind of device its ID names. `trustApp`: whether `app` alone
 * says so (WAHA's NOWEB and WEBJS engines say `app` for their own sends older than ten minutes).
 */
export function typedByPerson(
	fromMe: boolean,
	shortId: string,
	source: unknown,
	trustApp: boolean,
): boolean {
	if (!fromMe || source === 'api') return false;
	if (source === 'app' && trustApp) return true;
	if (typeof source === 'string' && source !== 'app') return PERSON_DEVICES.has(source);
	return PERSON_DEVICES.has(deviceOfMessageId(shortId));
}

/** Who wrote a message of the session's own, as the trigger's items say: null for others' messages. */
export type OwnMessageFrom = 'person' | 'api' | null;

/** `ownMessageFrom` of an item: a person's own message, the API's, or null when not the account's. */
export function ownMessageFrom(fromMe: boolean, byPerson: boolean): OwnMessageFrom {
	if (!fromMe) return null;
	return byPerson ? 'person' : 'api';
}
