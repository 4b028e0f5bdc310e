import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { expectObject } from '../../helpers/responses';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import {
	binaryPropertyField,
	extensionForMimeType,
	readBinaryPropertyName,
	readShortMessageId,
} from '../../helpers/message';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { optionBoolean, readBoolean, readOptions } from '../../helpers/fields';

const properties: INodeProperties[] = [
	...sessionFields,
	{
		displayName: 'Message ID',
		name: 'messageId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. false_5511999999999@c.us_3EB0C767D26A1D3BB2F1',
		description:
			'The media message (image, video, audio, document or sticker): its full ID, or the short ID after the last underscore',
	},
	{
		displayName: 'Convert Audio to MP4',
		name: 'convertToMp4',
		type: 'boolean',
		default: false,
		description: 'Whether to convert audio messages (voice notes) to MP4 audio (audio/mp4)',
	},
	binaryPropertyField,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Keep Base64 in JSON',
				name: 'keepBase64',
				type: 'boolean',
				default: false,
				description:
					'Whether to also keep the file as a base64 string in the JSON output (large files make large items)',
			},
		],
	},
];

export const description = showOnlyFor('message', 'downloadMedia', properties);

/** What Download Media was asked for one item, checked before any request. */
export interface DownloadMediaRequest {
	session: string;
	/** The message's own ID (the part after the last underscore of a full ID). */
	shortId: string;
	convertToMp4: boolean;
	binaryPropertyName: string;
	keepBase64: boolean;
}

export function readDownloadMedia(
	this: IExecuteFunctions,
	itemIndex: number,
): DownloadMediaRequest {
	const session = readSession.call(this, itemIndex);
	const shortId = readShortMessageId.call(
		this,
		this.getNodeParameter('messageId', itemIndex),
		'Message ID',
		itemIndex,
	);
	const convertToMp4 = readBoolean.call(
		this,
		'convertToMp4',
		'Convert Audio to MP4',
		itemIndex,
		false,
	);
	const binaryPropertyName = readBinaryPropertyName.call(this, itemIndex);
	const options = readOptions.call(this, itemIndex);
	const keepBase64 = optionBoolean.call(
		this,
		options,
		'keepBase64',
		'Keep Base64 in JSON',
		itemIndex,
		false,
	);
	return { session, shortId, convertToMp4, binaryPropertyName, keepBase64 };
}

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

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = readDownloadMedia.call(this, itemIndex);
	const response = await requestMediaBase64.call(
		this,
		request.session,
		request.shortId,
		request.convertToMp4,
		itemIndex,
	);
	const { details, base64, binary } = await mediaAnswerAsBinary.call(
		this,
		response,
		request.shortId,
		itemIndex,
	);
	const json = request.keepBase64 ? { ...details, base64 } : details;
	return [{ json, binary: { [request.binaryPropertyName]: binary } }];
}
