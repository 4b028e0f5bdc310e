import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { instanceRequest } from '../../helpers/instance-send';
import {
	groupIdLocator,
	readGroupId,
	readSession,
	sessionFields,
	showOnlyFor,
	simultaneousChatsOption,
	paceSendsOptions,
	waitBetweenItemsOption,
} from '../common/descriptions';
import { optionFrom } from '../../helpers/fields';
import { expectList } from '../../helpers/responses';
import { readMemberNumbers } from './numbers';

const ACTIONS = ['add', 'demote', 'promote', 'remove'] as const;

const properties: INodeProperties[] = [
	...sessionFields,
	{
		...groupIdLocator,
		description: 'The group whose participants change, e.g. 120363012345678901@g.us',
	},
	{
		displayName: 'Action',
		name: 'participantAction',
		type: 'options',
		required: true,
		default: 'add',
		options: [
			{ name: 'Add', value: 'add', description: 'Add the numbers to the group' },
			{
				name: 'Demote',
				value: 'demote',
				description: 'Take the admin role away from the numbers',
			},
			{ name: 'Promote', value: 'promote', description: 'Make the numbers admins of the group' },
			{ name: 'Remove', value: 'remove', description: 'Remove the numbers from the group' },
		],
		description: 'What to do with the participants',
	},
	{
		displayName: 'Participants',
		name: 'participants',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +55 11 99999-9999, +55 21 98888-7777',
		description:
			'Phone numbers with country code, separated by commas or new lines (an expression may also return a list). Outputs one item per number with its status: any status other than 200 means that number was not changed (e.g. 403 their privacy settings refuse, 404 not on the network or not in the group, 409 already in the group).',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [...paceSendsOptions, simultaneousChatsOption, waitBetweenItemsOption],
	},
];

export const description = showOnlyFor('group', 'updateParticipants', properties);

/** What Update Participants was asked for one item, checked before any request. */
export interface UpdateParticipantsRequest {
	session: string;
	groupId: string;
	action: string;
	/** Digits with country code. */
	participants: string[];
}

export function readUpdateParticipants(
	this: IExecuteFunctions,
	itemIndex: number,
): UpdateParticipantsRequest {
	const session = readSession.call(this, itemIndex);
	const groupId = readGroupId.call(this, itemIndex);
	const action = optionFrom.call(
		this,
		this.getNodeParameter('participantAction', itemIndex),
		'Action',
		itemIndex,
		ACTIONS,
	);
	const participants = readMemberNumbers.call(this, 'participants', 'Participants', itemIndex);
	return { session, groupId, action, participants };
}

/** One item per result `{jid, status, …}`: `updated` when the status is 200, with the group and action. */
export function participantResultsOutput(
	results: IDataObject[],
	request: Pick<UpdateParticipantsRequest, 'groupId' | 'action'>,
): INodeExecutionData[] {
	return results.map((result) => {
		const json: IDataObject = {
			...result,
			updated: String(result.status) === '200',
			groupId: request.groupId,
			action: request.action,
		};
		// The raw protocol node only repeats jid and status.
		delete json.content;
		return { json };
	});
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = readUpdateParticipants.call(this, itemIndex);
	const { session, groupId, action, participants } = request;

	const response = await instanceRequest.call(
		this,
		{
			method: 'PUT',
			route: 'group/updateParticipant',
			qs: { groupJid: groupId },
			body: { action, participants },
		},
		session,
		itemIndex,
	);
	// One result per number; the call succeeds even when some numbers were not changed.
	return participantResultsOutput(
		expectList.call(this, response, 'updateParticipants', itemIndex),
		request,
	);
}
