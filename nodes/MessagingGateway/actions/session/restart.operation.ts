import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { instanceRequest } from '../../helpers/instance-send';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { responseOr, sessionStateOf } from '../../helpers/responses';

const properties: INodeProperties[] = [...sessionFields];

export const description = showOnlyFor('session', 'restart', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	// Nothing at all still says which session restarted; a list or a text is no answer.
	const response = responseOr.call(
		this,
		await instanceRequest.call(
			this,
			{ method: 'PUT', route: 'instance/restart' },
			session,
			itemIndex,
		),
		{},
		itemIndex,
	);
	return [{ json: sessionStateOf(response, session) }];
}
