/**
 * Reading and changing sent or received messages on WAHA (2026.x): read receipts, edits,
 * deletions and media files, each on WAHA's own route for the message (its chat and full ID).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as deleteOperation from '../../actions/message/deleteForEveryone.operation';
import * as downloadMediaOperation from '../../actions/message/downloadMedia.operation';
import * as editOperation from '../../actions/message/edit.operation';
import * as markAsReadOperation from '../../actions/message/markAsRead.operation';
import { fieldError } from '../../helpers/fields';
import { extensionForMimeType, responseObject } from '../../helpers/message';
import { expectObject } from '../../helpers/responses';
import type { FullMessageId } from '../../../shared/identifiers';
import { asChatId, parseFullMessageId } from '../../../shared/identifiers';
import { gatewayApiRequest, gatewayDownloadFile, gatewayPath } from '../../../shared/transport';
import { asObject } from '../../../shared/values';
import type { GatewayOperation } from '../../../shared/gateways';
import { wahaMessageId } from './send-helpers';

/** WAHA's route of one message: `/api/{session}/chats/{chatId}/messages/{messageId}`, each an encoded segment. */
function messagePath(session: string, messageId: FullMessageId): string {
	return gatewayPath`/api/${session}/chats/${asChatId(messageId.chatId)}/messages/${wahaMessageId(messageId)}`;
}

/**
 * `POST /api/sendSeen` `{session, chatId, messageIds, participant?}`, once per chat (and per group
 * member who wrote the messages, whom NOWEB needs to mark them read); the output lists the
 * messages and WAHA's answer for each request.
 */
async function markAsRead(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, messageIds } = markAsReadOperation.readMarkAsRead.call(this, itemIndex);
	const requests = new Map<string, IDataObject>();
	for (const messageId of messageIds) {
		const chatId = asChatId(messageId.chatId);
		const participant = messageId.participant ? asChatId(messageId.participant) : undefined;
		const key = `${chatId} ${participant ?? ''}`;
		const body = requests.get(key) ?? { session, chatId, messageIds: [] };
		(body.messageIds as string[]).push(wahaMessageId(messageId));
		if (participant) body.participant = participant;
		requests.set(key, body);
	}
	const answers: IDataObject[] = [];
	for (const body of requests.values()) {
		const answer = await gatewayApiRequest.call(this, 'POST', '/api/sendSeen', {
			body,
			itemIndex,
		});
		answers.push(responseObject.call(this, answer, itemIndex));
	}
	return [{ json: { messageIds: messageIds.map((id) => id.serialized), answers } }];
}

/** `PUT /api/{session}/chats/{chatId}/messages/{messageId}` `{text}`: WAHA's answer and the message's full ID. */
async function edit(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { session, messageId, text } = editOperation.readEdit.call(this, itemIndex);
	const answer = await gatewayApiRequest.call(this, 'PUT', messagePath(session, messageId), {
		body: { text },
		itemIndex,
	});
	return [
		{ json: { ...responseObject.call(this, answer, itemIndex), messageId: messageId.serialized } },
	];
}

/** `DELETE /api/{session}/chats/{chatId}/messages/{messageId}`: WAHA's answer and the deleted message's full ID. */
async function deleteForEveryone(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, messageId } = deleteOperation.readDeleteForEveryone.call(this, itemIndex);
	const answer = await gatewayApiRequest.call(this, 'DELETE', messagePath(session, messageId), {
		itemIndex,
	});
	return [
		{ json: { ...responseObject.call(this, answer, itemIndex), deleted: messageId.serialized } },
	];
}

/**
 * A media message's file: `GET …/messages/{messageId}?downloadMedia=true`, then the file at its
 * `media.url` (the API key goes only to WAHA's own file route on the Base URL's origin).
 */
export async function wahaMessageFile(
	this: IExecuteFunctions,
	session: string,
	messageId: FullMessageId,
	itemIndex: number,
): Promise<{ data: Buffer; mimetype: string; fileName: string }> {
	const message = expectObject.call(
		this,
		await gatewayApiRequest.call(this, 'GET', messagePath(session, messageId), {
			qs: { downloadMedia: true },
			itemIndex,
		}),
		itemIndex,
	);
	const media = asObject(message.media);
	const url = typeof media?.url === 'string' ? media.url : '';
	if (url === '') {
		const why = media?.error ? ` (WAHA says: ${JSON.stringify(media.error)})` : '';
		throw new NodeOperationError(
			this.getNode(),
			`The gateway returned no file for message ${messageId.serialized}${why}`,
			{
				itemIndex,
				description: 'Check that the message has media and that the media has not expired.',
			},
		);
	}
	const file = await gatewayDownloadFile.call(this, url, itemIndex);
	const mimetype =
		(typeof media?.mimetype === 'string' && media.mimetype) ||
		file.mimeType ||
		'application/octet-stream';
	const fileName =
		(typeof media?.filename === 'string' && media.filename) ||
		file.fileName ||
		`${messageId.id}.${extensionForMimeType(mimetype)}`;
	return { data: file.data, mimetype, fileName };
}

/**
 * Download Media on WAHA: the file of `wahaMessageFile`. WAHA finds a message by its chat, so the
 * full ID is needed, and it serves the file as received (no conversion to MP4).
 */
async function downloadMedia(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = downloadMediaOperation.readDownloadMedia.call(this, itemIndex);
	const raw = this.getNodeParameter('messageId', itemIndex);
	if (!/^(true|false)_/.test(String(raw).trim())) {
		throw fieldError.call(
			this,
			itemIndex,
			`Message ID must be the full ID of the message on WAHA, like false_5511999999999@c.us_3EB0C767D26A1D3BB2F1 (got "${String(raw).trim()}")`,
			'WAHA finds a message by its chat: map the full ID (field ID or Message ID) the trigger, Get or a send operation output.',
		);
	}
	const messageId = parseFullMessageId.call(this, raw, 'Message ID', itemIndex);
	if (request.convertToMp4) {
		throw fieldError.call(
			this,
			itemIndex,
			'Convert Audio to MP4 is not available on WAHA: it serves the file as it was received',
			'Turn off Convert Audio to MP4; voice notes come as OGG/Opus (audio/ogg).',
		);
	}
	const { data, mimetype, fileName } = await wahaMessageFile.call(
		this,
		request.session,
		messageId,
		itemIndex,
	);
	const binary = await this.helpers.prepareBinaryData(data, fileName, mimetype);
	const json: IDataObject = {
		messageId: messageId.serialized,
		mimetype,
		fileName,
		fileLength: data.length,
	};
	if (request.keepBase64) json.base64 = data.toString('base64');
	return [{ json, binary: { [request.binaryPropertyName]: binary } }];
}

export const wahaMessageActions: Record<string, GatewayOperation> = {
	'message.markAsRead': markAsRead,
	'message.edit': edit,
	'message.deleteForEveryone': deleteForEveryone,
	'message.downloadMedia': downloadMedia,
};
