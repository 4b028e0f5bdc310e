import type { IDataObject, INodeListSearchItems } from 'n8n-workflow';

import { isObject } from './values';

/**
 * A list as people give it: "a, b; c" or one entry per line in a text field, or an array from an
 * expression. Entries are trimmed; empty ones are dropped.
 */
export function splitList(raw: unknown): unknown[] {
	const entries = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[,;\n]/) : [raw];
	return entries
		.map((entry) => (typeof entry === 'string' ? entry.trim() : entry))
		.filter((entry) => entry !== '' && entry !== undefined && entry !== null);
}

/** Whether any of `texts` contains the list filter a user typed, in any letter case; no filter matches all. */
export function matchesFilter(filter: string | undefined, ...texts: unknown[]): boolean {
	const needle = filter?.trim().toLowerCase();
	if (!needle) return true;
	return texts.some((text) => typeof text === 'string' && text.toLowerCase().includes(needle));
}

/** A picker entry shown as `<label> (<value>)`, or the value alone when there is no label. */
export function listItem(label: unknown, value: string): INodeListSearchItems {
	return {
		name: typeof label === 'string' && label !== '' ? `${label} (${value})` : value,
		value,
	};
}

/** Entries a picker page asks for, on the gateways whose lists are paged. */
export const PICKER_PAGE_SIZE = 50;

/** The rows of a picker's list answer; anything else lists nothing (the picker shows an empty list). */
export function pickerRows(answer: unknown): IDataObject[] {
	return Array.isArray(answer) ? answer.filter((row) => isObject<IDataObject>(row)) : [];
}

/** The next picker page's token (its offset) when this page was full. */
export function nextPickerPage(rows: unknown[], offset: number): string | undefined {
	return rows.length === PICKER_PAGE_SIZE ? String(offset + PICKER_PAGE_SIZE) : undefined;
}
