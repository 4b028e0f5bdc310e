import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { optionBoolean, readOptions, readRequiredText, textFrom } from '../../helpers/fields';
import { expectObject, missingFromAnswer } from '../../helpers/responses';
import { readMemberNumbers } from './numbers';

const properties: INodeProperties[] = [
	...sessionFields,
	{
		displayName: 'Group Name',
		name: 'subject',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Weekend Hikers',
		description: 'The name (subject) of the new group',
	},
	{
		displayName: 'Participants',
		name: 'participants',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +55 11 99999-9999, +55 21 98888-7777',
		description:
			'Phone numbers with country code to add to the group, separated by commas or new lines (an expression may also return a list). Numbers that are not on the messaging network are left out.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				typeOptions: { rows: 3 },
				placeholder: 'e.g. Trail plans for every Saturday',
				description: 'The group description members see under its name',
			},
			{
				displayName: 'Promote Participants to Admins',
				name: 'promoteParticipants',
				type: 'boolean',
				default: false,
				description: 'Whether to make every added participant an admin of the group',
			},
		],
	},
];

export const description = showOnlyFor('group', 'create', properties);

/** What Create was asked for one item, checked before any request. */
export interface CreateGroupRequest {
	session: string;
	subject: string;
	/** Member numbers: digits with country code. */
	participants: string[];
	/** Empty: none. */
	description: string;
	promoteParticipants: boolean;
}

export function readCreateGroup(this: IExecuteFunctions, itemIndex: number): CreateGroupRequest {
	const session = readSession.call(this, itemIndex);
	const subject = readRequiredText.call(this, 'subject', 'Group Name', itemIndex, {
		hint: 'The messaging network refuses a group without a name.',
	});
	const participants = readMemberNumbers.call(this, 'participants', 'Participants', itemIndex);
	const options = readOptions.call(this, itemIndex);
	const description = textFrom.call(this, options.description, 'Description', itemIndex).trim();
	const promoteParticipants = optionBoolean.call(
		this,
		options,
		'promoteParticipants',
		'Promote Participants to Admins',
		itemIndex,
		false,
	);
	return { session, subject, participants, description, promoteParticipants };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = readCreateGroup.call(this, itemIndex);
	const { session, subject, participants } = request;

	const body: IDataObject = { subject, participants };
	// The gateway ignores an empty description; leave it out rather than send one.
	if (request.description !== '') body.description = request.description;
	if (request.promoteParticipants) body.promoteParticipants = true;
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/group/create/${session}`,
		{ body, itemIndex },
	);
	const group = expectObject.call(this, response, itemIndex);
	if (typeof group.id !== 'string' || group.id === '') {
		throw missingFromAnswer.call(
			this,
			group,
			'group ID',
			'The gateway did not say which group it created. Check in the app whether the group exists before trying again.',
			itemIndex,
		);
	}
	return [{ json: group }];
}
