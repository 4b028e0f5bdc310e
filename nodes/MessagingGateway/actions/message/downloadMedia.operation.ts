import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { expectObject } from '../../helpers/responses';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import {
	binaryPropertyField,
	extensionForMimeType,
	readBinaryPropertyName,
	readShortMessageId,
} from '../../helpers/message';
import { readSession, sessionFields, showOnlyFor } from '../common.descriptions';
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

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
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

	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/chat/getBase64FromMediaMessage/${session}`,
		{ body: { message: { key: { id: shortId } }, convertToMp4 }, itemIndex, read: true },
	);
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
	const binaryData = await this.helpers.prepareBinaryData(
		Buffer.from(base64, 'base64'),
		fileName,
		mimeType,
	);
	const json = keepBase64 ? { ...details, base64 } : details;
	return [{ json, binary: { [binaryPropertyName]: binaryData } }];
}
