/**
 * A turn as Combine Rapid Messages outputs it, apart from finding the turn: its texts joined, its
 * messages with the trigger's fields, and their files downloaded as binary data.
 */
import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { BurstMessage, ChatHistory } from '../../../shared/gateways';
import { burstTexts } from '../../helpers/bursts';
import type { CombineRapidRequest } from './combineRapid.request';

/** The trigger's fields of a message (without the gateway's record). */
function messageFields(message: BurstMessage, session: string): IDataObject {
	return {
		session,
		chatId: message.chatId,
		messageId: message.messageId,
		fromMe: message.fromMe,
		sender: message.sender,
		pushName: message.pushName,
		text: message.text,
		messageType: message.messageType,
		timestamp: message.timestamp,
		hasMedia: message.hasMedia,
		mimetype: message.mimetype,
	};
}

/** The turn as the node's output: one item, or one per message, with the files as binary data. */
export async function turnOutput(
	this: IExecuteFunctions,
	history: ChatHistory,
	request: CombineRapidRequest,
	burst: BurstMessage[],
	boundaryKnown: boolean,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { texts, text } = burstTexts(burst, request.joinWith);
	const files: Array<IBinaryData | undefined> = [];
	for (const message of burst) {
		files.push(
			request.includeMedia && message.hasMedia
				? await history.mediaFile.call(this, request.session, message, itemIndex)
				: undefined,
		);
	}
	const turn: IDataObject = {
		session: request.session,
		chatId: request.messageId.chatId,
		text,
		texts,
		count: burst.length,
		messageIds: burst.map((message) => message.messageId),
		firstTimestamp: burst[0].timestamp,
		lastTimestamp: burst[burst.length - 1].timestamp,
	};
	// Only when the history ran out of pages before the pause that began this turn.
	if (!boundaryKnown) turn.startMayBeEarlier = true;
	if (request.output === 'itemPerMessage') {
		return burst.map((message, index) => {
			const file = files[index];
			return {
				json: { ...messageFields(message, request.session), turn: { ...turn, index } },
				...(file ? { binary: { data: file } } : {}),
			};
		});
	}
	const binary: Record<string, IBinaryData> = {};
	const messages = burst.map((message, index) => {
		const fields = messageFields(message, request.session);
		const file = files[index];
		if (file) {
			const field = `media_${index + 1}`;
			binary[field] = file;
			fields.binaryField = field;
		}
		return fields;
	});
	return [
		{
			json: { ...turn, messages },
			...(Object.keys(binary).length > 0 ? { binary } : {}),
		},
	];
}
