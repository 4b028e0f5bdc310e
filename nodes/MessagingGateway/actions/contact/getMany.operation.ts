import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { gatewayApiRequest } from '../../../shared/transport';
import { collectOffsetPages, returnAllProperties } from '../../helpers/pagination';
import { sessionField } from '../common.descriptions';

/** The gateway's default page size for contacts; larger pages are not documented. */
const PAGE_SIZE = 100;

const properties: INodeProperties[] = [sessionField, ...returnAllProperties()];

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['getMany'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = this.getNodeParameter('session', itemIndex) as string;
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const rawLimit = returnAll ? Infinity : this.getNodeParameter('limit', itemIndex);
	const wanted = Number(rawLimit);
	if (!returnAll && (!Number.isInteger(wanted) || wanted < 1)) {
		throw new NodeOperationError(
			this.getNode(),
			`Limit must be a whole number of at least 1 (got "${String(rawLimit)}")`,
			{ itemIndex, description: 'Set Limit, or turn on Return All.' },
		);
	}

	const contacts = await collectOffsetPages(
		async (limit, offset) => {
			const response = (await gatewayApiRequest.call(this, 'GET', '/api/contacts', {
				qs: { sessionId: session, limit, offset },
				itemIndex,
			})) as IDataObject | undefined;
			return Array.isArray(response?.contacts) ? (response.contacts as IDataObject[]) : [];
		},
		wanted,
		PAGE_SIZE,
	);
	return contacts.map((contact) => ({ json: contact }));
}
