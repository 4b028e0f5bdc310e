import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { fileSourceProperties, readFileSource } from '../../helpers/files';
import { sessionField } from '../common.descriptions';

const properties: INodeProperties[] = [
	{
		...sessionField,
		description:
			'The session name, also called instance name. Its profile picture is replaced by the given image (JPEG or PNG).',
	},
	...fileSourceProperties('picture', 'Picture', false),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['profile'], operation: ['setPicture'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = this.getNodeParameter('session', itemIndex) as string;
	// Source "URL" or "Binary File" (no "None"), so a file is always there.
	const file = (await readFileSource.call(this, 'picture', 'Picture', itemIndex)) as IDataObject;
	const response = await gatewayApiRequest.call(
		this,
		'PUT',
		gatewayPath`/api/${session}/profile/picture`,
		{ body: { file }, itemIndex },
	);
	if (typeof response === 'object' && response !== null && !Array.isArray(response)) {
		return [{ json: response as IDataObject }];
	}
	return [{ json: { success: true } }];
}
