/**
 * Which addresses n8n may fetch a file from when a user's text, an input item or a gateway's
 * answer named the URL: never a loopback, private, link-local, carrier-grade NAT, unique-local or
 * otherwise special address, in any spelling. Decided on addresses (a URL's literal address, or
 * what its host name resolves to), not on how the URL was written: the WHATWG URL parser turns
 * every IPv4 spelling (decimal `2852039166`, octal `0251.0376.0251.0376`, hex `0xa9fea9fe`, short
 * `169.254.43518`) into dotted decimal first, and IPv6 into its compressed form.
 */

interface Range {
	/** The first address of the range, as bytes (4 for IPv4, 16 for IPv6). */
	network: number[];
	prefix: number;
	name: string;
}

function v4(text: string, prefix: number, name: string): Range {
	return { network: parseIpv4(text) as number[], prefix, name };
}

function v6(text: string, prefix: number, name: string): Range {
	return { network: parseIpv6(text) as number[], prefix, name };
}

/** IPv4 ranges no file is fetched from (IANA special-purpose registry, the non-global ones). */
const BLOCKED_IPV4: Range[] = [
	v4('0.0.0.0', 8, '"this network"'),
	v4('10.0.0.0', 8, 'private'),
	v4('100.64.0.0', 10, 'carrier-grade NAT'),
	v4('127.0.0.0', 8, 'loopback'),
	v4('169.254.0.0', 16, 'link-local (cloud metadata)'),
	v4('172.16.0.0', 12, 'private'),
	v4('192.0.0.0', 24, 'IETF protocol assignments'),
	v4('192.0.2.0', 24, 'documentation'),
	v4('192.88.99.0', 24, '6to4 relay'),
	v4('192.168.0.0', 16, 'private'),
	v4('198.18.0.0', 15, 'benchmarking'),
	v4('198.51.100.0', 24, 'documentation'),
	v4('203.0.113.0', 24, 'documentation'),
	v4('224.0.0.0', 4, 'multicast'),
	v4('240.0.0.0', 4, 'reserved'),
];

/** IPv6 ranges no file is fetched from; those that carry an IPv4 address are judged by it too. */
const BLOCKED_IPV6: Range[] = [
	v6('::', 128, 'unspecified'),
	v6('::1', 128, 'loopback'),
	v6('::ffff:0:0', 96, 'IPv4-mapped'),
	v6('::', 96, 'IPv4-compatible'),
	v6('64:ff9b:1::', 48, 'local NAT64'),
	v6('100::', 64, 'discard'),
	v6('2001::', 32, 'Teredo'),
	v6('2001:db8::', 32, 'documentation'),
	v6('fc00::', 7, 'unique-local'),
	v6('fe80::', 10, 'link-local'),
	v6('fec0::', 10, 'site-local'),
	v6('ff00::', 8, 'multicast'),
];

/** IPv6 prefixes whose last or embedded 32 bits are an IPv4 address (NAT64, 6to4). */
const EMBEDDING_IPV4: Array<{ range: Range; at: number }> = [
	{ range: v6('64:ff9b::', 96, 'NAT64'), at: 12 },
	{ range: v6('2002::', 16, '6to4'), at: 2 },
];

/** Host names that are this machine whatever a resolver says (RFC 6761, Debian's /etc/hosts). */
const LOCAL_NAMES = /^(localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)$|\.localhost$/;

/** `a.b.c.d` (each 0–255) as 4 bytes, or undefined. */
export function parseIpv4(text: string): number[] | undefined {
	const parts = text.split('.');
	if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
	const bytes = parts.map(Number);
	return bytes.every((byte) => byte <= 255) ? bytes : undefined;
}

/** An IPv6 address (compressed, with or without an IPv4 tail, no zone) as 16 bytes, or undefined. */
export function parseIpv6(text: string): number[] | undefined {
	let rest = text.toLowerCase();
	const lastColon = rest.lastIndexOf(':');
	if (lastColon === -1) return undefined;
	// An IPv4 tail (`::ffff:127.0.0.1`) is the last two groups written in decimal.
	if (rest.slice(lastColon + 1).includes('.')) {
		const ipv4 = parseIpv4(rest.slice(lastColon + 1));
		if (!ipv4) return undefined;
		const group = (high: number, low: number) => ((high << 8) | low).toString(16);
		rest = `${rest.slice(0, lastColon + 1)}${group(ipv4[0], ipv4[1])}:${group(ipv4[2], ipv4[3])}`;
	}
	const halves = rest.split('::');
	if (halves.length > 2) return undefined;
	const groups = (half: string) => (half === '' ? [] : half.split(':'));
	const head = groups(halves[0]);
	const end = halves.length === 2 ? groups(halves[1]) : [];
	const missing = 8 - head.length - end.length;
	if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
	const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...end];
	if (!all.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
	return all.flatMap((group) => {
		const value = parseInt(group, 16);
		return [value >> 8, value & 0xff];
	});
}

function inRange(bytes: number[], range: Range): boolean {
	if (bytes.length !== range.network.length) return false;
	for (let bit = 0; bit < range.prefix; bit += 8) {
		const mask = range.prefix - bit >= 8 ? 0xff : (0xff << (8 - (range.prefix - bit))) & 0xff;
		const index = bit / 8;
		if ((bytes[index] & mask) !== (range.network[index] & mask)) return false;
	}
	return true;
}

/**
 * Why an address (IPv4 dotted, or IPv6 with or without brackets) is not fetched from, e.g.
 * "loopback"; undefined for a public address and for text that is no address.
 */
export function blockedAddressKind(address: string): string | undefined {
	const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
	const ipv4 = parseIpv4(bare);
	if (ipv4) return BLOCKED_IPV4.find((range) => inRange(ipv4, range))?.name;
	const ipv6 = parseIpv6(bare);
	if (!ipv6) return undefined;
	const blocked = BLOCKED_IPV6.find((range) => inRange(ipv6, range));
	if (blocked) {
		// A mapped or compatible IPv4 address names its IPv4 range when it has one.
		const embedded =
			blocked.prefix === 96 ? blockedAddressKind(ipv6.slice(12).join('.')) : undefined;
		return embedded ? `${blocked.name} ${embedded}` : blocked.name;
	}
	for (const { range, at } of EMBEDDING_IPV4) {
		if (!inRange(ipv6, range)) continue;
		const embedded = blockedAddressKind(ipv6.slice(at, at + 4).join('.'));
		if (embedded) return `${range.name} of ${embedded}`;
	}
	return undefined;
}

/** Whether a URL's host (as the WHATWG parser gives it) is an IP address rather than a name. */
export function isAddressLiteral(hostname: string): boolean {
	const bare = hostname.replace(/^\[(.*)\]$/, '$1');
	return parseIpv4(bare) !== undefined || parseIpv6(bare) !== undefined;
}

/**
 * Why a URL's host is refused before anything is resolved: a literal address in a blocked range,
 * or a name that is this machine by definition; undefined when only its resolved addresses can tell.
 */
export function blockedHostKind(hostname: string): string | undefined {
	const host = hostname.toLowerCase().replace(/\.$/, '');
	if (LOCAL_NAMES.test(host)) return 'loopback (a local name)';
	return blockedAddressKind(host);
}

/** The resolver n8n hands to nodes (2.x: `getSecureEgressFilter`), enforcing n8n's own policy too. */
export type HostLookup = (
	hostname: string,
	options: { all: true },
	callback: (error: Error | null, addresses: Array<{ address: string; family: number }>) => void,
) => void;

/** Where one request goes once its host was judged. */
export interface JudgedTarget {
	/** The URL to request: the address connected to in place of a name. */
	url: string;
	/** The name the request still speaks to (Host header; TLS server name over https). */
	hostHeader?: string;
	servername?: string;
	/** False when n8n offers no resolver (1.x): the address is judged once connected instead. */
	pinned: boolean;
}

export type Judgement =
	| { ok: true; target: JudgedTarget }
	/** `blocked`: an internal address; otherwise the name could not be resolved (`cause`). */
	| { ok: false; reason: string; blocked: boolean; cause?: Error };

function resolveAll(
	lookup: HostLookup,
	hostname: string,
	signal: AbortSignal,
): Promise<Array<{ address: string; family: number }> | Error> {
	return new Promise((resolve) => {
		const onAbort = () => resolve(new Error(`resolving ${hostname} took too long`));
		if (signal.aborted) return onAbort();
		signal.addEventListener('abort', onAbort, { once: true });
		lookup(hostname, { all: true }, (error, addresses) => {
			signal.removeEventListener('abort', onAbort);
			resolve(error ?? addresses);
		});
	});
}

/**
 * Judges a URL n8n is about to fetch on someone's word, before any byte is sent: its literal
 * address, or every address its name resolves to (any internal one refuses the URL, since the
 * connection could use it). The URL returned connects to the judged address itself, so a name
 * that resolves elsewhere the next time (DNS rebinding) cannot move the request.
 */
export async function judgeUrl(
	url: URL,
	lookup: HostLookup | undefined,
	signal: AbortSignal,
): Promise<Judgement> {
	const host = url.hostname;
	const literal = blockedHostKind(host);
	if (literal) return { ok: false, reason: `${host} is a ${literal} address`, blocked: true };
	if (isAddressLiteral(host) || !lookup) {
		return { ok: true, target: { url: url.toString(), pinned: isAddressLiteral(host) } };
	}
	const resolved = await resolveAll(lookup, host, signal);
	if (resolved instanceof Error) {
		return { ok: false, reason: resolved.message, blocked: false, cause: resolved };
	}
	if (resolved.length === 0) {
		return { ok: false, reason: `${host} resolves to no address`, blocked: false };
	}
	for (const { address } of resolved) {
		const kind = blockedAddressKind(address);
		if (kind) {
			return {
				ok: false,
				reason: `${host} resolves to ${address}, a ${kind} address`,
				blocked: true,
			};
		}
	}
	const [first] = resolved;
	const pinned = new URL(url.toString());
	pinned.hostname = first.family === 6 ? `[${first.address}]` : first.address;
	return {
		ok: true,
		target: {
			url: pinned.toString(),
			hostHeader: url.host,
			servername: url.protocol === 'https:' ? host : undefined,
			pinned: true,
		},
	};
}

/** The address a response's connection went to (a stream's socket), if the body shows it. */
export function connectedAddress(body: unknown): string | undefined {
	const socket = (body as { socket?: { remoteAddress?: unknown } } | undefined)?.socket;
	return typeof socket?.remoteAddress === 'string' ? socket.remoteAddress : undefined;
}
