import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { describeValue, isObject } from '../../../shared/values';
import { readSession, sessionFields } from '../common.descriptions';
import { expectObject } from '../../helpers/responses';

const properties: INodeProperties[] = [...sessionFields];

export const description = updateDisplayOptions(
	{ show: { resource: ['session'], operation: ['getConnectionState'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const answer = expectObject.call(
		this,
		await gatewayApiRequest.call(this, 'GET', gatewayPath`/instance/connectionState/${session}`, {
			itemIndex,
		}),
		itemIndex,
	);
	// {instance: {instanceName, state}}: the state is the whole point; an answer without one is no answer.
	const instance = isObject(answer.instance) ? answer.instance : answer;
	if (typeof instance.state !== 'string' || instance.state === '') {
		throw new NodeApiError(this.getNode(), answer as JsonObject, {
			message: `Gateway error: the answer has no connection state (got ${describeValue(answer)})`,
			description:
				'The gateway answered with success but without a state. Check that the Base URL points at the gateway.',
			itemIndex,
		});
	}
	return [{ json: { session: instance.instanceName ?? session, state: instance.state } }];
}
