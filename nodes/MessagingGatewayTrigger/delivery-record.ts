/**
 * The memory of deliveries as static data keeps it (delivery-memory.ts): a delivery's digest,
 * and the record, a text of fixed-length entries (digest, then when it may be forgotten), read,
 * added to and trimmed without a loop over objects.
 */
import * as crypto from 'crypto';

import { OldestFirstMap } from './oldest-first-map';

/** Characters of a delivery's digest (see deliveryDigest). */
const DIGEST_LENGTH = 16;
/** Digits of an expiry, in Unix seconds (ten until the year 2286). */
const EXPIRY_DIGITS = 10;
/**
 * One entry of static data's record: its digest, then when it may be forgotten. The record is a
 * text of such entries, oldest first: read, added to and trimmed without a loop over objects
 * (n8n hands static data to the node behind a proxy, where every property read costs).
 */
export const ENTRY_LENGTH = DIGEST_LENGTH + EXPIRY_DIGITS;

/** Node's one-call hash (20.12 and later): half the time of a Hash object for a short text. */
const oneShotHash = (
	crypto as { hash?: (algorithm: string, data: string, encoding: 'base64url') => string }
).hash;

/** 96 bits of SHA-256 in base64url: no two of the few thousand deliveries remembered share one. */
export function deliveryDigest(identity: string): string {
	const digest = oneShotHash
		? oneShotHash('sha256', identity, 'base64url')
		: crypto.createHash('sha256').update(identity).digest('base64url');
	return digest.slice(0, DIGEST_LENGTH);
}

/** The record as static data holds it, or none when it is not one (never written, or damaged). */
export function recordOf(stored: unknown): string {
	return typeof stored === 'string' && stored.length % ENTRY_LENGTH === 0 ? stored : '';
}

/** Where the digest's entry starts in the record, or -1 (a match must start an entry). */
export function entryOf(record: string, digest: string, from = 0): number {
	let at = record.indexOf(digest, from);
	while (at !== -1 && at % ENTRY_LENGTH !== 0) at = record.indexOf(digest, at + 1);
	return at;
}

export function expiryAt(record: string, at: number): number {
	return Number(record.slice(at + DIGEST_LENGTH, at + ENTRY_LENGTH));
}

export function entry(digest: string, expires: number): string {
	return digest + String(expires).padStart(EXPIRY_DIGITS, '0');
}

/** The record without the digest's entry. */
export function recordWithout(stored: unknown, digest: string): string {
	const record = recordOf(stored);
	const at = entryOf(record, digest);
	return at === -1 ? record : record.slice(0, at) + record.slice(at + ENTRY_LENGTH);
}

/** A record read into its entries (digest → expiry, in the record's order), with its text. */
export interface ReadRecord {
	text: string;
	expiries: OldestFirstMap<number>;
	/** The expiry of its last entry (0 for none). */
	newest: number;
	/**
	 * Entries at the front of the text that are no longer in `expiries` (expired, or the oldest
	 * beyond the limit): cut off together now and then, since cutting the front copies the text.
	 */
	lead: number;
}

export function readRecord(text: string): ReadRecord {
	const expiries = new OldestFirstMap<number>();
	let newest = 0;
	for (let at = 0; at < text.length; at += ENTRY_LENGTH) {
		newest = expiryAt(text, at);
		expiries.set(text.slice(at, at + DIGEST_LENGTH), newest);
	}
	return { text, expiries, newest, lead: 0 };
}

/** Takes the digest's entry out of the record (its text beyond the lead, and its entries). */
export function withoutEntry(record: ReadRecord, digest: string): void {
	const at = entryOf(record.text, digest, record.lead * ENTRY_LENGTH);
	if (at !== -1) record.text = record.text.slice(0, at) + record.text.slice(at + ENTRY_LENGTH);
	record.expiries.delete(digest);
}
