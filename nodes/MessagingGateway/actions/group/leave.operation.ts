import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { groupIdLocator, readGroupId } from '../../helpers/group';
import { sessionField } from '../common.descriptions';

const properties: INodeProperties[] = [
	sessionField,
	{
		...groupIdLocator,
		description:
			'The group the account leaves, e.g. 120363012345678901@g.us. The account stops receiving its messages.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['group'], operation: ['leave'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = this.getNodeParameter('session', itemIndex) as string;
	const groupId = readGroupId.call(this, itemIndex);
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/api/${session}/groups/${groupId}/leave`,
		{ itemIndex },
	);
	// The body is engine-specific and often empty; then say what was done.
	if (typeof response === 'object' && response !== null && !Array.isArray(response)) {
		return [{ json: response as IDataObject }];
	}
	return [{ json: { success: true, groupId } }];
}
