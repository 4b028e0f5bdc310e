import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ChatReference } from '../../../shared/identifiers';
import { fieldError, readText } from '../../helpers/fields';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { audienceFields, readAudience } from './post.operation';

const properties: INodeProperties[] = [
	...sessionFields,
	{
		displayName: 'Status ID',
		name: 'statusId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3EB0C767D26A1D3BB2F1',
		description: 'The ID of the status to take down, as Post outputs it (field Status ID)',
	},
	...audienceFields.map((property) => ({
		...property,
		description:
			property.name === 'audience'
				? 'Who the status was posted to: the same contacts it went to'
				: property.description,
	})),
];

export const description = showOnlyFor('status', 'delete', properties);

export interface DeleteStatusRequest {
	session: string;
	statusId: string;
	/** The contacts it was posted to; undefined for all contacts. */
	contacts?: ChatReference[];
}

export function readDeleteStatus(this: IExecuteFunctions, itemIndex: number): DeleteStatusRequest {
	const session = readSession.call(this, itemIndex);
	const statusId = readText.call(this, 'statusId', 'Status ID', itemIndex);
	if (!/^[\w.@-]+$/.test(statusId)) {
		throw fieldError.call(
			this,
			itemIndex,
			`Status ID must be the ID Post gave the status, e.g. 3EB0C767D26A1D3BB2F1 (got "${statusId}")`,
			'Map the Status ID field of the Post operation that posted it.',
		);
	}
	return { session, statusId, contacts: readAudience.call(this, itemIndex) };
}

/** The Messaging Gateway API, like Evolution API v1 whose routes it takes, has no way to delete a status. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	readDeleteStatus.call(this, itemIndex);
	throw new NodeOperationError(
		this.getNode(),
		'Status → Delete is not available on the Messaging Gateway API: it has no route to take a status down',
		{
			itemIndex,
			description:
				'WAHA deletes statuses (NOWEB and GOWS engines): pick that Gateway in the credential if your server is WAHA. On WhatsApp a status disappears by itself after 24 hours.',
		},
	);
}
