/**
 * Session Names or IDs as the trigger reads them (Sessions to Watch: Several Sessions): what the
 * list picker stores and what expressions produce, each name once and checked as one path
 * segment, or refused by name before any request.
 */
import { readPickedSessions } from '../../nodes/MessagingGatewayTrigger/watched-sessions';

describe('Session Names or IDs', () => {
	it.each([
		['picked from the list', ['acme-sales', 'acme-support'], ['acme-sales', 'acme-support']],
		['comma-separated text', ' acme-sales, acme-support ', ['acme-sales', 'acme-support']],
		['one per line', 'acme-sales\nacme-support\n', ['acme-sales', 'acme-support']],
		['one name', 'acme-sales', ['acme-sales']],
		['one instance named by its number', 5511987650000, ['5511987650000']],
		['numbers in a list', [5511987650000, '5511987650099'], ['5511987650000', '5511987650099']],
		['a name twice', ['acme-sales', ' acme-sales'], ['acme-sales']],
		['names like object keys', ['__proto__', 'constructor'], ['__proto__', 'constructor']],
	])('%s', (_case, raw, sessions) => {
		expect(readPickedSessions(raw)).toEqual({ ok: true, sessions });
	});

	it.each([
		['nothing picked', [], 'must name at least one session'],
		['blank text', ' , ; ', 'must name at least one session'],
		['an object', { name: 'acme-sales' }, 'must be a list of session names (got an object'],
		['true', true, 'must be a list of session names (got a boolean (true))'],
		[
			'a ".." entry',
			['acme-sales', '..'],
			'must list session names such as acme-sales (got a string (..))',
		],
		[
			'a "." in text',
			'acme-sales, .',
			'must list session names such as acme-sales (got a string (.))',
		],
		['an object entry', [{ name: 'acme-sales' }], 'must list session names'],
		['a number that is not finite', [Number.NaN], 'must list session names'],
	])('%s is refused', (_case, raw, reason) => {
		const read = readPickedSessions(raw);
		expect(read.ok).toBe(false);
		expect(read.ok ? '' : read.reason).toContain(`Session Names or IDs ${reason}`);
	});
});
