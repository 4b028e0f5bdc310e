import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { responseOr } from '../../helpers/responses';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { readSession, sessionFieldsDescribed, showOnlyFor } from '../common/descriptions';

const properties: INodeProperties[] = [
	...sessionFieldsDescribed(
		'The session, also called instance. Its groups are synchronised with the messaging network; gateways may rate-limit frequent refreshes.',
	),
];

export const description = showOnlyFor('group', 'refresh', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/api/${session}/groups/refresh`,
		{ itemIndex },
	);
	// Some gateways answer {success, message, count}, others a bare `true` or nothing at all.
	return [
		{
			json: responseOr.call(
				this,
				response,
				{
					success: typeof response === 'boolean' ? response : true,
					session,
				},
				itemIndex,
			),
		},
	];
}
