/**
 * n8n's processed-data store (the one behind Remove Duplicates), as n8n 2.41.1's
 * DeduplicationHelper keeps it in its database, for runs in n8n-core's engine: one record per
 * workflow and scope, read, added to and written back whole, with the database's round trips
 * between (so two calls at once both find a value new, as in n8n). Only the "entries" mode the
 * trigger uses; the others are refused. One store per test process, like n8n's database.
 */
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

const RECORDS = new Map<string, string[]>();
/** Calls still to fail, as n8n's fail when two first records collide or the database is away. */
let failing = 0;

let checks = 0;

/** Calls to checkProcessedAndRecord so far (each one a read and a write of a record in n8n). */
export function processedChecks(): number {
	return checks;
}

/** The next `count` checks fail. */
export function failProcessedChecks(count: number): void {
	failing = count;
}

/** A database round trip: other calls run meanwhile. */
const roundTrip = () => new Promise<void>((resolve) => setImmediate(resolve));

function recordKey(scope: DeduplicationScope, context: ICheckProcessedContextData): string {
	return `${context.workflow.id}|${scope === 'node' ? `n:${context.node?.id}` : ''}`;
}

function entriesOnly(options: ICheckProcessedOptions): void {
	if (options.mode !== 'entries') throw new Error(`mode ${options.mode} is not modelled`);
}

const inDatabase: IDataDeduplicator = {
	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		context: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		entriesOnly(options);
		checks++;
		const key = recordKey(scope, context);
		await roundTrip();
		if (failing > 0) {
			failing--;
			throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
		}
		const record = [...(RECORDS.get(key) ?? [])];
		const known = new Set(record);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const value = String(item);
			if (known.has(value)) output.processed.push(item);
			else {
				output.new.push(item);
				record.push(value);
			}
		}
		if (options.maxEntries) record.splice(0, record.length - options.maxEntries);
		await roundTrip();
		RECORDS.set(key, record);
		return output;
	},
	async removeProcessed(items, scope, context, options) {
		entriesOnly(options);
		const key = recordKey(scope, context);
		const removed = new Set(items.map(String));
		RECORDS.set(
			key,
			(RECORDS.get(key) ?? []).filter((value) => !removed.has(value)),
		);
	},
	async clearAllProcessedItems(scope, context) {
		RECORDS.delete(recordKey(scope, context));
	},
	async getProcessedDataCount(scope, context, options) {
		entriesOnly(options);
		return RECORDS.get(recordKey(scope, context))?.length ?? 0;
	},
};

let installed: Promise<void> | undefined;

/** Gives n8n-core the store (once per test process, as n8n does at its start). */
export async function installProcessedDataStore(): Promise<void> {
	installed ??= DataDeduplicationService.init(inDatabase);
	await installed;
}

/** The values recorded for a workflow's node (the trigger's record). */
export function processedValues(workflowId: string, nodeId: string): string[] {
	return [...(RECORDS.get(`${workflowId}|n:${nodeId}`) ?? [])];
}
