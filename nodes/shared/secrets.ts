/**
 * Keeping secrets out of what the trigger passes on: the items of an execution, its answers to
 * the gateway and its errors. A secret is any text that lets someone talk to the gateway or
 * forge deliveries: the trigger's token, the credential's API key, an instance's own API key.
 */

import { isObject } from './values';
import { TextKeyedCache } from './text-keyed-cache';

const REDACTED = '[redacted]';

const API_KEY_FIELD = /^(x[-_]?)?api[-_]?key$/i;
/** The lengths of the names API_KEY_FIELD matches ("apikey" to "x-api-key"): other names skip it. */
const API_KEY_FIELD_LENGTHS = { shortest: 6, longest: 9 };

/** "y" and "Y": every name API_KEY_FIELD matches ends with one, so others skip the expression. */
const LOWER_Y = 0x79;
const UPPER_Y = 0x59;

/** Field names that carry an API key (`apikey`, `apiKey`, `api_key`, `x-api-key`…): dropped whole. */
export function isApiKeyField(name: string): boolean {
	if (name.length < API_KEY_FIELD_LENGTHS.shortest || name.length > API_KEY_FIELD_LENGTHS.longest) {
		return false;
	}
	const last = name.charCodeAt(name.length - 1);
	return (last === LOWER_Y || last === UPPER_Y) && API_KEY_FIELD.test(name);
}

/**
 * Own fields are walked with for…in and this check rather than Object.keys (the same names in the
 * same order, without a new list per object): a name the prototype chain adds is skipped.
 */
const hasOwn = Object.prototype.hasOwnProperty;

/** The values of every API key field in `value`, at any depth: secrets wherever else they appear. */
export function apiKeyValues(value: unknown): string[] {
	const found: string[] = [];
	if (typeof value !== 'object' || value === null) return found;
	// Objects and lists only: nothing else holds a field. A stack rather than recursion: nothing
	// here may overflow the stack, whatever the depth.
	const pending: object[] = [value];
	while (pending.length > 0) {
		const current = pending.pop() as object;
		if (Array.isArray(current)) {
			// One by one: spreading a long list into push() would overflow the stack.
			for (const entry of current as unknown[]) {
				if (typeof entry === 'object' && entry !== null) pending.push(entry);
			}
		} else {
			const fields = current as Record<string, unknown>;
			for (const key in fields) {
				if (!hasOwn.call(fields, key)) continue;
				const entry = fields[key];
				if (typeof entry === 'string') {
					if (isApiKeyField(key)) found.push(entry);
				} else if (typeof entry === 'object' && entry !== null) {
					pending.push(entry);
				}
			}
		}
	}
	return found;
}

/**
 * Sets a property of a new plain object as its own data: a name that Object.prototype has
 * ("__proto__", "toString"…) is defined rather than assigned, so it stays plain data, as
 * Object.fromEntries would make it, even under a frozen prototype.
 */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
	// Object.prototype has no prototype: "in" asks for its own names only.
	if (key in Object.prototype) {
		Object.defineProperty(target, key, {
			value,
			writable: true,
			enumerable: true,
			configurable: true,
		});
	} else {
		target[key] = value;
	}
}

function escapeForRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface SecretPattern {
	/** Every form of every secret (global: for replacing all of them). */
	pattern: RegExp;
	/** The same forms, not global: for asking whether a text holds one (no lastIndex to keep). */
	detector: RegExp;
	/** The length of the shortest form: a match is exactly as long as its form, so no shorter text holds one. */
	shortest: number;
}

function secretPattern(secrets: readonly string[]): SecretPattern | undefined {
	const forms = [
		// Each form once (most secrets read the same URL-encoded): the same matches, a shorter pattern.
		...new Set(
			secrets
				.filter((secret) => secret.trim() !== '')
				.flatMap((secret) => [secret, encodeURIComponent(secret)]),
		),
	]
		// Longest first, so a secret that contains another is replaced whole.
		.sort((left, right) => right.length - left.length);
	if (forms.length === 0) return undefined;
	const source = forms.map(escapeForRegExp).join('|');
	return {
		pattern: new RegExp(source, 'gi'),
		detector: new RegExp(source, 'i'),
		shortest: forms[forms.length - 1].length,
	};
}

/**
 * Every delivery to a trigger carries the same secrets, so their pattern is built once, not per
 * event. Keyed by the secrets themselves (as JSON, which keeps ["a,b"] apart from ["a", "b"]).
 */
const secretPatterns = new TextKeyedCache<SecretPattern | undefined>(64);

/**
 * The secrets of the last Redactor and their pattern: consecutive events of a trigger carry the
 * same secrets, found again by comparing them one by one (no key text to build). The secrets are
 * compared by value, like the keys of secretPatterns: a rotated secret is a new set, never stale.
 */
let lastSecrets: readonly string[] = [];
let lastPattern: SecretPattern | undefined;

function sameSecrets(left: readonly string[], right: readonly string[]): boolean {
	if (left.length !== right.length) return false;
	for (let index = 0; index < left.length; index++) {
		if (left[index] !== right[index]) return false;
	}
	return true;
}

function patternOf(secrets: readonly string[]): SecretPattern | undefined {
	if (secrets.length > 0 && sameSecrets(secrets, lastSecrets)) return lastPattern;
	const found = secretPatterns.get(JSON.stringify(secrets), () => secretPattern(secrets));
	// A copy: the caller's list may change after.
	lastSecrets = secrets.slice();
	lastPattern = found;
	return found;
}

/** Whether `value` is an object as JSON makes them (its prototype is Object.prototype). */
function isPlainObject(value: object): boolean {
	return Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * Replaces every occurrence of the secrets in a text, in any letter case and URL-encoded too
 * (a secret inside a URL is often encoded). Blank secrets are ignored.
 */
export class Redactor {
	private readonly secretPattern: SecretPattern | undefined;

	constructor(secrets: readonly string[]) {
		this.secretPattern = patternOf(secrets);
	}

	text(text: string): string {
		const compiled = this.secretPattern;
		// The length first: most names and values are too short to hold a secret.
		return compiled && text.length >= compiled.shortest
			? text.replace(compiled.pattern, REDACTED)
			: text;
	}

	contains(text: string): boolean {
		const compiled = this.secretPattern;
		return (
			compiled !== undefined && text.length >= compiled.shortest && compiled.detector.test(text)
		);
	}

	/**
	 * A deep copy of JSON-like data with every API key field dropped and every secret redacted, in
	 * keys as in values. The caller bounds the depth (deliveries are checked before).
	 */
	data<T>(value: T): T {
		return this.copy(value, new Set()) as T;
	}

	/**
	 * What data() gives for a delivery, built without copying what needs no change: a list or a
	 * plain object in which no field is an API key field and no text (name or value, at any depth)
	 * holds a secret is given back as it is, and a changed one is a new object that keeps the
	 * unchanged parts as they are. Anything else (an object with another prototype) is copied as
	 * data() copies it. Only for data without cycles whose depth the caller has bounded (a
	 * checked delivery): it recurses.
	 */
	cleaned<T>(value: T): T {
		if (typeof value === 'string') return this.text(value) as T;
		return typeof value === 'object' && value !== null ? (this.cleanedObject(value) as T) : value;
	}

	private cleanedObject(value: object): object {
		if (Array.isArray(value)) return this.cleanedList(value as unknown[]);
		if (!isPlainObject(value)) return this.copy(value, new Set()) as object;
		const fields = value as Record<string, unknown>;
		for (const key in fields) {
			if (!hasOwn.call(fields, key)) continue;
			if (isApiKeyField(key) || this.contains(key)) return this.copiedFields(fields, key);
			const entry = fields[key];
			const cleaned = this.cleanedEntry(entry);
			if (cleaned !== entry) return this.copiedFields(fields, key, cleaned);
		}
		return value;
	}

	/** `entry` itself when it needs no change (numbers, booleans, null too), else its cleaned form. */
	private cleanedEntry(entry: unknown): unknown {
		if (typeof entry === 'string') return this.contains(entry) ? this.text(entry) : entry;
		return typeof entry === 'object' && entry !== null ? this.cleanedObject(entry) : entry;
	}

	private cleanedList(list: unknown[]): unknown[] {
		let copy: unknown[] | undefined;
		for (let index = 0; index < list.length; index++) {
			const entry = list[index];
			const cleaned = this.cleanedEntry(entry);
			if (cleaned === entry) continue;
			// slice() keeps the holes of a sparse list, as data() (map) does.
			copy ??= list.slice();
			copy[index] = cleaned;
		}
		return copy ?? list;
	}

	/**
	 * The cleaned copy of a plain object whose field `first` is the first that needs a change (the
	 * fields before it need none); `cleanedFirst` is its cleaned value when its name needs no change.
	 */
	private copiedFields(
		fields: Record<string, unknown>,
		first: string,
		cleanedFirst?: unknown,
	): Record<string, unknown> {
		let apiKeyField: string | undefined;
		// The names from `first` on: those before it are neither API key fields nor hold a secret.
		let checking = false;
		for (const key in fields) {
			if (!hasOwn.call(fields, key)) continue;
			checking ||= key === first;
			if (!checking) continue;
			if (isApiKeyField(key)) {
				if (apiKeyField !== undefined) return this.rebuiltFields(fields);
				apiKeyField = key;
			} else if (this.contains(key)) {
				return this.rebuiltFields(fields);
			}
		}
		// No name changes and at most one field goes (an envelope has its "apikey"): every other
		// field is copied in one step, as own data (a spread defines, it does not assign), then
		// the values that change are replaced, each in its place.
		let copy: Record<string, unknown>;
		if (apiKeyField === undefined) {
			copy = { ...fields };
		} else {
			// The fields without the API key field, defined as own data as a spread defines them
			// (`delete` after a spread would turn the copy into a slow dictionary object).
			copy = {};
			for (const key in fields) {
				if (hasOwn.call(fields, key) && key !== apiKeyField) setOwn(copy, key, fields[key]);
			}
		}
		// In the order of `fields`: the fields before `first` need no change.
		let before = true;
		for (const key in fields) {
			if (!hasOwn.call(fields, key)) continue;
			if (before && key !== first) continue;
			const known = before && cleanedFirst !== undefined;
			before = false;
			if (key === apiKeyField) continue;
			const entry = fields[key];
			const cleaned = known ? cleanedFirst : this.cleanedEntry(entry);
			// Replacing the value of an own data field: assigning is the same as defining here.
			if (cleaned !== entry) copy[key] = cleaned;
		}
		return copy;
	}

	/** The cleaned copy of a plain object built field by field, as data() builds it (names change). */
	private rebuiltFields(fields: Record<string, unknown>): Record<string, unknown> {
		const copy: Record<string, unknown> = {};
		for (const key in fields) {
			if (hasOwn.call(fields, key) && !isApiKeyField(key)) {
				setOwn(copy, this.text(key), this.cleanedEntry(fields[key]));
			}
		}
		return copy;
	}

	private copy(value: unknown, path: Set<object>): unknown {
		if (typeof value === 'string') return this.text(value);
		if (!Array.isArray(value) && !isObject(value)) return value;
		// Error details may point back at themselves; a delivery never does.
		if (path.has(value)) return '[circular]';
		path.add(value);
		let copied: unknown;
		if (Array.isArray(value)) {
			copied = value.map((entry: unknown) => this.copy(entry, path));
		} else {
			const object = value as Record<string, unknown>;
			const copy: Record<string, unknown> = {};
			for (const key of Object.keys(object)) {
				if (!isApiKeyField(key)) setOwn(copy, this.text(key), this.copy(object[key], path));
			}
			copied = copy;
		}
		path.delete(value);
		return copied;
	}

	/** The same error with the secrets redacted from its message, description and details. */
	error<T>(error: T): T {
		if (!(error instanceof Error)) return error;
		const fields = error as unknown as Record<string, unknown>;
		for (const key of new Set([...Object.keys(fields), 'message', 'description', 'stack'])) {
			// The node is n8n's own object (name, parameters), never a gateway answer.
			if (key === 'node') continue;
			const value = fields[key];
			if (value instanceof Error) this.error(value);
			else if (value !== undefined && value !== null) fields[key] = this.data(value);
		}
		return error;
	}
}
