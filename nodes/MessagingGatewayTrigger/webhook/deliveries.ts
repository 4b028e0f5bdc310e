import { timingSafeEqual } from 'crypto';
import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { chatIdOf, classifyChat } from '../../shared/identifiers';
import type { ChatReference } from '../../shared/identifiers';
import { fileFromDataUri } from '../../shared/data-uri';
import { asObject, isNonEmptyText, isoTime, unixSeconds } from '../../shared/values';
import { addressesOf, NO_ADDRESSES } from '../../shared/people';
import type { PersonAddresses } from '../../shared/people';
import { ownMessageFrom } from '../../shared/message-device';
import { messageText, textOf } from '../../shared/message-text';
import { eventLabel, INSTANCE_EVENT_NAMES, INSTANCE_EVENTS } from '../../shared/events';
import { Redactor } from '../../shared/secrets';
import { chatLabelFields, editedLabelFields } from './label-events';

/** The JSON body the gateway POSTs for every event (Evolution API v1 envelope). */
export interface Delivery extends IDataObject {
	event?: string;
	instance?: string;
	/** An object for most events, a list for sync events (contacts, chats, groups). */
	data?: IDataObject | IDataObject[];
	destination?: string;
	date_time?: string;
	sender?: string;
	server_url?: string;
	apikey?: string;
}

export interface DeliveryFilters {
	session: string;
	events: string[];
	ignoreOwnMessages: boolean;
	chatType: 'all' | 'direct' | 'groups';
	/** Shared between events with the same list: never changed. */
	onlyChats: readonly ChatReference[];
}

export interface DeliveryOutput {
	simplify: boolean;
	qrCodeAsBinary: boolean;
	includeMedia: boolean;
	/** Ask the gateway for the phone number of a person the delivery names only by LID. */
	lookUpPhoneNumbers: boolean;
}

const EVENT_BY_PAYLOAD_NAME = new Map(
	INSTANCE_EVENTS.map((event) => [event.payloadEvent, event.name]),
);

/** `messages.upsert` (as delivered) -> `MESSAGES_UPSERT` (as subscribed); also accepts the upper-snake form. */
export function subscriptionName(deliveredEvent: unknown): string | undefined {
	if (typeof deliveredEvent !== 'string') return undefined;
	return (
		EVENT_BY_PAYLOAD_NAME.get(deliveredEvent) ??
		(INSTANCE_EVENT_NAMES.has(deliveredEvent) ? deliveredEvent : undefined)
	);
}

/**
 * The expected token as bytes, kept for the next event: every delivery to a trigger is checked
 * against the same token. Kept with its text and used only when the text is the same, so a new
 * token is never compared with the bytes of the old one.
 */
let expectedBytes: { text: string; bytes: Buffer } | undefined;

function bytesOfExpected(expected: string): Buffer {
	if (expectedBytes?.text !== expected)
		expectedBytes = { text: expected, bytes: Buffer.from(expected) };
	return expectedBytes.bytes;
}

/** Constant-time comparison with a length check first, so the token cannot be guessed byte by byte. */
export function tokensMatch(given: string, expected: string): boolean {
	const givenBuffer = Buffer.from(given);
	const expectedBuffer = bytesOfExpected(expected);
	return (
		givenBuffer.length === expectedBuffer.length && timingSafeEqual(givenBuffer, expectedBuffer)
	);
}

/** The message key of message events: MESSAGES_UPSERT/SEND_MESSAGE carry `data.key`, the others carry it flat. */
export function messageKey(delivered: unknown): IDataObject | undefined {
	const data = asObject(delivered);
	if (!data) return undefined;
	const key = (data.key ?? data) as IDataObject;
	return typeof key === 'object' && key !== null && isNonEmptyText(key.remoteJid) ? key : undefined;
}

function chatOf(remoteJid: string): ChatReference | undefined {
	return classifyChat(remoteJid);
}

/**
 * Whether a chat is one of the listed ones, by any ID it goes by: the ID delivered, or the phone
 * number or the LID the delivery gave for the person (so a listed phone number matches a chat
 * WhatsApp addresses by LID, and the other way round).
 */
export function chatIsListed(
	listed: readonly ChatReference[],
	chat: string,
	person: PersonAddresses,
): boolean {
	const delivered = chatOf(chat);
	return listed.some(
		(only) =>
			(delivered && only.kind === delivered.kind && only.value === delivered.value) ||
			(only.kind === 'contact' && only.value === person.phone) ||
			(only.kind === 'lid' && only.value === person.lid),
	);
}

/**
 * The chat's person (direct chats) and the sender (groups) as an Evolution API key names them,
 * whichever version delivered it: 2.3.0-2.3.2 add the phone as `senderPn`; 2.3.3-2.3.6 keep the LID in
 * `remoteJid` and the phone in `remoteJidAlt` (`participant`/`participantAlt` in groups); 2.3.7
 * puts the phone in `remoteJid` where it knows it; 2.4.0 swaps them (`remoteJidAlt` the LID).
 */
export function evolutionPeople(key: IDataObject): {
	chat: PersonAddresses;
	sender: PersonAddresses;
} {
	if (String(key.remoteJid).endsWith('@g.us')) {
		return {
			chat: NO_ADDRESSES,
			sender: addressesOf(
				key.participant,
				key.participantAlt,
				key.participantPn,
				key.participantLid,
				key.senderPn,
				key.senderLid,
			),
		};
	}
	// senderPn and senderLid name who wrote the message: the chat's person unless it was me.
	const chat =
		key.fromMe === true
			? addressesOf(key.remoteJid, key.remoteJidAlt)
			: addressesOf(key.remoteJid, key.remoteJidAlt, key.senderPn, key.senderLid);
	return { chat, sender: chat };
}

/** Why a delivery starts no execution, or undefined when it should. */
export function reasonToIgnore(delivery: Delivery, filters: DeliveryFilters): string | undefined {
	if (delivery.instance !== filters.session) return 'other session';
	const event = subscriptionName(delivery.event);
	if (!event || !filters.events.includes(event)) return 'event not selected';
	const key = messageKey(delivery.data);
	if (!key) return undefined;
	if (filters.ignoreOwnMessages && key.fromMe === true) return 'own message';
	const remoteJid = String(key.remoteJid);
	const isGroup = remoteJid.endsWith('@g.us');
	if (filters.chatType === 'direct' && isGroup) return 'group chat';
	if (filters.chatType === 'groups' && !isGroup) return 'direct chat';
	if (
		filters.onlyChats.length > 0 &&
		!chatIsListed(filters.onlyChats, remoteJid, evolutionPeople(key).chat)
	) {
		return 'chat not listed';
	}
	return undefined;
}

/** Events whose delivery is one new message, the same event whatever its chat is called. */
const ONE_MESSAGE_EVENTS: ReadonlySet<string> = new Set(['MESSAGES_UPSERT', 'SEND_MESSAGE']);

/**
 * What makes two deliveries one event: a new message by its ID (Evolution API 2.3.7 dropped
 * 2.3.6's check of a message key seen in the last 5 minutes, so it may post one twice), anything
 * else by its whole body (a gateway's retry posts the same body again).
 */
export function deliveryIdentity(delivery: Delivery): string {
	const event = subscriptionName(delivery.event);
	const key = event && ONE_MESSAGE_EVENTS.has(event) ? messageKey(delivery.data) : undefined;
	const id = key && isNonEmptyText(key.id) ? key.id : undefined;
	return id
		? `${delivery.instance}|${event}|${key?.fromMe === true}|${id}`
		: `body|${JSON.stringify(delivery)}`;
}

/** A new message's time at the gateway (Unix seconds); undefined for other events. */
export function messageTime(delivery: Delivery): number | undefined {
	const event = subscriptionName(delivery.event);
	if (!event || !ONE_MESSAGE_EVENTS.has(event)) return undefined;
	return unixSeconds(asObject(delivery.data)?.messageTimestamp);
}

/** A new message's chat as the gateway names it (its remote JID); undefined for other events. */
export function messageChat(delivery: Delivery): string | undefined {
	const event = subscriptionName(delivery.event);
	if (!event || !ONE_MESSAGE_EVENTS.has(event)) return undefined;
	return textOf(messageKey(delivery.data)?.remoteJid);
}

/** The simplified fields of a message event, then the whole cleaned envelope under "raw". */
function simplifiedMessage(event: string, delivery: Delivery, key: IDataObject): IDataObject {
	const data = asObject(delivery.data) ?? {};
	const remoteJid = String(key.remoteJid);
	const chatId = chatIdOf(remoteJid) as string;
	const isGroup = remoteJid.endsWith('@g.us');
	const participant = chatIdOf(textOf(key.participant));
	const fromMe = key.fromMe === true;
	const shortId = textOf(key.id) ?? '';
	const sender = isGroup ? participant : fromMe ? chatIdOf(textOf(delivery.sender)) : chatId;
	const people = evolutionPeople(key);
	// A message of mine in a direct chat was written by the session's own number.
	const writer = !isGroup && fromMe ? addressesOf(delivery.sender) : people.sender;
	return {
		event,
		eventName: eventLabel(event),
		session: delivery.instance,
		chatId,
		phone: people.chat.phone,
		lid: people.chat.lid,
		messageId: `${fromMe}_${chatId}${shortId ? `_${shortId}` : ''}${isGroup && participant ? `_${participant}` : ''}`,
		fromMe,
		// Evolution announces its API sends as SEND_MESSAGE (the spec's events say source "api"):
		// an own MESSAGES_UPSERT is what a person typed on the phone, WhatsApp Web or Desktop.
		ownMessageFrom: ownMessageFrom(
			fromMe,
			event !== 'SEND_MESSAGE' && textOf(data.source) !== 'api',
		),
		sender: sender ?? null,
		senderPhone: writer.phone,
		senderLid: writer.lid,
		pushName: data.pushName ?? null,
		text: messageText(data.message as IDataObject | undefined),
		messageType: data.messageType ?? null,
		timestamp: data.messageTimestamp ?? data.datetime ?? null,
		time: isoTime(data.messageTimestamp ?? data.datetime),
		isGroup,
		raw: delivery,
	};
}

/**
 * The simplified fields of an event, then the whole cleaned envelope under "raw" (built in one
 * object, not copied into a second one to add "raw"; a "raw" field of the data keeps its place).
 */
function simplifiedWithRaw(event: string, delivery: Delivery): IDataObject {
	const session = delivery.instance;
	// Sync events (contacts, chats, groups) deliver lists.
	if (Array.isArray(delivery.data)) {
		return { event, eventName: eventLabel(event), session, data: delivery.data, raw: delivery };
	}
	const data = asObject(delivery.data) ?? {};
	const key = messageKey(data);
	if (key) return simplifiedMessage(event, delivery, key);
	if (event === 'QRCODE_UPDATED') {
		const qrcode = (data.qrcode ?? {}) as IDataObject;
		return {
			event,
			eventName: eventLabel(event),
			session,
			pairingCode: qrcode.pairingCode ?? null,
			qrCode: qrcode.code ?? null,
			raw: delivery,
		};
	}
	if (event === 'CONNECTION_UPDATE') {
		return {
			event,
			eventName: eventLabel(event),
			session,
			state: data.state ?? null,
			statusReason: data.statusReason ?? null,
			raw: delivery,
		};
	}
	const named = { event, eventName: eventLabel(event), session };
	if (event === 'LABELS_ASSOCIATION') {
		const action = data.type === 'remove' ? 'removed' : 'added';
		return { ...named, ...chatLabelFields(data.labelId, data.chatId, action), raw: delivery };
	}
	if (event === 'LABELS_EDIT') {
		return { ...named, ...editedLabelFields(data, data.deleted === true), raw: delivery };
	}
	// The event and session named by the trigger win over same-named fields of the data.
	const fields: IDataObject = { ...data, ...named };
	fields.raw = delivery;
	return fields;
}

export const EXTENSION_BY_MIME: Record<string, string> = {
	'image/jpeg': 'jpg',
	'image/png': 'png',
	'image/webp': 'webp',
	'audio/ogg': 'ogg',
	'audio/mpeg': 'mp3',
	'audio/mp4': 'm4a',
	'video/mp4': 'mp4',
	'application/pdf': 'pdf',
};

/** What becomes the binary "data" of an item: content as delivered, names from the cleaned envelope. */
interface BinarySource {
	base64: string;
	fileName: string;
	mimeType: string;
}

/** The PNG of a QR code event (`data.qrcode.base64` is a data: URI). */
function qrCodeSource(delivered: IDataObject | undefined): BinarySource | undefined {
	return fileFromDataUri(asObject(delivered?.qrcode)?.base64, 'qrcode.png');
}

/** The media of a message event sent with webhook_base64 (`data.message.base64`). */
function mediaSource(
	delivered: IDataObject | undefined,
	cleaned: IDataObject | undefined,
): BinarySource | undefined {
	const base64 = asObject(delivered?.message)?.base64;
	if (typeof base64 !== 'string') return undefined;
	const messageType = cleaned?.messageType;
	const content =
		typeof messageType === 'string'
			? asObject(asObject(cleaned?.message)?.[messageType])
			: undefined;
	const mimeType =
		typeof content?.mimetype === 'string' && content.mimetype.trim() !== ''
			? content.mimetype.split(';')[0].trim()
			: 'application/octet-stream';
	const key = asObject(cleaned?.key);
	const fileName =
		typeof content?.fileName === 'string' && content.fileName.trim() !== ''
			? content.fileName
			: `${textOf(key?.id) ?? 'media'}.${EXTENSION_BY_MIME[mimeType] ?? 'bin'}`;
	return { base64, fileName, mimeType };
}

/** The item with the file of the delivery as its binary "data" (n8n stores it: asynchronous). */
export async function withBinary(
	this: IWebhookFunctions,
	json: IDataObject,
	source: Pick<BinarySource, 'fileName' | 'mimeType'>,
	content: Buffer,
): Promise<INodeExecutionData> {
	const binary = await this.helpers.prepareBinaryData(content, source.fileName, source.mimeType);
	return { json, binary: { data: binary } };
}

/**
 * One output item for a delivery that passed the filters and the envelope check (envelopeProblem:
 * its depth is bounded); `secrets` and `envelopeKeys` (the values of the envelope's API key fields,
 * as envelopeProblem found them) are kept out of it. A promise only when there is a file to store:
 * most deliveries have none, and their item needs nothing asynchronous.
 */
export function deliveryToItem(
	this: IWebhookFunctions,
	delivery: Delivery,
	output: DeliveryOutput,
	secrets: string[],
	envelopeKeys: readonly string[],
): INodeExecutionData | Promise<INodeExecutionData> {
	const event = subscriptionName(delivery.event) as string;
	// The envelope's own API keys are secrets too, wherever else they turn up.
	const redactor = new Redactor(envelopeKeys.length > 0 ? secrets.concat(envelopeKeys) : secrets);
	const delivered = asObject(delivery.data);
	const takesMedia =
		output.includeMedia && typeof asObject(delivered?.message)?.base64 === 'string';
	// Media leaves the JSON (it would bloat every item) before the rest is cleaned. What needs no
	// cleaning is shared with the delivery, not copied; what does is a new object, so the delivery
	// is never changed (the media copies below are new objects too).
	const envelope = redactor.cleaned(
		takesMedia
			? {
					...delivery,
					data: { ...delivered, message: { ...asObject(delivered?.message), base64: undefined } },
				}
			: delivery,
	);
	const cleaned = asObject(envelope.data);
	if (cleaned && takesMedia) delete asObject(cleaned.message)?.base64;
	const source =
		event === 'QRCODE_UPDATED' && output.qrCodeAsBinary
			? qrCodeSource(delivered)
			: takesMedia
				? mediaSource(delivered, cleaned)
				: undefined;
	// Simplified fields come from the cleaned envelope too, never from what was delivered.
	const json = output.simplify ? simplifiedWithRaw(event, envelope) : envelope;
	if (!source) return { json };
	const content = Buffer.from(source.base64, 'base64');
	// A file that carries a secret is left out rather than changed (a redacted file is a broken one).
	if (redactor.contains(source.base64) || redactor.contains(content.toString('latin1'))) {
		return { json: { ...json, binaryLeftOut: 'The file contained a secret of this trigger' } };
	}
	return withBinary.call(this, json, source, content);
}
