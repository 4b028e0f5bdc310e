import { timingSafeEqual } from 'crypto';
import type {
	IBinaryKeyData,
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
} from 'n8n-workflow';

import { classifyChat } from '../shared/identifiers';
import type { ChatReference } from '../shared/identifiers';
import { INSTANCE_EVENTS } from '../shared/events';

/** The JSON body the gateway POSTs for every event (Evolution API v1 envelope). */
export interface Delivery extends IDataObject {
	event?: string;
	instance?: string;
	data?: IDataObject;
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
function messageKey(data: IDataObject | undefined): IDataObject | undefined {
	if (!data) return undefined;
	const key = (data.key ?? data) as IDataObject;
	return typeof key.remoteJid === 'string' ? key : undefined;
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
		if (type === 'locationMessage') return [part.name, part.address].filter(Boolean).join(', ');
		if (type === 'contactMessage' && typeof part.displayName === 'string') return part.displayName;
		if (type === 'pollCreationMessage' && typeof part.name === 'string') return part.name;
	}
	return '';
}

/**
 * Why a delivery body cannot be an event, or undefined when it is an envelope: a JSON object with
 * the event and instance names as text and, when present, `data` as an object.
 */
export function envelopeProblem(body: unknown): string | undefined {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		return 'The body must be a JSON object (an event envelope)';
	}
	const { event, instance, data } = body as IDataObject;
	if (typeof event !== 'string' || typeof instance !== 'string') {
		return 'The body must name the event and the instance as text';
	}
	if (data !== undefined && data !== null && (typeof data !== 'object' || Array.isArray(data))) {
		return 'The "data" of the event must be an object';
	}
	const subscribed = subscriptionName(event);
	if (
		(subscribed === 'MESSAGES_UPSERT' || subscribed === 'SEND_MESSAGE') &&
		!messageKey((data ?? undefined) as IDataObject | undefined)
	) {
		return 'A message event must carry the message key (data.key.remoteJid)';
	}
	return undefined;
}

/**
 * A copy of the delivery that is safe to put into an execution: every `apikey` field (the envelope
 * carries the instance's own token) is dropped at any depth, and every occurrence of a secret (the
 * trigger's token, which is in the `destination` URL; the credential's API key) is redacted.
 */
export function withoutSecrets(delivery: Delivery, secrets: string[]): Delivery {
	let text = JSON.stringify(delivery);
	for (const secret of secrets) {
		if (secret) text = text.split(secret).join('[redacted]');
	}
	return JSON.parse(text, (key, value: unknown) =>
		key.toLowerCase() === 'apikey' ? undefined : value,
	) as Delivery;
}

function simplifiedMessage(event: string, delivery: Delivery, key: IDataObject): IDataObject {
	const data = delivery.data ?? {};
	const remoteJid = String(key.remoteJid);
	const chatId = chatIdOf(remoteJid) as string;
	const isGroup = remoteJid.endsWith('@g.us');
	const participant = chatIdOf(typeof key.participant === 'string' ? key.participant : undefined);
	const fromMe = key.fromMe === true;
	const shortId = String(key.id ?? '');
	const sender = isGroup ? participant : fromMe ? chatIdOf(delivery.sender) : chatId;
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
	const data = delivery.data ?? {};
	const key = messageKey(data);
	if (key) return simplifiedMessage(event, delivery, key);
	const base: IDataObject = { event, session: delivery.instance };
	if (event === 'QRCODE_UPDATED') {
		const qrcode = (data.qrcode ?? {}) as IDataObject;
		return { ...base, pairingCode: qrcode.pairingCode ?? null, qrCode: qrcode.code ?? null };
	}
	if (event === 'CONNECTION_UPDATE') {
		return { ...base, state: data.state ?? null, statusReason: data.statusReason ?? null };
	}
	return { ...base, ...data };
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

/** Moves base64 media out of the JSON (it would bloat every item) into an n8n binary. */
async function takeBinaries(
	this: IWebhookFunctions,
	event: string,
	data: IDataObject,
	output: DeliveryOutput,
): Promise<IBinaryKeyData | undefined> {
	if (event === 'QRCODE_UPDATED' && output.qrCodeAsBinary) {
		const qrcode = data.qrcode as IDataObject | undefined;
		const dataUri = typeof qrcode?.base64 === 'string' ? qrcode.base64 : '';
		const match = /^data:([^;]+);base64,(.+)$/s.exec(dataUri);
		if (!match) return undefined;
		const binary = await this.helpers.prepareBinaryData(
			Buffer.from(match[2], 'base64'),
			'qrcode.png',
			match[1],
		);
		return { data: binary };
	}
	const message = data.message as IDataObject | undefined;
	if (!output.includeMedia || typeof message?.base64 !== 'string') return undefined;
	const base64 = message.base64;
	delete message.base64;
	const content = (typeof data.messageType === 'string' ? message[data.messageType] : undefined) as
		| IDataObject
		| undefined;
	const mimeType =
		typeof content?.mimetype === 'string'
			? content.mimetype.split(';')[0].trim()
			: 'application/octet-stream';
	const key = (data.key ?? {}) as IDataObject;
	const fileName =
		typeof content?.fileName === 'string'
			? content.fileName
			: `${String(key.id ?? 'media')}.${EXTENSION_BY_MIME[mimeType] ?? 'bin'}`;
	const binary = await this.helpers.prepareBinaryData(
		Buffer.from(base64, 'base64'),
		fileName,
		mimeType,
	);
	return { data: binary };
}

/** One output item for a delivery that passed the filters; `secrets` are kept out of it. */
export async function deliveryToItem(
	this: IWebhookFunctions,
	delivery: Delivery,
	output: DeliveryOutput,
	secrets: string[],
): Promise<INodeExecutionData> {
	const event = subscriptionName(delivery.event) as string;
	const envelope = withoutSecrets(delivery, secrets);
	const data = (envelope.data ?? {}) as IDataObject;
	const binary = await takeBinaries.call(this, event, data, output);
	// Simplified fields come from the cleaned envelope too, never from what was delivered.
	const json = output.simplify ? { ...simplified(event, envelope), raw: envelope } : envelope;
	return binary ? { json, binary } : { json };
}
