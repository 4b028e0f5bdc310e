import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { integerFrom, readBoolean } from './fields';

/** The standard "Return All" / "Limit" pair of a Get Many operation. */
export function returnAllProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** How many results an item asks for: Infinity for Return All, else Limit, checked before any request. */
export function wantedCount(this: IExecuteFunctions, itemIndex: number): number {
	if (readBoolean.call(this, 'returnAll', 'Return All', itemIndex, false)) return Infinity;
	return integerFrom.call(this, this.getNodeParameter('limit', itemIndex), 'Limit', itemIndex, 1);
}

/**
 * At most this many pages per item: a gateway that ignores the paging parameters and always
 * answers full pages must not keep an item running forever.
 */
export const MAX_PAGES = 500;

/**
 * Loops over pages until `wanted` results are in, and stops early on an empty page, a page the
 * gateway already sent (it ignores offset or cursor; the repeat is not added), when there is no
 * next page, or after MAX_PAGES pages. `fetchPage` gets how many results to ask for, the page
 * number and how many results are in, and tells whether there is a next page.
 */
async function collectPages(
	fetchPage: (
		limit: number,
		pageNumber: number,
		collected: number,
	) => Promise<{ items: IDataObject[]; hasNext: boolean }>,
	wanted: number,
	pageSize: number,
): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	const seenPages = new Set<string>();
	for (let pageNumber = 0; pageNumber < MAX_PAGES && results.length < wanted; pageNumber++) {
		const limit = Math.min(pageSize, wanted - results.length);
		const { items, hasNext } = await fetchPage(limit, pageNumber, results.length);
		if (items.length === 0) break;
		const fingerprint = JSON.stringify(items);
		if (seenPages.has(fingerprint)) break;
		seenPages.add(fingerprint);
		results.push(...items);
		if (!hasNext) break;
	}
	return results.slice(0, wanted);
}

/** Collects results from an offset-paged endpoint (see `collectPages` for when it stops). */
export async function collectOffsetPages(
	fetchPage: (limit: number, offset: number) => Promise<IDataObject[]>,
	wanted: number,
	pageSize: number,
): Promise<IDataObject[]> {
	return await collectPages(
		async (limit, _pageNumber, collected) => {
			const items = await fetchPage(limit, collected);
			// Offset paging ends with a page shorter than asked.
			return { items, hasNext: items.length >= limit };
		},
		wanted,
		pageSize,
	);
}

/**
 * Collects results from a cursor-paged endpoint: the gateway chooses its page size, so a short page
 * with a new next cursor goes on; it stops when there is no new next cursor.
 */
export async function collectCursorPages(
	fetchPage: (
		limit: number,
		cursor: string,
	) => Promise<{ items: IDataObject[]; nextCursor?: string | null }>,
	wanted: number,
	pageSize: number,
): Promise<IDataObject[]> {
	let cursor = '';
	const seenCursors = new Set<string>();
	return await collectPages(
		async (limit) => {
			const { items, nextCursor } = await fetchPage(limit, cursor);
			const hasNext = !!nextCursor && !seenCursors.has(nextCursor);
			if (nextCursor) {
				seenCursors.add(nextCursor);
				cursor = nextCursor;
			}
			return { items, hasNext };
		},
		wanted,
		pageSize,
	);
}
