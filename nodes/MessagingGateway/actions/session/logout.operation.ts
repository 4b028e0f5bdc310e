import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { isObject } from '../../../shared/values';
import { readSession, sessionFieldsDescribed, showOnlyFor } from '../common/descriptions';
import { responseOr } from '../../helpers/responses';

const properties: INodeProperties[] = [
	...sessionFieldsDescribed(
		'The session, also called instance, to unlink from its phone. It stays on the gateway and can be connected again.',
	),
];

export const description = showOnlyFor('session', 'logout', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	// {status: 'SUCCESS', error: false, response: {message}}; an empty answer still means it was done.
	const answer = responseOr.call(
		this,
		await gatewayApiRequest.call(this, 'DELETE', gatewayPath`/instance/logout/${session}`, {
			itemIndex,
		}),
		{},
		itemIndex,
	);
	const message = isObject(answer.response) ? answer.response.message : undefined;
	return [
		{
			json: {
				session,
				loggedOut: true,
				message: typeof message === 'string' ? message : 'Logged out',
			},
		},
	];
}
