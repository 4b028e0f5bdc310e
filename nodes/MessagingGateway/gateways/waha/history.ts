/**
 * A chat's history on WAHA (2026.x) for Combine Rapid Messages:
 * `GET /api/{session}/chats/{chatId}/messages` newest first (`limit`, `offset`), without media,
 * and a message's file as Download Media gets it.
 */
import type { IDataObject } from 'n8n-workflow';

import { expectList } from '../../helpers/responses';
import { parseFullMessageId } from '../../../shared/identifiers';
import { typedByPerson } from '../../../shared/message-device';
import { textOf } from '../../../shared/message-text';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { asObject } from '../../../shared/values';
import type { BurstMessage, ChatHistory } from '../../../shared/gateways';
import { wahaMessageFields } from '../../../shared/gateways/waha/message-fields';
import { wahaMessageFile } from './message-actions';

/** A WAMessage in the fields the trigger gives a message. */
function burstMessageFromWaha(message: IDataObject, session: string): BurstMessage {
	const fields = wahaMessageFields(message, session);
	const messageId = String(fields.messageId);
	const shortId = /^(?:true|false)_[^_]+_([^_]+)/.exec(messageId)?.[1] ?? messageId;
	const fromMe = fields.fromMe === true;
	return {
		messageId,
		shortId,
		chatId: String(fields.chatId),
		fromMe,
		// WAHA's `app` is also its own sends older than ten minutes (NOWEB, WEBJS): the ID decides.
		typedByPerson: typedByPerson(fromMe, shortId, message.source, false),
		timestamp: Number(message.timestamp ?? 0),
		sender: (fields.sender as string | null) ?? null,
		pushName: (fields.pushName as string | null) ?? null,
		text: typeof fields.text === 'string' ? fields.text : '',
		messageType: (fields.messageType as string | null) ?? null,
		hasMedia: message.hasMedia === true,
		mimetype: textOf(asObject(message.media)?.mimetype) ?? null,
		raw: message,
	};
}

export const wahaHistory: ChatHistory = {
	async page(session, chatId, offset, limit, itemIndex) {
		const answer = await gatewayApiRequest.call(
			this,
			'GET',
			gatewayPath`/api/${session}/chats/${chatId}/messages`,
			{ qs: { limit, offset, downloadMedia: false }, itemIndex, read: true },
		);
		return expectList
			.call(this, answer, undefined, itemIndex)
			.map((message) => burstMessageFromWaha(message, session));
	},
	async mediaFile(session, message, itemIndex) {
		const messageId = parseFullMessageId.call(this, message.messageId, 'Message ID', itemIndex);
		const { data, mimetype, fileName } = await wahaMessageFile.call(
			this,
			session,
			messageId,
			itemIndex,
		);
		return await this.helpers.prepareBinaryData(data, fileName, mimetype);
	},
	missingHint:
		"WAHA must keep the chat's messages: on the NOWEB engine turn on its store (config.noweb.store.enabled and fullSync), and put Combine Rapid Messages right after the trigger.",
};
