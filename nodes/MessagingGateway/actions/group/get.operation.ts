import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { expectObject } from '../../helpers/responses';
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
			'The group to read, e.g. 120363012345678901@g.us. Returns its name (subject), description, settings and participants with their admin role.',
	},
];

export const description = showOnlyFor('group', 'get', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const groupJid = readGroupId.call(this, itemIndex);
	// The instance family takes the group in the query string, not in the path.
	const group = (await gatewayApiRequest.call(
		this,
		'GET',
		gatewayPath`/group/findGroupInfos/${session}`,
		{ qs: { groupJid }, itemIndex },
	)) as unknown;
	return [{ json: expectObject.call(this, group, itemIndex) }];
}
