import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { splitList } from '../../../shared/lists';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { expectList } from '../../helpers/responses';
import { parseChat, toChatId } from '../../../shared/identifiers';
import type { ChatReference } from '../../../shared/identifiers';
import { collectOffsetPages, returnAllProperties, wantedCount } from '../../helpers/pagination';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';

/** The gateway's default page size for the overview; larger pages are not documented. */
const PAGE_SIZE = 20;

const properties: INodeProperties[] = [
	...sessionFields,
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
					'Only return these chats. Comma-separated phone numbers (with country code), chat IDs (…@c.us), JIDs (…@s.messenger.net), LIDs (…@lid), group IDs (…@g.us) or channel IDs (…@newsletter).',
			},
		],
	},
];

export const description = showOnlyFor('chat', 'getMany', properties);

/** What Get Many was asked for one item, checked before any request. */
export interface GetManyChatsRequest {
	session: string;
	/** How many chats: Infinity for Return All. */
	wanted: number;
	/** Only these chats (none: every chat). */
	chats: ChatReference[];
}

export function readGetManyChats(this: IExecuteFunctions, itemIndex: number): GetManyChatsRequest {
	const session = readSession.call(this, itemIndex);
	const wanted = wantedCount.call(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	// Validate every entry before the first request, so a typo does not cost a half-done run.
	const chats = splitList(filters.chats).map((entry) =>
		parseChat.call(this, entry, 'Chats', itemIndex, ['contact', 'lid', 'group', 'channel']),
	);
	return { session, wanted, chats };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, wanted, chats: filtered } = readGetManyChats.call(this, itemIndex);
	const ids = filtered.map(toChatId);

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
			return expectList.call(this, page, undefined, itemIndex);
		},
		wanted,
		PAGE_SIZE,
	);
	return chats.map((chat) => ({ json: chat }));
}
