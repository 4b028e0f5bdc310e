import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { labelLocator, readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { notOnTheMessagingGatewayApi, readLabelId } from './labels';

const properties: INodeProperties[] = [...sessionFields, labelLocator];

export const description = showOnlyFor('label', 'delete', properties);

export function readDeleteLabel(this: IExecuteFunctions, itemIndex: number) {
	return { session: readSession.call(this, itemIndex), labelId: readLabelId.call(this, itemIndex) };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	readDeleteLabel.call(this, itemIndex);
	throw notOnTheMessagingGatewayApi.call(this, 'Label → Delete', 'deletes no labels', itemIndex);
}
