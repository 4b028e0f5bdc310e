import type { INodeProperties } from 'n8n-workflow';

import * as sendText from './sendText.operation';
import * as sendLocation from './sendLocation.operation';
import * as sendButtons from './sendButtons.operation';
import * as sendLinkPreview from './sendLinkPreview.operation';
import * as sendPoll from './sendPoll.operation';
import * as react from './react.operation';
import * as get from './get.operation';
import * as findStatus from './findStatus.operation';
import * as downloadMedia from './downloadMedia.operation';

export {
	sendText,
	sendLocation,
	sendButtons,
	sendLinkPreview,
	sendPoll,
	react,
	get,
	findStatus,
	downloadMedia,
};

/** The operations of this resource by value, for the router. */
export const operations = {
	sendText,
	sendLocation,
	sendButtons,
	sendLinkPreview,
	sendPoll,
	react,
	get,
	findStatus,
	downloadMedia,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['message'] } },
		options: [
			{
				name: 'Download Media',
				value: 'downloadMedia',
				description:
					'Download the file of an image, video, audio, document or sticker message (by full or short message ID) as binary data',
				action: 'Download the media of a message',
			},
			{
				name: 'Find Status Messages',
				value: 'findStatus',
				description:
					'Find the delivery and read status records (sent, delivered, read) of messages, filtered by message, chat or direction',
				action: 'Find message status records',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get one message by its full message ID, optionally with its media as binary data',
				action: 'Get a message',
			},
			{
				name: 'React',
				value: 'react',
				description:
					'Add an emoji reaction to a message by its full message ID, or remove your reaction with an empty reaction',
				action: 'React to a message',
			},
			{
				name: 'Send Buttons',
				value: 'sendButtons',
				description:
					'Send an interactive message with reply, call, copy or URL buttons to a contact or group',
				action: 'Send a message with buttons',
			},
			{
				name: 'Send Link With Custom Preview',
				value: 'sendLinkPreview',
				description:
					'Send text with a link and a preview card (title, description, image) you define to a contact or group',
				action: 'Send a link with a custom preview',
			},
			{
				name: 'Send Location',
				value: 'sendLocation',
				description: 'Send a location pin to a contact or group',
				action: 'Send a location',
			},
			{
				name: 'Send Poll',
				value: 'sendPoll',
				description: 'Send a poll with two or more answers to a contact or group',
				action: 'Send a poll',
			},
			{
				name: 'Send Text',
				value: 'sendText',
				description: 'Send a text message to a contact or group',
				action: 'Send a text message',
			},
		],
		default: 'sendText',
	},
	...sendText.description,
	...sendLocation.description,
	...sendButtons.description,
	...sendLinkPreview.description,
	...sendPoll.description,
	...react.description,
	...get.description,
	...findStatus.description,
	...downloadMedia.description,
];
