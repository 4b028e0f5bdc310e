/** Result of checking the credential's Base URL: the normalised URL, or why it is unusable. */
export type BaseUrlCheck =
	| { ok: true; baseUrl: string; origin: string; secrets: string[] }
	| { ok: false; reason: string };

/** The Base URL with any `user:password@` shown as `user:***@`, for messages. */
export function displayUrl(url: string): string {
	return url.replace(/^(https?:\/\/)([^/@\s]*)@/i, (_match, scheme: string, userInfo: string) => {
		const user = userInfo.split(':')[0];
		return `${scheme}${user ? `${user}:` : ''}***@`;
	});
}

/**
 * Trims spaces and trailing slashes, and insists on http:// or https:// with a host and no query or
 * fragment (the API paths are appended to it, so "https://gw.example.com/?x=1" would break every
 * one of them). A `user:password@` part is allowed; its password is returned among the secrets to
 * keep out of every message.
 */
export function normalizeBaseUrl(rawBaseUrl: unknown): BaseUrlCheck {
	const trimmed = typeof rawBaseUrl === 'string' ? rawBaseUrl.trim() : '';
	if (trimmed === '') {
		return { ok: false, reason: 'The credential has no Base URL' };
	}
	const shown = displayUrl(trimmed);
	let parsed: URL | undefined;
	try {
		parsed = new URL(trimmed);
	} catch {
		parsed = undefined;
	}
	if (
		!parsed ||
		!/^https?:$/.test(parsed.protocol) ||
		parsed.hostname === '' ||
		/\s/.test(trimmed)
	) {
		return {
			ok: false,
			reason: `The Base URL "${shown}" must start with http:// or https:// and name a host, e.g. https://gateway.example.com`,
		};
	}
	if (parsed.search !== '' || parsed.hash !== '' || /[?#]/.test(trimmed)) {
		return {
			ok: false,
			reason: `The Base URL "${shown}" must not contain a query (?…) or a fragment (#…): use the root URL of the gateway, e.g. https://gateway.example.com`,
		};
	}
	const secrets = [parsed.password, safeDecode(parsed.password)].filter((secret) => secret !== '');
	return { ok: true, baseUrl: trimmed.replace(/\/+$/, ''), origin: parsed.origin, secrets };
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
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
