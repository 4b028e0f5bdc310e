import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { responseOr } from '../../helpers/responses';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import {
	groupIdLocator,
	readGroupId,
	readSession,
	sessionFields,
	showOnlyFor,
} from '../common/descriptions';

const properties: INodeProperties[] = [
	...sessionFields,
	{
		...groupIdLocator,
		description:
			'The group the account leaves, e.g. 120363012345678901@g.us. The account stops receiving its messages.',
	},
];

export const description = showOnlyFor('group', 'leave', properties);

/**
 * Leaves the group the item names, sending with `send` (each gateway has its own route), and
 * outputs the answer; the body is engine-specific and often empty: then it says what was done.
 */
export async function leaveGroup(
	this: IExecuteFunctions,
	itemIndex: number,
	send: (session: string, groupId: string) => Promise<unknown>,
): Promise<INodeExecutionData[]> {
	const groupId = readGroupId.call(this, itemIndex);
	const response = await send(readSession.call(this, itemIndex), groupId);
	return [{ json: responseOr.call(this, response, { success: true, groupId }, itemIndex) }];
}

/** Leave on the Messaging Gateway API: `POST /api/{session}/groups/{id}/leave`. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await leaveGroup.call(
		this,
		itemIndex,
		async (session, groupId) =>
			await gatewayApiRequest.call(
				this,
				'POST',
				gatewayPath`/api/${session}/groups/${groupId}/leave`,
				{ itemIndex },
			),
	);
}
