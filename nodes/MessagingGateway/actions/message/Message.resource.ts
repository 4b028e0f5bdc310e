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
import * as sendMedia from './sendMedia.operation';
import * as sendAndWait from './sendAndWait.operation';
import * as sendAudio from './sendAudio.operation';
import * as sendSticker from './sendSticker.operation';
import * as sendContact from './sendContact.operation';
import * as sendList from './sendList.operation';
import * as markAsRead from './markAsRead.operation';
import * as deleteForEveryone from './deleteForEveryone.operation';
import * as edit from './edit.operation';
import * as combineRapid from './combineRapid.operation';
import * as pauseWhilePersonAnswers from './pauseWhilePersonAnswers.operation';

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
	sendMedia,
	sendAndWait,
	sendAudio,
	sendSticker,
	sendContact,
	sendList,
	markAsRead,
	deleteForEveryone,
	edit,
	combineRapid,
	pauseWhilePersonAnswers,
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
				name: 'Combine Rapid Messages',
				value: 'combineRapid',
				description:
					"Wait until the person stops writing, then go on once with all the messages they sent in a row (texts joined, each message, media as binary); the other messages' executions end without output. It reads the chat's history the gateway keeps.",
				action: 'Combine rapid messages into one turn',
			},
			{
				name: 'Delete for Everyone',
				value: 'deleteForEveryone',
				description:
					'Delete a message you sent (or, as a group admin, one a member sent) for everyone in the chat, by its full message ID',
				action: 'Delete a message for everyone',
			},
			{
				name: 'Download Media',
				value: 'downloadMedia',
				description:
					'Download the file of an image, video, audio, document or sticker message (by full or short message ID) as binary data',
				action: 'Download the media of a message',
			},
			{
				name: 'Edit',
				value: 'edit',
				description: 'Change the text of a text message you sent, by its full message ID',
				action: 'Edit a message',
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
				name: 'Mark as Read',
				value: 'markAsRead',
				description: 'Mark received messages as read (blue ticks) by their full message IDs',
				action: 'Mark messages as read',
			},
			{
				name: 'Pause While a Person Answers',
				value: 'pauseWhilePersonAnswers',
				description:
					"Go on only if no person wrote in the chat from the account's phone within the pause: the bot stays quiet while a person answers, and answers again by itself after. It reads the chat's history the gateway keeps.",
				action: 'Pause the bot while a person answers',
			},
			{
				name: 'React',
				value: 'react',
				description:
					'Add an emoji reaction to a message by its full message ID, or remove your reaction with an empty reaction',
				action: 'React to a message',
			},
			{
				name: 'Send and Wait for Response',
				value: 'sendAndWait',
				description:
					'Ask a contact or group a question with approve/decline links or a free text page, and wait for the answer',
				action: 'Send a message and wait for response',
			},
			{
				name: 'Send Audio',
				value: 'sendAudio',
				description: 'Send a voice note from a binary file, a URL or base64 to a contact or group',
				action: 'Send a voice note',
			},
			{
				name: 'Send Buttons',
				value: 'sendButtons',
				description:
					'Send an interactive message with reply, call, copy or URL buttons to a contact or group',
				action: 'Send a message with buttons',
			},
			{
				name: 'Send Contact',
				value: 'sendContact',
				description: 'Send one or more contact cards (vCards) to a contact or group',
				action: 'Send a contact card',
			},
			{
				name: 'Send Link With Custom Preview',
				value: 'sendLinkPreview',
				description:
					'Send text with a link and a preview card (title, description, image) you define to a contact or group; on Evolution API v2 the card is the one the page itself gives',
				action: 'Send a link with a custom preview',
			},
			{
				name: 'Send List',
				value: 'sendList',
				description:
					'Send a message with a button that opens a list of choices in sections to a contact or group',
				action: 'Send a list message',
			},
			{
				name: 'Send Location',
				value: 'sendLocation',
				description: 'Send a location pin to a contact or group',
				action: 'Send a location',
			},
			{
				name: 'Send Media',
				value: 'sendMedia',
				description:
					'Send an image, video, audio file or document from a binary file, a URL or base64 to a contact or group',
				action: 'Send a media file',
			},
			{
				name: 'Send Poll',
				value: 'sendPoll',
				description: 'Send a poll with two or more answers to a contact or group',
				action: 'Send a poll',
			},
			{
				name: 'Send Sticker',
				value: 'sendSticker',
				description:
					'Send an image from a binary file, a URL or base64 as a sticker to a contact or group',
				action: 'Send a sticker',
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
	...sendMedia.description,
	...sendAndWait.description,
	...sendAudio.description,
	...sendSticker.description,
	...sendContact.description,
	...sendList.description,
	...markAsRead.description,
	...deleteForEveryone.description,
	...edit.description,
	...combineRapid.description,
	...pauseWhilePersonAnswers.description,
];
