import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { responseOr } from '../../helpers/responses';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { fileSourceProperties, readFileSource } from '../../helpers/files';
import type { GatewayFile } from '../../helpers/files';
import { readSession, sessionFieldsDescribed, showOnlyFor } from '../common/descriptions';

/** What the network takes as a profile picture. */
const PICTURE_TYPES = ['image/jpeg', 'image/png'];

const properties: INodeProperties[] = [
	...sessionFieldsDescribed(
		'The session, also called instance. Its profile picture is replaced by the given image (JPEG or PNG).',
	),
	...fileSourceProperties('picture', 'Picture', false),
];

export const description = showOnlyFor('profile', 'setPicture', properties);

/** What Set Picture was asked: the session and the picture (by URL or as base64 from a binary field). */
export interface SetPictureRequest {
	session: string;
	file: GatewayFile;
}

export async function readSetPicture(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<SetPictureRequest> {
	const session = readSession.call(this, itemIndex);
	// Source "URL" or "Binary File" (no "None"), so a file is always there.
	const file = (await readFileSource.call(this, 'picture', 'Picture', itemIndex, {
		mimeTypes: PICTURE_TYPES,
		required: true,
	})) as GatewayFile;
	return { session, file };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, file } = await readSetPicture.call(this, itemIndex);
	const response = await gatewayApiRequest.call(
		this,
		'PUT',
		gatewayPath`/api/${session}/profile/picture`,
		{ body: { file: file as IDataObject }, itemIndex },
	);
	return [{ json: responseOr.call(this, response, { success: true }, itemIndex) }];
}
