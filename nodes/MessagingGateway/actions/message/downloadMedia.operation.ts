import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import {
	binaryPropertyField,
	readBinaryPropertyName,
	readShortMessageId,
} from '../../helpers/message';
import { mediaAnswerAsBinary, requestMediaBase64 } from '../../helpers/message-media';
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
