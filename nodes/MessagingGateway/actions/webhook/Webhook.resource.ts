import type { INodeProperties } from 'n8n-workflow';

import * as set from './set.operation';

export { set };

/** The operations of this resource by value, for the router. */
export const operations = { set };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{
				name: 'Set',
				value: 'set',
				description:
					"Register the session's webhook URL and events, replacing the current one, or turn it off",
				action: 'Set the webhook',
			},
		],
		default: 'set',
	},
	...set.description,
];
