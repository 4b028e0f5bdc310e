import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { labelLocator, readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { notOnTheMessagingGatewayApi, readLabelId } from './labels';

const properties: INodeProperties[] = [...sessionFields, labelLocator];

export const description = showOnlyFor('label', 'getChats', properties);

export function readGetChats(this: IExecuteFunctions, itemIndex: number) {
	return { session: readSession.call(this, itemIndex), labelId: readLabelId.call(this, itemIndex) };
}

/** The Messaging Gateway API, like Evolution API v1 whose routes it takes, lists no chats by label. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	readGetChats.call(this, itemIndex);
	throw notOnTheMessagingGatewayApi.call(
		this,
		'Label → Get Chats',
		'has no route that lists the chats with a label',
		itemIndex,
	);
}
