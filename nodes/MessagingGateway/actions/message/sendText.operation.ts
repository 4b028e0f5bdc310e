import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNumber } from '../../../shared/identifiers';
import type { ChatReference } from '../../../shared/identifiers';
import {
	delayAndPresence,
	delayOption,
	fieldError,
	presenceOption,
	readChat,
} from '../../helpers/message';
import {
	readSession,
	sendTargetField,
	sessionFields,
	showOnlyFor,
	simultaneousChatsOption,
	waitBetweenItemsOption,
} from '../common.descriptions';
import { booleanFrom, optionBoolean, readOptions, readRequiredText } from '../../helpers/fields';
import { checkNumbers, readPhoneNumbers } from '../../helpers/numbers';
import {
	instanceRequest,
	readQuoted,
	replyToOption,
	sentMessageOutput,
} from '../../helpers/instance-send';

const properties: INodeProperties[] = [
	...sessionFields,
	sendTargetField('write to'),
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		placeholder: 'e.g. Hello! Your order #1042 is ready for pickup.',
		description: 'The message text',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Check the Number First',
				name: 'checkNumber',
				type: 'boolean',
				default: false,
				description:
					"Whether to ask the gateway first whether a contact's number is on the messaging network, and fail the item without sending when it is not. The message goes to the JID the network knows the number by. Groups are not checked.",
			},
			delayOption,
			{
				displayName: 'Link Preview',
				name: 'linkPreview',
				type: 'boolean',
				default: true,
				description:
					'Whether to show a preview of the first link in the text. The gateway shows one unless this is off.',
			},
			{
				displayName: 'Mention Everyone',
				name: 'mentionEveryone',
				type: 'boolean',
				default: false,
				description: 'Whether to mention every member of the group (groups only)',
			},
			{
				displayName: 'Mention Numbers',
				name: 'mentionNumbers',
				type: 'string',
				default: '',
				placeholder: 'e.g. +55 11 99999-9999, 5521988887777',
				description:
					'Phone numbers with country code to mention, separated by commas or spaces. Write @ followed by the number in the text where the mention should show, e.g. @5511999999999.',
			},
			presenceOption,
			replyToOption,
			simultaneousChatsOption,
			waitBetweenItemsOption,
		],
	},
];

export const description = showOnlyFor('message', 'sendText', properties);

/** What the user asked Send Text to do; each gateway sends it in its own way. */
export interface SendTextRequest {
	session: string;
	chat: ChatReference;
	/** As typed: line breaks and indentation matter. */
	text: string;
	delay?: number;
	presence?: string;
	linkPreview?: boolean;
	/** The quoted message's key (`{id, remoteJid, fromMe}`), from Reply To Message ID. */
	quoted?: IDataObject;
	mentionEveryone: boolean;
	/** Digits of the numbers to mention. */
	mentioned: string[];
	checkFirst: boolean;
}

/** Reads and checks every field of Send Text for one item, before any request. */
export function readSendText(this: IExecuteFunctions, itemIndex: number): SendTextRequest {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	// Sent as typed (line breaks and indentation matter); a number from an expression becomes text.
	const text = readRequiredText.call(this, 'text', 'Text', itemIndex, {
		keepSpaces: true,
		hint: 'Enter the message to send, or map it from an input field with an expression.',
	});
	const options = readOptions.call(this, itemIndex);
	const { delay, presence } = delayAndPresence.call(this, itemIndex, options);
	const request: SendTextRequest = {
		session,
		chat,
		text,
		mentionEveryone: optionBoolean.call(
			this,
			options,
			'mentionEveryone',
			'Mention Everyone',
			itemIndex,
			false,
		),
		mentioned: readPhoneNumbers
			.call(this, options.mentionNumbers ?? '', 'Mention Numbers', itemIndex)
			.map((entry) => entry.number),
		checkFirst: optionBoolean.call(
			this,
			options,
			'checkNumber',
			'Check the Number First',
			itemIndex,
			false,
		),
	};
	if (delay !== undefined) request.delay = delay as number;
	if (presence !== undefined) request.presence = presence as string;
	if (options.linkPreview !== undefined) {
		request.linkPreview = booleanFrom.call(this, options.linkPreview, 'Link Preview', itemIndex);
	}
	const quoted = readQuoted.call(this, itemIndex, options);
	if (quoted) request.quoted = quoted.key as IDataObject;
	if (request.mentionEveryone && chat.kind !== 'group') {
		throw fieldError.call(
			this,
			itemIndex,
			`Mention Everyone works only in groups, and Chat is a contact (${chat.value})`,
			'Pick a group as Chat, or turn Mention Everyone off.',
		);
	}
	return request;
}

/**
 * The number a text goes to: the chat's, or with Check the Number First the JID the network
 * knows it by (e.g. a Brazilian number with or without its 9th digit); a number that is not on
 * the network fails the item before anything is sent.
 */
export async function recipientOf(
	this: IExecuteFunctions,
	request: SendTextRequest,
	itemIndex: number,
): Promise<string> {
	const number = toNumber(request.chat);
	// Some gateways answer 201 for numbers that are not on the network, and nothing arrives.
	if (!request.checkFirst || request.chat.kind !== 'contact') return number;
	const [check] = await checkNumbers.call(this, request.session, [number], itemIndex);
	if (!check.exists) throw notOnNetwork.call(this, number, itemIndex);
	return check.jid ?? number;
}

/** Check the Number First found no account for `number`: the item fails before anything is sent. */
export function notOnNetwork(
	this: IExecuteFunctions,
	number: string,
	itemIndex: number,
): NodeOperationError {
	return new NodeOperationError(
		this.getNode(),
		`Number ${number} is not on the network: nothing was sent`,
		{
			itemIndex,
			description:
				'The gateway says no account uses this number. Check the country code and the area code, or turn off Check the Number First to send anyway.',
		},
	);
}

/**
 * POSTs a text's body to `/message/sendText/<session>` (the route of both Evolution API versions and
 * the spec) and outputs the gateway's answer with the full message ID, so React, Edit or Delete
 * can follow.
 */
export async function postText(
	this: IExecuteFunctions,
	request: SendTextRequest,
	body: IDataObject,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await instanceRequest.call(
		this,
		{ method: 'POST', route: 'message/sendText', body },
		request.session,
		itemIndex,
	);
	return [{ json: sentMessageOutput.call(this, response, request.chat, itemIndex) }];
}

/** Send Text on the Messaging Gateway API: Evolution API v1's body (`textMessage`, `options`). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = readSendText.call(this, itemIndex);
	const sendOptions: IDataObject = {};
	if (request.delay !== undefined) sendOptions.delay = request.delay;
	if (request.presence !== undefined) sendOptions.presence = request.presence;
	if (request.linkPreview !== undefined) sendOptions.linkPreview = request.linkPreview;
	if (request.quoted) sendOptions.quoted = { key: request.quoted };
	const mentions: IDataObject = {};
	if (request.mentionEveryone) mentions.everyOne = true;
	if (request.mentioned.length > 0) mentions.mentioned = request.mentioned;
	if (Object.keys(mentions).length > 0) sendOptions.mentions = mentions;
	const number = await recipientOf.call(this, request, itemIndex);

	const body: IDataObject = { number };
	if (Object.keys(sendOptions).length > 0) body.options = sendOptions;
	body.textMessage = { text: request.text };
	return await postText.call(this, request, body, itemIndex);
}
