import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

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
	if (this.getNodeParameter('returnAll', itemIndex) as boolean) return Infinity;
	const rawLimit = this.getNodeParameter('limit', itemIndex);
	const limit = Number(rawLimit);
	if (!Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(
			this.getNode(),
			`Limit must be a whole number of at least 1 (got "${String(rawLimit)}")`,
			{ itemIndex, description: 'Set Limit, or turn on Return All.' },
		);
	}
	return limit;
}

/**
 * Collects results from an offset-paged endpoint until `wanted` results are in or a page comes
 * back short. `wanted` is Infinity for Return All.
 */
export async function collectOffsetPages(
	fetchPage: (limit: number, offset: number) => Promise<IDataObject[]>,
	wanted: number,
	pageSize: number,
): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	while (results.length < wanted) {
		const limit = Math.min(pageSize, wanted - results.length);
		const page = await fetchPage(limit, results.length);
		results.push(...page);
		if (page.length < limit) break;
	}
	return results.slice(0, wanted);
}

/** Collects results from a cursor-paged endpoint; stops at `wanted` results or when there is no next cursor. */
export async function collectCursorPages(
	fetchPage: (
		limit: number,
		cursor: string,
	) => Promise<{ items: IDataObject[]; nextCursor?: string | null }>,
	wanted: number,
	pageSize: number,
): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	let cursor = '';
	const seenCursors = new Set<string>();
	while (results.length < wanted) {
		const limit = Math.min(pageSize, wanted - results.length);
		const { items, nextCursor } = await fetchPage(limit, cursor);
		results.push(...items);
		// A repeated cursor would loop forever on a misbehaving gateway.
		if (!nextCursor || items.length === 0 || seenCursors.has(nextCursor)) break;
		seenCursors.add(nextCursor);
		cursor = nextCursor;
	}
	return results.slice(0, wanted);
}
