import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';

/** The operations of this resource by value, for the router. */
export const operations = { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['chat'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description:
					'List the chats of the session, newest first, each with its name, picture and last message',
				action: 'Get many chats',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
