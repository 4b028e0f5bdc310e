import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { itemParameter } from '../../shared/parameters';
import { describeValue, isBlank, quoteValue } from '../../shared/values';

/**
 * Readers for field values as n8n hands them over: typed in, or produced by an expression (a
 * number, a boolean, an object, null…). Each accepts what can honestly mean the field's type and
 * refuses the rest before any request, naming the field as the user sees it.
 */

/** A validation error (thrown before any request) whose message names the field. */
export function fieldError(
	this: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(this.getNode(), message, { itemIndex, description });
}

/** Text: a string as it is, a number or boolean as text, nothing as ''; an object or list is refused. */
export function textFrom(
	this: IExecuteFunctions,
	raw: unknown,
	displayName: string,
	itemIndex: number,
): string {
	if (raw === undefined || raw === null) return '';
	if (typeof raw === 'string') return raw;
	if (typeof raw === 'number' || typeof raw === 'boolean' || typeof raw === 'bigint') {
		return String(raw);
	}
	throw fieldError.call(
		this,
		itemIndex,
		`${displayName} must be text (got ${describeValue(raw)})`,
		'Map a single text field with the expression, not a whole object or list.',
	);
}

/** The text of a parameter (see `textFrom`), trimmed unless `keepSpaces`. */
export function readText(
	this: IExecuteFunctions,
	name: string,
	displayName: string,
	itemIndex: number,
	keepSpaces = false,
): string {
	const text = textFrom.call(
		this,
		this.getNodeParameter(name, itemIndex, ''),
		displayName,
		itemIndex,
	);
	return keepSpaces ? text : text.trim();
}

/**
 * An operation's Options collection for an item: read once per run when it holds no expression
 * (see `itemParameter`), so callers only read it, never change it.
 */
export function readOptions(this: IExecuteFunctions, itemIndex: number): IDataObject {
	return itemParameter.call(this, 'options', itemIndex, {}, false) as IDataObject;
}

/**
 * The text of a parameter that must hold something (see `readText`): blank, or only invisible
 * characters, is refused before any request as "<field> must not be empty", with `hint` saying
 * what to enter.
 */
export function readRequiredText(
	this: IExecuteFunctions,
	name: string,
	displayName: string,
	itemIndex: number,
	options: { hint?: string; keepSpaces?: boolean } = {},
): string {
	const text = readText.call(this, name, displayName, itemIndex, options.keepSpaces);
	if (isBlank(text)) {
		throw fieldError.call(this, itemIndex, `${displayName} must not be empty`, options.hint);
	}
	return text;
}

export { isBlank } from '../../shared/values';

/** A yes/no: true or false, or the text "true"/"false" an expression may give; anything else is refused. */
export function booleanFrom(
	this: IExecuteFunctions,
	raw: unknown,
	displayName: string,
	itemIndex: number,
): boolean {
	if (typeof raw === 'boolean') return raw;
	if (typeof raw === 'string' && /^(true|false)$/i.test(raw.trim())) {
		return raw.trim().toLowerCase() === 'true';
	}
	throw fieldError.call(
		this,
		itemIndex,
		`${displayName} must be true or false (got ${quoteValue(raw)})`,
	);
}

/** A yes/no parameter (see `booleanFrom`), `fallback` when it is not set. */
export function readBoolean(
	this: IExecuteFunctions,
	name: string,
	displayName: string,
	itemIndex: number,
	fallback: boolean,
): boolean {
	return booleanFrom.call(
		this,
		this.getNodeParameter(name, itemIndex, fallback),
		displayName,
		itemIndex,
	);
}

/** One of the allowed values, compared as typed. */
export function optionFrom<T extends string>(
	this: IExecuteFunctions,
	raw: unknown,
	displayName: string,
	itemIndex: number,
	allowed: readonly T[],
): T {
	const text = typeof raw === 'string' ? raw.trim() : undefined;
	if (text !== undefined && (allowed as readonly string[]).includes(text)) return text as T;
	throw fieldError.call(
		this,
		itemIndex,
		`${displayName} must be one of ${allowed.join(', ')} (got ${quoteValue(raw)})`,
	);
}

/** Plain decimal notation only: no hex (0x1A), binary, exponent-free Infinity or empty text. */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A decimal number within [min, max]: a finite number, or text in plain decimal notation. */
export function decimalFrom(
	this: IExecuteFunctions,
	raw: unknown,
	displayName: string,
	itemIndex: number,
	range: { min: number; max: number },
): number {
	const value =
		typeof raw === 'number'
			? raw
			: typeof raw === 'string' && DECIMAL.test(raw.trim())
				? Number(raw.trim())
				: Number.NaN;
	if (!Number.isFinite(value) || value < range.min || value > range.max) {
		throw fieldError.call(
			this,
			itemIndex,
			`${displayName} must be a decimal number between ${range.min} and ${range.max} (got ${quoteValue(raw)})`,
			'Use a dot as the decimal separator, e.g. -23.5505.',
		);
	}
	return value;
}

/** A yes/no from an Options collection (see `booleanFrom`); `fallback` when the option is not added. */
export function optionBoolean(
	this: IExecuteFunctions,
	options: IDataObject,
	key: string,
	displayName: string,
	itemIndex: number,
	fallback: boolean,
): boolean {
	const raw = options[key];
	return raw === undefined ? fallback : booleanFrom.call(this, raw, displayName, itemIndex);
}

/** A whole number of at least `min`: an integer, or text of digits only (no 0x10, 1e3 or 2.0). */
export function integerFrom(
	this: IExecuteFunctions,
	raw: unknown,
	displayName: string,
	itemIndex: number,
	min: number,
): number {
	const value =
		typeof raw === 'number'
			? raw
			: typeof raw === 'string' && /^\+?\d+$/.test(raw.trim())
				? Number(raw.trim())
				: Number.NaN;
	if (!Number.isSafeInteger(value) || value < min) {
		throw fieldError.call(
			this,
			itemIndex,
			`${displayName} must be a whole number of at least ${min} (got ${quoteValue(raw)})`,
		);
	}
	return value;
}

/**
 * The entries of a fixed collection with multiple values (`{ <key>: [...] }`), or a list an
 * expression gave instead; each entry as an object (anything else as an empty one, so each field
 * check names what is missing). Refuses an empty one with `emptyMessage`, which names the field.
 */
export function collectionEntries(
	this: IExecuteFunctions,
	raw: unknown,
	key: string,
	itemIndex: number,
	emptyMessage: string,
	hint: string,
): IDataObject[] {
	const entries = Array.isArray(raw)
		? raw
		: (((raw as IDataObject | undefined)?.[key] as unknown[] | undefined) ?? []);
	if (!Array.isArray(entries) || entries.length === 0) {
		throw fieldError.call(this, itemIndex, emptyMessage, hint);
	}
	return entries.map((entry) =>
		typeof entry === 'object' && entry !== null && !Array.isArray(entry)
			? (entry as IDataObject)
			: {},
	);
}
