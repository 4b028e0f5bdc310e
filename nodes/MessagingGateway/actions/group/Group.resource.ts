import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as getParticipants from './getParticipants.operation';
import * as sendInvite from './sendInvite.operation';
import * as refresh from './refresh.operation';
import * as leave from './leave.operation';
import * as updateParticipants from './updateParticipants.operation';

/** The operations of this resource by value, for the router. */
export const operations = {
	create,
	get,
	getMany,
	getParticipants,
	sendInvite,
	refresh,
	leave,
	updateParticipants,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['group'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a group with a name and participants, and output it',
				action: 'Create a group',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a group by ID: name, description, settings and participants with their roles',
				action: 'Get a group',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the groups the session account is in, one item per group',
				action: 'Get many groups',
			},
			{
				name: 'Get Participants',
				value: 'getParticipants',
				description: 'List the participants of a group, one item per participant',
				action: 'Get group participants',
			},
			{
				name: 'Leave',
				value: 'leave',
				description: 'Make the session account leave a group',
				action: 'Leave a group',
			},
			{
				name: 'Refresh',
				value: 'refresh',
				description: "Force a synchronization of the session's groups with the messaging network",
				action: 'Refresh groups',
			},
			{
				name: 'Send Invite',
				value: 'sendInvite',
				description: "Send the group's invite link, after a text, to one or more phone numbers",
				action: 'Send a group invite',
			},
			{
				name: 'Update Participants',
				value: 'updateParticipants',
				description:
					'Add, remove, promote or demote participants; outputs one item per number with its status',
				action: 'Update group participants',
			},
		],
		default: 'get',
	},
	...create.description,
	...get.description,
	...getMany.description,
	...getParticipants.description,
	...sendInvite.description,
	...refresh.description,
	...leave.description,
	...updateParticipants.description,
];
