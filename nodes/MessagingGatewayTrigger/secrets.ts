/**
 * Keeping secrets out of what the trigger passes on: the items of an execution, its answers to
 * the gateway and its errors. A secret is any text that lets someone talk to the gateway or
 * forge deliveries: the trigger's token, the credential's API key, an instance's own API key.
 */

import { isObject } from '../shared/values';

const REDACTED = '[redacted]';

/** Field names that carry an API key (`apikey`, `apiKey`, `api_key`, `x-api-key`…): dropped whole. */
export function isApiKeyField(name: string): boolean {
	return /^(x[-_]?)?api[-_]?key$/i.test(name);
}

/** The values of every API key field in `value`, at any depth: secrets wherever else they appear. */
export function apiKeyValues(value: unknown): string[] {
	const found: string[] = [];
	const pending: unknown[] = [value];
	// A queue rather than recursion: nothing here may overflow the stack, whatever the depth.
	while (pending.length > 0) {
		const current = pending.pop();
		if (Array.isArray(current)) {
			pending.push(...(current as unknown[]));
		} else if (isObject(current)) {
			for (const [key, entry] of Object.entries(current)) {
				if (isApiKeyField(key) && typeof entry === 'string') found.push(entry);
				else pending.push(entry);
			}
		}
	}
	return found;
}

function escapeForRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Replaces every occurrence of the secrets in a text, in any letter case and URL-encoded too
 * (a secret inside a URL is often encoded). Blank secrets are ignored.
 */
export class Redactor {
	private readonly pattern: RegExp | undefined;

	constructor(secrets: readonly string[]) {
		const forms = secrets
			.filter((secret) => secret.trim() !== '')
			.flatMap((secret) => [secret, encodeURIComponent(secret)])
			// Longest first, so a secret that contains another is replaced whole.
			.sort((left, right) => right.length - left.length)
			.map(escapeForRegExp);
		this.pattern = forms.length > 0 ? new RegExp(forms.join('|'), 'gi') : undefined;
	}

	text(text: string): string {
		return this.pattern ? text.replace(this.pattern, REDACTED) : text;
	}

	contains(text: string): boolean {
		if (!this.pattern) return false;
		this.pattern.lastIndex = 0;
		const found = this.pattern.test(text);
		this.pattern.lastIndex = 0;
		return found;
	}

	/**
	 * A deep copy of JSON-like data with every API key field dropped and every secret redacted, in
	 * keys as in values. The caller bounds the depth (deliveries are checked before).
	 */
	data<T>(value: T): T {
		return this.copy(value, new Set()) as T;
	}

	private copy(value: unknown, path: Set<object>): unknown {
		if (typeof value === 'string') return this.text(value);
		if (!Array.isArray(value) && !isObject(value)) return value;
		// Error details may point back at themselves; a delivery never does.
		if (path.has(value)) return '[circular]';
		path.add(value);
		const copied = Array.isArray(value)
			? value.map((entry: unknown) => this.copy(entry, path))
			: // fromEntries defines own properties, so a "__proto__" key stays plain data.
				Object.fromEntries(
					Object.entries(value)
						.filter(([key]) => !isApiKeyField(key))
						.map(([key, entry]) => [this.text(key), this.copy(entry, path)]),
				);
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
