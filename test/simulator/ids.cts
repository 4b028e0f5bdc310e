// Identifier shapes of the gateway (spec §1.3) and the conversions between them.
import { randomBytes, randomUUID } from 'node:crypto';

export const CONTACT_CHAT_SUFFIX = '@c.us';
export const CONTACT_JID_SUFFIX = '@s.messenger.net';
export const GROUP_SUFFIX = '@g.us';
export const CHANNEL_SUFFIX = '@newsletter';
/** WhatsApp's Linked IDs: a person addressed without their phone number (`198765432101234@lid`). */
export const LID_SUFFIX = '@lid';

const SHORT_ID_LENGTH = 20;
const PAIRING_ALPHABET = 'ABCDEFGHJKLMNPQRSTVWXYZ0123456789';

/** A 20-character message id as phones of the web client produce them: `3EB0` + 16 upper-case hex digits. */
export function newShortMessageId(): string {
	return `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
}

/**
 * A 20-character message id as an iPhone makes one (`3A` + 18 upper-case hex digits): what the
 * account's owner types on the phone carries it, which tells it from the gateway's API sends.
 */
export function newPhoneMessageId(): string {
	return `3A${randomBytes(9).toString('hex').toUpperCase()}`;
}

export function isShortMessageId(value: string): boolean {
	return /^[A-Za-z0-9]+$/.test(value);
}

export function assertShortIdLength(id: string): string {
	if (id.length !== SHORT_ID_LENGTH)
		throw new Error(`Seed message id ${id} is not ${SHORT_ID_LENGTH} characters`);
	return id;
}

/** `<fromMe>_<chatId>_<shortId>`, the session family's full message id. */
export function fullMessageId(fromMe: boolean, chatId: string, shortId: string): string {
	return `${fromMe}_${chatId}_${shortId}`;
}

export interface ParsedMessageId {
	shortId: string;
	fromMe?: boolean;
	chatId?: string;
}

/** Accepts a full id (optionally with WAHA's trailing `_<participant>`) or a bare short id. */
export function parseMessageId(value: string): ParsedMessageId | undefined {
	const full = /^(true|false)_([^_]+@[a-z.]+)_([A-Za-z0-9]+)(?:_.+)?$/.exec(value);
	if (full) return { fromMe: full[1] === 'true', chatId: full[2], shortId: full[3] };
	return isShortMessageId(value) ? { shortId: value } : undefined;
}

export function digitsOf(value: string): string {
	return value.replace(/\D/g, '');
}

export function contactChatId(number: string): string {
	return `${number}${CONTACT_CHAT_SUFFIX}`;
}

export function contactJid(number: string): string {
	return `${number}${CONTACT_JID_SUFFIX}`;
}

export function isGroupId(value: string): boolean {
	return value.endsWith(GROUP_SUFFIX);
}

/** `<digits>@lid` without a device suffix. Bare LID digits are not a LID: the products read them as a phone number. */
export function isLid(value: string): boolean {
	return /^\d{5,20}@lid$/.test(value);
}

/** Drops a device suffix (`X:12@lid` → `X@lid`, `N:3@s.whatsapp.net` → `N@s.whatsapp.net`), as the products do. */
export function withoutDevice(value: string): string {
	return value.replace(/:\d+(?=@)/, '');
}

/**
 * A person as messages and groups name them: a phone number's digits, or a LID (`X@lid`). These
 * turn either into the instance family's JID and the session family's chat id.
 */
export function personJid(person: string): string {
	return isLid(person) ? person : contactJid(person);
}

export function personChatId(person: string): string {
	return isLid(person) ? person : contactChatId(person);
}

/** The person a contact JID, chat id or LID names: the phone's digits, or the LID itself. */
export function personOf(jid: string): string {
	return isLid(jid) ? jid : jid.split('@')[0];
}

/** The number part of `<digits>@c.us`, `<digits>@s.messenger.net` (or `@s.whatsapp.net`), else undefined. */
export function numberOfContactId(value: string): string | undefined {
	const match = /^(\d{5,20})@(c\.us|s\.messenger\.net|s\.whatsapp\.net)$/.exec(value);
	return match ? match[1] : undefined;
}

/** Session-family chat id (`@c.us` for contacts) to the instance-family JID (`@s.messenger.net`). */
export function chatIdToJid(chatId: string): string {
	const number = numberOfContactId(chatId);
	return number ? contactJid(number) : chatId;
}

/** Any accepted contact/group spelling to the session family's chat id; undefined when malformed. */
export function normaliseChatId(value: string): string | undefined {
	const trimmed = withoutDevice(value.trim());
	if (isLid(trimmed)) return trimmed;
	const number = numberOfContactId(trimmed);
	if (number) return contactChatId(number);
	if (/^\d{5,20}$/.test(trimmed)) return contactChatId(trimmed);
	if (/^[\d-]{5,40}@g\.us$/.test(trimmed)) return trimmed;
	if (/^\d{5,30}@newsletter$/.test(trimmed)) return trimmed;
	return undefined;
}

/**
 * Evolution's createJid: drop a device suffix, keep group, full and LID JIDs as they are, else
 * strip spaces, `+`, `(`, `)`, anything after `:`/`@`, treat long ids as groups, else
 * `<digits>@s.messenger.net`. Bare LID digits therefore become a (wrong) phone JID, as in Evolution.
 */
export function createJid(given: string): string {
	const number = given.replace(/:\d+/, '');
	if (
		number.includes(GROUP_SUFFIX) ||
		number.includes(CONTACT_JID_SUFFIX) ||
		number.includes(LID_SUFFIX) ||
		number.includes('@broadcast')
	) {
		return number;
	}
	const cleaned = number
		.replace(/\s/g, '')
		.replace(/\+/g, '')
		.replace(/\(/g, '')
		.replace(/\)/g, '')
		.split(':')[0]
		.split('@')[0];
	if (cleaned.includes('-') && cleaned.length >= 24) return `${cleaned}${GROUP_SUFFIX}`;
	const digits = digitsOf(cleaned);
	if (digits.length >= 18) return `${digits}${GROUP_SUFFIX}`;
	return contactJid(digits);
}

/** `ABCD-EFGH`, the shape WAHA hands out for pairing by phone number. */
export function newPairingCode(): string {
	const bytes = randomBytes(8);
	const chars = Array.from(bytes, (byte) => PAIRING_ALPHABET[byte % PAIRING_ALPHABET.length]);
	return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

/** Evolution's QR payload looks like `2@<base64 blob>,<base64>,<base64>,<base64>`. */
export function newQrPayload(): string {
	const part = (size: number) => randomBytes(size).toString('base64');
	return `2@${part(48)},${part(32)},${part(32)},${part(32)}`;
}

export function newInstanceId(): string {
	return randomUUID();
}

/** 24 hex characters, like the MongoDB `_id` Evolution attaches to stored status records. */
export function newRecordId(): string {
	return randomBytes(12).toString('hex');
}

export function randomDigits(count: number): string {
	return Array.from(randomBytes(count), (byte) => String(byte % 10)).join('');
}

export function randomToken(length: number): string {
	return randomBytes(length).toString('base64url').slice(0, length);
}
