/**
 * A media message's file from the gateway's getBase64FromMediaMessage, as n8n binary data: what
 * Download Media does, and how Combine Rapid Messages takes the file of a message in a burst.
 */
import type { IBinaryData, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../shared/transport';
import { extensionForMimeType } from './message';
import { expectObject } from './responses';

/** `POST /chat/getBase64FromMediaMessage/{session}`: the file of a media message, as base64. */
export async function requestMediaBase64(
	this: IExecuteFunctions,
	session: string,
	shortId: string,
	convertToMp4: boolean,
	itemIndex: number,
): Promise<unknown> {
	return await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/chat/getBase64FromMediaMessage/${session}`,
		{ body: { message: { key: { id: shortId } }, convertToMp4 }, itemIndex, read: true },
	);
}

/**
 * The file in getBase64FromMediaMessage's answer as n8n binary data (its MIME type, else
 * application/octet-stream; its file name, else `<message id>.<extension>`), and the rest of the
 * answer; an answer without a file fails.
 */
export async function mediaAnswerAsBinary(
	this: IExecuteFunctions,
	response: unknown,
	shortId: string,
	itemIndex: number,
): Promise<{ details: IDataObject; base64: string; binary: IBinaryData }> {
	const { base64, ...details } = expectObject.call(this, response, itemIndex);
	if (typeof base64 !== 'string' || base64 === '') {
		throw new NodeOperationError(
			this.getNode(),
			`The gateway returned no file for message ${shortId}`,
			{
				itemIndex,
				description: 'Check that the message has media and that the media has not expired.',
			},
		);
	}
	const mimeType =
		typeof details.mimetype === 'string' && details.mimetype !== ''
			? details.mimetype
			: 'application/octet-stream';
	const fileName =
		typeof details.fileName === 'string' && details.fileName !== ''
			? details.fileName
			: `${shortId}.${extensionForMimeType(mimeType)}`;
	const binary = await this.helpers.prepareBinaryData(
		Buffer.from(base64, 'base64'),
		fileName,
		mimeType,
	);
	return { details, base64, binary };
}

/** A media message's file as n8n binary data, by its short ID (getBase64FromMediaMessage). */
export async function mediaFileOf(
	this: IExecuteFunctions,
	session: string,
	shortId: string,
	itemIndex: number,
): Promise<IBinaryData> {
	const answer = await requestMediaBase64.call(this, session, shortId, false, itemIndex);
	return (await mediaAnswerAsBinary.call(this, answer, shortId, itemIndex)).binary;
}
