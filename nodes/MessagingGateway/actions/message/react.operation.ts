import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { gatewayStyledRequest } from '../../../shared/transport';
import type { RequestBodyStyle } from '../../../shared/transport';
import type { FullMessageId } from '../../../shared/identifiers';
import {
	classifyChat,
	parseChat,
	parseFullMessageId,
	PERSON_KINDS,
	toJid,
} from '../../../shared/identifiers';
import { chatIdToJid, fieldError, responseObject } from '../../helpers/message';
import {
	readSession,
	sessionFields,
	showOnlyFor,
	simultaneousChatsOption,
	paceSendsOptions,
	waitBetweenItemsOption,
} from '../common/descriptions';
import { isBlank, readOptions, textFrom } from '../../helpers/fields';
import { describeValue } from '../../../shared/values';
import { rememberedParameter } from '../../../shared/parameters';

const properties: INodeProperties[] = [
	...sessionFields,
	{
		displayName: 'Message ID',
		name: 'messageId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. false_5511999999999@c.us_3EB0C767D26A1D3BB2F1',
		description:
			'Full ID of the message to react to, as the trigger, Get or a send operation output it (field ID or Message ID)',
	},
	{
		displayName: 'Reaction',
		name: 'reaction',
		type: 'string',
		default: '',
		placeholder: 'e.g. 👍',
		description: 'The emoji to react with. Leave empty to remove your reaction from the message.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			...paceSendsOptions,
			{
				displayName: 'Sender',
				name: 'sender',
				type: 'string',
				default: '',
				placeholder: 'e.g. +55 11 99999-9999',
				description:
					'Who wrote the message: a phone number with country code, a chat ID or a JID. Only used with the Request Body Style "jid + sessionId", which needs it; by default it is taken from the Message ID, which works for messages from a contact and for group messages whose ID ends with the participant.',
			},
			simultaneousChatsOption,
			waitBetweenItemsOption,
		],
	},
];

export const description = showOnlyFor('message', 'react', properties);

/**
 * The emoji, or '' to remove the reaction. Removing takes a really empty text: nothing from an
 * expression (a missing field) or a text that only looks empty (spaces, zero-width characters)
 * would silently take the reaction away, so they are refused.
 */
function readReaction(this: IExecuteFunctions, itemIndex: number): string {
	const raw = this.getNodeParameter('reaction', itemIndex, '') as unknown;
	const text = textFrom.call(this, raw, 'Reaction', itemIndex);
	if (raw === null || raw === undefined || (text !== '' && isBlank(text))) {
		throw fieldError.call(
			this,
			itemIndex,
			`Reaction must be an emoji such as 👍, or empty to remove the reaction (got ${raw === null || raw === undefined ? describeValue(raw) : `"${text}"`})`,
			'To remove the reaction, leave the field empty or map an empty text; check that the expression finds its field.',
		);
	}
	return text.trim();
}

/** The JID of the message's author, for shape B: the Sender option, else derived from the ID. */
function senderJid(
	this: IExecuteFunctions,
	itemIndex: number,
	messageId: FullMessageId,
	senderOption: string,
): string {
	if (senderOption !== '') {
		return toJid(parseChat.call(this, senderOption, 'Sender', itemIndex, PERSON_KINDS));
	}
	const chat = classifyChat(messageId.chatId);
	if (chat?.kind === 'group' && messageId.participant) return chatIdToJid(messageId.participant);
	// In a direct chat, a message not from me was written by the contact of the chat.
	if (chat && PERSON_KINDS.includes(chat.kind) && !messageId.fromMe) return toJid(chat);
	throw fieldError.call(
		this,
		itemIndex,
		messageId.fromMe
			? 'Sender is needed: the message was sent by this account and its ID does not say which number that is'
			: 'Sender is needed: the Message ID of this group message does not end with the participant who wrote it',
		'Add the option Sender with the phone number or JID of who wrote the message.',
	);
}

/** What the user asked React to do; each gateway sends it its own way. */
export interface ReactRequest {
	session: string;
	messageId: FullMessageId;
	/** One emoji, or '' to remove the reaction. */
	reaction: string;
	options: IDataObject;
}

export function readReact(this: IExecuteFunctions, itemIndex: number): ReactRequest {
	return {
		session: readSession.call(this, itemIndex),
		messageId: parseFullMessageId.call(
			this,
			rememberedParameter.call(this, 'messageId', itemIndex),
			'Message ID',
			itemIndex,
		),
		reaction: readReaction.call(this, itemIndex),
		options: readOptions.call(this, itemIndex),
	};
}

/** React's output: the message, the reaction and the gateway's answer. */
export function reactOutput(
	this: IExecuteFunctions,
	request: ReactRequest,
	response: unknown,
	itemIndex: number,
): INodeExecutionData[] {
	return [
		{
			json: {
				messageId: request.messageId.serialized,
				reaction: request.reaction,
				...responseObject.call(this, response, itemIndex),
			},
		},
	];
}

/** React on the Messaging Gateway API: `PUT /api/reaction` in the credential's body style. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = readReact.call(this, itemIndex);
	const { session, messageId, reaction, options } = request;

	const build = (style: RequestBodyStyle): IDataObject =>
		style === 'jidSessionId'
			? {
					sessionId: session,
					jid: chatIdToJid(messageId.chatId),
					messageId: messageId.serialized,
					sender: senderJid.call(
						this,
						itemIndex,
						messageId,
						textFrom.call(this, options.sender, 'Sender', itemIndex).trim(),
					),
					reaction,
				}
			: { messageId: messageId.serialized, reaction, session };

	const { response } = await gatewayStyledRequest.call(this, 'PUT', '/api/reaction', build, {
		itemIndex,
	});
	return reactOutput.call(this, request, response, itemIndex);
}
