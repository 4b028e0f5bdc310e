import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as search from './search.operation';
import { withEarlierDefaults } from '../common/descriptions';

/** The operations of this resource by value, for the router. */
export const operations = { create, search };

export const description: INodeProperties[] = [
	...withEarlierDefaults(
		{ 1: 'create' },
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: ['channel'] } },
			options: [
				{
					name: 'Create',
					value: 'create',
					description:
						'Create a channel (newsletter) owned by the session, with a name, description and optional picture',
					action: 'Create a channel',
				},
				{
					name: 'Search',
					value: 'search',
					description:
						'Find public channels by view (recommended, trending, popular, new), country and category',
					action: 'Search channels',
				},
			],
			default: 'search',
		},
	),
	...create.description,
	...search.description,
];
