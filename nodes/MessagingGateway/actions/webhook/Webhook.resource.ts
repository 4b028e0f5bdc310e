import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as set from './set.operation';
import { withEarlierDefaults } from '../common/descriptions';

/** The operations of this resource by value, for the router. */
export const operations = { get, set };

export const description: INodeProperties[] = [
	...withEarlierDefaults(
		{ 1: 'set' },
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: ['webhook'] } },
			options: [
				{
					name: 'Get',
					value: 'get',
					description:
						"Show the session's webhook: URL (without its secret token), events and whether it is on",
					action: 'Get the webhook',
				},
				{
					name: 'Set',
					value: 'set',
					description:
						"Register the session's webhook URL and events, replacing the current one, or turn it off",
					action: 'Set the webhook',
				},
			],
			default: 'get',
		},
	),
	...get.description,
	...set.description,
];
