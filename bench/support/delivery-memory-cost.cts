/**
 * What remembering deliveries costs per delivery (issue 33), for the bench part "trigger": the
 * delivery memory (nodes/MessagingGatewayTrigger/delivery-memory.ts) called per event with what
 * webhook() hands it — deliveryDigest(delivery.identity(filters)), verdict() with static data's
 * record and the time, accept() with the expiry from Options and the call's response — against a
 * loop that only gives the event its new message ID, in interleaved rounds (medians).
 *
 * Its cost depends on what the memory holds and on the record static data hands the call, so each
 * state gets a trigger key of its own: a busy trigger (the memory at its cap), a quiet one, and
 * static data that still holds the record the memory returned last (one call for many events, as
 * in the bench's webhook() figures); a redelivery goes to the busy one and stops at the verdict.
 */
import type { IDataObject } from 'n8n-workflow';

import type { CheckedDelivery } from '../../nodes/MessagingGatewayTrigger/checked-delivery';
import type {
	DeliveryMemory,
	DeliveryVerdict,
	WatchedResponse,
} from '../../nodes/MessagingGatewayTrigger/delivery-memory';
import type { DeliveryFilters } from '../../nodes/MessagingGatewayTrigger/webhook/deliveries';
import type { GoalResult, Stats } from './measure.cts';
import { elapsedMs, interleaved, microsecondsText, round2, roundedStats } from './measure.cts';

/** The delivery memory as webhook() uses it (in the bench: the build in dist/, its own instance). */
export interface MemoryUnderTest {
	memory: Pick<DeliveryMemory, 'verdict' | 'accept' | 'forgetTrigger'>;
	deliveryDigest(identity: string): string;
	rememberSeconds(options: IDataObject): number;
}

export interface MemoryCostInput {
	/** One event's delivery as webhook() checked it, with the filters and Options it reads. */
	delivery: Pick<CheckedDelivery, 'identity'>;
	filters: DeliveryFilters;
	options: IDataObject;
	/** The message key inside the delivery's body: its ID changes per event (a new message). */
	key: IDataObject;
	/**
	 * Static data's record as n8n hands a webhook call: as last saved, which in n8n 2.x lacks every
	 * delivery accepted since (a call that starts an execution saves no static data there).
	 */
	stored: unknown;
	/** The call's response: answered 200 at once, so an accepted delivery is done at once. */
	response: WatchedResponse;
	/** The trigger's key (the registration's token); each state measured is a key made from it. */
	trigger: string;
	/** Events per sample of the variants that take a microsecond or so per event. */
	events: number;
	rounds: number;
}

export interface MemoryCost {
	goal: GoalResult;
	figures: Record<string, unknown>;
	notes: string[];
}

/** Deliveries given to find the memory's cap before the bench gives up. */
const MAX_DELIVERIES_TO_CAP = 100_000;

/** Deliveries a quiet trigger remembers at the start of a sample, as a share of the cap. */
const QUIET_SHARE = 1 / 20;

let messagesSent = 0;

function newIds(count: number): string[] {
	return Array.from({ length: count }, () => `MEMORY${(messagesSent++).toString(16)}`);
}

/** A full garbage collection, when the bench runs with --expose-gc (npm run bench does). */
const collectGarbage = (globalThis as { gc?: () => void }).gc;

/**
 * µs per event of `perEvent` over `count` events (what each event needs is made before), from a
 * collected heap: a busy memory's garbage is collected in its own sample, not in the next one's.
 */
function perEventMicroseconds(count: number, perEvent: (event: number) => void): number {
	collectGarbage?.();
	const start = process.hrtime.bigint();
	for (let event = 0; event < count; event++) perEvent(event);
	return (elapsedMs(start) * 1000) / count;
}

export async function deliveryMemoryCost(
	under: MemoryUnderTest,
	input: MemoryCostInput,
): Promise<MemoryCost> {
	const { memory, deliveryDigest, rememberSeconds } = under;
	const { delivery, filters, options, key, stored, response, events, rounds } = input;
	const busy = `${input.trigger}|bench: memory at its cap`;
	const quiet = `${input.trigger}|bench: quiet memory`;
	const sameRecord = `${input.trigger}|bench: static data holds the record`;

	/** The event's digest, as webhook() makes it. */
	const digestOf = (id: string): string => {
		key.id = id;
		return deliveryDigest(delivery.identity(filters));
	};
	const verdictOf = (trigger: string, record: unknown, digest: string): DeliveryVerdict =>
		memory.verdict(trigger, record, digest, Math.floor(Date.now() / 1000));
	const mustBe = (verdict: DeliveryVerdict, wanted: DeliveryVerdict) => {
		if (verdict !== wanted) {
			throw new Error(`The delivery memory answered '${verdict}' where webhook() gets '${wanted}'`);
		}
	};
	/** A first delivery of the message `id`, as webhook() makes it: the record static data gets. */
	const deliver = (trigger: string, record: unknown, id: string): string => {
		const digest = digestOf(id);
		const now = Math.floor(Date.now() / 1000);
		mustBe(memory.verdict(trigger, record, digest, now), 'new');
		return memory.accept(trigger, record, digest, now + rememberSeconds(options), now, response);
	};

	// The busy trigger: delivered to until the record it gets stops growing: the memory's cap (the
	// record may carry a few dropped entries at its front until it cuts them; then it holds the cap).
	let accepted: string[] = [];
	const lengths: number[] = [];
	for (;;) {
		const [id] = newIds(1);
		const length = deliver(busy, stored, id).length;
		accepted.push(id);
		if (length <= lengths[lengths.length - 1]) {
			lengths.push(length);
			break;
		}
		lengths.push(length);
		if (lengths.length > MAX_DELIVERIES_TO_CAP) throw new Error('The record never stopped growing');
	}
	const entryLength = lengths[1] - lengths[0];
	if (!(entryLength > 0)) throw new Error('The record did not grow with each delivery');
	const capEvents = Math.round(lengths[lengths.length - 1] / entryLength);
	const quietEntries = Math.max(1, Math.round(capEvents * QUIET_SHARE));
	// Static data that holds what the memory returned last, from a memory at its cap as well.
	let held: unknown = stored;
	for (const id of newIds(capEvents)) held = deliver(sameRecord, held, id);
	const redelivered = () => accepted.slice(-Math.min(events, Math.floor(capEvents / 2)));

	const measured = await interleaved(
		{
			loop: async () => {
				const ids = newIds(events);
				return perEventMicroseconds(events, (event) => {
					key.id = ids[event];
				});
			},
			digest: async () => {
				const ids = newIds(events);
				return perEventMicroseconds(events, (event) => {
					digestOf(ids[event]);
				});
			},
			verdict: async () => {
				const ids = newIds(events);
				return perEventMicroseconds(events, (event) => {
					mustBe(verdictOf(busy, stored, digestOf(ids[event])), 'new');
				});
			},
			// One turn of the memory's list of deliveries answered (it grows to twice the cap, then
			// is trimmed to the cap) per sample: a sample's mean is the busy trigger's mean.
			firstAtCap: async () => {
				const ids = newIds(capEvents);
				const microsecondsPerEvent = perEventMicroseconds(capEvents, (event) => {
					deliver(busy, stored, ids[event]);
				});
				accepted = ids;
				return microsecondsPerEvent;
			},
			firstQuiet: async () => {
				memory.forgetTrigger(quiet);
				for (const id of newIds(quietEntries)) deliver(quiet, stored, id);
				const ids = newIds(quietEntries);
				return perEventMicroseconds(quietEntries, (event) => {
					deliver(quiet, stored, ids[event]);
				});
			},
			firstRecordHeld: async () => {
				const ids = newIds(events);
				return perEventMicroseconds(events, (event) => {
					held = deliver(sameRecord, held, ids[event]);
				});
			},
			redelivery: async () => {
				const ids = redelivered();
				return perEventMicroseconds(events, (event) => {
					mustBe(verdictOf(busy, stored, digestOf(ids[event % ids.length])), 'duplicate');
				});
			},
		},
		rounds,
	);
	const loop = measured.loop.median;
	const beyondLoop = (stats: Stats) => stats.median - loop;
	const perDelivery = {
		firstAtCap: beyondLoop(measured.firstAtCap),
		digest: beyondLoop(measured.digest),
		verdict: measured.verdict.median - measured.digest.median,
		accept: measured.firstAtCap.median - measured.verdict.median,
		firstQuiet: beyondLoop(measured.firstQuiet),
		firstRecordHeld: beyondLoop(measured.firstRecordHeld),
		redelivery: beyondLoop(measured.redelivery),
	};
	const quietRange = `${quietEntries} to ${2 * quietEntries}`;
	const storedText =
		typeof stored === 'string' && stored.length > 0
			? `its saved record of ${stored.length / entryLength} deliveries`
			: 'no record saved';
	return {
		goal: {
			id: 'trigger.deliveryMemoryPerDelivery',
			what: "Trigger webhook(): what remembering deliveries costs per delivery, the delivery memory's work (digest, verdict, accept) with webhook()'s inputs and static data as n8n 2.x hands each call, a busy trigger",
			goal: 'reported',
			measured: `${microsecondsText(perDelivery.firstAtCap)} per first delivery with ${capEvents} deliveries remembered (digest ${microsecondsText(perDelivery.digest)}, verdict ${microsecondsText(perDelivery.verdict)}, accept ${microsecondsText(perDelivery.accept)}); ${microsecondsText(perDelivery.firstQuiet)} with ${quietRange} remembered; ${microsecondsText(perDelivery.firstRecordHeld)} when static data holds the record returned last; a redelivery answered "delivered before" ${microsecondsText(perDelivery.redelivery)}`,
			value: round2(perDelivery.firstAtCap),
			met: true,
			why: `In n8n 2.x a webhook call that starts an execution saves no static data, so every call reads a record without the deliveries this process accepted since it was saved, and accept() adds back what the memory saw answered (up to twice its cap of ${capEvents}) before it appends the new one: its cost grows with the deliveries remembered (${microsecondsText(perDelivery.firstQuiet)} per delivery with ${quietRange}). When static data holds the record the memory returned last (one call for many events, as in the two rows above) accept() reads nothing back and appends the new delivery, dropping the oldest: ${microsecondsText(perDelivery.firstRecordHeld)}. A redelivery is answered from the process's own memory at the verdict: the digest and a lookup.`,
		},
		figures: {
			deliveriesRemembered: { busy: capEvents, quiet: [quietEntries, 2 * quietEntries] },
			eventsPerSample: {
				firstAtCap: capEvents,
				firstQuiet: quietEntries,
				others: events,
			},
			rounds,
			microsecondsPerDelivery: Object.fromEntries(
				Object.entries(perDelivery).map(([name, value]) => [name, round2(value)]),
			),
			microsecondsPerEvent: Object.fromEntries(
				Object.entries(measured).map(([name, stats]) => [name, roundedStats(stats)]),
			),
		},
		notes: [
			`What remembering deliveries costs (issue 33): the built delivery memory, the instance webhook() uses, called per event as webhook() calls it — deliveryDigest(delivery.identity(filters)) of the bench's delivery with a new message ID, verdict() with static data's record and the time, accept() with the expiry from Options and a response that answers 200 at once (each delivery done as after n8n's answer) — minus a loop that only gives each event its message ID; ${rounds} interleaved rounds after a warm-up round, ${collectGarbage ? 'each sample after a full garbage collection (the garbage a busy memory leaves is collected in its own samples), ' : ''}medians. Digest = digest alone − the loop, verdict = digest and verdict − digest alone, accept = the first delivery − digest and verdict.`,
			`Each state has a trigger key of its own in the memory. The record each call reads is static data as the trigger harness models n8n 2.41.1 (${storedText}: a call that starts an execution saves none). Busy: the memory delivered to until the record stopped growing (${capEvents} deliveries, its cap), then ${capEvents} events per sample, one turn of its list of deliveries answered (grown to twice the cap, then trimmed). Quiet: forgotten and given ${quietEntries} deliveries before each sample, then ${quietEntries} events. Record held: the record each delivery returns is the next one's, as in one call's static data (the webhook() rows above); n8n 1.x saves it before it answers, so a call reads back a copy equal to it (not timed here). Redelivery: the busy trigger's last ${Math.min(events, Math.floor(capEvents / 2))} deliveries delivered again, each answered 'duplicate'.`,
			"Not in it: the trigger's catch-up bookkeeping on the same path (markFirstDelivery, catchUpUnderWay: a lookup each), reading and writing static data through n8n's proxy, and the processed-data store the execution's first step asks (n8n's database, outside this in-process bench).",
		],
	};
}
