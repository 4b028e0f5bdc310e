import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { splitList } from '../../../shared/lists';
import { gatewayApiRequest, gatewayPath, getRequestBodyStyle } from '../../../shared/transport';
import { collectCursorPages, returnAllProperties, wantedCount } from '../../helpers/pagination';
import { readSession, sessionField } from '../common.descriptions';

/** The gateway's default page size for channel searches. */
const PAGE_SIZE = 50;

const properties: INodeProperties[] = [
	sessionField,
	{
		displayName: 'View',
		name: 'view',
		type: 'options',
		default: 'RECOMMENDED',
		options: [
			{ name: 'New', value: 'NEW', description: 'Newest channels first' },
			{
				name: 'Popular',
				value: 'POPULAR',
				description: 'Channels with the most subscribers first',
			},
			{
				name: 'Recommended',
				value: 'RECOMMENDED',
				description: 'The messaging app\'s "Explore" list',
			},
			{ name: 'Trending', value: 'TRENDING', description: 'Channels gaining attention now first' },
		],
		description: 'Which list of public channels to search',
	},
	{
		displayName: 'Countries',
		name: 'countries',
		type: 'string',
		required: true,
		default: 'US',
		placeholder: 'e.g. US, BR',
		description:
			'Comma-separated two-letter country codes (ISO 3166-1 alpha-2) of the channels to find; at least one',
	},
	{
		displayName: 'Categories',
		name: 'categories',
		type: 'multiOptions',
		default: [],
		options: [
			{ name: 'Business', value: 'BUSINESS' },
			{ name: 'Entertainment', value: 'ENTERTAINMENT' },
			{ name: 'Lifestyle', value: 'LIFESTYLE' },
			{ name: 'Organizations', value: 'ORGANIZATIONS' },
			{ name: 'People', value: 'PEOPLE' },
			{ name: 'Sports', value: 'SPORTS' },
		],
		description: 'Only return channels of these categories. Leave empty for all categories.',
	},
	...returnAllProperties(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['channel'], operation: ['search'] } },
	properties,
);

function readCountries(this: IExecuteFunctions, itemIndex: number): string[] {
	const raw = this.getNodeParameter('countries', itemIndex);
	const countries = splitList(raw).map(String);
	const invalid = countries.filter((country) => !/^[A-Za-z]{2}$/.test(country));
	if (countries.length === 0 || invalid.length > 0) {
		const shown = Array.isArray(raw) ? raw.join(', ') : String(raw ?? '');
		throw new NodeOperationError(
			this.getNode(),
			`Countries must be one or more two-letter country codes like US or BR, separated by commas (got "${shown}")`,
			{
				itemIndex,
				description: 'Use ISO 3166-1 alpha-2 codes, e.g. US, BR, GB, DE, IN.',
			},
		);
	}
	return countries.map((country) => country.toUpperCase());
}

function readView(this: IExecuteFunctions, itemIndex: number): string {
	const raw = this.getNodeParameter('view', itemIndex);
	const view = typeof raw === 'string' ? raw.trim() : '';
	if (!/^[A-Za-z_]+$/.test(view)) {
		throw new NodeOperationError(
			this.getNode(),
			`View must be a view name such as RECOMMENDED, TRENDING, POPULAR or NEW (got "${String(raw ?? '')}")`,
			{ itemIndex, description: 'Pick a view from the list, or clear the expression.' },
		);
	}
	return view.toUpperCase();
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const view = readView.call(this, itemIndex);
	const countries = readCountries.call(this, itemIndex);
	const categories = splitList(this.getNodeParameter('categories', itemIndex, [])).map((category) =>
		String(category).toUpperCase(),
	);
	const wanted = wantedCount.call(this, itemIndex);
	const style = await getRequestBodyStyle.call(this);

	const channels = await collectCursorPages(
		async (limit, startCursor) => {
			// Form 1 (shape A) is flat; form 2 (shape B) nests paging under `page` and spells
			// countries `corntries`, as the gateways that take it do.
			const body: IDataObject =
				style === 'jidSessionId'
					? { view, categories, corntries: countries, page: { limit, startCursor } }
					: { view, countries, categories, limit, startCursor };
			const response = (await gatewayApiRequest.call(
				this,
				'POST',
				gatewayPath`/api/${session}/channels/search/by-view`,
				{ body, itemIndex },
			)) as IDataObject | undefined;
			const page = (response?.page ?? {}) as IDataObject;
			const cursor = page.endCursor ?? response?.nextCursor;
			return {
				items: Array.isArray(response?.channels) ? (response.channels as IDataObject[]) : [],
				nextCursor:
					page.hasNextPage !== false && typeof cursor === 'string' && cursor !== ''
						? cursor
						: undefined,
			};
		},
		wanted,
		PAGE_SIZE,
	);
	return channels.map((channel) => ({ json: channel }));
}
