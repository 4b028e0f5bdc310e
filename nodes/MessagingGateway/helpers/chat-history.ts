/**
 * A chat's history on the Messaging Gateway API for Combine Rapid Messages, where the gateway
 * speaks Evolution API v1's instance API (beyond the spec, which shows no message list):
 * `POST /chat/findMessages/{instance}` `{where: {key: {remoteJid}}, limit}`, newest first. v1
 * pages by `limit` only, so a page is the newest `offset + limit` minus the first `offset`.
 */
import { NodeApiError } from 'n8n-workflow';

import type { ChatHistory } from '../../shared/gateways';
import { gatewayApiRequest, gatewayPath } from '../../shared/transport';
import { burstMessageFromEvolution } from './evolution-messages';
import { mediaFileOf } from './message-media';
import { expectList } from './responses';

/** v1 makes the JID itself from a number (`createJid`); groups go as their ID. */
function remoteJidFor(chatId: string): string {
	return chatId.endsWith('@c.us') ? chatId.slice(0, -'@c.us'.length) : chatId;
}

/** A 404: the gateway has no findMessages, so no history to read; its error says so. */
function noHistory(error: unknown): unknown {
	if (!(error instanceof NodeApiError) || error.httpCode !== '404') return error;
	error.message = `This gateway keeps no message history the node can read (it answered 404 to findMessages): ${error.message}`;
	error.description =
		"Combine Rapid Messages reads the chat's messages from the gateway. Evolution API v1 (findMessages), Evolution API v2 and WAHA keep them; choose that Gateway in the credential, or keep one execution per message.";
	return error;
}

export const instanceApiHistory: ChatHistory = {
	async page(session, chatId, offset, limit, itemIndex) {
		let answer: unknown;
		try {
			answer = await gatewayApiRequest.call(
				this,
				'POST',
				gatewayPath`/chat/findMessages/${session}`,
				{
					body: { where: { key: { remoteJid: remoteJidFor(chatId) } }, limit: offset + limit },
					itemIndex,
					read: true,
				},
			);
		} catch (error) {
			throw noHistory(error);
		}
		return expectList
			.call(this, answer, undefined, itemIndex)
			.slice(offset)
			.map((record) => burstMessageFromEvolution(record, chatId));
	},
	async mediaFile(session, message, itemIndex) {
		return await mediaFileOf.call(this, session, message.shortId, itemIndex);
	},
	missingHint:
		'The gateway must store messages: Evolution API v1 keeps them with its database (DATABASE_SAVE_DATA_NEW_MESSAGE) or its store (STORE_MESSAGES). Put Combine Rapid Messages right after the trigger.',
};
