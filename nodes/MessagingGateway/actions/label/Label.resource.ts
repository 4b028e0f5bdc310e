import type { INodeProperties } from 'n8n-workflow';

import * as addToChat from './addToChat.operation';
import * as create from './create.operation';
import * as deleteOperation from './delete.operation';
import * as getChats from './getChats.operation';
import * as getMany from './getMany.operation';
import * as removeFromChat from './removeFromChat.operation';

/** The operations of this resource by value, for the router. */
export const operations = {
	addToChat,
	create,
	delete: deleteOperation,
	getChats,
	getMany,
	removeFromChat,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['label'] } },
		options: [
			{
				name: 'Add to Chat',
				value: 'addToChat',
				description: 'Put a label on a chat (WhatsApp Business)',
				action: 'Add a label to a chat',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Make a new label with a name and a colour (WAHA only)',
				action: 'Create a label',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a label, taking it off every chat (WAHA only)',
				action: 'Delete a label',
			},
			{
				name: 'Get Chats',
				value: 'getChats',
				description: 'List the chats that have a label (WAHA only)',
				action: 'Get the chats with a label',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: "List the account's labels with their IDs and colours (WhatsApp Business)",
				action: 'Get many labels',
			},
			{
				name: 'Remove From Chat',
				value: 'removeFromChat',
				description: 'Take a label off a chat (WhatsApp Business)',
				action: 'Remove a label from a chat',
			},
		],
		default: 'getMany',
	},
	...addToChat.description,
	...create.description,
	...deleteOperation.description,
	...getChats.description,
	...getMany.description,
	...removeFromChat.description,
];
