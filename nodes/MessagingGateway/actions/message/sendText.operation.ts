import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { toChatId, toNumber } from '../../../shared/identifiers';
import {
	delayAndPresence,
	delayOption,
	fullIdFromKey,
	fieldError,
	presenceOption,
	readChat,
	responseObject,
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
import { readQuoted, replyToOption } from '../../helpers/instance-send';

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

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	// Sent as typed (line breaks and indentation matter); a number from an expression becomes text.
	const text = readRequiredText.call(this, 'text', 'Text', itemIndex, {
		keepSpaces: true,
		hint: 'Enter the message to send, or map it from an input field with an expression.',
	});
	const options = readOptions.call(this, itemIndex);

	const sendOptions = delayAndPresence.call(this, itemIndex, options);
	if (options.linkPreview !== undefined) {
		sendOptions.linkPreview = booleanFrom.call(
			this,
			options.linkPreview,
			'Link Preview',
			itemIndex,
		);
	}
	const quoted = readQuoted.call(this, itemIndex, options);
	if (quoted) sendOptions.quoted = quoted;
	const mentions: IDataObject = {};
	if (optionBoolean.call(this, options, 'mentionEveryone', 'Mention Everyone', itemIndex, false)) {
		if (chat.kind !== 'group') {
			throw fieldError.call(
				this,
				itemIndex,
				`Mention Everyone works only in groups, and Chat is a contact (${chat.value})`,
				'Pick a group as Chat, or turn Mention Everyone off.',
			);
		}
		mentions.everyOne = true;
	}
	const mentioned = readPhoneNumbers.call(
		this,
		options.mentionNumbers ?? '',
		'Mention Numbers',
		itemIndex,
	);
	if (mentioned.length > 0) mentions.mentioned = mentioned.map((entry) => entry.number);
	if (Object.keys(mentions).length > 0) sendOptions.mentions = mentions;

	const checkFirst = optionBoolean.call(
		this,
		options,
		'checkNumber',
		'Check the Number First',
		itemIndex,
		false,
	);

	let number = toNumber(chat);
	// Some gateways answer 201 for numbers that are not on the network, and nothing arrives.
	if (checkFirst && chat.kind === 'contact') {
		const [check] = await checkNumbers.call(this, session, [number], itemIndex);
		if (!check.exists) {
			throw new NodeOperationError(
				this.getNode(),
				`Number ${number} is not on the network: nothing was sent`,
				{
					itemIndex,
					description:
						'The gateway says no account uses this number. Check the country code and the area code, or turn off Check the Number First to send anyway.',
				},
			);
		}
		// The JID the network knows, e.g. a Brazilian number with or without its 9th digit.
		if (check.jid !== null) number = check.jid;
	}

	const body: IDataObject = { number };
	if (Object.keys(sendOptions).length > 0) body.options = sendOptions;
	body.textMessage = { text };

	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/message/sendText/${session}`,
		{ body, itemIndex },
	);
	const json = responseObject.call(this, response, itemIndex);
	const messageId = fullIdFromKey(response, toChatId(chat));
	return [{ json: messageId ? { ...json, messageId } : json }];
}
