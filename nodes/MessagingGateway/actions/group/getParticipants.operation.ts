import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import {
	groupIdLocator,
	readGroupId,
	readSession,
	sessionFields,
	showOnlyFor,
} from '../common/descriptions';
import { expectList } from '../../helpers/responses';
import { memberAddresses } from '../../../shared/people';

const properties: INodeProperties[] = [
	...sessionFields,
	{
		...groupIdLocator,
		description:
			'The group whose participants are listed, e.g. 120363012345678901@g.us. Outputs one item per participant with their admin role, their phone and lid (null where the gateway does not say) and, when known, name and picture.',
	},
];

export const description = showOnlyFor('group', 'getParticipants', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const groupId = readGroupId.call(this, itemIndex);
	// The instance family takes the group in the query string, not in the path.
	const response = await gatewayApiRequest.call(
		this,
		'GET',
		gatewayPath`/group/participants/${session}`,
		{ qs: { groupJid: groupId }, itemIndex },
	);
	// Each item says which group it came from, so items of several groups stay apart downstream.
	return expectList
		.call(this, response, 'participants', itemIndex)
		.map((participant) => ({ json: { ...participant, ...memberAddresses(participant), groupId } }));
}
