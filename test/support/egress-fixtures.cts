/**
 * What the internal-address tests need around n8n's own network layer: names that resolve to
 * chosen addresses (n8n resolves with Node's dns.lookup when its SSRF protection is off), this
 * machine's own name, and an HTTP proxy taken from the environment as n8n takes it.
 */
// The module object itself (not an import's copy of it), so a spy replaces what n8n calls.
import dns = require('node:dns');
import * as os from 'node:os';

type LookupCallback = (
	error: NodeJS.ErrnoException | null,
	addresses: dns.LookupAddress[] | string,
	family?: number,
) => void;

/** Makes each name of `answers` resolve to its addresses (IPv4 or IPv6) until the test ends. */
export function resolveNames(answers: Record<string, string[]>): void {
	const original = dns.lookup;
	jest.spyOn(dns, 'lookup').mockImplementation(((
		hostname: string,
		options: dns.LookupOptions | LookupCallback,
		callback?: LookupCallback,
	) => {
		const done = (typeof options === 'function' ? options : callback) as LookupCallback;
		const addresses = answers[hostname];
		if (!addresses) return (original as (...args: unknown[]) => void)(hostname, options, callback);
		const entries = addresses.map((address) => ({
			address,
			family: address.includes(':') ? 6 : 4,
		}));
		if (typeof options === 'object' && options.all) return done(null, entries);
		return done(null, entries[0].address, entries[0].family);
	}) as typeof dns.lookup);
}

/** This machine's own name, when it resolves to one of its own (internal) addresses. */
export async function ownHostName(): Promise<{ name: string; address: string }> {
	const name = os.hostname();
	const { address } = await dns.promises.lookup(name);
	return { name, address };
}

/** Routes n8n's plain-http requests through `proxyUrl` (not those to loopback) until restored. */
export function useHttpProxy(proxyUrl: string): () => void {
	const names = ['HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'] as const;
	const before = names.map((name) => process.env[name]);
	process.env.HTTP_PROXY = proxyUrl;
	process.env.http_proxy = proxyUrl;
	process.env.NO_PROXY = '127.0.0.1,localhost';
	process.env.no_proxy = '127.0.0.1,localhost';
	return () =>
		names.forEach((name, index) => {
			if (before[index] === undefined) delete process.env[name];
			else process.env[name] = before[index];
		});
}
