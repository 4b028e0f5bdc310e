/**
 * The last word on whether a message runs. n8n calls the trigger's execute() as the first step of
 * every execution its webhook() starts (n8n-core runs a node's execute() before it would pass a
 * webhook node's items on). There, unlike in webhook(), n8n gives nodes its processed-data store
 * (the one behind Remove Duplicates), kept in n8n's database: read by every n8n process (workers
 * in queue mode) and kept through restarts. A message recorded there runs nothing again.
 *
 * It writes nothing to static data: n8n saves an execution's copy of static data whole when the
 * execution changed it, and that copy was loaded when the execution started. A workflow
 * activated again meanwhile (a new version published while a message is answered) has a new
 * registration and token, which such a save would put back to the old ones, and n8n runs the
 * executions it held when it stopped with no static data at all: either save would lock the
 * gateway out.
 *
 * The store reads its record, adds to it and writes it back whole, with no lock: two executions
 * of one trigger at the same moment would both find a message new, and the later write drops what
 * the earlier added. Within a process they take turns here. Across processes (queue mode's
 * workers) an execution claims its messages: it writes a value of its own with them, waits until
 * every write that read the record before its own has landed, and reads the record again. Its
 * value still there, no one dropped its write, and whoever wrote after it read its messages as
 * run: they are its own. Gone, it checks them again (those another execution took are no longer
 * its), with a new value.
 */
import { randomBytes } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { rewriteLater, runMarker } from './run-markers';
import { noteStarted, triggerKey } from './unstarted-messages';
import { LOG_PREFIX } from './webhook/registration';

/** The property webhook() puts on each item for execute(), which takes it off again. */
const TAG = 'messagingGatewayDelivery';

/** What execute() needs to know of an item's delivery: a message's. */
export interface DeliveryTag {
	/** The delivery's digest (delivery-memory.ts): the same for every delivery of one message. */
	digest: string;
	/** The n8n process whose webhook() took it: another one than execute()'s in queue mode. */
	takenBy?: string;
}

/** This n8n process, among those sharing the database. */
const THIS_PROCESS = randomBytes(9).toString('base64url');

/**
 * Messages remembered per trigger: more than every gateway's retries and a catch-up's reach hold
 * (Evolution API's retries span about 26 minutes; a catch-up reads the newest 500 messages). Each
 * is a 24-character hash in one database row, which each execution reads and writes whole. Only
 * messages are recorded (other events, many more, would push them out): another event delivered
 * again after a restart runs again.
 */
export const PROCESSED_ENTRIES = 5000;

/** Marks an item with its delivery for execute(), taken by this process. */
export function tagged(item: INodeExecutionData, tag: DeliveryTag): INodeExecutionData {
	item[TAG] = { takenBy: THIS_PROCESS, ...tag };
	return item;
}

function tagOf(item: INodeExecutionData): DeliveryTag | undefined {
	const tag = item[TAG] as IDataObject | undefined;
	if (typeof tag?.digest !== 'string') return undefined;
	return { digest: tag.digest, takenBy: typeof tag.takenBy === 'string' ? tag.takenBy : undefined };
}

function untagged(item: INodeExecutionData): INodeExecutionData {
	if (!(TAG in item)) return item;
	const rest = { ...item };
	delete rest[TAG];
	return rest;
}

/** An execution waiting for the store: its digests, and how to hand it those that ran before. */
interface Waiting {
	digests: string[];
	settle(outcome: { ranBefore: Set<string> } | { error: unknown }): void;
}

/** Per trigger in this process, the executions waiting while the store is being read and written. */
const WAITING = new Map<string, Waiting[]>();

/**
 * Checks and records `digests` at the store, one call at a time per trigger in this process (two
 * at once would both find a message new): the executions that came while one call was under way
 * go together in the next, so a burst costs a few reads and writes of the record, not one each.
 * A message two of them carry ran before for the later one.
 */
async function checkedInTurn(
	key: string,
	digests: string[],
	check: (digests: string[]) => Promise<unknown[]>,
): Promise<Set<string>> {
	return await new Promise((resolve, reject) => {
		const waiting = WAITING.get(key);
		const settle: Waiting['settle'] = (outcome) =>
			'error' in outcome ? reject(outcome.error) : resolve(outcome.ranBefore);
		if (waiting) {
			waiting.push({ digests, settle });
			return;
		}
		WAITING.set(key, []);
		void checkTogether(key, [{ digests, settle }], check);
	});
}

/** Runs the store's calls for `key` until no execution waits. */
async function checkTogether(
	key: string,
	first: Waiting[],
	check: (digests: string[]) => Promise<unknown[]>,
): Promise<void> {
	for (let batch = first; batch.length > 0; batch = WAITING.get(key)?.splice(0) ?? []) {
		try {
			const processed = new Set(
				(await check([...new Set(batch.flatMap(({ digests }) => digests))])).map(String),
			);
			const earlier = new Set<string>();
			for (const { digests, settle } of batch) {
				settle({ ranBefore: new Set(digests.filter((d) => processed.has(d) || earlier.has(d))) });
				for (const digest of digests) earlier.add(digest);
			}
		} catch (error) {
			for (const { settle } of batch) settle({ error });
		}
	}
	WAITING.delete(key);
}

/** Tries at the store, and the pause before the next (times the try). */
const STORE_ATTEMPTS = 3;
const STORE_RETRY_DELAY_MS = 200;

/**
 * How long after its read n8n's write of the record has landed, at most, on a database that
 * answers at once: the store reads the record, then writes it (two database round trips). A claim
 * is read back after this, or after longer when the store has been slow (settleMs).
 */
export const STORE_WRITE_SETTLE_MS = 1000;

/**
 * A busy database (a connection pool all in use, a machine short of CPU) makes every process's
 * store calls slow alike, and another worker's write lands as late after its read as this
 * process's calls take: a claim waits this many times the slowest call seen lately...
 */
const SLOW_STORE_FACTOR = 3;
/** ...seen within this long... */
const SLOW_STORE_MEMORY_MS = 60_000;
/** ...and never longer than this (an execution held up longer helps no one). */
export const STORE_WRITE_SETTLE_MAX_MS = 15_000;

/** The slowest store call this process made lately, and when. */
let slowestStoreCall = { ms: 0, at: 0 };

function noteStoreCall(ms: number): void {
	const now = Date.now();
	if (ms >= slowestStoreCall.ms || now - slowestStoreCall.at > SLOW_STORE_MEMORY_MS) {
		slowestStoreCall = { ms, at: now };
	}
}

/** How long a claim waits before it is read back (see STORE_WRITE_SETTLE_MS). */
function settleMs(): number {
	const recent = Date.now() - slowestStoreCall.at <= SLOW_STORE_MEMORY_MS ? slowestStoreCall.ms : 0;
	return Math.min(
		STORE_WRITE_SETTLE_MAX_MS,
		Math.max(STORE_WRITE_SETTLE_MS, SLOW_STORE_FACTOR * recent),
	);
}

/** Claims of one execution before its messages run anyway (two claims fail rarely). */
const CLAIM_ROUNDS = 4;

/**
 * The digests recorded as run before; the others are recorded now. Executions in other processes
 * writing the record meanwhile (`sharedAcrossProcesses`) are met with claims (see the top). A store
 * that keeps failing (two first records of one trigger at once collide on n8n's insert; a database
 * that is away) runs them: a message run twice is better than one acknowledged and lost.
 */
async function ranBeforeOf(
	this: IExecuteFunctions,
	digests: string[],
	sharedAcrossProcesses: boolean,
): Promise<Set<string>> {
	// An n8n older than its processed-data store (1.6x): the memory of deliveries alone.
	if (typeof this.helpers.checkProcessedAndRecord !== 'function') return new Set();
	const key = triggerKey.call(this);
	const check = async (all: string[]) => {
		const started = Date.now();
		const { processed } = await this.helpers.checkProcessedAndRecord(all, 'node', {
			mode: 'entries',
			maxEntries: PROCESSED_ENTRIES,
		});
		noteStoreCall(Date.now() - started);
		return processed;
	};
	const inTurn = async (values: string[]): Promise<Set<string>> => {
		for (let attempt = 1; ; attempt++) {
			try {
				return await checkedInTurn(key, values, check);
			} catch (error) {
				if (attempt >= STORE_ATTEMPTS) throw new NodeOperationError(this.getNode(), error as Error);
				await sleep(STORE_RETRY_DELAY_MS * attempt);
			}
		}
	};

	const ranBefore = new Set<string>();
	let pending = digests;
	/**
	 * This execution's claims so far, each only ever written together with the messages still
	 * pending. The wait's check reads another value written beside it: that read writes the value
	 * back when gone, and a claim found must mean its messages came with it.
	 */
	const claims: string[] = [];
	let confirmed = false;
	const unique = () => `${this.getExecutionId() ?? ''}:${randomBytes(6).toString('base64url')}`;
	try {
		for (let round = 1; round <= (sharedAcrossProcesses ? CLAIM_ROUNDS : 1); round++) {
			const claim = sharedAcrossProcesses ? [`claim:${unique()}`, `check:${unique()}`] : [];
			const found = await inTurn([...pending, ...claims, ...claim]);
			// A write that read the record after one of ours put that one back, our messages with
			// it: they are still ours to confirm, not someone else's.
			if (!claims.some((earlier) => found.has(earlier))) {
				for (const digest of pending) if (found.has(digest)) ranBefore.add(digest);
				pending = pending.filter((digest) => !found.has(digest));
			}
			if (pending.length === 0 || claim.length === 0) break;
			claims.push(claim[0]);
			const settle = settleMs();
			if (settle > STORE_WRITE_SETTLE_MS) {
				this.logger.debug(
					`${LOG_PREFIX} n8n's processed-data store is slow (up to ${slowestStoreCall.ms} ms a call lately): the claim is read back after ${settle} ms`,
				);
			}
			await sleep(settle);
			if ((await inTurn([claim[1]])).has(claim[1])) {
				confirmed = true;
				break;
			}
			this.logger.debug(
				`${LOG_PREFIX} another n8n process wrote the processed-data record at the same moment: checking ${pending.length} message(s) again`,
			);
		}
		if (sharedAcrossProcesses && pending.length > 0) {
			if (!confirmed) {
				this.logger.warn(
					`${LOG_PREFIX} every claim of ${pending.length} message(s) was dropped by other n8n processes' writes (${CLAIM_ROUNDS} rounds): they run unless another execution ran them`,
				);
			}
			// A claim confirmed can still have been dropped by a write that lands late (run-markers.ts).
			const markers = pending.map(runMarker);
			const marked = await inTurn(markers);
			for (const digest of pending) if (marked.has(runMarker(digest))) ranBefore.add(digest);
			rewriteLater(key, markers, inTurn, this.logger);
		}
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		this.logger.warn(
			`${LOG_PREFIX} n8n's processed-data store failed, so ${pending.length} message(s) run without the check for a run before: ${reason}`,
		);
	}
	return ranBefore;
}

/** The execution modes a person starts. */
const PERSON_STARTED: ReadonlySet<string> = new Set(['manual', 'retry']);

/**
 * The trigger's execute(): the execution's items without the messages that ran before, each
 * recorded as run. An execution a person started runs every item and records nothing: a test event
 * ("Listen for test event": a test may send the same message again) or a retry from the
 * executions list (of one n8n marked crashed, say, whose messages were recorded when it started).
 */
export async function firstRunsOnly(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const tags = items.map(tagOf);
	const digests = [...new Set(tags.flatMap((tag) => (tag ? [tag.digest] : [])))];
	const personStarted = PERSON_STARTED.has(this.getMode());
	if (digests.length > 0) {
		// This process's own deliveries starting here: n8n's regular mode (unstarted-messages.ts).
		const takenHere = !personStarted && tags.some((tag) => tag?.takenBy === THIS_PROCESS);
		noteStarted(triggerKey.call(this), digests, takenHere);
	}
	if (digests.length === 0 || personStarted) return [items.map(untagged)];

	const sharedAcrossProcesses = tags.some((tag) => tag && tag.takenBy !== THIS_PROCESS);
	const ranBefore = await ranBeforeOf.call(this, digests, sharedAcrossProcesses);
	const kept: INodeExecutionData[] = [];
	items.forEach((item, index) => {
		const tag = tags[index];
		if (tag) {
			if (ranBefore.has(tag.digest)) return;
			// One message once, also within an execution.
			ranBefore.add(tag.digest);
		}
		kept.push(untagged(item));
	});
	if (kept.length < items.length) {
		this.logger.info(
			`${LOG_PREFIX} ${items.length - kept.length} message(s) of this execution ran before and were left out`,
		);
	}
	return [kept];
}
