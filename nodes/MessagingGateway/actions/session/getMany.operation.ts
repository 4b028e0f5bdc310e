import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { gatewayApiRequest } from '../../../shared/transport';
import { expectList } from '../../helpers/responses';
import { fetchedInstance } from '../../../shared/session';
import { showOnlyFor } from '../common/descriptions';

const properties: INodeProperties[] = [];

export const description = showOnlyFor('session', 'getMany', properties);

/** Instance fields that are secrets (each instance's own API key), never put in an output item. */
const SECRET_FIELDS = new Set(['apikey', 'token', 'integration']);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	// The same call the credential test and the Session picker make.
	const entries = expectList.call(
		this,
		await gatewayApiRequest.call(this, 'GET', '/instance/fetchInstances', { itemIndex }),
		undefined,
		itemIndex,
	);
	return entries.map((entry) => {
		const instance = fetchedInstance(entry) ?? entry;
		const visible = Object.fromEntries(
			Object.entries(instance).filter(([key]) => !SECRET_FIELDS.has(key.toLowerCase())),
		);
		return {
			json: { session: instance.instanceName ?? instance.name ?? null, ...visible },
		};
	});
}
