import type { INodeProperties } from 'n8n-workflow';

import * as deleteOperation from './delete.operation';
import * as post from './post.operation';

/** The operations of this resource by value, for the router. */
export const operations = { delete: deleteOperation, post };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['status'] } },
		options: [
			{
				name: 'Delete',
				value: 'delete',
				description: 'Take down a status posted before (WAHA only)',
				action: 'Delete a status',
			},
			{
				name: 'Post',
				value: 'post',
				description:
					'Post a status (story) for 24 hours: text on a colour, an image, a video or a voice note, to all contacts or chosen ones',
				action: 'Post a status',
			},
		],
		default: 'post',
	},
	...deleteOperation.description,
	...post.description,
];
