import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { matchesFilter } from '../../../shared/lists';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { optionBoolean, readOptions, textFrom } from '../../helpers/fields';
import { returnAllProperties, wantedCount } from '../../helpers/pagination';
import { expectList } from '../../helpers/responses';

const properties: INodeProperties[] = [
	...sessionFields,
	...returnAllProperties(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Name Contains',
				name: 'subject',
				type: 'string',
				default: '',
				placeholder: 'e.g. hikers',
				description: 'Only return groups whose name contains this text, in any letter case',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Include Participants',
				name: 'includeParticipants',
				type: 'boolean',
				default: false,
				description:
					'Whether to include the participants of each group with their admin role (slower for many large groups)',
			},
		],
	},
];

export const description = showOnlyFor('group', 'getMany', properties);

/** What Get Many was asked for one item, checked before any request. */
export interface GetManyGroupsRequest {
	session: string;
	/** How many groups: Infinity for Return All. */
	wanted: number;
	/** Name Contains (empty: every group). */
	subject: string;
	includeParticipants: boolean;
}

export function readGetManyGroups(
	this: IExecuteFunctions,
	itemIndex: number,
): GetManyGroupsRequest {
	const session = readSession.call(this, itemIndex);
	const wanted = wantedCount.call(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const subject = textFrom.call(this, filters.subject, 'Name Contains', itemIndex);
	const options = readOptions.call(this, itemIndex);
	const includeParticipants = optionBoolean.call(
		this,
		options,
		'includeParticipants',
		'Include Participants',
		itemIndex,
		false,
	);
	return { session, wanted, subject, includeParticipants };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, wanted, subject, includeParticipants } = readGetManyGroups.call(this, itemIndex);

	// The gateway answers every group at once (no paging) and refuses the call without this query.
	const response = await gatewayApiRequest.call(
		this,
		'GET',
		gatewayPath`/group/fetchAllGroups/${session}`,
		{ qs: { getParticipants: String(includeParticipants) }, itemIndex },
	);
	const groups = expectList
		.call(this, response, undefined, itemIndex)
		.filter((group) => matchesFilter(subject, group.subject));
	return groups.slice(0, wanted).map((group) => ({ json: group }));
}
