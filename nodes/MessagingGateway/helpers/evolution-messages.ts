/**
 * Evolution's stored messages (Baileys WebMessageInfo rows: v1's findMessages entries, which the
 * Messaging Gateway API speaks, and v2's findMessages rows) in the fields the node outputs and
 * Combine Rapid Messages reads. Here, below the operations and the gateways, because the
 * Messaging Gateway API's history (chat-history.ts) reads them as Evolution API v2's does.
 */
import type { IDataObject } from 'n8n-workflow';

import type { BurstMessage } from '../../shared/gateways';
import { asChatId } from '../../shared/identifiers';
import { typedByPerson } from '../../shared/message-device';
import { messageText, textOf } from '../../shared/message-text';
import { asObject } from '../../shared/values';
import { fullIdFromKey } from './message';

/** The content types whose file getBase64FromMediaMessage downloads (2.3.6's TypeMediaMessage). */
const MEDIA_TYPES = [
	'imageMessage',
	'videoMessage',
	'audioMessage',
	'documentMessage',
	'stickerMessage',
	'ptvMessage',
];

/**
 * Whether a stored key's JID names the chat (as its chat ID): v2 stores a person addressed by LID
 * under the LID with the phone number's JID beside it (`remoteJidAlt`), so a chat is either.
 */
export function namesChat(jid: unknown, chatId: string): boolean {
	return typeof jid === 'string' && asChatId(jid) === chatId;
}

/** The media part of a message's content (a document with a caption is wrapped once more). */
function mediaOf(content: IDataObject): IDataObject | undefined {
	const wrapped = asObject(asObject(content.documentWithCaptionMessage)?.message);
	for (const source of [content, wrapped ?? {}]) {
		for (const type of MEDIA_TYPES) {
			const part = asObject(source[type]);
			if (part) return part;
		}
	}
	return undefined;
}

/**
 * A Message row of v2 (`{key, pushName, messageType, message, messageTimestamp, …}`) as Message →
 * Get outputs a message: its full ID (a group member's after it), chat ID, text, and `media` when
 * it has a file (its link only where v2 stored one, `mediaUrl`; null unless asked for); the row
 * under `_data`. v2 does not say which number is the session's own, so there is no `from`/`to`.
 */
export function messageFromV2(record: IDataObject, withMedia: boolean): IDataObject {
	const key = asObject(record.key) ?? {};
	const remoteJid = textOf(key.remoteJid) ?? '';
	const chatId = asChatId(remoteJid);
	const participantJid = textOf(key.participant);
	const participant = participantJid ? asChatId(participantJid) : null;
	const id = fullIdFromKey(record, chatId) ?? null;
	const content = asObject(record.message) ?? {};
	const media = mediaOf(content);
	const json: IDataObject = {
		id: id && participant && remoteJid.endsWith('@g.us') ? `${id}_${participant}` : id,
		timestamp: record.messageTimestamp ?? null,
		chatId,
		fromMe: key.fromMe === true,
		participant,
		pushName: record.pushName ?? null,
		body: messageText(content),
		hasMedia: media !== undefined,
		messageType: record.messageType ?? null,
	};
	if (media) {
		json.media = withMedia
			? {
					url: textOf(content.mediaUrl) ?? null,
					mimetype: media.mimetype ?? null,
					filename: media.fileName ?? null,
					error: null,
				}
			: null;
	}
	json._data = record;
	return json;
}

/**
 * A stored message of Evolution (a Baileys WebMessageInfo: v2's findMessages row, v1's
 * findMessages entry) in the fields the trigger gives a message.
 */
export function burstMessageFromEvolution(record: IDataObject, askedChatId?: string): BurstMessage {
	const message = messageFromV2(askedChatId ? storedUnder(record, askedChatId) : record, true);
	const key = asObject(record.key) ?? {};
	const chatId = String(message.chatId);
	const media = asObject(message.media);
	const shortId = textOf(key.id) ?? '';
	const fromMe = message.fromMe === true;
	return {
		messageId: String(message.id),
		shortId,
		chatId,
		fromMe,
		// Evolution stores the kind of device (`source`); the spec's events say `api` or `app`.
		typedByPerson: typedByPerson(fromMe, shortId, record.source, true),
		timestamp: Number(record.messageTimestamp ?? 0),
		sender: (message.participant as string | null) ?? (message.fromMe ? null : chatId),
		pushName: textOf(record.pushName) ?? null,
		text: typeof message.body === 'string' ? message.body : '',
		messageType: textOf(record.messageType) ?? null,
		hasMedia: message.hasMedia === true,
		mimetype: textOf(media?.mimetype) ?? null,
		raw: record,
	};
}

/**
 * The record as if stored under the chat asked for, when that is its `remoteJidAlt` (a person
 * stored under their LID, asked for by phone number, or the other way round).
 */
function storedUnder(record: IDataObject, askedChatId: string): IDataObject {
	const key = asObject(record.key) ?? {};
	if (namesChat(key.remoteJid, askedChatId) || !namesChat(key.remoteJidAlt, askedChatId)) {
		return record;
	}
	return { ...record, key: { ...key, remoteJid: key.remoteJidAlt, remoteJidAlt: key.remoteJid } };
}
