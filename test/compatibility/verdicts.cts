/** What the compatibility checks judge (a request as the gateway received it) and what they say. */

export interface SentRequest {
	method: string;
	/** Raw path, still percent-encoded, without the query string. */
	path: string;
	/** Repeated keys become arrays. */
	query: Record<string, string | string[]>;
	/** Parsed JSON body; undefined when there was none. */
	body: unknown;
}

export type Verdict =
	/** `endpoint` is the route as the product names it, e.g. `POST /message/sendText/{instanceName}`. */
	| { outcome: 'accepted'; endpoint: string }
	| { outcome: 'rejected'; endpoint: string; reasons: string[] }
	| { outcome: 'absent'; reason: string };

/** Why a verdict is what it is: the reasons of a rejection, or why the route is absent; none when accepted. */
export function verdictReasons(verdict: Verdict): string[] {
	if (verdict.outcome === 'rejected') return verdict.reasons;
	return verdict.outcome === 'absent' ? [verdict.reason] : [];
}

/** Path segments, percent-decoded: `/api/s/groups/1%40g.us/leave` -> ['api', 's', 'groups', '1@g.us', 'leave']. */
export function pathSegments(path: string): string[] {
	return path
		.split('/')
		.filter((segment) => segment !== '')
		.map((segment) => decodeURIComponent(segment));
}

/**
 * Matches a path against templates such as `/api/{session}/chats/{chatId}`: a `{name}` segment takes
 * any one segment. Of several matches the one with the most literal segments wins, as routers do
 * (`/chats/overview` before `/chats/{chatId}`). Returns the template and the values of its names.
 */
export function matchTemplate(
	path: string,
	templates: string[],
): { template: string; values: Record<string, string> } | undefined {
	const segments = pathSegments(path);
	let best: { template: string; values: Record<string, string>; literals: number } | undefined;
	for (const template of templates) {
		const parts = template.split('/').filter((part) => part !== '');
		if (parts.length !== segments.length) continue;
		const values: Record<string, string> = {};
		let literals = 0;
		const matches = parts.every((part, index) => {
			const name = /^\{(.+)\}$/.exec(part)?.[1];
			if (name === undefined) {
				literals++;
				return part === segments[index];
			}
			values[name] = segments[index];
			return true;
		});
		if (matches && (!best || literals > best.literals)) best = { template, values, literals };
	}
	return best && { template: best.template, values: best.values };
}
