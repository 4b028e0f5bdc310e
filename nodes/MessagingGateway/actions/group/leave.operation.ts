import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { responseOr } from '../../helpers/responses';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import {
	groupIdLocator,
	readGroupId,
	readSession,
	sessionFields,
	showOnlyFor,
} from '../common.descriptions';

const properties: INodeProperties[] = [
	...sessionFields,
	{
		...groupIdLocator,
		description:
			'The group the account leaves, e.g. 120363012345678901@g.us. The account stops receiving its messages.',
	},
];

export const description = showOnlyFor('group', 'leave', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const groupId = readGroupId.call(this, itemIndex);
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/api/${session}/groups/${groupId}/leave`,
		{ itemIndex },
	);
	// The body is engine-specific and often empty; then say what was done.
	return [{ json: responseOr.call(this, response, { success: true, groupId }, itemIndex) }];
}
