/**
 * Plain values as both nodes check and show them. A folder of its own at the bottom of the core:
 * the transport and everything else in nodes/shared read it, and it imports nothing of the package.
 */
import type { IDataObject } from 'n8n-workflow';

/** A plain object (not null, not a list). */
export function isObject<T = Record<string, unknown>>(value: unknown): value is T {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A plain object as data, or undefined when it is none (null, a list, text…). */
export function asObject(value: unknown): IDataObject | undefined {
	return isObject<IDataObject>(value) ? value : undefined;
}

/** A bad value as a message quotes it: text and numbers in quotes, anything else described. */
export function quoteValue(raw: unknown): string {
	return typeof raw === 'string' || typeof raw === 'number'
		? `"${String(raw)}"`
		: describeValue(raw);
}

/** A value as a message shows it: `an object ({"a":1})`, `a list ([1,2])`, `null`, `a number (NaN)`. */
export function describeValue(raw: unknown): string {
	if (raw === null) return 'null';
	if (raw === undefined) return 'nothing';
	if (Array.isArray(raw)) return `a list (${JSON.stringify(raw)})`;
	if (typeof raw === 'object') return `an object (${JSON.stringify(raw)})`;
	return `a ${typeof raw} (${String(raw)})`;
}

/** A WhatsApp label's colour: its number (0 to 19), which Evolution API v2 may store as text. */
export function labelColorNumber(value: unknown): number | null {
	const color = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
	return typeof color === 'number' && Number.isInteger(color) ? color : null;
}

/** Text with something in it besides whitespace. */
export function isNonEmptyText(value: unknown): value is string {
	return typeof value === 'string' && value.trim() !== '';
}

/**
 * A character that shows something: anything but whitespace and the characters that show nothing
 * (zero-width spaces and joiners, word joiner, BOM, soft hyphen). Not global: test() keeps no state.
 */
const VISIBLE = /[^\s\u00AD\u180E\u200B-\u200F\u2028-\u202F\u2060-\u2064\uFEFF]/;

/** Whether a text would show nothing (to a person in a chat, or as a name). */
export function isBlank(text: string): boolean {
	// Asked without building the text with the invisible characters removed.
	return !VISIBLE.test(text);
}

const HTML_ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;',
};

/** Text made safe to put into an HTML page or attribute. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);
}

/**
 * A whole number from `min` to `max` as a number field holds it, typed or from an expression (a
 * number, or its digits as text); undefined for anything else.
 */
export function wholeNumberIn(raw: unknown, min: number, max: number): number | undefined {
	const value = typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
	return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
		? value
		: undefined;
}

/** A time in Unix seconds as gateways give it (a number, or its digits as text); undefined otherwise. */
export function unixSeconds(value: unknown): number | undefined {
	const time = Number(value);
	return Number.isFinite(time) && time > 0 ? time : undefined;
}

/** A time in Unix seconds as an ISO 8601 text in UTC ("2026-12-01T09:30:00.000Z"), or null. */
export function isoTime(value: unknown): string | null {
	const seconds = unixSeconds(value);
	return seconds === undefined ? null : new Date(seconds * 1000).toISOString();
}
