import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { readSession, sessionFieldsDescribed, showOnlyFor } from '../common/descriptions';
import { expectObject } from '../../helpers/responses';

const properties: INodeProperties[] = [
	{
		displayName:
			'Many gateways do not implement this operation yet and answer "501 Not Implemented". The run then fails with that error.',
		name: 'notImplementedNotice',
		type: 'notice',
		default: '',
	},
	...sessionFieldsDescribed(
		"The session, also called instance. Returns the account's chat ID, display name and picture URL.",
	),
];

export const description = showOnlyFor('profile', 'get', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	// A gateway without this operation answers 501; the transport turns it into a clear error.
	const response = await gatewayApiRequest.call(this, 'GET', gatewayPath`/api/${session}/profile`, {
		itemIndex,
	});
	return [{ json: expectObject.call(this, response, itemIndex) }];
}
