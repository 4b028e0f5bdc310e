import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { responseOr } from '../../helpers/responses';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { readSession, sessionFieldsDescribed, showOnlyFor } from '../common/descriptions';

const properties: INodeProperties[] = [
	...sessionFieldsDescribed(
		'The session, also called instance. Its profile picture is removed; the gateway answers 404 when there is none.',
	),
];

export const description = showOnlyFor('profile', 'deletePicture', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const response = await gatewayApiRequest.call(
		this,
		'DELETE',
		gatewayPath`/api/${session}/profile/picture`,
		{ itemIndex },
	);
	// Nothing useful came back: say what was done.
	return [{ json: responseOr.call(this, response, { success: true }, itemIndex) }];
}
