import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { gatewayApiRequest } from '../../../shared/transport';
import { expectList } from '../../helpers/responses';
import { collectOffsetPages, returnAllProperties, wantedCount } from '../../helpers/pagination';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';

/** The gateway's default page size for contacts; larger pages are not documented. */
const PAGE_SIZE = 100;

const properties: INodeProperties[] = [...sessionFields, ...returnAllProperties()];

export const description = showOnlyFor('contact', 'getMany', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const wanted = wantedCount.call(this, itemIndex);

	const contacts = await collectOffsetPages(
		async (limit, offset) => {
			const response = await gatewayApiRequest.call(this, 'GET', '/api/contacts', {
				qs: { sessionId: session, limit, offset },
				itemIndex,
			});
			return expectList.call(this, response, 'contacts', itemIndex);
		},
		wanted,
		PAGE_SIZE,
	);
	return contacts.map((contact) => ({ json: contact }));
}
