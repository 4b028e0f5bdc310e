import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { expectObject } from '../../helpers/responses';
import { gatewayApiRequest, gatewayDownloadFile, gatewayPath } from '../../../shared/transport';
import { parseFullMessageId } from '../../../shared/identifiers';
import type { FullMessageId } from '../../../shared/identifiers';
import {
	binaryPropertyField,
	extensionForMimeType,
	readBinaryPropertyName,
} from '../../helpers/message';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { readBoolean } from '../../helpers/fields';

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
			'Full ID of the message, as the trigger, Get or a send operation output it (field ID or Message ID). The chat is taken from it.',
	},
	{
		displayName: 'Download Media',
		name: 'downloadMedia',
		type: 'boolean',
		default: true,
		description:
			'Whether the gateway should fetch the media of the message (image, audio, document…) and include a download link for it in the output',
	},
	{
		displayName: 'Put Media in Binary',
		name: 'mediaToBinary',
		type: 'boolean',
		default: true,
		description:
			'Whether to download the media file into a binary field of the output item (messages without media output JSON only)',
		displayOptions: { show: { downloadMedia: [true] } },
	},
	{
		...binaryPropertyField,
		displayOptions: { show: { downloadMedia: [true], mediaToBinary: [true] } },
	},
];

export const description = showOnlyFor('message', 'get', properties);

/** What Get was asked for one item, checked before any request. */
export interface GetMessageRequest {
	session: string;
	messageId: FullMessageId;
	downloadMedia: boolean;
	/** Set when the media goes into a binary field. */
	binaryPropertyName?: string;
}

export function readGetMessage(this: IExecuteFunctions, itemIndex: number): GetMessageRequest {
	const session = readSession.call(this, itemIndex);
	const messageId = parseFullMessageId.call(
		this,
		this.getNodeParameter('messageId', itemIndex),
		'Message ID',
		itemIndex,
	);
	const downloadMedia = readBoolean.call(this, 'downloadMedia', 'Download Media', itemIndex, true);
	const mediaToBinary =
		downloadMedia &&
		readBoolean.call(this, 'mediaToBinary', 'Put Media in Binary', itemIndex, true);
	const binaryPropertyName = mediaToBinary
		? readBinaryPropertyName.call(this, itemIndex)
		: undefined;
	return { session, messageId, downloadMedia, binaryPropertyName };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, messageId, downloadMedia, binaryPropertyName } = readGetMessage.call(
		this,
		itemIndex,
	);

	const response = await gatewayApiRequest.call(
		this,
		'GET',
		gatewayPath`/api/${session}/chats/${messageId.chatId}/messages/${messageId.serialized}`,
		{ qs: { downloadMedia }, itemIndex },
	);
	const json = expectObject.call(this, response, itemIndex);
	const media = json.media as IDataObject | null | undefined;
	if (!binaryPropertyName || typeof media?.url !== 'string' || media.url === '') {
		return [{ json }];
	}

	// The transport sends the API key only when the file is on the gateway itself.
	const file = await gatewayDownloadFile.call(this, media.url, itemIndex);
	const mimeType =
		(typeof media.mimetype === 'string' && media.mimetype) ||
		file.mimeType ||
		'application/octet-stream';
	const fileName =
		(typeof media.filename === 'string' && media.filename) ||
		file.fileName ||
		`${messageId.id}.${extensionForMimeType(mimeType)}`;
	const binaryData = await this.helpers.prepareBinaryData(file.data, fileName, mimeType);
	return [{ json, binary: { [binaryPropertyName]: binaryData } }];
}
