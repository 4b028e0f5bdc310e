/**
 * The message the trigger received, as the operations that act on a chat's history take it (Combine
 * Rapid Messages, Pause While a Person Answers): the session and the message's full ID, which
 * names the chat and whether the account sent it.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { parseFullMessageId } from '../../../shared/identifiers';
import type { FullMessageId } from '../../../shared/identifiers';
import { readSession, sessionFields } from '../common/descriptions';

/** The session's fields, then Message ID (the trigger's item's own, by default): `purpose` (no final period) ends its description. */
export function receivedMessageFields(purpose: string): INodeProperties[] {
	return [
		...sessionFields,
		{
			displayName: 'Message ID',
			name: 'messageId',
			type: 'string',
			required: true,
			default: '={{ $json.messageId }}',
			placeholder: 'e.g. false_5511999999999@c.us_3EB0C767D26A1D3BB2F1',
			description: `Full ID of the message the trigger received (its Message ID field). ${purpose}.`,
		},
	];
}

/** The session and the received message's full ID, checked before any request. */
export function readReceivedMessage(
	this: IExecuteFunctions,
	itemIndex: number,
): { session: string; messageId: FullMessageId } {
	return {
		session: readSession.call(this, itemIndex),
		messageId: parseFullMessageId.call(
			this,
			this.getNodeParameter('messageId', itemIndex, ''),
			'Message ID',
			itemIndex,
		),
	};
}
