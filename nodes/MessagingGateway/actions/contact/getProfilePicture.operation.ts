import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { gatewayApiRequest, gatewayDownloadFile, gatewayPath } from '../../../shared/transport';
import { parseChat, PERSON_KINDS, toNumber } from '../../../shared/identifiers';
import { contactLocator, readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { optionBoolean, readOptions } from '../../helpers/fields';
import { responseOr } from '../../helpers/responses';
import { outputFieldName } from '../../helpers/message';

const properties: INodeProperties[] = [
	...sessionFields,
	contactLocator(
		'contact',
		'Contact',
		'The contact whose profile picture to get: a phone number with country code, a chat ID (…@c.us), a JID (…@s.messenger.net) or a LID (…@lid). Outputs wuid and profilePictureUrl; the URL is null when the contact has no picture or hides it.',
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

/** What Get Profile Picture was asked for one item, checked before any request. */
export interface GetProfilePictureRequest {
	session: string;
	/** The contact's digits with country code. */
	number: string;
	/** The binary field to download the picture into; empty: no download. */
	binaryPropertyName: string;
}

export function readGetProfilePicture(
	this: IExecuteFunctions,
	itemIndex: number,
): GetProfilePictureRequest {
	const session = readSession.call(this, itemIndex);
	const raw = this.getNodeParameter('contact', itemIndex, undefined, { extractValue: true });
	const number = toNumber(parseChat.call(this, raw, 'Contact', itemIndex, PERSON_KINDS));
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
	return { session, number, binaryPropertyName };
}

/**
 * The output: the gateway's answer with `wuid` and `profilePictureUrl` (null for no picture), and
 * the picture in the binary field when asked for and there is one.
 */
export async function profilePictureOutput(
	this: IExecuteFunctions,
	request: GetProfilePictureRequest,
	answer: IDataObject,
	url: unknown,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	// A null URL (no picture, or a private one) is an answer, not a failure.
	const profilePictureUrl = typeof url === 'string' && url !== '' ? url : null;
	const json: IDataObject = { ...answer, wuid: answer.wuid ?? null, profilePictureUrl };
	if (!request.binaryPropertyName || profilePictureUrl === null) return [{ json }];

	// The transport sends the API key only when the picture is on the gateway itself.
	const file = await gatewayDownloadFile.call(this, profilePictureUrl, itemIndex);
	const mimeType = file.mimeType ?? 'image/jpeg';
	const fileName =
		file.fileName ??
		`profile-picture-${request.number}.${EXTENSION_BY_MIME_TYPE[mimeType] ?? 'jpg'}`;
	const binaryData = await this.helpers.prepareBinaryData(file.data, fileName, mimeType);
	return [{ json, binary: { [request.binaryPropertyName]: binaryData } }];
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = readGetProfilePicture.call(this, itemIndex);
	const response = (await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/chat/fetchProfilePictureUrl/${request.session}`,
		{ body: { number: request.number }, itemIndex, read: true },
	)) as unknown;
	// Nothing at all reads as "no picture"; a list or a text is no answer.
	const answer = responseOr.call(this, response, {}, itemIndex);
	return await profilePictureOutput.call(
		this,
		request,
		answer,
		answer.profilePictureUrl,
		itemIndex,
	);
}
