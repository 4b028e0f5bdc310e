import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { classifyChat, toNumber } from '../../../shared/identifiers';
import type { FullMessageId } from '../../../shared/identifiers';
import {
	instanceRequest,
	fullMessageIdField,
	messageKey,
	readFullMessageId,
} from '../../helpers/instance-send';
import { fieldError } from '../../helpers/message';
import { readRequiredText } from '../../helpers/fields';
import { expectObject } from '../../helpers/responses';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';

const properties: INodeProperties[] = [
	...sessionFields,
	fullMessageIdField('The text message you sent and want to change'),
	{
		displayName: 'New Text',
		name: 'text',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		placeholder: 'e.g. Your order #1042 is ready for pickup until 6pm.',
		description:
			'The text that replaces the message. The chat marks it as edited; the network allows edits for about 15 minutes after sending.',
	},
];

export const description = showOnlyFor('message', 'edit', properties);

/** What Edit was asked for one item: a message of yours and its new text, checked before any request. */
export function readEdit(
	this: IExecuteFunctions,
	itemIndex: number,
): { session: string; messageId: FullMessageId; text: string } {
	const session = readSession.call(this, itemIndex);
	const messageId = readFullMessageId.call(this, itemIndex);
	if (!messageId.fromMe) {
		throw fieldError.call(
			this,
			itemIndex,
			`Message ID ${messageId.serialized} is a message you received: only messages you sent can be edited`,
			'Use the ID a send operation output (it starts with true_).',
		);
	}
	const text = readRequiredText.call(this, 'text', 'New Text', itemIndex, {
		keepSpaces: true,
		hint: 'To remove a message, use Delete for Everyone.',
	});
	return { session, messageId, text };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, messageId, text } = readEdit.call(this, itemIndex);
	const chat = classifyChat(messageId.chatId);
	const body = {
		number: chat ? toNumber(chat) : messageId.chatId,
		text,
		key: messageKey(messageId),
	};
	const response = await instanceRequest.call(
		this,
		{ method: 'PUT', route: 'chat/updateMessage', body },
		session,
		itemIndex,
	);
	return [
		{ json: { ...expectObject.call(this, response, itemIndex), messageId: messageId.serialized } },
	];
}
