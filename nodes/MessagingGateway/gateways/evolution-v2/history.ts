/**
 * A chat's history on Evolution API v2 for Combine Rapid Messages: findMessages by the chat's JID,
 * newest first (`page` counts from 1, `offset` is the page size), and a message's file from
 * getBase64FromMediaMessage. A person addressed by LID has their received messages stored under
 * the LID (`key.remoteJid`) with the phone number beside it (`key.remoteJidAlt`), while 2.3.7 and
 * 2.4.0 deliver them with the phone number as the chat: the search names the chat in both fields
 * (2.3.7 and later match either; 2.3.6 delivers the LID, which is the stored chat), and a row
 * stored under the other ID counts as the chat asked for.
 */
import { burstMessageFromEvolution } from '../../helpers/evolution-messages';
import { mediaFileOf } from '../../helpers/message-media';
import { expectList } from '../../helpers/responses';
import type { ChatHistory } from '../../../shared/gateways';
import { searchV2 } from './reads';

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
		return await mediaFileOf.call(this, session, message.shortId, itemIndex);
	},
	missingHint:
		'Evolution API v2 must store messages: keep DATABASE_SAVE_DATA_NEW_MESSAGE on (its default) and put Combine Rapid Messages right after the trigger.',
};
