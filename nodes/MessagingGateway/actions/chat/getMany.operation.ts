import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { parseChat, toChatId } from '../../helpers/identifiers';
import { collectOffsetPages, returnAllProperties } from '../../helpers/pagination';
import { sessionField } from '../common.descriptions';

/** The gateway's default page size for the overview; larger pages are not documented. */
const PAGE_SIZE = 20;

const properties: INodeProperties[] = [
	sessionField,
	...returnAllProperties(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Chats',
				name: 'chats',
				type: 'string',
				default: '',
				placeholder: 'e.g. +55 11 99999-9999, 120363012345678901@g.us',
				description:
					'Only return these chats. Comma-separated phone numbers (with country code), chat IDs (…@c.us), JIDs (…@s.messenger.net), group IDs (…@g.us) or channel IDs (…@newsletter).',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['chat'], operation: ['getMany'] } },
	properties,
);

/** A list typed as "a, b" or given by an expression as an array. */
function listEntries(raw: unknown): unknown[] {
	if (Array.isArray(raw)) return raw;
	if (typeof raw === 'number') return [raw];
	if (typeof raw !== 'string') return [];
	return raw
		.split(/[,;\n]/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

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
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	// Validate every entry before the first request, so a typo does not cost a half-done run.
	const ids = listEntries(filters.chats).map((entry) =>
		toChatId(parseChat.call(this, entry, 'Chats', itemIndex, ['contact', 'group', 'channel'])),
	);

	const chats = await collectOffsetPages(
		async (limit, offset) => {
			const qs: IDataObject = { limit, offset };
			if (ids.length > 0) qs.ids = ids;
			const page = await gatewayApiRequest.call(
				this,
				'GET',
				gatewayPath`/api/${session}/chats/overview`,
				{ qs, itemIndex },
			);
			return Array.isArray(page) ? (page as IDataObject[]) : [];
		},
		wanted,
		PAGE_SIZE,
	);
	return chats.map((chat) => ({ json: chat }));
}
