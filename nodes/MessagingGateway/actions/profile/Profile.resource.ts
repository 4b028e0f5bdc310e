import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as setPicture from './setPicture.operation';
import * as deletePicture from './deletePicture.operation';

/** The operations of this resource by value, for the router. */
export const operations = { get, setPicture, deletePicture };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['profile'] } },
		options: [
			{
				name: 'Delete Picture',
				value: 'deletePicture',
				description: "Remove the session account's profile picture",
				action: 'Delete the profile picture',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					"Get the session account's own profile (ID, name, picture). Many gateways do not implement it and answer 501.",
				action: 'Get the profile',
			},
			{
				name: 'Set Picture',
				value: 'setPicture',
				description:
					"Replace the session account's profile picture with an image from a URL or binary data",
				action: 'Set the profile picture',
			},
		],
		default: 'get',
	},
	...get.description,
	...setPicture.description,
	...deletePicture.description,
];
