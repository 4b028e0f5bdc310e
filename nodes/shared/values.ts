/** A value as a message shows it: `an object ({"a":1})`, `a list ([1,2])`, `null`, `a number (NaN)`. */
export function describeValue(raw: unknown): string {
	if (raw === null) return 'null';
	if (raw === undefined) return 'nothing';
	if (Array.isArray(raw)) return `a list (${JSON.stringify(raw)})`;
	if (typeof raw === 'object') return `an object (${JSON.stringify(raw)})`;
	return `a ${typeof raw} (${String(raw)})`;
}
