/**
 * A WAHA message (its WAMessage, in an envelope as WAHA posts it or as WAHA lists it) in the
 * simplified fields the trigger gives a message on every gateway. Read by both nodes: the trigger's
 * WAHA deliveries, and the chat history that Combine Rapid Messages reads on WAHA.
 */
import type { IDataObject } from 'n8n-workflow';

import { chatIdOf } from '../../identifiers';
import { ownMessageFrom, typedByPerson } from '../../message-device';
import { textOf } from '../../message-text';
import { addressesOf, NO_ADDRESSES, otherThan } from '../../people';
import type { PersonAddresses } from '../../people';
import { asObject, isNonEmptyText, isoTime } from '../../values';
import { eventLabel } from '../../events';

/** A WAHA delivery, as WAHA posts it. */
export interface WahaEnvelope extends IDataObject {
	id?: string;
	timestamp?: number;
	event?: string;
	session?: string;
	me?: IDataObject;
	payload?: IDataObject;
	engine?: string;
}

/** A message event's message: the payload, or for a revoke the message before (or after) it. */
export function messageOf(envelope: WahaEnvelope): IDataObject | undefined {
	const payload = asObject(envelope.payload);
	if (envelope.event === 'message.revoked') {
		return asObject(payload?.before) ?? asObject(payload?.after);
	}
	return payload;
}

/** `false_<chat>_<id>[_<participant>]`: WAHA's full message ID, split. */
const FULL_ID = /^(true|false)_([^_]+)_([^_]+)(?:_(.+))?$/;

export interface MessageView {
	chat: string;
	fromMe: boolean;
	shortId: string;
	participant?: string;
}

/** Where a message is, who wrote it and its short ID, from its full ID or its from/to. */
export function viewOf(message: IDataObject | undefined): MessageView | undefined {
	if (!message) return undefined;
	const id = textOf(message.id) ?? '';
	const parts = FULL_ID.exec(id);
	const fromMe = parts ? parts[1] === 'true' : message.fromMe === true;
	const chat = parts?.[2] ?? textOf(fromMe ? message.to : message.from);
	if (!isNonEmptyText(chat)) return undefined;
	const participant = textOf(message.participant) ?? parts?.[4];
	return {
		chat,
		fromMe: message.fromMe === undefined ? fromMe : message.fromMe === true,
		shortId: parts?.[3] ?? id,
		...(isNonEmptyText(participant) ? { participant } : {}),
	};
}

/** Baileys' name of a message's kind, as Evolution's `messageType` gives it. */
function messageTypeOf(event: string, message: IDataObject): string | null {
	if (event === 'message.reaction') return 'reactionMessage';
	if (!['message', 'message.any', 'message.edited', 'message.revoked'].includes(event)) return null;
	// NOWEB and GOWS keep Baileys' message under _data: its kind is its first field.
	const baileys = asObject(asObject(message._data)?.message);
	const kind = baileys && Object.keys(baileys).find((name) => name !== 'messageContextInfo');
	if (kind) return kind;
	const mimeType = textOf(asObject(message.media)?.mimetype) ?? '';
	if (message.hasMedia === true) {
		if (mimeType === 'image/webp') return 'stickerMessage';
		const family = /^(image|video|audio)\//.exec(mimeType)?.[1];
		return family ? `${family}Message` : 'documentMessage';
	}
	if (asObject(message.location)) return 'locationMessage';
	if (Array.isArray(message.vCards) && message.vCards.length > 0) return 'contactMessage';
	return 'conversation';
}

/**
 * The chat's person (direct chats) and who wrote the message, from every field an engine puts
 * them in: NOWEB's Baileys key (`remoteJidAlt`, `participantAlt`), GOWS's whatsmeow info
 * (`Info.Chat`, `Info.Sender`, `Info.SenderAlt`, `Info.RecipientAlt`; a receipt's at the top of
 * `_data`), WEBJS's `from` and `to` (the sender and the receiver). In a direct chat whatever is
 * not the session's own ID (`me.id`, `me.lid`) is the other person's. Reactions and NOWEB's acks
 * carry no `_data`: their phone number is null unless looked up.
 */
export function wahaPeople(
	envelope: WahaEnvelope,
	message: IDataObject,
	view: MessageView,
): { chat: PersonAddresses; sender: PersonAddresses } {
	const ownIds = asObject(envelope.me);
	const me = addressesOf(ownIds?.id, ownIds?.lid, ownIds?.jid);
	const data = asObject(message._data);
	const key = asObject(data?.key);
	const info = asObject(data?.Info) ?? data;
	if (view.chat.endsWith('@g.us')) {
		const sender = view.fromMe
			? me
			: otherThan(me, [
					view.participant,
					message.participant,
					key?.participant,
					key?.participantAlt,
					info?.Sender,
					info?.SenderAlt,
				]);
		return { chat: NO_ADDRESSES, sender };
	}
	const chat = otherThan(me, [
		view.chat,
		message.from,
		message.to,
		key?.remoteJid,
		key?.remoteJidAlt,
		info?.Chat,
		info?.Sender,
		info?.SenderAlt,
		info?.RecipientAlt,
	]);
	return { chat, sender: view.fromMe ? me : chat };
}

/** The simplified fields of a message event (the same as the trigger's deliveries.ts's), then the envelope. */
export function simplifiedMessage(event: string, envelope: WahaEnvelope): IDataObject {
	const message = messageOf(envelope) as IDataObject;
	const view = viewOf(message) as MessageView;
	const chatId = chatIdOf(view.chat) as string;
	const isGroup = view.chat.endsWith('@g.us');
	const participant = chatIdOf(view.participant);
	const sender = isGroup
		? participant
		: view.fromMe
			? chatIdOf(textOf(asObject(envelope.me)?.id))
			: chatId;
	const people = wahaPeople(envelope, message, view);
	const data = asObject(message._data);
	const text =
		envelope.event === 'message.reaction'
			? textOf(asObject(message.reaction)?.text)
			: envelope.event === 'message.ack' || envelope.event === 'message.ack.group'
				? ''
				: textOf(message.body);
	return {
		event,
		eventName: eventLabel(event),
		session: envelope.session,
		chatId,
		phone: people.chat.phone,
		lid: people.chat.lid,
		messageId: textOf(message.id) ?? `${view.fromMe}_${chatId}_${view.shortId}`,
		fromMe: view.fromMe,
		// WAHA's `app` is also its own API sends after ten minutes (NOWEB, WEBJS): the ID decides.
		ownMessageFrom: ownMessageFrom(
			view.fromMe,
			typedByPerson(view.fromMe, view.shortId, message.source, false),
		),
		sender: sender ?? null,
		senderPhone: people.sender.phone,
		senderLid: people.sender.lid,
		pushName: textOf(data?.pushName) ?? textOf(data?.notifyName) ?? null,
		text: text ?? '',
		messageType: messageTypeOf(envelope.event as string, message),
		timestamp: message.timestamp ?? null,
		time: isoTime(message.timestamp),
		isGroup,
		raw: envelope,
	};
}

/** A message WAHA lists (its WAMessage) in the simplified fields the trigger gives it. */
export function wahaMessageFields(message: IDataObject, session: string): IDataObject {
	return simplifiedMessage('message', { event: 'message', session, payload: message });
}
