import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { expectObject, missingFromAnswer, sessionStateOf } from '../../helpers/responses';

const properties: INodeProperties[] = [...sessionFields];

export const description = showOnlyFor('session', 'getConnectionState', properties);

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
	// The state is the whole point; an answer without one is no answer.
	const state = sessionStateOf(answer, session);
	if (typeof state.state !== 'string' || state.state === '') {
		throw missingFromAnswer.call(
			this,
			answer,
			'connection state',
			'The gateway answered with success but without a state. Check that the Base URL points at the gateway.',
			itemIndex,
		);
	}
	return [{ json: state }];
}
