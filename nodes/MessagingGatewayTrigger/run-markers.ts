/**
 * Run markers: the last guard of processed-messages.ts's claims across n8n processes against a
 * write that lands late. A claim is read back after a wait this process sizes by its own store
 * calls, but a write another worker read before our claim can land later still when that worker
 * is the slow one (its database pool all in use while ours is free): it drops our claim after we
 * confirmed it, and its own claim then survives, so both would run the message.
 *
 * So an execution that confirmed its claim records `ran:<digest>` and runs the message only when
 * that was not there already; and this process writes its markers again, for a while, on a
 * schedule: a late write that dropped a marker is followed by a write that puts it back before
 * the slow worker, which waits three times its slowest call before it reads its own claim back
 * (processed-messages.ts settleMs), asks for the marker. That worker then finds it and leaves the
 * message out. The bound this rests on is the slow worker's own: its write cannot land later than
 * its call returns, and it waits after that.
 */
import type { Logger } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { LOG_PREFIX } from './webhook/registration';

/** The value that says a message's claim was confirmed and the message ran. */
export function runMarker(digest: string): string {
	return `ran:${digest}`;
}

/**
 * When this process writes a marker again, after it was first written: doubling, then every
 * REWRITE_EVERY_MS. A late write that lands Δ after the marker is followed by a rewrite before the
 * slow worker's read-back, which comes at least max(1 s, 3Δ) later (capped at 15 s).
 */
const FIRST_REWRITE_MS = 500;
const REWRITE_EVERY_MS = 8000;
/**
 * How long markers are written again: past the longest a write can land after its read (n8n waits
 * 20 s for a database connection by default, 60 s where docs/queue-mode.md's setting applies), and
 * its query's own time.
 */
export const REWRITE_WINDOW_MS = 120_000;
/** Markers remembered per trigger at most (a burst within the window beyond that is rare). */
const REMEMBERED_MARKERS = 2000;

/** The offset after `age` at which a marker is written again. */
function nextRewriteAfter(age: number): number {
	let offset = FIRST_REWRITE_MS;
	while (offset <= age && offset < REWRITE_EVERY_MS) offset *= 2;
	if (offset > age) return offset;
	return (Math.floor(age / REWRITE_EVERY_MS) + 1) * REWRITE_EVERY_MS;
}

interface Remembered {
	marker: string;
	writtenAt: number;
	dueAt: number;
}

/** Per trigger in this process: its markers to write again, and how. */
interface Rewrites {
	markers: Map<string, Remembered>;
	write: (markers: string[]) => Promise<Set<string>>;
	logger: Logger;
	running: boolean;
}

const REWRITES = new Map<string, Rewrites>();

/**
 * Remembers markers this process wrote for `key`'s trigger, to write them again on the schedule.
 * `write` records values at the store and answers those that were there (the latest execution's:
 * the store stays reachable after the execution that wrote a marker ended).
 */
export function rewriteLater(
	key: string,
	markers: string[],
	write: Rewrites['write'],
	logger: Logger,
): void {
	const now = Date.now();
	const rewrites = REWRITES.get(key) ?? { markers: new Map(), write, logger, running: false };
	rewrites.write = write;
	rewrites.logger = logger;
	for (const marker of markers) {
		rewrites.markers.delete(marker);
		rewrites.markers.set(marker, { marker, writtenAt: now, dueAt: now + FIRST_REWRITE_MS });
	}
	// Walked only when over (a Map's front keeps the holes its deletions leave).
	if (rewrites.markers.size > REMEMBERED_MARKERS) {
		for (const oldest of rewrites.markers.keys()) {
			if (rewrites.markers.size <= REMEMBERED_MARKERS) break;
			rewrites.markers.delete(oldest);
		}
	}
	REWRITES.set(key, rewrites);
	if (!rewrites.running) {
		rewrites.running = true;
		void rewriteWhileRemembered(key, rewrites);
	}
}

/** Writes the trigger's markers again whenever one is due, until none is remembered. */
async function rewriteWhileRemembered(key: string, rewrites: Rewrites): Promise<void> {
	try {
		while (rewrites.markers.size > 0) {
			const due = Math.min(...[...rewrites.markers.values()].map((each) => each.dueAt));
			await sleep(Math.max(0, due - Date.now()));
			const now = Date.now();
			for (const [marker, each] of rewrites.markers) {
				if (now - each.writtenAt > REWRITE_WINDOW_MS) rewrites.markers.delete(marker);
			}
			if (rewrites.markers.size === 0) break;
			// Every remembered marker goes in one write: one more than due costs nothing.
			const markers = [...rewrites.markers.keys()];
			try {
				const found = await rewrites.write(markers);
				const dropped = markers.filter((marker) => !found.has(marker)).length;
				if (dropped > 0) {
					rewrites.logger.debug(
						`${LOG_PREFIX} a late write had dropped ${dropped} run marker(s) from n8n's processed-data record: written again`,
					);
				}
			} catch (error) {
				rewrites.logger.warn(
					`${LOG_PREFIX} writing run markers again failed (tried again on schedule): ${error instanceof Error ? error.message : String(error)}`,
				);
			}
			const after = Date.now();
			for (const each of rewrites.markers.values()) {
				each.dueAt = each.writtenAt + nextRewriteAfter(after - each.writtenAt);
			}
		}
	} finally {
		rewrites.running = false;
		if (rewrites.markers.size === 0 && REWRITES.get(key) === rewrites) REWRITES.delete(key);
	}
}
