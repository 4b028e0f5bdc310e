import { gatewayPath, joinUrl, normalizeBaseUrl } from '../../nodes/shared/transport/url';
import { checkSessionName } from '../../nodes/shared/session';
import {
	isRead,
	repeatAfterFailure,
	repeatAfterStatus,
	retryDelayMs,
	RETRY_POLICY,
} from '../../nodes/shared/transport/retry';

describe('gatewayPath', () => {
	it('URL-encodes every interpolated segment and keeps the literal path', () => {
		expect(gatewayPath`/api/${'my session'}/groups/${'120363@g.us'}/leave`).toBe(
			'/api/my%20session/groups/120363%40g.us/leave',
		);
		expect(gatewayPath`/api/${'s'}/chats/${'5511@c.us'}/messages/${'true_5511@c.us_3EB0ABC'}`).toBe(
			'/api/s/chats/5511%40c.us/messages/true_5511%40c.us_3EB0ABC',
		);
	});

	it('cannot be steered to another path by a segment containing slashes, dots or a query', () => {
		expect(gatewayPath`/instance/restart/${'../webhook/set/x?y=1#z'}`).toBe(
			'/instance/restart/..%2Fwebhook%2Fset%2Fx%3Fy%3D1%23z',
		);
	});
});

describe('normalizeBaseUrl and joinUrl', () => {
	it.each([
		['https://gateway.example.com', 'https://gateway.example.com'],
		['https://gateway.example.com/', 'https://gateway.example.com'],
		['  http://127.0.0.1:8080//  ', 'http://127.0.0.1:8080'],
		['HTTPS://Gateway.example.com/base/', 'HTTPS://Gateway.example.com/base'],
	])('accepts %j as %j', (raw, expected) => {
		expect(normalizeBaseUrl(raw)).toMatchObject({ ok: true, baseUrl: expected, secrets: [] });
	});

	it.each([
		['gateway.example.com', /must start with http:\/\/ or https:\/\//],
		['ftp://gateway.example.com', /must start with http:\/\/ or https:\/\//],
		['   ', /has no Base URL/],
		[undefined, /has no Base URL/],
	])('rejects %j with a clear reason', (raw, reason) => {
		const result = normalizeBaseUrl(raw);
		expect(result.ok).toBe(false);
		expect(!result.ok && result.reason).toMatch(reason);
	});

	it('joins with exactly one slash', () => {
		expect(joinUrl('http://h:1', '/a/b')).toBe('http://h:1/a/b');
		expect(joinUrl('http://h:1/', 'a/b')).toBe('http://h:1/a/b');
		expect(joinUrl('http://h:1/base', '//a')).toBe('http://h:1/base/a');
	});
});

describe('retry policy', () => {
	it.each([
		[429, 'yes'],
		[503, 'yes'],
		[502, 'ifRead'],
		[504, 'ifRead'],
		...[200, 301, 400, 401, 403, 404, 409, 422, 500, 501].map((code) => [code, 'no']),
	])('after a %i answer, sends again: %s', (statusCode, repeat) => {
		expect(repeatAfterStatus(statusCode as number)).toBe(repeat);
	});

	it.each([
		[{ code: 'ECONNRESET', message: 'read ECONNRESET' }, 'ifRead'],
		[{ code: 'ECONNRESET', message: 'aborted' }, 'ifRead'],
		[{ message: 'socket hang up' }, 'ifRead'],
		[{ code: 'EPIPE' }, 'ifRead'],
		[{ code: 'UND_ERR_SOCKET', message: 'other side closed' }, 'ifRead'],
		[{ code: 'ERR_STREAM_PREMATURE_CLOSE', message: 'Premature close' }, 'ifRead'],
		[{ code: 'ECONNREFUSED' }, 'no'],
		[{ code: 'ENOTFOUND' }, 'no'],
		[{ code: 'ETIMEDOUT' }, 'no'],
		[{ code: 'ECONNABORTED', message: 'timeout of 60000ms exceeded' }, 'no'],
		[{ code: 'CERT_HAS_EXPIRED' }, 'no'],
	])('after the network failure %j, sends again: %s', (failure, repeat) => {
		expect(repeatAfterFailure(failure)).toBe(repeat);
	});

	it.each([
		['GET', undefined, true],
		['HEAD', undefined, true],
		['POST', undefined, false],
		['PUT', undefined, false],
		['PATCH', undefined, false],
		['DELETE', undefined, false],
		['POST', true, true],
		['GET', false, false],
	])('a %s request with read %p is a read: %p', (method, read, expected) => {
		expect(isRead(method as string, read as boolean | undefined)).toBe(expected);
	});

	it('backs off exponentially without Retry-After', () => {
		expect([0, 1, 2].map((retry) => retryDelayMs(retry))).toEqual([1000, 2000, 4000]);
	});

	it('honours Retry-After in seconds and as an HTTP date, capped', () => {
		const now = Date.parse('2026-11-22T10:00:00Z');
		expect(retryDelayMs(0, '3', now)).toBe(3000);
		expect(retryDelayMs(0, '0', now)).toBe(0);
		expect(retryDelayMs(2, 'Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5000);
		expect(retryDelayMs(0, '3600', now)).toBe(RETRY_POLICY.maxDelayMs);
		expect(retryDelayMs(1, 'not a date', now)).toBe(2000);
	});
});

describe('names in paths', () => {
	it.each(['.', '..', ''])('gatewayPath refuses the segment %j', (segment) => {
		expect(() => gatewayPath`/message/sendText/${segment}`).toThrow(
			`"${segment}" cannot be used as a name in a gateway path`,
		);
	});

	it.each([
		['default', { ok: true, session: 'default' }],
		['  acme sales  ', { ok: true, session: 'acme sales' }],
		[42, { ok: true, session: '42' }],
		['..', { ok: false, reason: 'Session must be a name such as default, not ".."' }],
		[' . ', { ok: false, reason: 'Session must be a name such as default, not "."' }],
		['   ', { ok: false, reason: 'Session must not be empty' }],
		['\u200B\u2060', { ok: false, reason: 'Session must not be empty' }],
		[
			{ name: 'a' },
			{
				ok: false,
				reason: 'Session must be a name such as default (got an object ({"name":"a"}))',
			},
		],
		[
			['a', 'b'],
			{ ok: false, reason: 'Session must be a name such as default (got a list (["a","b"]))' },
		],
		[null, { ok: false, reason: 'Session must be a name such as default (got null)' }],
		[true, { ok: false, reason: 'Session must be a name such as default (got a boolean (true))' }],
		[
			Number.NaN,
			{ ok: false, reason: 'Session must be a name such as default (got a number (NaN))' },
		],
	])('checkSessionName(%j)', (raw, expected) => {
		expect(checkSessionName(raw)).toEqual(expected);
	});
});
