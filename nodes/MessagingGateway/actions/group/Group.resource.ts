import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as sendInvite from './sendInvite.operation';
import * as refresh from './refresh.operation';
import * as leave from './leave.operation';

export { get, sendInvite, refresh, leave };

/** The operations of this resource by value, for the router. */
export const operations = { get, sendInvite, refresh, leave };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['group'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a group by ID: name, description, settings and participants with their roles',
				action: 'Get a group',
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
		],
		default: 'get',
	},
	...get.description,
	...sendInvite.description,
	...refresh.description,
	...leave.description,
];
