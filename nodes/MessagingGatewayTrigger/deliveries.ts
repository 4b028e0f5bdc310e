import { timingSafeEqual } from 'crypto';
import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { classifyChat } from '../shared/identifiers';
import type { ChatReference } from '../shared/identifiers';
import { fileFromDataUri } from '../shared/data-uri';
import { INSTANCE_EVENTS } from '../shared/events';
import { apiKeyValues, Redactor } from './secrets';

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
	onlyChats: ChatReference[];
}

export interface DeliveryOutput {
	simplify: boolean;
	qrCodeAsBinary: boolean;
	includeMedia: boolean;
}

const EVENT_BY_PAYLOAD_NAME = new Map(
	INSTANCE_EVENTS.map((event) => [event.payloadEvent, event.name]),
);

/** `messages.upsert` (as delivered) -> `MESSAGES_UPSERT` (as subscribed); also accepts the upper-snake form. */
export function subscriptionName(deliveredEvent: unknown): string | undefined {
	if (typeof deliveredEvent !== 'string') return undefined;
	return (
		EVENT_BY_PAYLOAD_NAME.get(deliveredEvent) ??
		(INSTANCE_EVENTS.some((event) => event.name === deliveredEvent) ? deliveredEvent : undefined)
	);
}

/** Constant-time comparison with a length check first, so the token cannot be guessed byte by byte. */
export function tokensMatch(given: string, expected: string): boolean {
	const givenBuffer = Buffer.from(given);
	const expectedBuffer = Buffer.from(expected);
	return (
		givenBuffer.length === expectedBuffer.length && timingSafeEqual(givenBuffer, expectedBuffer)
	);
}

/** The message key of message events: MESSAGES_UPSERT/SEND_MESSAGE carry `data.key`, the others carry it flat. */
function messageKey(delivered: unknown): IDataObject | undefined {
	const data = asObject(delivered);
	if (!data) return undefined;
	const key = (data.key ?? data) as IDataObject;
	return typeof key === 'object' && key !== null && isNonEmptyText(key.remoteJid) ? key : undefined;
}

/**
 * A delivered value as text, or undefined when it is none. Never `String()` on delivered objects:
 * a body such as `{"toString": 1}` makes that throw.
 */
function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return undefined;
}

function chatOf(remoteJid: string): ChatReference | undefined {
	return classifyChat(remoteJid);
}

/** Session-family chat ID (`<digits>@c.us`, groups unchanged), the form the action node's Chat fields take. */
function chatIdOf(jid: string | undefined): string | undefined {
	if (!jid) return undefined;
	const reference = chatOf(jid);
	if (!reference) return jid;
	return reference.kind === 'contact' ? `${reference.value}@c.us` : reference.value;
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
	if (filters.onlyChats.length > 0) {
		const chat = chatOf(remoteJid);
		const listed =
			chat &&
			filters.onlyChats.some((only) => only.kind === chat.kind && only.value === chat.value);
		if (!listed) return 'chat not listed';
	}
	return undefined;
}

function messageText(message: IDataObject | undefined): string {
	if (!message) return '';
	if (typeof message.conversation === 'string') return message.conversation;
	for (const [type, content] of Object.entries(message)) {
		if (!content || typeof content !== 'object') continue;
		const part = content as IDataObject;
		if (type === 'extendedTextMessage' && typeof part.text === 'string') return part.text;
		if (typeof part.caption === 'string') return part.caption;
		if (type === 'locationMessage') {
			return [textOf(part.name), textOf(part.address)].filter(Boolean).join(', ');
		}
		if (type === 'contactMessage' && typeof part.displayName === 'string') return part.displayName;
		if (type === 'pollCreationMessage' && typeof part.name === 'string') return part.name;
	}
	return '';
}

/** Deeper than any real delivery (a quoted message inside a message is about 10 levels). */
export const MAX_DELIVERY_NESTING = 64;

/** Whether JSON data nests deeper than `limit` levels, found without recursion (any depth is safe). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
	const pending: Array<[unknown, number]> = [[value, 1]];
	while (pending.length > 0) {
		const [current, depth] = pending.pop() as [unknown, number];
		if (typeof current !== 'object' || current === null) continue;
		if (depth > limit) return true;
		for (const entry of Object.values(current)) pending.push([entry, depth + 1]);
	}
	return false;
}

function isNonEmptyText(value: unknown): value is string {
	return typeof value === 'string' && value.trim() !== '';
}

/**
 * Why a delivery body cannot be an event, or undefined when it is an envelope: a JSON object with
 * the event and instance names as text and `data` as an object or a list (sync events carry lists),
 * nested no deeper than any real delivery; message events also need the chat of the message.
 */
export function envelopeProblem(body: unknown): string | undefined {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		return 'The body must be a JSON object (an event envelope)';
	}
	const { event, instance, data } = body as IDataObject;
	if (!isNonEmptyText(event) || !isNonEmptyText(instance)) {
		return 'The body must name the event and the instance as text';
	}
	if (typeof data !== 'object' || data === null) {
		return 'The "data" of the event must be an object or a list';
	}
	if (nestsDeeperThan(body, MAX_DELIVERY_NESTING)) {
		return `The body must not nest deeper than ${MAX_DELIVERY_NESTING} levels`;
	}
	const subscribed = subscriptionName(event);
	if ((subscribed === 'MESSAGES_UPSERT' || subscribed === 'SEND_MESSAGE') && !messageKey(data)) {
		return 'A message event must carry the message key (data.key.remoteJid)';
	}
	return undefined;
}

function simplifiedMessage(event: string, delivery: Delivery, key: IDataObject): IDataObject {
	const data = asObject(delivery.data) ?? {};
	const remoteJid = String(key.remoteJid);
	const chatId = chatIdOf(remoteJid) as string;
	const isGroup = remoteJid.endsWith('@g.us');
	const participant = chatIdOf(textOf(key.participant));
	const fromMe = key.fromMe === true;
	const shortId = textOf(key.id) ?? '';
	const sender = isGroup ? participant : fromMe ? chatIdOf(textOf(delivery.sender)) : chatId;
	return {
		event,
		session: delivery.instance,
		chatId,
		messageId: `${fromMe}_${chatId}${shortId ? `_${shortId}` : ''}${isGroup && participant ? `_${participant}` : ''}`,
		fromMe,
		sender: sender ?? null,
		pushName: data.pushName ?? null,
		text: messageText(data.message as IDataObject | undefined),
		messageType: data.messageType ?? null,
		timestamp: data.messageTimestamp ?? data.datetime ?? null,
		isGroup,
	};
}

function simplified(event: string, delivery: Delivery): IDataObject {
	const base: IDataObject = { event, session: delivery.instance };
	// Sync events (contacts, chats, groups) deliver lists.
	if (Array.isArray(delivery.data)) return { ...base, data: delivery.data };
	const data = asObject(delivery.data) ?? {};
	const key = messageKey(data);
	if (key) return simplifiedMessage(event, delivery, key);
	if (event === 'QRCODE_UPDATED') {
		const qrcode = (data.qrcode ?? {}) as IDataObject;
		return { ...base, pairingCode: qrcode.pairingCode ?? null, qrCode: qrcode.code ?? null };
	}
	if (event === 'CONNECTION_UPDATE') {
		return { ...base, state: data.state ?? null, statusReason: data.statusReason ?? null };
	}
	// The event and session named by the trigger win over same-named fields of the data.
	return { ...data, ...base };
}

const EXTENSION_BY_MIME: Record<string, string> = {
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

function asObject(value: unknown): IDataObject | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
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

/** One output item for a delivery that passed the filters; `secrets` are kept out of it. */
export async function deliveryToItem(
	this: IWebhookFunctions,
	delivery: Delivery,
	output: DeliveryOutput,
	secrets: string[],
): Promise<INodeExecutionData> {
	const event = subscriptionName(delivery.event) as string;
	// The envelope's own API keys are secrets too, wherever else they turn up.
	const redactor = new Redactor([...secrets, ...apiKeyValues(delivery)]);
	const delivered = asObject(delivery.data);
	const takesMedia =
		output.includeMedia && typeof asObject(delivered?.message)?.base64 === 'string';
	// Media leaves the JSON (it would bloat every item) before the rest is cleaned.
	const envelope = redactor.data(
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
	const json = output.simplify ? { ...simplified(event, envelope), raw: envelope } : envelope;
	if (!source) return { json };
	const content = Buffer.from(source.base64, 'base64');
	// A file that carries a secret is left out rather than changed (a redacted file is a broken one).
	if (redactor.contains(source.base64) || redactor.contains(content.toString('latin1'))) {
		return { json: { ...json, binaryLeftOut: 'The file contained a secret of this trigger' } };
	}
	const binary = await this.helpers.prepareBinaryData(content, source.fileName, source.mimeType);
	return { json, binary: { data: binary } };
}
