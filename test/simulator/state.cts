// The simulator's in-memory model: instances (sessions) and the account data each one holds.
import type { MediaType, StoredFile } from './media.cts';
import {
	contactChatId,
	contactJid,
	isGroupId,
	isLid,
	newRecordId,
	numberOfContactId,
	parseMessageId,
	personChatId,
} from './ids.cts';

export type ConnectionState = 'open' | 'close' | 'connecting';

/** Numbers with this prefix count as registered on the network even when no seed contact has them. */
export const REGISTERED_NUMBER_PREFIX = '55';

export interface WebhookConfig {
	enabled: boolean;
	url: string;
	events: string[];
	webhook_by_events: boolean;
	webhook_base64: boolean;
	/** Evolution v2 only: headers sent with every delivery (`jwt_key` becomes a signed `Authorization`). */
	headers?: Record<string, unknown>;
}

export interface BusinessProfile {
	description: string;
	website: string[];
	email: string;
	category: string;
	address: string;
	business_hours: { timezone: string; business_config: Array<Record<string, unknown>> };
}

export interface Contact {
	number: string;
	/** The name saved in the address book ('' when not saved). */
	name: string;
	/** The push name the contact chose (`notify`). */
	pushName: string;
	verifiedName: string;
	businessName: string;
	pictureFile?: string;
	business?: BusinessProfile;
}

/**
 * Someone WhatsApp addresses by a LID. `phone` is the number the gateway has learnt for the LID
 * (deliveries carry it where the product does; lookups answer it), null when it does not know it.
 */
export interface LidPerson {
	lid: string;
	phone: string | null;
	pushName: string;
}

export interface GroupParticipant {
	/** The member's phone digits, or their LID (`X@lid`). */
	number: string;
	admin: 'superadmin' | 'admin' | null;
}

export interface Group {
	id: string;
	subject: string;
	subjectOwner: string;
	subjectTime: number;
	creation: number;
	owner: string;
	desc: string;
	descId: string;
	restrict: boolean;
	announce: boolean;
	pictureFile?: string;
	participants: GroupParticipant[];
	inviteCode: string;
}

export interface Channel {
	id: string;
	name: string;
	description: string;
	invite: string;
	role: 'OWNER' | 'ADMIN' | 'SUBSCRIBER' | 'GUEST';
	verified: boolean;
	subscribersCount: number;
	pictureUrl?: string;
	/** Directory metadata used by search-by-view. */
	country?: string;
	category?: string;
	createdAt?: number;
	trendScore?: number;
}

export interface ChatButton {
	type: 'reply' | 'call' | 'copy' | 'url';
	text: string;
	id?: string;
	phoneNumber?: string;
	copyCode?: string;
	url?: string;
}

export interface ListSection {
	title: string;
	rows: { title: string; description?: string; rowId: string }[];
}

export type MessageContent =
	| { type: 'text'; text: string }
	| {
			type: 'media';
			mediaType: MediaType;
			file: string;
			fileName: string;
			mimetype: string;
			caption: string;
			/** Audio recorded as a voice note (push to talk). */
			ptt?: boolean;
	  }
	| { type: 'location'; latitude: number; longitude: number; name?: string; address?: string }
	| {
			type: 'vcard';
			displayName: string;
			vcard: string;
			/** Several cards in one message (contactsArrayMessage); `vcard` is the first. */
			cards?: { displayName: string; vcard: string }[];
	  }
	| {
			type: 'list';
			title: string;
			description: string;
			buttonText: string;
			footerText?: string;
			sections: ListSection[];
	  }
	| {
			type: 'poll';
			name: string;
			options: string[];
			multipleAnswers: boolean;
			/** Evolution v2: how many options a voter may pick (0: any number). */
			selectableCount?: number;
	  }
	| {
			type: 'buttons';
			header: string;
			body: string;
			footer: string;
			buttons: ChatButton[];
			headerImageUrl?: string;
	  }
	| {
			type: 'linkPreview';
			text: string;
			preview: { url: string; title: string; description: string; imageUrl?: string };
			highQuality: boolean;
	  };

export interface StatusRecord {
	_id: string;
	status: string;
	datetime: number;
}

export interface StoredMessage {
	shortId: string;
	/** Session-family chat id: `<digits>@c.us`, `<digits>@lid` or `<id>@g.us`. */
	chatId: string;
	fromMe: boolean;
	/** Who wrote it in a group (messages not from me): their phone digits, or their LID (`X@lid`). */
	author?: string;
	/** Seconds since the epoch. */
	timestamp: number;
	content: MessageContent;
	/** `api` when sent through this gateway, `app` when typed on a phone. */
	source: 'api' | 'app';
	pushName: string;
	quotedId?: string;
	mentions?: string[];
	ack: number;
	statusLog: StatusRecord[];
	/** Reactor chat id -> emoji. */
	reactions: Record<string, string>;
	/** Deleted for everyone: gone from reads, still in the status log. */
	revoked?: boolean;
}

export interface ChatMeta {
	id: string;
	archived: boolean;
	pinned: boolean;
	unreadCount: number;
}

export interface Instance {
	name: string;
	instanceId: string;
	/** The instance's own API key (Evolution accepts it besides the global key). */
	token: string;
	state: ConnectionState;
	/** The account's number; known once the instance has been connected. */
	ownerNumber: string;
	/** Set once the instance has been connected: the webhook `sender`. */
	wuid: string | null;
	profileName: string;
	profileStatus: string;
	profilePictureFile: string | null;
	presence: string;
	pairingCode: string | null;
	/** QR codes made by GET /instance/connect in the current pairing. */
	qrCount?: number;
	webhook: WebhookConfig | null;
	contacts: Map<string, Contact>;
	/** People addressed by LID, by their LID; kept apart from the address book (`contacts`). */
	lidPeople: Map<string, LidPerson>;
	/** The account's own LID, once WhatsApp has given it one. */
	lid?: string;
	groups: Map<string, Group>;
	channels: Map<string, Channel>;
	chats: Map<string, ChatMeta>;
	messages: Map<string, StoredMessage>;
	files: Map<string, StoredFile>;
	/** WhatsApp Business labels, by id, in creation order (made on first use: `labelsOf`). */
	labels?: Map<string, Label>;
	/** Each chat's label ids, by session-family chat id, in the order added (`chatLabelIds`). */
	chatLabels?: Map<string, string[]>;
}

/**
 * A WhatsApp Business label as the account's app state holds it (Baileys' Label): `color` is
 * WhatsApp's colour number (0–19 in its palette); `predefinedId` names one of WhatsApp Business'
 * own labels ("New customer", …), absent for the account's own.
 */
export interface Label {
	id: string;
	name: string;
	color: number;
	predefinedId?: string;
}

/**
 * A WhatsApp status (story) the account posted through the gateway, as the gateway posted it: the
 * fields Baileys was given (a background colour and font only where the product passes them on),
 * who it went to, and whether it was deleted since.
 */
export interface PostedStatus {
	/** The instance (WAHA: session) that posted it. */
	instance: string;
	/** The status message's id (Baileys' `key.id`): what WAHA's `POST /api/{session}/status/delete` takes. */
	id: string;
	/** WAHA's voice status is `audio`, as Evolution names it. */
	type: 'text' | 'image' | 'video' | 'audio';
	/** A text status's text. */
	text?: string;
	/** A media status's file: the URL it was given as (null when given as base64), its MIME type as sent, its key in `files`. */
	media?: { url: string | null; mimetype: string; file: string };
	caption?: string;
	backgroundColor?: string;
	font?: number;
	/** Who the request named: `'all'` when it named nobody (Evolution's `allContacts`, WAHA without `contacts`). */
	audience: 'all' | string[];
	/** The JIDs the gateway sent it to (WAHA puts the account first unless the request gave an `id`). */
	recipients: string[];
	/** Seconds since the epoch. */
	timestamp: number;
	/** WAHA: revoked by `POST /api/{session}/status/delete`. */
	deleted: boolean;
}

export interface SimState {
	instances: Map<string, Instance>;
	/** Public channels that search-by-view pages through. */
	channelDirectory: Channel[];
	/** Statuses posted through the gateway, in posting order (made on the first one). */
	postedStatuses?: PostedStatus[];
}

export const ACK_NAMES: Record<number, string> = {
	[-1]: 'ERROR',
	0: 'PENDING',
	1: 'SERVER',
	2: 'DEVICE',
	3: 'READ',
	4: 'PLAYED',
};

/** Evolution's names for the same acknowledgement levels (findStatusMessage, messages.update). */
export const ACK_STATUSES: Record<number, string> = {
	[-1]: 'ERROR',
	0: 'PENDING',
	1: 'SERVER_ACK',
	2: 'DELIVERY_ACK',
	3: 'READ',
	4: 'PLAYED',
};

/** WAHA's session status for an Evolution connection state. */
export function sessionStatus(instance: Instance): 'WORKING' | 'SCAN_QR_CODE' | 'STOPPED' {
	if (instance.state === 'open') return 'WORKING';
	return instance.state === 'connecting' ? 'SCAN_QR_CODE' : 'STOPPED';
}

export function ownerChatId(instance: Instance): string {
	return contactChatId(instance.ownerNumber);
}

export function ownerJid(instance: Instance): string {
	return contactJid(instance.ownerNumber);
}

/** Seed contacts, the owner and every number starting with REGISTERED_NUMBER_PREFIX are on the network. */
export function isRegistered(instance: Instance, number: string): boolean {
	// WhatsApp hands out LIDs to registered accounts only; the products take any LID as valid.
	if (isLid(number)) return true;
	if (number === instance.ownerNumber || instance.contacts.has(number)) return true;
	return number.startsWith(REGISTERED_NUMBER_PREFIX) && number.length >= 10 && number.length <= 15;
}

export function ensureChat(instance: Instance, chatId: string): ChatMeta {
	let chat = instance.chats.get(chatId);
	if (!chat) {
		chat = { id: chatId, archived: false, pinned: false, unreadCount: 0 };
		instance.chats.set(chatId, chat);
	}
	return chat;
}

/** Someone writing to us becomes a contact (with their push name), as the real address book does. */
export function ensureContact(instance: Instance, number: string, pushName = ''): Contact {
	let contact = instance.contacts.get(number);
	if (!contact) {
		contact = { number, name: '', pushName, verifiedName: '', businessName: '' };
		instance.contacts.set(number, contact);
	}
	return contact;
}

export function chatDisplayName(instance: Instance, chatId: string): string | null {
	if (isGroupId(chatId)) return instance.groups.get(chatId)?.subject ?? null;
	if (isLid(chatId)) return instance.lidPeople.get(chatId)?.pushName || null;
	const number = numberOfContactId(chatId);
	const contact = number ? instance.contacts.get(number) : undefined;
	return contact ? contact.name || contact.pushName || null : null;
}

export function addMessage(instance: Instance, message: StoredMessage): StoredMessage {
	instance.messages.set(message.shortId, message);
	const chat = ensureChat(instance, message.chatId);
	if (!message.fromMe) chat.unreadCount += 1;
	return message;
}

export function recordStatus(message: StoredMessage, status: string, datetime = Date.now()): void {
	message.statusLog.push({ _id: newRecordId(), status, datetime });
}

/** Finds a message by full or short id; when a chat is given, the message must belong to it. */
export function findMessage(
	instance: Instance,
	messageId: string,
	chatId?: string,
): StoredMessage | undefined {
	const parsed = parseMessageId(messageId);
	if (!parsed) return undefined;
	const message = instance.messages.get(parsed.shortId);
	if (!message || message.revoked) return undefined;
	if (parsed.chatId !== undefined && parsed.chatId !== message.chatId) return undefined;
	if (parsed.fromMe !== undefined && parsed.fromMe !== message.fromMe) return undefined;
	if (chatId !== undefined && chatId !== message.chatId) return undefined;
	return message;
}

export function messagesOfChat(instance: Instance, chatId: string): StoredMessage[] {
	return [...instance.messages.values()]
		.filter((message) => message.chatId === chatId && !message.revoked)
		.sort((a, b) => a.timestamp - b.timestamp);
}

/** Which party wrote a message, as a session-family chat id. */
export function senderChatId(instance: Instance, message: StoredMessage): string {
	if (message.fromMe) return ownerChatId(instance);
	return message.author ? personChatId(message.author) : message.chatId;
}

/** A message that reached the account through a LID: the LID, and the phone the gateway knows for it. */
export interface LidAddress {
	lid: string;
	phone: string | null;
	inGroup: boolean;
}

/**
 * How WhatsApp addressed a message that came over the network (received, or typed on the owner's
 * phone): through a LID when its direct chat is a LID, or its group author is one. API sends carry
 * only the JID they were sent to, so they have none.
 */
export function lidAddressOf(instance: Instance, message: StoredMessage): LidAddress | undefined {
	if (message.source !== 'app') return undefined;
	const inGroup = isGroupId(message.chatId);
	const lid = inGroup ? (message.fromMe ? undefined : message.author) : message.chatId;
	if (!lid || !isLid(lid)) return undefined;
	return { lid, phone: instance.lidPeople.get(lid)?.phone ?? null, inGroup };
}

/** The LID person a LID names, made known (with no phone) the first time someone uses it. */
export function ensureLidPerson(instance: Instance, lid: string, pushName = ''): LidPerson {
	let person = instance.lidPeople.get(lid);
	if (!person) {
		person = { lid, phone: null, pushName };
		instance.lidPeople.set(lid, person);
	}
	return person;
}

/** The statuses posted through the gateway, every instance's, in posting order. */
export function postedStatuses(state: SimState): PostedStatus[] {
	state.postedStatuses ??= [];
	return state.postedStatuses;
}

/** The instance's labels, by id (an empty map the first time, for an instance without any). */
export function labelsOf(instance: Instance): Map<string, Label> {
	instance.labels ??= new Map();
	return instance.labels;
}

/**
 * A chat's label ids as the account holds them, in the order they were added (an association may
 * name a label that does not exist: WhatsApp takes it). `chatId` is a session-family chat id.
 */
export function chatLabelIds(instance: Instance, chatId: string): string[] {
	return [...(instance.chatLabels?.get(chatId) ?? [])];
}

/**
 * Labels a chat (`labeled`) or takes the label off it; whether that changed anything. A chat left
 * without labels is forgotten.
 */
export function labelChat(
	instance: Instance,
	chatId: string,
	labelId: string,
	labeled: boolean,
): boolean {
	instance.chatLabels ??= new Map();
	const ids = instance.chatLabels.get(chatId) ?? [];
	if (ids.includes(labelId) === labeled) return false;
	const next = labeled ? [...ids, labelId] : ids.filter((id) => id !== labelId);
	if (next.length > 0) instance.chatLabels.set(chatId, next);
	else instance.chatLabels.delete(chatId);
	return true;
}

/** The chats that have a label, in the order they were first labelled. */
export function chatsWithLabel(instance: Instance, labelId: string): string[] {
	return [...(instance.chatLabels ?? new Map<string, string[]>())]
		.filter(([, ids]) => ids.includes(labelId))
		.map(([chatId]) => chatId);
}
