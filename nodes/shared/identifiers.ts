import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RequestBodyStyle } from './transport';

/**
 * What a user-supplied chat reference points at. A `lid` is a person WhatsApp addresses by a LID
 * (`<digits>@lid`) instead of a phone number: a kind of its own, so that its digits are never
 * taken for a phone number, and each field says whether it takes one.
 */
export type ChatKind = 'contact' | 'lid' | 'group' | 'channel';

export interface ChatReference {
	kind: ChatKind;
	/** Contacts: the phone number digits with country code. LIDs, groups and channels: the full ID. */
	value: string;
}

/** The kinds a field that names a person takes: a phone number (or its chat ID or JID) or a LID. */
export const PERSON_KINDS: readonly ChatKind[] = ['contact', 'lid'];

/** The kinds a field that names a chat to write to takes: a person or a group. */
export const CHAT_KINDS: readonly ChatKind[] = ['contact', 'lid', 'group'];

const KIND_EXAMPLES: Record<ChatKind, string[]> = {
	contact: [
		'a phone number (+55 11 99999-9999)',
		'a chat ID (5511999999999@c.us)',
		'a JID (5511999999999@s.messenger.net)',
	],
	lid: ['a LID (123456789012345@lid)'],
	group: ['a group ID (120363012345678901@g.us)'],
	channel: ['a channel ID (120363098765432101@newsletter)'],
};

function acceptedShapes(kinds: readonly ChatKind[]): string {
	const shapes = kinds.flatMap((kind) => KIND_EXAMPLES[kind]);
	return shapes.length === 1
		? shapes[0]
		: `${shapes.slice(0, -1).join(', ')} or ${shapes[shapes.length - 1]}`;
}

/*
 * Made once, not per call (the trigger classifies the chat of every event it receives). None is
 * global or sticky, so test() and exec() keep no state between calls.
 */
const GROUP_ID = /^\d+(-\d+)?@g\.us$/;
const CHANNEL_ID = /^\d+@newsletter$/;
const UPPER_CASE_ENDING = /@[a-z.]*[A-Z]/;
const PHONE_PUNCTUATION = /[\s()+\-.]/g;
const PHONE_DIGITS = /^\d{8,15}$/;

const PHONE_ENDINGS = ['@s.whatsapp.net', '@c.us', '@s.messenger.net'];

/**
 * A person's ID exactly as gateways write it: the LID (`<digits>@lid`, 6 to 20 digits) or the
 * digits of a phone number's chat ID or JID (6 to 15); undefined for anything else. A device
 * suffix (`5511999999999:3@s.whatsapp.net`, `123456789012345:12@lid`, `:` and 1 to 3 digits) names
 * one of the person's devices: it is read as the person. No expressions and no copy of a LID
 * without a device: the trigger reads a person's IDs on every message event.
 */
export function personIdOf(id: string): string | undefined {
	if (id.endsWith('@lid')) {
		const at = id.length - 4;
		const end = digitsEnd(id, at, 20);
		if (end === -1) return undefined;
		return end === at ? id : `${id.slice(0, end)}@lid`;
	}
	for (let index = 0; index < PHONE_ENDINGS.length; index++) {
		const ending = PHONE_ENDINGS[index];
		if (!id.endsWith(ending)) continue;
		const end = digitsEnd(id, id.length - ending.length, 15);
		return end === -1 ? undefined : id.slice(0, end);
	}
	return undefined;
}

/**
 * Where the person's digits before `at` end (at least 6 of them, at most `most`), a device suffix
 * left out; -1 when there are other characters.
 */
function digitsEnd(id: string, at: number, most: number): number {
	let end = at;
	// A device suffix is at most 3 digits: look that far back only.
	for (let index = at - 1; index >= at - 4 && index >= 0; index--) {
		if (id.charCodeAt(index) !== 58) continue;
		if (index === at - 1 || !allDigits(id, index + 1, at)) return -1;
		end = index;
		break;
	}
	return end < 6 || end > most || !allDigits(id, 0, end) ? -1 : end;
}

function allDigits(text: string, from: number, to: number): boolean {
	for (let index = from; index < to; index++) {
		const code = text.charCodeAt(index);
		if (code < 48 || code > 57) return false;
	}
	return true;
}

/** Classifies a phone number, chat ID, JID, LID, group ID or channel ID as people paste them. */
export function classifyChat(raw: unknown): ChatReference | undefined {
	const given = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
	// Gateways write the ending in lower case (123@LID is 123@lid); IDs as delivered skip the copy.
	const text = UPPER_CASE_ENDING.test(given) ? given.toLowerCase() : given;
	// The ending first: an ID of another kind skips the expression (which needs that ending).
	if (text.endsWith('@g.us') && GROUP_ID.test(text)) return { kind: 'group', value: text };
	if (text.endsWith('@newsletter') && CHANNEL_ID.test(text))
		return { kind: 'channel', value: text };
	const person = personIdOf(text);
	if (person !== undefined) {
		return person.endsWith('@lid')
			? { kind: 'lid', value: person }
			: { kind: 'contact', value: person };
	}
	// replace() with a global expression starts from the beginning whatever its lastIndex.
	const digits = text.replace(PHONE_PUNCTUATION, '');
	if (PHONE_DIGITS.test(digits)) return { kind: 'contact', value: digits };
	return undefined;
}

/**
 * Reads a chat reference of one of the accepted kinds, or fails before any request with a
 * message that names the field and the shapes it accepts.
 */
export function parseChat(
	this: IExecuteFunctions,
	raw: unknown,
	field: string,
	itemIndex: number,
	accepted: readonly ChatKind[] = ['contact', 'group'],
): ChatReference {
	const reference = classifyChat(raw);
	if (reference && accepted.includes(reference.kind)) return reference;
	const shown =
		typeof raw === 'string' || typeof raw === 'number' ? String(raw) : JSON.stringify(raw ?? '');
	throw new NodeOperationError(
		this.getNode(),
		`${field} must be ${acceptedShapes(accepted)} (got "${shown}")`,
		{
			itemIndex,
			description: 'Phone numbers need the country code; spaces, +, -, . and brackets are ignored.',
		},
	);
}

/** Session-family chat ID: contacts as <digits>@c.us; LIDs, groups and channels unchanged. */
export function toChatId(reference: ChatReference): string {
	return reference.kind === 'contact' ? `${reference.value}@c.us` : reference.value;
}

/**
 * Any ID a gateway or a request names (a JID, a chat ID, an instance-family `number`) as the
 * session family's chat ID: a person's as `<digits>@c.us` or their LID (a device suffix
 * dropped), a group's or channel's as it is; anything else unchanged.
 */
export function asChatId(id: string): string {
	const person = personIdOf(id);
	if (person !== undefined) return person.endsWith('@lid') ? person : `${person}@c.us`;
	const reference = classifyChat(id);
	return reference ? toChatId(reference) : id;
}

/**
 * Session-family chat ID (`<digits>@c.us`; LIDs, groups unchanged; a device suffix dropped), the
 * form the action node's Chat fields take.
 */
export function chatIdOf(jid: string | undefined): string | undefined {
	return jid ? asChatId(jid) : undefined;
}

/** JID as shape B bodies want it: contacts as <digits>@s.messenger.net; LIDs, groups and channels unchanged. */
export function toJid(reference: ChatReference): string {
	return reference.kind === 'contact' ? `${reference.value}@s.messenger.net` : reference.value;
}

/** Instance-family `number`: digits for contacts; the gateway takes LIDs and group IDs as they are. */
export function toNumber(reference: ChatReference): string {
	return reference.value;
}

/** The session and chat fields of a session-family body, in the credential's Request Body Style. */
export function sessionAndChat(
	style: RequestBodyStyle,
	session: string,
	reference: ChatReference,
): IDataObject {
	return style === 'jidSessionId'
		? { sessionId: session, jid: toJid(reference) }
		: { session, chatId: toChatId(reference) };
}

/** Digits of a phone number typed the way people type them: "+55 (11) 99999-9999" -> "5511999999999". */
export function phoneDigits(
	this: IExecuteFunctions,
	raw: unknown,
	field: string,
	itemIndex: number,
): string {
	return parseChat.call(this, raw, field, itemIndex, ['contact']).value;
}

export interface FullMessageId {
	fromMe: boolean;
	chatId: string;
	id: string;
	/** Who wrote a group message (`…_<id>_<participant>`): a member's chat ID, JID or LID. */
	participant?: string;
	/** The whole ID as the gateway knows it. */
	serialized: string;
}

/** Whatever follows the ID is captured, so that it is checked as a participant, not let through. */
const FULL_MESSAGE_ID =
	/^(true|false)_(\d+(?:-\d+)?@(?:c\.us|g\.us|newsletter|s\.messenger\.net|s\.whatsapp\.net|lid))_([A-Za-z0-9]+)(?:_([\s\S]*))?$/;

/**
 * A full message ID `<true|false>_<chat ID>_<id>[_<participant>]`, or an error naming the field
 * and the shape. Only a group message may name a participant, and only a member's ID.
 */
export function parseFullMessageId(
	this: IExecuteFunctions,
	raw: unknown,
	field: string,
	itemIndex: number,
): FullMessageId {
	const text = typeof raw === 'string' ? raw.trim() : '';
	const match = FULL_MESSAGE_ID.exec(text);
	const refuse = (message: string, description: string) =>
		new NodeOperationError(this.getNode(), `${field} ${message} (got "${text}")`, {
			itemIndex,
			description,
		});
	if (!match) {
		throw refuse(
			'must be a full message ID like false_5511999999999@c.us_3EB0C767D26A1D3BB2F1',
			'A full message ID is <true|false>_<chat ID>_<id>: "id" of a message from the trigger, Get or a send operation.',
		);
	}
	const [, fromMe, chatId, id, participant] = match;
	const messageId: FullMessageId = { fromMe: fromMe === 'true', chatId, id, serialized: text };
	if (participant === undefined) return messageId;
	if (!GROUP_ID.test(chatId)) {
		throw refuse(
			`must end with the message ID: ${chatId} is not a group (…@g.us), and only group messages name a participant after it, like false_5511999999999@c.us_3EB0C767D26A1D3BB2F1`,
			'Direct chats and channels have no participants: remove the part after the message ID.',
		);
	}
	if (personIdOf(participant) === undefined) {
		throw refuse(
			`must name a group member after the message ID: a chat ID (5511999999999@c.us), a JID (5511999999999@s.whatsapp.net or @s.messenger.net) or a LID (123456789012345@lid), like false_120363012345678901@g.us_3EB0C767D26A1D3BB2F1_5511999999999@c.us`,
			'A group message ID is <true|false>_<group ID>_<id>_<participant>, the participant being who wrote the message; it can be left out.',
		);
	}
	return { ...messageId, participant };
}
