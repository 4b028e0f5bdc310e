import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { FullMessageId } from '../../../shared/identifiers';
import {
	instanceRequest,
	fullMessageIdField,
	messageKey,
	readFullMessageId,
} from '../../helpers/instance-send';
import { chatIdToJid, fieldError } from '../../helpers/message';
import { expectObject } from '../../helpers/responses';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';

const properties: INodeProperties[] = [
	...sessionFields,
	fullMessageIdField(
		'The message to delete for everyone: one you sent, or in a group you administer one a member sent',
	),
];

export const description = showOnlyFor('message', 'deleteForEveryone', properties);

/** What Delete for Everyone was asked for one item: a message that can be deleted, checked before any request. */
export function readDeleteForEveryone(
	this: IExecuteFunctions,
	itemIndex: number,
): { session: string; messageId: FullMessageId } {
	const session = readSession.call(this, itemIndex);
	const messageId = readFullMessageId.call(this, itemIndex);
	if (!messageId.fromMe && !messageId.chatId.endsWith('@g.us')) {
		throw fieldError.call(
			this,
			itemIndex,
			`Message ID ${messageId.serialized} is a message you received: only your own messages can be deleted for everyone`,
			"In a group you administer, members' messages can be deleted too; in a chat with a contact only yours.",
		);
	}
	return { session, messageId };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, messageId } = readDeleteForEveryone.call(this, itemIndex);
	const { participant } = messageId;
	const body = {
		...messageKey(messageId),
		...(participant ? { participant: chatIdToJid(participant) } : {}),
	};
	const response = await instanceRequest.call(
		this,
		{ method: 'DELETE', route: 'chat/deleteMessageForEveryone', body },
		session,
		itemIndex,
	);
	return [
		{
			json: { ...expectObject.call(this, response, itemIndex), deleted: messageId.serialized },
		},
	];
}
