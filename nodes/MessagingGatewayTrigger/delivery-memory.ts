/**
 * The deliveries a trigger has started an execution for, so that the gateway's redelivery of one
 * (a retry after a timeout or an error, the same event posted twice) is answered 200 and starts
 * nothing. Two memories hold them:
 *
 * - the workflow's static data: n8n loads it from its database for every webhook call; n8n 1.x
 *   saves it before it answers, n8n 2.x only when the call started no execution, so there it
 *   lasts as long as the call (what outlives restarts and is shared by every n8n process is n8n's
 *   processed-data store, which the execution's first step reads: processed-messages.ts);
 * - this process's own: concurrent webhook calls each load their own copy of static data, and
 *   each saves its copy whole, so the process's memory is what they share (and what each merges
 *   back into the copy it saves, so one call's save does not drop what another just recorded).
 *
 * An entry is pending from the moment its delivery is accepted until n8n has answered: only a 2xx
 * answer (n8n holds the execution) makes it done; any other answer forgets it, so the gateway's
 * next try runs. n8n answers also when the gateway hung up first (a timeout), and that answer
 * decides too. While pending, a second delivery of the same event is answered 409 (every gateway
 * that retries tries it again later).
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { wholeNumberIn } from '../shared/values';
import { OldestFirstMap } from './oldest-first-map';
import type { ReadRecord } from './delivery-record';

// The memory's digest and record edits, as its users (the trigger, the catch-up, the bench) know them.
export { deliveryDigest, recordWithout } from './delivery-record';
import {
	entry,
	entryOf,
	ENTRY_LENGTH,
	expiryAt,
	readRecord,
	recordOf,
	withoutEntry,
} from './delivery-record';

/** How a delivery compares with the ones before it. */
export type DeliveryVerdict = 'new' | 'duplicate' | 'in progress';

/** How long a delivery whose gateway hung up waits for n8n's answer, and how often it looks. */
const UNANSWERED_WAIT_MS = 10 * 60 * 1000;
const UNANSWERED_POLL_MS = 200;

/** A taken delivery an answer settles: its trigger, digest and entry (none taken again since). */
type Settled = [trigger: string, digest: string, taken: ProcessEntry];

interface ProcessEntry {
	expires: number;
	done: boolean;
	/** When it was taken (Unix seconds): a delivery n8n has not answered for long never will be. */
	takenAt: number;
}

/**
 * How long a taken delivery counts as in progress without n8n's answer (seconds). n8n answers
 * once it has stored the execution, within seconds; one it has not answered in two minutes (a
 * request n8n dropped) runs at the gateway's next try or the next catch-up, and the execution's
 * first step leaves it out if the first one ran after all (processed-messages.ts).
 */
export const PENDING_FOR_SECONDS = 120;

/** A delivery this process saw answered, kept a while to add to copies of the record that lack it. */
interface RecentlyDone {
	digest: string;
	expires: number;
}

/** What a trigger's process saw answered, oldest first, counted since the trigger started. */
interface DoneList {
	items: RecentlyDone[];
	/** How many were trimmed off the front: items[i] is the (trimmed + i)th answered. */
	trimmed: number;
}

/** The part of a webhook call's response the memory watches (Express's response in n8n). */
export interface WatchedResponse {
	statusCode?: number;
	/** n8n has written its answer (also to a connection the gateway closed already). */
	writableEnded?: boolean;
	once?(event: 'finish' | 'close', listener: () => void): unknown;
}

/**
 * What a trigger's next delivery builds its record on, kept between calls: n8n 2.x saves no
 * static data for a call that started an execution, so call after call hands the same record
 * (as last saved), and n8n 1.x hands the one returned last. Either is then neither scanned nor
 * read again: the record is carried forward from the one built last time.
 */
interface RecordBase {
	/** The text static data handed the call it was built for. */
	stored: string;
	/** That text read, as it is (for verdicts); none once the base moved on from it. */
	storedExpiries?: OldestFirstMap<number>;
	/** The stored record with what this process saw answered since, as the next record starts. */
	record: ReadRecord;
	/** How many of the trigger's answered deliveries (DoneList) the record took in. */
	doneMerged: number;
	/** The record accept() returned last: the base's record with that call's own delivery last. */
	returned?: { text: string; digest: string; expires: number };
}

export class DeliveryMemory {
	private readonly byTrigger = new Map<string, OldestFirstMap<ProcessEntry>>();
	private readonly recentlyDone = new Map<string, DoneList>();
	/** The deliveries each answer not written yet settles (trigger, digest). */
	private readonly awaitingAnswer = new WeakMap<WatchedResponse, Settled[]>();
	private readonly bases = new Map<string, RecordBase>();

	/**
	 * At most `maxEntries` deliveries per trigger, each for its retention time (static data's
	 * record may carry up to an eighth more at its front, dropped already, until the front is cut).
	 */
	constructor(private readonly maxEntries: number) {}

	/** Whether the delivery was run already, is being run, or is new. */
	verdict(trigger: string, stored: unknown, digest: string, now: number): DeliveryVerdict {
		const known = this.byTrigger.get(trigger)?.get(digest);
		if (known && known.expires > now) {
			if (known.done) return 'duplicate';
			if (now - known.takenAt < PENDING_FOR_SECONDS) return 'in progress';
		}
		const record = recordOf(stored);
		const expiry = this.expiryIn(trigger, record, digest);
		return expiry !== undefined && expiry > now ? 'duplicate' : 'new';
	}

	/**
	 * Records a delivery as pending here, and returns static data's record with it: without what
	 * expired and the oldest beyond `maxEntries`, with what this process saw answered since the
	 * stored copy's newest entry (another call may have saved its copy over the one that had
	 * them), and never with another call's delivery still pending (if it fails, the gateway's next
	 * try must run it). `response` settles the entry once n8n answered.
	 */
	accept(
		trigger: string,
		stored: unknown,
		digest: string,
		expires: number,
		now: number,
		response: WatchedResponse,
	): string {
		const base = this.baseFor(trigger, recordOf(stored));
		const { record } = base;
		const { expiries } = record;
		// Taken again (its entry expired, or its run failed and static data kept it): it goes last.
		if (expiries.has(digest)) withoutEntry(record, digest);
		// What was answered since the base last took answers in, unless it expired or is there.
		const done = this.recentlyDone.get(trigger);
		let added = '';
		if (done) {
			const answered = done.trimmed + done.items.length;
			for (let index = Math.max(base.doneMerged, done.trimmed); index < answered; index++) {
				const each = done.items[index - done.trimmed];
				if (each.expires > now && each.digest !== digest && !expiries.has(each.digest)) {
					expiries.set(each.digest, each.expires);
					added += entry(each.digest, each.expires);
					record.newest = each.expires;
				}
			}
			base.doneMerged = answered;
		}
		// The front goes first: what expired, and the oldest beyond the limit (this delivery counts).
		let dropped = 0;
		for (let oldest = expiries.oldest(); oldest; oldest = expiries.oldest()) {
			if (oldest[1] > now && expiries.size < this.maxEntries) break;
			expiries.deleteOldest();
			dropped++;
		}
		record.text += added;
		record.lead += dropped;
		if (record.lead > this.maxEntries >> 3) {
			record.text = record.text.slice(record.lead * ENTRY_LENGTH);
			record.lead = 0;
		}
		const text = record.text + entry(digest, expires);
		base.returned = { text, digest, expires };

		// Taken after the record is built: an answer that comes at once is taken in by the next one.
		const entries = this.entriesOf(trigger);
		entries.delete(digest);
		const taken: ProcessEntry = { expires, done: false, takenAt: now };
		entries.set(digest, taken);
		if (entries.size > this.maxEntries) entries.deleteOldest();
		this.settleWithAnswer(trigger, digest, taken, response);
		return text;
	}

	/** Forgets a delivery that started nothing (it failed before n8n took it). */
	forget(trigger: string, digest: string): void {
		this.byTrigger.get(trigger)?.delete(digest);
		const base = this.bases.get(trigger);
		if (!base) return;
		if (base.returned?.digest === digest) base.returned = undefined;
		// Static data kept it (n8n 1.x saves before it answers): the next record goes without it.
		if (base.record.expiries.has(digest)) {
			withoutEntry(base.record, digest);
			base.returned = undefined;
		}
	}

	/** Forgets everything of a trigger that stopped (no redelivery reaches it any more). */
	forgetTrigger(trigger: string): void {
		this.byTrigger.delete(trigger);
		this.recentlyDone.delete(trigger);
		this.bases.delete(trigger);
	}

	/** The digest's expiry in static data's record, read from the base when it holds that text. */
	private expiryIn(trigger: string, record: string, digest: string): number | undefined {
		const base = this.bases.get(trigger);
		const returned = base?.returned;
		if (base && returned?.text === record) {
			return digest === returned.digest ? returned.expires : base.record.expiries.get(digest);
		}
		if (base?.stored === record && base.storedExpiries) return base.storedExpiries.get(digest);
		const at = entryOf(record, digest);
		return at === -1 ? undefined : expiryAt(record, at);
	}

	/**
	 * The base for a call handed `text`: the one kept, when `text` is what it was built on (n8n 2.x)
	 * or the record returned last (n8n 1.x, which then becomes part of it); else `text` read anew,
	 * with what this process saw answered after its newest entry still to take in.
	 */
	private baseFor(trigger: string, text: string): RecordBase {
		const kept = this.bases.get(trigger);
		if (kept?.stored === text) return kept;
		const returned = kept?.returned;
		if (kept && returned?.text === text) {
			kept.record.expiries.set(returned.digest, returned.expires);
			kept.record.text = text;
			kept.record.newest = returned.expires;
			kept.stored = text;
			kept.storedExpiries = undefined;
			return kept;
		}
		const storedExpiries = readRecord(text).expiries;
		const record = readRecord(text);
		const done = this.recentlyDone.get(trigger);
		let doneMerged = 0;
		if (done) {
			let first = done.items.length;
			while (first > 0 && done.items[first - 1].expires >= record.newest) first--;
			doneMerged = done.trimmed + first;
		}
		const base: RecordBase = { stored: text, storedExpiries, record, doneMerged };
		this.bases.set(trigger, base);
		return base;
	}

	private entriesOf(trigger: string): OldestFirstMap<ProcessEntry> {
		let entries = this.byTrigger.get(trigger);
		if (!entries) {
			entries = new OldestFirstMap();
			this.byTrigger.set(trigger, entries);
		}
		return entries;
	}

	/**
	 * Done on a 2xx answer; forgotten on any other. When the gateway closes the connection before
	 * n8n answered (it timed out), n8n goes on and still stores the execution or fails to: the
	 * entry stays pending (a retry meanwhile gets 409) until n8n writes its answer to the closed
	 * connection, which settles it the same way; forgotten if n8n never does. An answer settles only
	 * the entries it was taken with: one taken again since (PENDING_FOR_SECONDS) is another's.
	 */
	private settleWithAnswer(
		trigger: string,
		digest: string,
		taken: ProcessEntry,
		response: WatchedResponse,
	): void {
		if (typeof response.once !== 'function') {
			// A response that cannot be watched: n8n holds what it was given.
			this.markDone(trigger, digest, taken);
			return;
		}
		// One pair of listeners per answer, however many deliveries it settles (a catch-up's).
		const waiting = this.awaitingAnswer.get(response);
		if (waiting) {
			waiting.push([trigger, digest, taken]);
			return;
		}
		const settles: Settled[] = [[trigger, digest, taken]];
		this.awaitingAnswer.set(response, settles);
		let settled = false;
		const settleAll = (done: boolean) => {
			if (settled) return;
			settled = true;
			this.awaitingAnswer.delete(response);
			for (const [each, eachDigest, eachTaken] of settles) {
				if (this.byTrigger.get(each)?.get(eachDigest) !== eachTaken) continue;
				if (done) this.markDone(each, eachDigest, eachTaken);
				else this.forget(each, eachDigest);
			}
		};
		const settle = () => {
			const status = response.statusCode ?? 200;
			settleAll(status >= 200 && status < 300);
		};
		response.once('finish', settle);
		response.once('close', () => {
			if (settled) return;
			if (response.writableEnded === undefined) {
				settleAll(false);
				return;
			}
			void this.untilAnswered(response).then((answered) => {
				if (answered) settle();
				else settleAll(false);
			});
		});
	}

	/** Whether n8n writes its answer (to a closed connection) within UNANSWERED_WAIT_MS. */
	private async untilAnswered(response: WatchedResponse): Promise<boolean> {
		const giveUpAt = Date.now() + UNANSWERED_WAIT_MS;
		while (!response.writableEnded && Date.now() < giveUpAt) await sleep(UNANSWERED_POLL_MS);
		return response.writableEnded === true;
	}

	private markDone(trigger: string, digest: string, known: ProcessEntry): void {
		known.done = true;
		let done = this.recentlyDone.get(trigger);
		if (!done) {
			done = { items: [], trimmed: 0 };
			this.recentlyDone.set(trigger, done);
		}
		done.items.push({ digest, expires: known.expires });
		// Trimmed now and then, not on every push (a shift moves the whole list).
		const over = done.items.length - this.maxEntries;
		if (over > this.maxEntries) {
			done.items.splice(0, over);
			done.trimmed += over;
		}
	}
}

/** Options > Redeliver For (Minutes), by default a quarter of an hour (WAHA's own is 30 s). */
export const REDELIVER_MINUTES = { default: 15, max: 1440 };

/** Every trigger's deliveries this process started executions for (see delivery-memory.ts). */
export const DELIVERIES = new DeliveryMemory(2000);

/**
 * Redeliver For (Minutes) as typed or from an expression (a whole number, or its digits), the
 * default when not set; undefined when unusable. Activation refuses that; a delivery reads the default.
 */
export function parseRedeliverMinutes(raw: unknown): number | undefined {
	return wholeNumberIn(raw ?? REDELIVER_MINUTES.default, 1, REDELIVER_MINUTES.max);
}

/**
 * How long a delivery is remembered, in seconds: beyond the gateway's last retry (Evolution API's
 * ten tries span about 26 minutes; WAHA tries for Redeliver For (Minutes)).
 */
export function rememberSeconds(options: IDataObject): number {
	const minutes = parseRedeliverMinutes(options.redeliverMinutes) ?? REDELIVER_MINUTES.default;
	return Math.max(30, minutes + 5) * 60;
}
