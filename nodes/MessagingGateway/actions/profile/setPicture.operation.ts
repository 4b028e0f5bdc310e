import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { responseOr } from '../../helpers/responses';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { fileSourceProperties, readFileSource } from '../../helpers/files';
import { readSession, sessionFieldsDescribed, showOnlyFor } from '../common.descriptions';

/** What the network takes as a profile picture. */
const PICTURE_TYPES = ['image/jpeg', 'image/png'];

const properties: INodeProperties[] = [
	...sessionFieldsDescribed(
		'The session, also called instance. Its profile picture is replaced by the given image (JPEG or PNG).',
	),
	...fileSourceProperties('picture', 'Picture', false),
];

export const description = showOnlyFor('profile', 'setPicture', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	// Source "URL" or "Binary File" (no "None"), so a file is always there.
	const file = (await readFileSource.call(this, 'picture', 'Picture', itemIndex, {
		mimeTypes: PICTURE_TYPES,
		required: true,
	})) as IDataObject;
	const response = await gatewayApiRequest.call(
		this,
		'PUT',
		gatewayPath`/api/${session}/profile/picture`,
		{ body: { file }, itemIndex },
	);
	return [{ json: responseOr.call(this, response, { success: true }, itemIndex) }];
}
