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
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { wholeNumberIn } from '../shared/values';

/** How a delivery compares with the ones before it. */
export type DeliveryVerdict = 'new' | 'duplicate' | 'in progress';

/** Characters of a delivery's digest (see deliveryDigest). */
const DIGEST_LENGTH = 16;
/** Digits of an expiry, in Unix seconds (ten until the year 2286). */
const EXPIRY_DIGITS = 10;
/**
 * One entry of static data's record: its digest, then when it may be forgotten. The record is a
 * text of such entries, oldest first: read, added to and trimmed without a loop over objects
 * (n8n hands static data to the node behind a proxy, where every property read costs).
 */
const ENTRY_LENGTH = DIGEST_LENGTH + EXPIRY_DIGITS;

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

/** The part of a webhook call's response the memory watches (Express's response in n8n). */
export interface WatchedResponse {
	statusCode?: number;
	/** n8n has written its answer (also to a connection the gateway closed already). */
	writableEnded?: boolean;
	once?(event: 'finish' | 'close', listener: () => void): unknown;
}

/** 96 bits of SHA-256 in base64url: no two of the few thousand deliveries remembered share one. */
export function deliveryDigest(identity: string): string {
	return createHash('sha256').update(identity).digest('base64url').slice(0, DIGEST_LENGTH);
}

/** The record as static data holds it, or none when it is not one (never written, or damaged). */
function recordOf(stored: unknown): string {
	return typeof stored === 'string' && stored.length % ENTRY_LENGTH === 0 ? stored : '';
}

/** Where the digest's entry starts in the record, or -1 (a match must start an entry). */
function entryOf(record: string, digest: string, from = 0): number {
	let at = record.indexOf(digest, from);
	while (at !== -1 && at % ENTRY_LENGTH !== 0) at = record.indexOf(digest, at + 1);
	return at;
}

function expiryAt(record: string, at: number): number {
	return Number(record.slice(at + DIGEST_LENGTH, at + ENTRY_LENGTH));
}

function entry(digest: string, expires: number): string {
	return digest + String(expires).padStart(EXPIRY_DIGITS, '0');
}

/** The record without the digest's entry. */
export function recordWithout(stored: unknown, digest: string): string {
	const record = recordOf(stored);
	const at = entryOf(record, digest);
	return at === -1 ? record : record.slice(0, at) + record.slice(at + ENTRY_LENGTH);
}

/** A record read into its entries (digest → expiry, in the record's order), with its text. */
interface ReadRecord {
	text: string;
	expiries: Map<string, number>;
	/** The expiry of its last entry (0 for none). */
	newest: number;
}

function readRecord(text: string): ReadRecord {
	const expiries = new Map<string, number>();
	let newest = 0;
	for (let at = 0; at < text.length; at += ENTRY_LENGTH) {
		newest = expiryAt(text, at);
		expiries.set(text.slice(at, at + DIGEST_LENGTH), newest);
	}
	return { text, expiries, newest };
}

export class DeliveryMemory {
	private readonly byTrigger = new Map<string, Map<string, ProcessEntry>>();
	private readonly recentlyDone = new Map<string, RecentlyDone[]>();
	/** The deliveries each answer not written yet settles (trigger, digest). */
	private readonly awaitingAnswer = new WeakMap<WatchedResponse, Settled[]>();
	/**
	 * The record this process last returned per trigger, read: while static data still holds that
	 * very text (the next delivery in this process, most often) nothing is scanned or parsed again.
	 */
	private readonly lastWritten = new Map<string, ReadRecord>();

	/** At most `maxEntries` deliveries per trigger, each for its retention time. */
	constructor(private readonly maxEntries: number) {}

	/** Whether the delivery was run already, is being run, or is new. */
	verdict(trigger: string, stored: unknown, digest: string, now: number): DeliveryVerdict {
		const known = this.byTrigger.get(trigger)?.get(digest);
		if (known && known.expires > now) {
			if (known.done) return 'duplicate';
			if (now - known.takenAt < PENDING_FOR_SECONDS) return 'in progress';
		}
		const record = recordOf(stored);
		const written = this.lastWritten.get(trigger);
		if (written?.text === record) {
			const expiry = written.expiries.get(digest);
			return expiry !== undefined && expiry > now ? 'duplicate' : 'new';
		}
		const at = entryOf(record, digest);
		return at !== -1 && expiryAt(record, at) > now ? 'duplicate' : 'new';
	}

	/**
	 * Records a delivery as pending here, and returns static data's record with it: without what
	 * expired and the oldest beyond `maxEntries`, with what this process saw done since the copy's
	 * newest entry (another call may have saved its copy over the one that had them).
	 * `response` settles the entry once n8n answered.
	 */
	accept(
		trigger: string,
		stored: unknown,
		digest: string,
		expires: number,
		now: number,
		response: WatchedResponse,
	): string {
		const entries = this.entriesOf(trigger);
		entries.delete(digest);
		const taken: ProcessEntry = { expires, done: false, takenAt: now };
		entries.set(digest, taken);
		if (entries.size > this.maxEntries) entries.delete(entries.keys().next().value as string);
		this.settleWithAnswer(trigger, digest, taken, response);

		const text = recordOf(stored);
		const written = this.lastWritten.get(trigger);
		// Read anew unless it is the text this process wrote last (then its entries are known).
		const record =
			written?.text === text && !written.expiries.has(digest)
				? written
				: readRecord(recordWithout(text, digest));
		const { expiries } = record;
		const recent = this.recentlyDone.get(trigger) ?? [];
		let first = recent.length;
		while (first > 0 && recent[first - 1].expires > record.newest) first--;
		const added: Array<[string, number]> = [];
		for (let index = first; index < recent.length; index++) {
			const done = recent[index];
			if (done.expires > now && done.digest !== digest && !expiries.has(done.digest)) {
				added.push([done.digest, done.expires]);
			}
		}
		added.push([digest, expires]);
		// The front goes first: what expired, and the oldest beyond the limit.
		let dropped = 0;
		for (const [oldest, expiry] of expiries) {
			if (expiry > now && expiries.size + added.length <= this.maxEntries) break;
			expiries.delete(oldest);
			dropped++;
		}
		let updated = record.text.slice(dropped * ENTRY_LENGTH);
		for (const [each, expiry] of added) {
			expiries.set(each, expiry);
			updated += entry(each, expiry);
		}
		const over = expiries.size - this.maxEntries;
		for (let drop = 0; drop < over; drop++) {
			expiries.delete(expiries.keys().next().value as string);
		}
		if (over > 0) updated = updated.slice(over * ENTRY_LENGTH);
		this.lastWritten.set(trigger, { text: updated, expiries, newest: expires });
		return updated;
	}

	/** Forgets a delivery that started nothing (it failed before n8n took it). */
	forget(trigger: string, digest: string): void {
		this.byTrigger.get(trigger)?.delete(digest);
	}

	/** Forgets everything of a trigger that stopped (no redelivery reaches it any more). */
	forgetTrigger(trigger: string): void {
		this.byTrigger.delete(trigger);
		this.recentlyDone.delete(trigger);
		this.lastWritten.delete(trigger);
	}

	private entriesOf(trigger: string): Map<string, ProcessEntry> {
		let entries = this.byTrigger.get(trigger);
		if (!entries) {
			entries = new Map();
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
		let recent = this.recentlyDone.get(trigger);
		if (!recent) {
			recent = [];
			this.recentlyDone.set(trigger, recent);
		}
		recent.push({ digest, expires: known.expires });
		// Trimmed now and then, not on every push (a shift moves the whole list).
		if (recent.length > 2 * this.maxEntries) recent.splice(0, recent.length - this.maxEntries);
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
