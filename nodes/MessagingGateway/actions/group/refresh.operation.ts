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
			'The session name, also called instance name. Its groups are synchronised with the messaging network; gateways may rate-limit frequent refreshes.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['group'], operation: ['refresh'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = this.getNodeParameter('session', itemIndex) as string;
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/api/${session}/groups/refresh`,
		{ itemIndex },
	);
	// Some gateways answer {success, message, count}, others a bare `true` or nothing at all.
	if (typeof response === 'object' && response !== null && !Array.isArray(response)) {
		return [{ json: response as IDataObject }];
	}
	return [{ json: { success: typeof response === 'boolean' ? response : true, session } }];
}
