/**
 * A chat's history on Evolution API v2 for Combine Rapid Messages: findMessages by the chat's JID,
 * newest first (`page` counts from 1, `offset` is the page size), and a message's file from
 * getBase64FromMediaMessage. A person addressed by LID has their received messages stored under
 * the LID (`key.remoteJid`) with the phone number beside it (`key.remoteJidAlt`), while 2.3.7 and
 * 2.4.0 deliver them with the phone number as the chat: the search names the chat in both fields
 * (2.3.7 and later match either; 2.3.6 delivers the LID, which is the stored chat), and a row
 * stored under the other ID counts as the chat asked for.
 */
import type { IDataObject } from 'n8n-workflow';

import * as downloadMediaOperation from '../../../MessagingGateway/actions/message/downloadMedia.operation';
import type { BurstMessage } from '../../../MessagingGateway/helpers/bursts';
import { expectList } from '../../../MessagingGateway/helpers/responses';
import { textOf } from '../../message-text';
import { asObject } from '../../values';
import type { ChatHistory } from '../index';
import { messageFromV2, namesChat, searchV2 } from './reads';

/**
 * A stored message of Evolution (a Baileys WebMessageInfo: v2's findMessages row, v1's
 * findMessages entry) in the fields the trigger gives a message.
 */
export function burstMessageFromEvolution(record: IDataObject, askedChatId?: string): BurstMessage {
	const message = messageFromV2(askedChatId ? storedUnder(record, askedChatId) : record, true);
	const key = asObject(record.key) ?? {};
	const chatId = String(message.chatId);
	const media = asObject(message.media);
	return {
		messageId: String(message.id),
		shortId: textOf(key.id) ?? '',
		chatId,
		fromMe: message.fromMe === true,
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

export const evolutionV2History: ChatHistory = {
	async page(session, chatId, offset, limit, itemIndex) {
		const jid = chatId.replace(/@c\.us$/, '@s.whatsapp.net');
		const answer = await searchV2.call(
			this,
			'findMessages',
			session,
			{
				where: { key: { remoteJid: jid, remoteJidAlt: jid } },
				page: Math.floor(offset / limit) + 1,
				offset: limit,
			},
			itemIndex,
		);
		return expectList
			.call(this, answer, 'messages.records', itemIndex)
			.map((record) => burstMessageFromEvolution(record, chatId));
	},
	async mediaFile(session, message, itemIndex) {
		return await downloadMediaOperation.mediaFileOf.call(this, session, message.shortId, itemIndex);
	},
	missingHint:
		'Evolution API v2 must store messages: keep DATABASE_SAVE_DATA_NEW_MESSAGE on (its default) and put Combine Rapid Messages right after the trigger.',
};
