/**
 * The last word on whether a message runs. n8n calls the trigger's execute() as the first step of
 * every execution its webhook() starts (n8n-core runs a node's execute() before it would pass a
 * webhook node's items on). There, unlike in webhook(), n8n gives nodes its processed-data store
 * (the one behind Remove Duplicates), kept in n8n's database: read by every n8n process (workers
 * in queue mode) and kept through restarts. A message recorded there runs nothing again, and the
 * newest message's time goes to static data, which n8n saves after an execution that changed it
 * (what webhook() writes to static data n8n 2.x does not save once it started an execution).
 *
 * The store reads its record, adds to it and writes it back whole, with no lock: two executions
 * of one trigger at the same moment would both find a message new. Within a process they take
 * turns here; across processes (queue mode's workers) two deliveries of one message at the same
 * moment can both run (each webhook processor remembers only its own deliveries).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { DELIVERIES, rememberSeconds } from './delivery-memory';
import type { TriggerStaticData } from './registration';
import { LOG_PREFIX } from './registration';

/** The property webhook() puts on each item for execute(), which takes it off again. */
const TAG = 'messagingGatewayDelivery';

/** What execute() needs to know of an item's delivery. */
export interface DeliveryTag {
	/** The delivery's digest (delivery-memory.ts): the same for every delivery of one event. */
	digest: string;
	/** The message's time at the gateway (Unix seconds), when it has one. */
	time?: number;
}

/**
 * Messages remembered per trigger: more than every gateway's retries and a catch-up's reach hold
 * (Evolution API's retries span about 26 minutes; a catch-up reads at most 500 messages). Each is
 * a 24-character hash in one database row, which each execution reads and writes whole.
 */
export const PROCESSED_ENTRIES = 5000;

/** Marks an item with its delivery for execute(). */
export function tagged(item: INodeExecutionData, tag: DeliveryTag): INodeExecutionData {
	item[TAG] = { ...tag };
	return item;
}

function tagOf(item: INodeExecutionData): DeliveryTag | undefined {
	const tag = item[TAG] as IDataObject | undefined;
	if (typeof tag?.digest !== 'string') return undefined;
	return { digest: tag.digest, time: typeof tag.time === 'number' ? tag.time : undefined };
}

function untagged(item: INodeExecutionData): INodeExecutionData {
	if (!(TAG in item)) return item;
	const rest = { ...item };
	delete rest[TAG];
	return rest;
}

/** A message taken: the newest time (where the next catch-up starts, see catch-up.ts). */
export function noteMessageTaken(staticData: TriggerStaticData, time: number): void {
	const newest = typeof staticData.lastMessageAt === 'number' ? staticData.lastMessageAt : 0;
	if (time > newest) staticData.lastMessageAt = time;
}

/** Per trigger in this process, the turn last taken at the store (settled when it is done). */
const TURNS = new Map<string, Promise<void>>();

/** Runs `work` after every earlier turn of `key` in this process has settled. */
async function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
	const before = TURNS.get(key) ?? Promise.resolve();
	const run = before.then(work);
	const settled = run.then(
		() => undefined,
		() => undefined,
	);
	TURNS.set(key, settled);
	try {
		return await run;
	} finally {
		if (TURNS.get(key) === settled) TURNS.delete(key);
	}
}

/**
 * The trigger's execute(): the execution's items without the messages that ran before, each
 * recorded as run. A manual execution ("Listen for test event") records nothing: a test may send
 * the same message again.
 */
export async function firstRunsOnly(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const tags = items.map(tagOf);
	const digests = [...new Set(tags.flatMap((tag) => (tag ? [tag.digest] : [])))];
	if (digests.length === 0 || this.getMode() === 'manual') return [items.map(untagged)];

	const { processed } = await inTurn(
		`${this.getWorkflow().id ?? ''}:${this.getNode().id}`,
		async () =>
			await this.helpers.checkProcessedAndRecord(digests, 'node', {
				mode: 'entries',
				maxEntries: PROCESSED_ENTRIES,
			}),
	);
	const ranBefore = new Set(processed.map(String));
	const staticData = this.getWorkflowStaticData('node') as TriggerStaticData;
	const kept: INodeExecutionData[] = [];
	const ran: string[] = [];
	items.forEach((item, index) => {
		const tag = tags[index];
		if (tag) {
			if (ranBefore.has(tag.digest)) return;
			// One message once, also within an execution.
			ranBefore.add(tag.digest);
			ran.push(tag.digest);
			if (tag.time !== undefined) noteMessageTaken(staticData, tag.time);
		}
		kept.push(untagged(item));
	});
	// Where webhook() looks first: a redelivery after a restart then starts no execution at all.
	const trigger = staticData.registration?.token;
	if (trigger && ran.length > 0) {
		const now = Math.floor(Date.now() / 1000);
		let options: IDataObject = {};
		try {
			options = this.getNodeParameter('options', 0, {}) as IDataObject;
		} catch {
			// An option that stopped being usable (an expression): the default retention.
		}
		staticData.delivered = DELIVERIES.recorded(
			trigger,
			staticData.delivered,
			ran,
			now + rememberSeconds(options),
			now,
		);
	}
	if (kept.length < items.length) {
		this.logger.info(
			`${LOG_PREFIX} ${items.length - kept.length} message(s) of this execution ran before and were left out`,
		);
	}
	return [kept];
}
