import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { instanceRequest } from '../../helpers/instance-send';
import { CHAT_KINDS, parseChat, toJid } from '../../../shared/identifiers';
import { readShortMessageId } from '../../helpers/message';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { booleanFrom, integerFrom, textFrom } from '../../helpers/fields';

const properties: INodeProperties[] = [
	...sessionFields,
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: 'Without filters, the newest status records of all chats are returned',
		options: [
			{
				displayName: 'Chat',
				name: 'chat',
				type: 'string',
				default: '',
				placeholder: 'e.g. +55 11 99999-9999 or 120363012345678901@g.us',
				description:
					'Only records of this chat: a phone number with country code, a chat ID (…@c.us), a JID (…@s.messenger.net), a LID (…@lid) or a group ID (…@g.us)',
			},
			{
				displayName: 'From Me',
				name: 'fromMe',
				type: 'boolean',
				default: true,
				description:
					'Whether to return only records of messages sent by this account (on) or only of messages received (off)',
			},
			{
				displayName: 'Message ID',
				name: 'messageId',
				type: 'string',
				default: '',
				placeholder: 'e.g. 3EB0C767D26A1D3BB2F1',
				description:
					'Only records of this message: its full ID (false_5511999999999@c.us_3EB0…) or its short ID',
			},
		],
	},
];

export const description = showOnlyFor('message', 'findStatus', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const limit = integerFrom.call(
		this,
		this.getNodeParameter('limit', itemIndex, 50),
		'Limit',
		itemIndex,
		1,
	);

	const where: IDataObject = {};
	const messageId = textFrom.call(this, filters.messageId, 'Message ID', itemIndex).trim();
	if (messageId !== '') {
		where.id = readShortMessageId.call(this, messageId, 'Message ID', itemIndex);
	}
	const chat = textFrom.call(this, filters.chat, 'Chat', itemIndex).trim();
	if (chat !== '') {
		where.remoteJid = toJid(parseChat.call(this, chat, 'Chat', itemIndex, CHAT_KINDS));
	}
	if (filters.fromMe !== undefined) {
		where.fromMe = booleanFrom.call(this, filters.fromMe, 'From Me', itemIndex);
	}

	const response = await instanceRequest.call(
		this,
		{ method: 'POST', route: 'chat/findStatusMessage', body: { where, limit }, read: true },
		session,
		itemIndex,
	);
	// One item per status record; no records, no items (users can turn on "Always Output Data").
	const records = Array.isArray(response)
		? (response as IDataObject[])
		: typeof response === 'object' && response !== null && Object.keys(response).length > 0
			? [response as IDataObject]
			: [];
	return records.map((record) => ({
		json: typeof record === 'object' && record !== null ? record : { value: record },
	}));
}
