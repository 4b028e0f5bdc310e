import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { splitList } from '../../../shared/lists';
import { gatewayApiRequest, gatewayPath, gatewayStyledRequest } from '../../../shared/transport';
import type { RequestBodyStyle } from '../../../shared/transport';
import { collectCursorPages, returnAllProperties, wantedCount } from '../../helpers/pagination';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { optionFrom } from '../../helpers/fields';
import { expectList } from '../../helpers/responses';

/** The gateway's default page size for channel searches. */
const PAGE_SIZE = 50;

const VIEW_OPTIONS = [
	{ name: 'New', value: 'NEW', description: 'Newest channels first' },
	{ name: 'Popular', value: 'POPULAR', description: 'Channels with the most subscribers first' },
	{
		name: 'Recommended',
		value: 'RECOMMENDED',
		description: 'The messaging app\'s "Explore" list',
	},
	{ name: 'Trending', value: 'TRENDING', description: 'Channels gaining attention now first' },
];

const CATEGORY_OPTIONS = [
	{ name: 'Business', value: 'BUSINESS' },
	{ name: 'Entertainment', value: 'ENTERTAINMENT' },
	{ name: 'Lifestyle', value: 'LIFESTYLE' },
	{ name: 'Organizations', value: 'ORGANIZATIONS' },
	{ name: 'People', value: 'PEOPLE' },
	{ name: 'Sports', value: 'SPORTS' },
];

/**
 * One of `options` in any letter case (expressions often give "recommended"), as its value; the
 * error shows the value as it came.
 */
function readListedValue(
	this: IExecuteFunctions,
	raw: unknown,
	displayName: string,
	itemIndex: number,
	options: ReadonlyArray<{ value: string }>,
): string {
	const allowed = options.map((option) => option.value);
	const upper = typeof raw === 'string' ? raw.trim().toUpperCase() : raw;
	return optionFrom.call(
		this,
		allowed.includes(upper as string) ? upper : raw,
		displayName,
		itemIndex,
		allowed,
	);
}

const properties: INodeProperties[] = [
	...sessionFields,
	{
		displayName: 'View',
		name: 'view',
		type: 'options',
		default: 'RECOMMENDED',
		options: VIEW_OPTIONS,
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
		options: CATEGORY_OPTIONS,
		description: 'Only return channels of these categories. Leave empty for all categories.',
	},
	...returnAllProperties(),
];

export const description = showOnlyFor('channel', 'search', properties);

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
	return readListedValue.call(
		this,
		this.getNodeParameter('view', itemIndex),
		'View',
		itemIndex,
		VIEW_OPTIONS,
	);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const view = readView.call(this, itemIndex);
	const countries = readCountries.call(this, itemIndex);
	const categories = splitList(this.getNodeParameter('categories', itemIndex, [])).map((category) =>
		readListedValue.call(this, category, 'Categories', itemIndex, CATEGORY_OPTIONS),
	);
	const wanted = wantedCount.call(this, itemIndex);
	const path = gatewayPath`/api/${session}/channels/search/by-view`;
	// Form 1 (shape A) is flat; form 2 (shape B) nests paging under `page` and spells countries
	// `corntries`, as the gateways that take it do.
	const bodyFor = (style: RequestBodyStyle, limit: number, startCursor?: string): IDataObject =>
		style === 'jidSessionId'
			? { view, categories, corntries: countries, page: { limit, startCursor } }
			: { view, countries, categories, limit, startCursor };
	// The first page settles the body style (detected when the credential says so); the rest follow it.
	let style: RequestBodyStyle | undefined;

	const channels = await collectCursorPages(
		async (limit, startCursor) => {
			let response: unknown;
			if (style === undefined) {
				({ response, style } = await gatewayStyledRequest.call(
					this,
					'POST',
					path,
					(firstStyle) => bodyFor(firstStyle, limit, startCursor),
					{ itemIndex, read: true },
				));
			} else {
				response = await gatewayApiRequest.call(this, 'POST', path, {
					body: bodyFor(style, limit, startCursor),
					itemIndex,
					read: true,
				});
			}
			const items = expectList.call(this, response, 'channels', itemIndex);
			const answer = response as IDataObject;
			const page = (answer.page ?? {}) as IDataObject;
			const cursor = page.endCursor ?? answer.nextCursor;
			return {
				items,
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
