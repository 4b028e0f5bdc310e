import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { sessionField } from '../common.descriptions';

const properties: INodeProperties[] = [
	{
		...sessionField,
		description:
			'The session name, also called instance name. Its profile picture is removed; the gateway answers 404 when there is none.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['profile'], operation: ['deletePicture'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = this.getNodeParameter('session', itemIndex) as string;
	const response = await gatewayApiRequest.call(
		this,
		'DELETE',
		gatewayPath`/api/${session}/profile/picture`,
		{ itemIndex },
	);
	if (typeof response === 'object' && response !== null && !Array.isArray(response)) {
		return [{ json: response as IDataObject }];
	}
	// Nothing useful came back: say what was done.
	return [{ json: { success: true } }];
}
