// WAHA 2026.x: the LID ↔ phone number routes (src/api/lids.controller.ts, added in 2025.5.4). They
// answer the pairs the session has learnt (the LID people whose phone the gateway knows); an unknown
// one is a 200 with null, never a 404. NOWEB answers them from its store, which a session may run
// without: then every lookup is a 400.
import type { RequestContext, Route } from '../core.cts';
import { nestError } from '../errors.cts';
import { contactChatId } from '../ids.cts';
import type { Instance } from '../state.cts';
import { requireNowebStore, wahaRoute, type WahaRequest } from './waha-common.cts';

const WORKING_PATH = { session: 'path', status: 'WORKING' } as const;

/** The known pairs, by LID (the controller forces `sortBy: 'lid'`, ascending); `pn` as `@c.us`. */
function knownPairs(instance: Instance): Array<{ lid: string; pn: string }> {
	return [...instance.lidPeople.values()]
		.flatMap((person) =>
			person.phone ? [{ lid: person.lid, pn: contactChatId(person.phone) }] : [],
		)
		.sort((a, b) => a.lid.localeCompare(b.lid));
}

function queryNumber(request: WahaRequest, name: string, fallback: number): number {
	const value = request.query[name];
	const number = Number(Array.isArray(value) ? value[0] : value);
	return Number.isFinite(number) ? number : fallback;
}

/** WAHA's isLidUser: anything ending in `@lid`, a device suffix included. */
const endsInLid = (value: string) => value.endsWith('@lid');

/**
 * GET /lids/{lid}: bare digits get `@lid`; another suffix is 422. The LID is looked up exactly as
 * given (a device suffix is not dropped, so it finds nothing).
 */
function phoneOfLid(context: RequestContext, _request: WahaRequest, instance: Instance) {
	let lid = context.params.lid;
	if (!lid.includes('@')) lid = `${lid}@lid`;
	if (!endsInLid(lid)) throw nestError.unprocessable('Invalid LID - it must end with @lid');
	requireNowebStore(context);
	const phone = instance.lidPeople.get(lid)?.phone;
	return { status: 200, body: { lid, pn: phone ? contactChatId(phone) : null } };
}

/**
 * GET /lids/pn/{phoneNumber}: a LID given here is answered as itself with no phone (before the
 * store is asked). A phone is read as NOWEB's toJID / toCusFormat do: the part before `@`, its
 * device dropped; a `+` stays in it (and then matches nothing).
 */
function lidOfPhone(context: RequestContext, _request: WahaRequest, instance: Instance) {
	const given = context.params.phoneNumber;
	if (endsInLid(given)) return { status: 200, body: { lid: given, pn: null } };
	requireNowebStore(context);
	const phone = given.split('@')[0].split(':')[0];
	const person = [...instance.lidPeople.values()].find((candidate) => candidate.phone === phone);
	return { status: 200, body: { lid: person?.lid ?? null, pn: contactChatId(phone) } };
}

const LIDS = '/api/:session/lids';

export const wahaLidRoutes: Route[] = [
	wahaRoute(
		'GET',
		LIDS,
		(context, request, instance) => {
			requireNowebStore(context);
			const limit = queryNumber(request, 'limit', 100);
			const offset = queryNumber(request, 'offset', 0);
			return { status: 200, body: knownPairs(instance).slice(offset, offset + limit) };
		},
		WORKING_PATH,
	),
	// Declared before /{lid}, so `count` is not read as a LID.
	wahaRoute(
		'GET',
		`${LIDS}/count`,
		(context, _request, instance) => {
			requireNowebStore(context);
			return { status: 200, body: { count: knownPairs(instance).length } };
		},
		WORKING_PATH,
	),
	wahaRoute('GET', `${LIDS}/pn/:phoneNumber`, lidOfPhone, WORKING_PATH),
	wahaRoute('GET', `${LIDS}/:lid`, phoneOfLid, WORKING_PATH),
];
