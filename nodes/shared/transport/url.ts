/** Result of checking the credential's Base URL: the normalised URL, or why it is unusable. */
export type BaseUrlCheck = { ok: true; baseUrl: string } | { ok: false; reason: string };

/**
 * Trims spaces and trailing slashes, and insists on http:// or https://, so that
 * "https://gateway.example.com/ " and "https://gateway.example.com" behave the same.
 */
export function normalizeBaseUrl(rawBaseUrl: unknown): BaseUrlCheck {
	const trimmed = typeof rawBaseUrl === 'string' ? rawBaseUrl.trim() : '';
	if (trimmed === '') {
		return { ok: false, reason: 'The credential has no Base URL' };
	}
	if (!/^https?:\/\/[^/\s]+/i.test(trimmed)) {
		return {
			ok: false,
			reason: `The Base URL "${trimmed}" must start with http:// or https://, e.g. https://gateway.example.com`,
		};
	}
	return { ok: true, baseUrl: trimmed.replace(/\/+$/, '') };
}

/** Joins a normalised base URL and an API path with exactly one slash between them. */
export function joinUrl(baseUrl: string, path: string): string {
	return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/**
 * Tagged template for API paths: every interpolated value (session, instance, chat ID,
 * message ID, group ID...) is URL-encoded as one path segment, the literal parts are kept.
 * gatewayPath`/api/${session}/groups/${groupId}/leave` -> /api/my%20session/groups/123%40g.us/leave
 * An empty, `.` or `..` segment would leave its place in the path (`/message/sendText/..` is
 * `/message/`), so it is refused here too, whatever the caller checked before.
 */
export function gatewayPath(
	literals: TemplateStringsArray,
	...segments: Array<string | number>
): string {
	return literals.reduce((path, literal, index) => {
		if (index >= segments.length) return path + literal;
		const segment = String(segments[index]);
		if (segment === '' || segment === '.' || segment === '..') {
			throw new Error(`"${segment}" cannot be used as a name in a gateway path`);
		}
		return path + literal + encodeURIComponent(segment);
	}, '');
}
