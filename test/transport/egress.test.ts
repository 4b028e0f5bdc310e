/**
 * The address rule for files n8n fetches on a user's, an item's or a gateway's word: every
 * spelling of a loopback, private, link-local, carrier-grade NAT, unique-local or mapped address
 * is refused, as the URL parser hands the host over; public addresses and names pass (names are
 * judged by what they resolve to, in the transport).
 */
import {
	blockedAddressKind,
	blockedHostKind,
	connectedAddress,
	judgeUrl,
	parseIpv6,
} from '../../nodes/shared/transport/egress';
import type { HostLookup } from '../../nodes/shared/transport/egress';

const hostOf = (url: string) => new URL(url).hostname;

describe('hosts refused before anything is resolved, in every spelling', () => {
	it.each([
		['http://127.0.0.1:5678/image.png', 'loopback'],
		['http://127.1/', 'loopback'],
		['http://0x7f.1/', 'loopback'],
		['http://0177.0.0.1/', 'loopback'],
		['http://2130706433/', 'loopback'],
		['http://localhost/', 'loopback (a local name)'],
		['http://LOCALHOST./', 'loopback (a local name)'],
		['http://files.localhost/', 'loopback (a local name)'],
		['http://ip6-localhost/', 'loopback (a local name)'],
		['http://[::1]/', 'loopback'],
		['http://[0:0:0:0:0:0:0:1]/', 'loopback'],
		['http://[::]/', 'unspecified'],
		['http://0.0.0.0/', '"this network"'],
		['http://0/', '"this network"'],
		['http://169.254.169.254/latest/meta-data/', 'link-local (cloud metadata)'],
		['http://2852039166/', 'link-local (cloud metadata)'],
		['http://0251.0376.0251.0376/', 'link-local (cloud metadata)'],
		['http://0xa9fea9fe/', 'link-local (cloud metadata)'],
		['http://0xA9.0xFE.0xA9.0xFE/', 'link-local (cloud metadata)'],
		['http://169.254.43518/', 'link-local (cloud metadata)'],
		['http://[::ffff:a9fe:a9fe]/', 'IPv4-mapped link-local (cloud metadata)'],
		['http://[::ffff:169.254.169.254]/', 'IPv4-mapped link-local (cloud metadata)'],
		['http://[0:0:0:0:0:ffff:7f00:1]/', 'IPv4-mapped loopback'],
		['http://[::ffff:8.8.8.8]/', 'IPv4-mapped'],
		['http://[::127.0.0.1]/', 'IPv4-compatible loopback'],
		['http://[64:ff9b::a9fe:a9fe]/', 'NAT64 of link-local (cloud metadata)'],
		['http://[2002:a00:1::1]/', '6to4 of private'],
		['http://10.0.0.1/', 'private'],
		['http://10.255.255.255/', 'private'],
		['http://172.16.0.1/', 'private'],
		['http://172.31.255.255/', 'private'],
		['http://192.168.1.10/', 'private'],
		['http://100.64.0.1/', 'carrier-grade NAT'],
		['http://100.127.255.255/', 'carrier-grade NAT'],
		['http://[fc00::1]/', 'unique-local'],
		['http://[fd12:3456::1]/', 'unique-local'],
		['http://[fe80::1]/', 'link-local'],
		['http://[febf::1]/', 'link-local'],
		['http://[fec0::1]/', 'site-local'],
		['http://224.0.0.251/', 'multicast'],
		['http://[ff02::1]/', 'multicast'],
		['http://255.255.255.255/', 'reserved'],
		['http://198.18.0.1/', 'benchmarking'],
	])('%s is refused as %s', (url, kind) => {
		expect(blockedHostKind(hostOf(url))).toBe(kind);
	});

	it.each([
		'http://93.184.216.34/',
		'http://8.8.8.8/',
		'http://172.32.0.1/',
		'http://172.15.255.255/',
		'http://100.128.0.1/',
		'http://169.255.0.1/',
		'http://11.0.0.1/',
		'http://[2606:2800:220:1:248:1893:25c8:1946]/',
		'http://[64:ff9b::5db8:d822]/',
		'http://[2002:5db8:d822::1]/',
		'https://files.example.com/image.png',
		'https://localhost.example.com/',
		'https://my-localhost/',
	])('%s passes the host check (a name is judged by its addresses)', (url) => {
		expect(blockedHostKind(hostOf(url))).toBeUndefined();
	});
});

describe('addresses a name resolved to', () => {
	it.each([
		['127.0.1.1', 'loopback'],
		['::1', 'loopback'],
		['::ffff:10.1.2.3', 'IPv4-mapped private'],
		['fe80::1%eth0', 'link-local'],
		['192.168.0.7', 'private'],
		['8.8.4.4', undefined],
		['2001:4860:4860::8888', undefined],
		['not an address', undefined],
	])('%s: %s', (address, kind) => {
		expect(blockedAddressKind(address)).toBe(kind);
	});
});

describe('IPv6 text', () => {
	it.each([
		['1:2:3:4:5:6:7:8', [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]],
		['::ffff:1.2.3.4', [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4]],
		['1::', [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
		['1::2::3', undefined],
		['12345::', undefined],
		['1:2:3:4:5:6:7', undefined],
		['1:2:3:4:5:6:7:8:9', undefined],
		['::ffff:1.2.3.256', undefined],
		['::g', undefined],
	])('%s', (text, bytes) => {
		expect(parseIpv6(text)).toEqual(bytes);
	});
});

describe('judgeUrl: the address connected to is the one judged', () => {
	type Answer = Array<{ address: string; family: number }> | Error;
	const lookupAnswering =
		(answer: Answer): HostLookup =>
		(_hostname, _options, callback) =>
			answer instanceof Error ? callback(answer, []) : callback(null, answer);
	const signal = () => new AbortController().signal;

	it.each<[string, string, Answer, object]>([
		[
			'a public name over https: the address, with the name as Host and TLS server name',
			'https://images.example.com:8443/a.png?x=1',
			[{ address: '93.184.216.34', family: 4 }],
			{
				ok: true,
				target: {
					url: 'https://93.184.216.34:8443/a.png?x=1',
					hostHeader: 'images.example.com:8443',
					servername: 'images.example.com',
					pinned: true,
				},
			},
		],
		[
			'a public IPv6 answer over http',
			'http://images.example.com/a.png',
			[{ address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 }],
			{
				ok: true,
				target: {
					url: 'http://[2606:2800:220:1:248:1893:25c8:1946]/a.png',
					hostHeader: 'images.example.com',
					servername: undefined,
					pinned: true,
				},
			},
		],
		[
			'any internal answer refuses the name',
			'http://images.example.com/a.png',
			[
				{ address: '93.184.216.34', family: 4 },
				{ address: 'fd00::7', family: 6 },
			],
			{
				ok: false,
				blocked: true,
				reason: 'images.example.com resolves to fd00::7, a unique-local address',
			},
		],
		[
			'a failed lookup is no verdict on the address',
			'http://nowhere.example.com/a.png',
			new Error('getaddrinfo ENOTFOUND nowhere.example.com'),
			{
				ok: false,
				blocked: false,
				reason: 'getaddrinfo ENOTFOUND nowhere.example.com',
				cause: expect.any(Error),
			},
		],
		[
			'a public literal needs no lookup',
			'http://93.184.216.34/a.png',
			new Error('not asked'),
			{ ok: true, target: { url: 'http://93.184.216.34/a.png', pinned: true } },
		],
	])('%s', async (_name, url, answer, judgement) => {
		expect(await judgeUrl(new URL(url), lookupAnswering(answer), signal())).toEqual(judgement);
	});

	it('without a resolver (n8n 1.x) a name is left to the check of the connected address', async () => {
		expect(await judgeUrl(new URL('http://images.example.com/a.png'), undefined, signal())).toEqual(
			{ ok: true, target: { url: 'http://images.example.com/a.png', pinned: false } },
		);
	});

	it('a lookup that never answers ends with the deadline', async () => {
		const never: HostLookup = () => undefined;
		const judged = await judgeUrl(
			new URL('http://slow.example.com/a.png'),
			never,
			AbortSignal.timeout(20),
		);
		expect(judged).toMatchObject({ ok: false, blocked: false });
	});

	it.each([
		[{ socket: { remoteAddress: '127.0.0.1' } }, '127.0.0.1'],
		[{ socket: {} }, undefined],
		['text', undefined],
		[undefined, undefined],
	])('connectedAddress(%p) is %p', (body, address) => {
		expect(connectedAddress(body)).toBe(address);
	});
});
