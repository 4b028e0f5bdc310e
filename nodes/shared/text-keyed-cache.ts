/**
 * Values computed from text, kept so that every event need not compute them again (the redaction
 * pattern of a set of secrets, the chats of an Only These Chats list). Keyed by the text itself,
 * never by a node, workflow or execution: a changed parameter or secret is a new key, so an entry
 * is never stale, and two nodes share one only when their text, and so the value, is the same.
 * Bounded: the oldest entry goes when a new one would exceed the limit.
 */
export class TextKeyedCache<T> {
	private readonly entries = new Map<string, T>();

	constructor(private readonly limit: number) {}

	/** The value for `key`, computed by `compute` when it is not kept; a throw keeps nothing. */
	get(key: string, compute: (key: string) => T): T {
		const kept = this.entries.get(key);
		if (kept !== undefined || this.entries.has(key)) return kept as T;
		const value = compute(key);
		if (this.entries.size >= this.limit) {
			const oldest = this.entries.keys().next();
			if (!oldest.done) this.entries.delete(oldest.value);
		}
		this.entries.set(key, value);
		return value;
	}
}
