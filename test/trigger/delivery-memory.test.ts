/**
 * The trigger's memory of deliveries (delivery-memory.ts), alone: what it answers for a delivery
 * seen before, being taken, or new; what it leaves in static data's record; and how n8n's answer
 * settles a delivery. The whole trigger is tested over HTTP in trigger-redeliveries.test.ts.
 */
import { createHash } from 'crypto';

import { sleep } from 'n8n-workflow';

import {
	deliveryDigest,
	DeliveryMemory,
	PENDING_FOR_SECONDS,
	recordWithout,
} from '../../nodes/MessagingGatewayTrigger/delivery-memory';

const NOW = 1_800_000_000;
const TRIGGER = 'token-of-trigger-1';

/** Deliveries by name: their digests. */
const D = Object.fromEntries(
	['a', 'b', 'c', 'new', 'first', 'second', 'third'].map((name) => [name, deliveryDigest(name)]),
);

/** Static data's record of deliveries named with when each may be forgotten, oldest first. */
function record(entries: Array<[string, number]>): string {
	return entries.map(([name, expires]) => `${D[name]}${expires}`).join('');
}

/** The record read back as [name, expires] pairs. */
function entries(stored: string): Array<[string, number]> {
	const names = new Map(Object.entries(D).map(([name, digest]) => [digest, name]));
	return (stored.match(/.{26}/g) ?? []).map((entry) => [
		names.get(entry.slice(0, 16)) ?? entry.slice(0, 16),
		Number(entry.slice(16)),
	]);
}

/** n8n's response to one webhook call: it finishes with a status, or its connection closes. */
class Response {
	statusCode = 200;
	writableEnded?: boolean;
	private readonly listeners: Array<{ event: string; listener: () => void }> = [];
	once(event: 'finish' | 'close', listener: () => void): void {
		this.listeners.push({ event, listener });
	}
	emit(event: 'finish' | 'close'): void {
		for (const entry of this.listeners.filter((each) => each.event === event)) {
			this.listeners.splice(this.listeners.indexOf(entry), 1);
			entry.listener();
		}
	}
	listenerCount(): number {
		return this.listeners.length;
	}
	answer(status: number): void {
		this.statusCode = status;
		this.emit('finish');
		this.emit('close');
	}
}

function take(
	memory: DeliveryMemory,
	stored: unknown,
	name: string,
	expires = NOW + 60,
	now = NOW,
) {
	const response = new Response();
	const after = memory.accept(TRIGGER, stored, D[name], expires, now, response);
	return { response, after };
}

describe('the verdict on a delivery', () => {
	it.each([
		{ case: 'never seen', stored: '', answered: undefined, verdict: 'new' },
		{
			case: 'in static data, unexpired',
			stored: record([['a', NOW + 1]]),
			answered: undefined,
			verdict: 'duplicate',
		},
		{
			case: 'in static data, expired',
			stored: record([['a', NOW]]),
			answered: undefined,
			verdict: 'new',
		},
		{
			case: 'static data damaged',
			stored: `${record([['a', NOW + 1]])}x`,
			answered: undefined,
			verdict: 'new',
		},
		{ case: 'static data not text', stored: { a: NOW + 1 }, answered: undefined, verdict: 'new' },
		{
			case: 'taken here, n8n not answered yet',
			stored: '',
			answered: null,
			verdict: 'in progress',
		},
		{ case: 'taken here, n8n answered 200', stored: '', answered: 200, verdict: 'duplicate' },
		{ case: 'taken here, n8n answered 500', stored: '', answered: 500, verdict: 'new' },
	])('$case: $verdict', ({ stored, answered, verdict }) => {
		const memory = new DeliveryMemory(10);
		if (answered !== undefined) {
			const { response } = take(memory, '', 'a');
			if (answered !== null) response.answer(answered);
		}
		expect(memory.verdict(TRIGGER, stored, D.a, NOW)).toBe(verdict);
	});

	it.each([
		{ after: PENDING_FOR_SECONDS - 1, verdict: 'in progress' },
		{ after: PENDING_FOR_SECONDS, verdict: 'new' },
	])(
		'taken here, n8n has not answered $after s later (a request it dropped): $verdict',
		({ after, verdict }) => {
			const memory = new DeliveryMemory(10);
			take(memory, '', 'a', NOW + 3600);
			expect(memory.verdict(TRIGGER, '', D.a, NOW + after)).toBe(verdict);
		},
	);

	it.each([
		{ firstAnswers: 500, verdict: 'in progress' },
		{ firstAnswers: 200, verdict: 'in progress' },
	])(
		'taken again after n8n left it unanswered: the first answer, coming late ($firstAnswers), settles only its own',
		({ firstAnswers, verdict }) => {
			const memory = new DeliveryMemory(10);
			const first = take(memory, '', 'a', NOW + 3600);
			const later = NOW + PENDING_FOR_SECONDS;
			const second = take(memory, '', 'a', NOW + 3600, later);
			first.response.answer(firstAnswers);
			expect(memory.verdict(TRIGGER, '', D.a, later)).toBe(verdict);
			second.response.answer(200);
			expect(memory.verdict(TRIGGER, '', D.a, later)).toBe('duplicate');
		},
	);

	it('a taken delivery answered 409 is forgotten', () => {
		const memory = new DeliveryMemory(10);
		take(memory, '', 'a').response.answer(409);
		expect(memory.verdict(TRIGGER, '', D.a, NOW)).toBe('new');
	});

	it.each([
		{ n8nAnswers: 200, verdict: 'duplicate' },
		{ n8nAnswers: 500, verdict: 'new' },
	])(
		'the gateway hangs up before n8n answered: pending until n8n answers the closed connection $n8nAnswers, then $verdict',
		async ({ n8nAnswers, verdict }) => {
			const memory = new DeliveryMemory(10);
			const { response } = take(memory, '', 'a');
			response.writableEnded = false;
			response.emit('close');
			expect(memory.verdict(TRIGGER, '', D.a, NOW)).toBe('in progress');
			// n8n stored the execution (or failed to) and writes its answer to the dead connection.
			response.statusCode = n8nAnswers;
			response.writableEnded = true;
			// The memory looks again every 200 ms: wait until it settles, however busy the machine.
			while (memory.verdict(TRIGGER, '', D.a, NOW) === 'in progress') await sleep(20);
			expect(memory.verdict(TRIGGER, '', D.a, NOW)).toBe(verdict);
		},
	);

	it('a connection closed unanswered, whose answer cannot be watched, is forgotten', () => {
		const memory = new DeliveryMemory(10);
		take(memory, '', 'a').response.emit('close');
		expect(memory.verdict(TRIGGER, '', D.a, NOW)).toBe('new');
	});

	it('a response that cannot be watched counts as taken', () => {
		const memory = new DeliveryMemory(10);
		memory.accept(TRIGGER, '', D.a, NOW + 60, NOW, {});
		expect(memory.verdict(TRIGGER, '', D.a, NOW)).toBe('duplicate');
	});

	it.each([
		{ status: 200, verdict: 'duplicate' },
		{ status: 500, verdict: 'new' },
	])(
		"deliveries one answer settles (a catch-up's) are watched with one pair of listeners: $status makes them $verdict",
		({ status, verdict }) => {
			const memory = new DeliveryMemory(100);
			const response = new Response();
			const names = ['a', 'b', 'c', 'first', 'second', 'third'];
			for (const name of names) memory.accept(TRIGGER, '', D[name], NOW + 60, NOW, response);

			expect(response.listenerCount()).toBe(2);
			response.answer(status);

			expect(names.map((name) => memory.verdict(TRIGGER, '', D[name], NOW))).toEqual(
				names.map(() => verdict),
			);
		},
	);

	it('another trigger, or one that stopped, knows nothing of it', () => {
		const memory = new DeliveryMemory(10);
		take(memory, '', 'a').response.answer(200);
		expect(memory.verdict('token-of-trigger-2', '', D.a, NOW)).toBe('new');
		memory.forgetTrigger(TRIGGER);
		expect(memory.verdict(TRIGGER, '', D.a, NOW)).toBe('new');
	});

	it('a digest is found only where an entry starts', () => {
		// An expiry whose digits, with the end of a digest, spell another digest's text.
		const stored = record([['a', NOW + 1]]);
		const across = stored.slice(10, 26);
		expect(new DeliveryMemory(10).verdict(TRIGGER, stored, across, NOW)).toBe('new');
	});
});

describe("static data's record after a delivery is taken", () => {
	it.each([
		{
			case: 'the new one goes last',
			before: [
				['a', NOW + 10],
				['b', NOW + 20],
			],
			after: [
				['a', NOW + 10],
				['b', NOW + 20],
				['new', NOW + 60],
			],
		},
		{
			case: 'expired ones at the front are dropped',
			before: [
				['a', NOW - 5],
				['b', NOW],
				['c', NOW + 20],
			],
			after: [
				['c', NOW + 20],
				['new', NOW + 60],
			],
		},
		{
			case: 'beyond 3 entries the oldest go',
			before: [
				['a', NOW + 10],
				['b', NOW + 20],
				['c', NOW + 30],
			],
			after: [
				['b', NOW + 20],
				['c', NOW + 30],
				['new', NOW + 60],
			],
		},
		{
			case: 'the same delivery taken again moves to the end',
			before: [
				['new', NOW + 5],
				['b', NOW + 20],
			],
			after: [
				['b', NOW + 20],
				['new', NOW + 60],
			],
		},
	] as Array<{ case: string; before: Array<[string, number]>; after: Array<[string, number]> }>)(
		'$case',
		({ before, after }) => {
			expect(entries(take(new DeliveryMemory(3), record(before), 'new').after)).toEqual(after);
		},
	);

	it("what this process took and n8n answered is added to a copy saved before it (another call's)", () => {
		const memory = new DeliveryMemory(10);
		take(memory, '', 'first', NOW + 50).response.answer(200);
		// Still being taken: if it fails, the gateway's next try must run it, so it is not added.
		take(memory, '', 'second', NOW + 55);
		// A third call loaded static data before either saved.
		expect(entries(take(memory, '', 'third').after)).toEqual([
			['first', NOW + 50],
			['third', NOW + 60],
		]);
	});

	it('the record this process wrote, read back by its next delivery, gives what reading it anew gives', () => {
		const remembering = new DeliveryMemory(5);
		let stored = record([
			['a', NOW - 1],
			['b', NOW + 3],
		]);
		for (let step = 0; step < 30; step++) {
			const digest = deliveryDigest(`message ${step}`);
			const expires = NOW + step + 10 + (step % 7);
			const readAnew = new DeliveryMemory(5).accept(
				TRIGGER,
				stored,
				digest,
				expires,
				NOW + step,
				{},
			);
			stored = remembering.accept(TRIGGER, stored, digest, expires, NOW + step, new Response());
			expect(stored).toBe(readAnew);
			expect(remembering.verdict(TRIGGER, stored, digest, NOW + step)).toBe('in progress');
			expect(new DeliveryMemory(5).verdict(TRIGGER, stored, digest, NOW + step)).toBe('duplicate');
		}
		expect(stored.length).toBe(5 * 26);
	});

	it('recordWithout takes one entry out, and leaves a record without it as it is', () => {
		const stored = record([
			['a', NOW + 1],
			['b', NOW + 2],
		]);
		expect(entries(recordWithout(stored, D.a))).toEqual([['b', NOW + 2]]);
		expect(recordWithout(stored, D.c)).toBe(stored);
	});
});

/** A small deterministic generator (mulberry32), so a failing sequence can be replayed. */
function generator(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
		mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
		return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
	};
}

describe('the record over many deliveries, however n8n hands static data back', () => {
	// n8n 2.x hands every call the record as last saved (a call that starts an execution saves
	// nothing; one answered "delivered before" saves its copy); n8n 1.x the one returned last.
	it.each([
		{ n8n: '2.x', cap: 5, seed: 1 },
		{ n8n: '2.x', cap: 40, seed: 2 },
		{ n8n: '1.x', cap: 5, seed: 3 },
		{ n8n: '1.x', cap: 40, seed: 4 },
		{ n8n: 'both, one after another', cap: 40, seed: 5 },
	])(
		"n8n $n8n, cap $cap: only answered deliveries, no other call's pending one, the newest kept",
		({ n8n, cap, seed }) => {
			const random = generator(seed);
			const memory = new DeliveryMemory(cap);
			const retention = 60;
			let saved = '';
			let savedAtStep = 0;
			let returnedLast = '';
			const acceptedAtStep = new Map<string, number>();
			const answeredOk: string[] = [];
			const notRun = new Set<string>();
			const unanswered: Array<{ digest: string; response: Response }> = [];
			for (let step = 0; step < 600; step++) {
				const now = NOW + Math.floor(step / 4);
				const oneX = n8n === '1.x' || (n8n !== '2.x' && step % 200 >= 100);
				const stored = oneX ? returnedLast : saved;
				const digest = deliveryDigest(`seed ${seed} message ${step}`);
				expect(memory.verdict(TRIGGER, stored, digest, now)).toBe('new');
				const response = new Response();
				const after = memory.accept(TRIGGER, stored, digest, now + retention, now, response);
				returnedLast = after;
				const got = entries(after);
				const digests = got.map(([name]) => name);

				// Its own delivery last, nothing twice, at most the cap (plus an eighth dropped at the front).
				expect(got[got.length - 1]).toEqual([digest, now + retention]);
				expect(new Set(digests).size).toBe(digests.length);
				expect(got.length).toBeLessThanOrEqual(cap + (cap >> 3));
				// No delivery that failed, nor one still pending in another call, unless the stored copy had it.
				const storedDigests = new Set(entries(stored).map(([name]) => name));
				for (const name of digests.slice(0, -1)) {
					if (storedDigests.has(name)) continue;
					expect(notRun.has(name) || unanswered.some((each) => each.digest === name)).toBe(false);
				}
				// The deliveries answered 200 most recently are all there; in n8n 1.x (static data saved
				// before n8n answers, so with deliveries then pending) unless the record is full. Those
				// accepted before the copy n8n hands was saved may be missing: this process still knows
				// them, and every other process reads n8n's processed-data store.
				const live = got.filter(([, expires]) => expires > now).map(([name]) => name);
				const newestOk = answeredOk
					.slice(-Math.floor((cap - 1) / 2))
					.filter((name) => (acceptedAtStep.get(name) as number) >= savedAtStep);
				if (!oneX || live.length < cap) {
					expect(newestOk.filter((name) => !live.includes(name))).toEqual([]);
				}

				acceptedAtStep.set(digest, step);
				if (random() < 0.05) {
					// webhook() could not make an item of it: forgotten, and static data saved without it.
					memory.forget(TRIGGER, digest);
					response.answer(500);
					notRun.add(digest);
					saved = recordWithout(after, digest);
					savedAtStep = step;
					continue;
				}
				// n8n answers this call now, later, or never: 200 mostly, sometimes 500.
				unanswered.push({ digest, response });
				const answering = unanswered.splice(0, random() < 0.7 ? unanswered.length : 0);
				for (const each of answering) {
					if (random() < 0.85) {
						each.response.answer(200);
						answeredOk.push(each.digest);
					} else {
						each.response.answer(500);
						notRun.add(each.digest);
					}
				}
			}
		},
	);
});

describe('the digest of a delivery', () => {
	it.each([
		['acme|MESSAGES_UPSERT|false|3EB0A1', 'acme|MESSAGES_UPSERT|false|3EB0A2'],
		['acme|MESSAGES_UPSERT|false|3EB0A1', 'acme|SEND_MESSAGE|false|3EB0A1'],
		['body|{"a":1}', 'body|{"a":2}'],
	])('%s and %s differ, each always the same', (left, right) => {
		expect(deliveryDigest(left)).toBe(deliveryDigest(left));
		expect(deliveryDigest(left)).not.toBe(deliveryDigest(right));
		expect(deliveryDigest(left)).toMatch(/^[A-Za-z0-9_-]{16}$/);
		// The same on every Node n8n runs on (with or without its one-call hash).
		expect(deliveryDigest(left)).toBe(
			createHash('sha256').update(left).digest('base64url').slice(0, 16),
		);
	});
});
