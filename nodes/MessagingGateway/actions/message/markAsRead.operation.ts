import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { splitList } from '../../../shared/lists';
import { parseFullMessageId } from '../../../shared/identifiers';
import type { FullMessageId } from '../../../shared/identifiers';
import { instanceRequest, messageKey } from '../../helpers/instance-send';
import { fieldError } from '../../helpers/fields';
import { expectObject } from '../../helpers/responses';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';

const properties: INodeProperties[] = [
	...sessionFields,
	{
		displayName: 'Message IDs',
		name: 'messageIds',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. false_5511999999999@c.us_3EB0C767D26A1D3BB2F1',
		description:
			'Full IDs of the received messages to mark as read (blue ticks), as the trigger or Get output them. Several IDs: separate them with commas or new lines, or map a list.',
	},
];

export const description = showOnlyFor('message', 'markAsRead', properties);

/** What Mark as Read was asked for one item: the session and each message once, checked before any request. */
export function readMarkAsRead(
	this: IExecuteFunctions,
	itemIndex: number,
): { session: string; messageIds: FullMessageId[] } {
	const session = readSession.call(this, itemIndex);
	const entries = splitList(this.getNodeParameter('messageIds', itemIndex, ''));
	if (entries.length === 0) {
		throw fieldError.call(
			this,
			itemIndex,
			'Message IDs must name at least one message',
			'Map the full ID of a received message, as the trigger or Get output it.',
		);
	}
	const messageIds = entries.map((entry, index) =>
		parseFullMessageId.call(
			this,
			entry,
			entries.length > 1 ? `Message IDs (entry ${index + 1})` : 'Message IDs',
			itemIndex,
		),
	);
	// The gateway refuses a list with the same message twice.
	return {
		session,
		messageIds: [...new Map(messageIds.map((id) => [id.serialized, id])).values()],
	};
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, messageIds: unique } = readMarkAsRead.call(this, itemIndex);
	const response = await instanceRequest.call(
		this,
		{
			method: 'PUT',
			route: 'chat/markMessageAsRead',
			body: { read_messages: unique.map(messageKey) },
		},
		session,
		itemIndex,
	);
	const answer = expectObject.call(this, response, itemIndex);
	return [{ json: { ...answer, messageIds: unique.map((id) => id.serialized) } }];
}
