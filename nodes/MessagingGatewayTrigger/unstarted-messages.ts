/**
 * Messages n8n took and then never started. The trigger answers a delivery once n8n has stored its
 * execution, but n8n can still fail that execution before its first step (a database connection
 * it could not get in time): the gateway heard "received", and the message never ran. In n8n's
 * regular mode the execution runs in the process whose webhook() took the delivery, so that
 * process sees whether its execute() came: a message taken here that no execution here started
 * within two minutes is read back from the gateway with the next delivery (catch-up.ts), and
 * runs then unless n8n's processed-data store says it ran (processed-messages.ts).
 *
 * In queue mode executions run on workers, and a webhook processor never sees one start: it reads
 * nothing back for this reason (it learns its mode from its own executions: none start here).
 */
import type { IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

import { OldestFirstMap } from './oldest-first-map';

/** How long after n8n took a message its execution must have started in this process... */
export const START_OVERDUE_SECONDS = 120;
/** ...and how long the trigger keeps looking for it (a gateway keeps messages longer). */
const GIVE_UP_SECONDS = 3600;
/** Messages waiting for their execution, per trigger, at most. */
const REMEMBERED = 5000;

/** A message taken, and its time (Unix seconds): a read-back reads from there. */
export interface TakenMessage {
	digest: string;
	takenAt: number;
	messageTime: number;
}

/**
 * Per trigger and session it watches, the messages taken in this process whose execution has not
 * started here, oldest first (an OldestFirstMap: a plain Map walks over every entry deleted from
 * its front). Per session, because each session's gap is read back from that session.
 */
const WAITING = new Map<string, Map<string, OldestFirstMap<TakenMessage>>>();

/** The trigger's waiting messages of one session, made when `create`. */
function waitingOf(
	key: string,
	session: string,
	create: boolean,
): OldestFirstMap<TakenMessage> | undefined {
	let sessions = WAITING.get(key);
	if (!sessions && create) WAITING.set(key, (sessions = new Map()));
	let waiting = sessions?.get(session);
	if (!waiting && create) sessions!.set(session, (waiting = new OldestFirstMap<TakenMessage>()));
	return waiting;
}
/** Triggers whose executions run in this process (n8n's regular mode). */
const STARTED_HERE = new Set<string>();

/** The trigger's key, the same in webhook() and execute(): its workflow and node. */
export function triggerKey(this: IWebhookFunctions | IExecuteFunctions): string {
	return `${this.getWorkflow().id ?? ''}:${this.getNode().id}`;
}

/** webhook() took a message (live or read back) into an execution n8n is to store. */
export function noteTaken(
	key: string,
	session: string,
	digest: string,
	messageTime: number,
	now: number,
): void {
	const waiting = waitingOf(key, session, true)!;
	waiting.set(digest, { digest, takenAt: now, messageTime });
	for (let oldest = waiting.oldest(); oldest; oldest = waiting.oldest()) {
		if (waiting.size <= REMEMBERED && now - oldest[1].takenAt <= GIVE_UP_SECONDS) break;
		waiting.deleteOldest();
	}
}

/**
 * An execution's first step began with these messages: taken by this process (`takenHere`), it
 * tells the trigger that its executions run here.
 */
export function noteStarted(key: string, digests: string[], takenHere: boolean): void {
	if (takenHere) STARTED_HERE.add(key);
	const sessions = WAITING.get(key);
	if (!sessions) return;
	// A digest names its session's event: deleted from another session's messages, it is absent.
	for (const [session, waiting] of sessions) {
		for (const digest of digests) waiting.delete(digest);
		if (waiting.size === 0) sessions.delete(session);
	}
	if (sessions.size === 0) WAITING.delete(key);
}

/**
 * The messages taken here whose execution should have started by `now` and did not, taken out
 * (they are taken again when read back); none in queue mode or before an execution started here.
 */
export function takeOverdue(key: string, session: string, now: number): TakenMessage[] {
	const waiting = waitingOf(key, session, false);
	if (!waiting || !STARTED_HERE.has(key)) return [];
	const overdue: TakenMessage[] = [];
	for (let oldest = waiting.oldest(); oldest; oldest = waiting.oldest()) {
		const taken = oldest[1];
		if (now - taken.takenAt < START_OVERDUE_SECONDS) break;
		waiting.deleteOldest();
		if (now - taken.takenAt <= GIVE_UP_SECONDS) overdue.push(taken);
	}
	return overdue;
}

/** Messages takeOverdue gave that could not be read back now: the next delivery tries again. */
export function putBack(key: string, session: string, messages: TakenMessage[]): void {
	if (messages.length === 0) return;
	const waiting = waitingOf(key, session, true)!;
	// Rare (a read that failed): rebuilt with them first, as the oldest.
	const rest: TakenMessage[] = [];
	for (let oldest = waiting.oldest(); oldest; oldest = waiting.oldest()) {
		rest.push(oldest[1]);
		waiting.deleteOldest();
	}
	for (const taken of [...messages, ...rest]) waiting.set(taken.digest, taken);
}
