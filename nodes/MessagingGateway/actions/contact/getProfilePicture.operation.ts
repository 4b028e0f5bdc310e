import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { gatewayApiRequest, gatewayDownloadFile, gatewayPath } from '../../../shared/transport';
import { parseChat, toNumber } from '../../../shared/identifiers';
import { contactLocator, readSession, sessionFields, showOnlyFor } from '../common.descriptions';
import { optionBoolean, readOptions } from '../../helpers/fields';
import { responseOr } from '../../helpers/responses';
import { outputFieldName } from '../../helpers/message';

const properties: INodeProperties[] = [
	...sessionFields,
	contactLocator(
		'contact',
		'Contact',
		'The contact whose profile picture to get: a phone number with country code, a chat ID (…@c.us) or a JID (…@s.messenger.net). Outputs wuid and profilePictureUrl; the URL is null when the contact has no picture or hides it.',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Download Picture',
				name: 'downloadPicture',
				type: 'boolean',
				default: false,
				description:
					'Whether to also download the picture into a binary field (nothing is downloaded when there is no picture)',
			},
			{
				displayName: 'Put Output File in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				hint: 'The name of the output binary field to put the picture in',
				displayOptions: { show: { downloadPicture: [true] } },
			},
		],
	},
];

export const description = showOnlyFor('contact', 'getProfilePicture', properties);

const EXTENSION_BY_MIME_TYPE: Record<string, string> = {
	'image/jpeg': 'jpg',
	'image/png': 'png',
	'image/webp': 'webp',
	'image/gif': 'gif',
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const raw = this.getNodeParameter('contact', itemIndex, undefined, { extractValue: true });
	const number = toNumber(parseChat.call(this, raw, 'Contact', itemIndex, ['contact']));
	const options = readOptions.call(this, itemIndex);
	const download = optionBoolean.call(
		this,
		options,
		'downloadPicture',
		'Download Picture',
		itemIndex,
		false,
	);
	const binaryPropertyName = download
		? outputFieldName.call(this, options.binaryPropertyName, itemIndex)
		: '';

	const response = (await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/chat/fetchProfilePictureUrl/${session}`,
		{ body: { number }, itemIndex, read: true },
	)) as unknown;
	// Nothing at all reads as "no picture"; a list or a text is no answer.
	const answer = responseOr.call(this, response, {}, itemIndex);
	// A null URL (no picture, or a private one) is an answer, not a failure.
	const profilePictureUrl =
		typeof answer.profilePictureUrl === 'string' && answer.profilePictureUrl !== ''
			? answer.profilePictureUrl
			: null;
	const json: IDataObject = { ...answer, wuid: answer.wuid ?? null, profilePictureUrl };
	if (!download || profilePictureUrl === null) return [{ json }];

	// The transport sends the API key only when the picture is on the gateway itself.
	const file = await gatewayDownloadFile.call(this, profilePictureUrl, itemIndex);
	const mimeType = file.mimeType ?? 'image/jpeg';
	const fileName =
		file.fileName ?? `profile-picture-${number}.${EXTENSION_BY_MIME_TYPE[mimeType] ?? 'jpg'}`;
	const binaryData = await this.helpers.prepareBinaryData(file.data, fileName, mimeType);
	return [{ json, binary: { [binaryPropertyName]: binaryData } }];
}
