/**
 * The trigger's execute(), against a scripted processed-data store (a narrow unit test: a stub of
 * n8n's helper, no engine). Per execution mode: an execution a delivery started leaves out the
 * messages that ran before; one a person started (a test event, a retry from the executions list)
 * runs every item it holds and asks the store nothing. And in queue mode, where another process
 * took the delivery and other workers write the same record: an execution's messages are its own
 * only once its claim is still in the record after every write that read before it has landed.
 */
import type { IExecuteFunctions, INodeExecutionData, WorkflowExecuteMode } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	firstRunsOnly,
	STORE_WRITE_SETTLE_MAX_MS,
	STORE_WRITE_SETTLE_MS,
	tagged,
} from '../../nodes/MessagingGatewayTrigger/processed-messages';

const TAG = 'messagingGatewayDelivery';

/**
 * What another n8n process wrote, having read the record earlier: the record becomes what it
 * returns, given the record now and as it was after each call so far (`after[n]`, from 1).
 */
type OtherWrite = (record: string[], after: string[][]) => string[];

/** A database where each store call takes `callMs`, and another process's write lands late. */
interface SlowDatabase {
	callMs: number;
	/** Lands this long after our first call returned. */
	lateWriteAfterMs: number;
	lateWrite: OtherWrite;
}

/**
 * n8n's store as a record read and written whole; after the call numbered `n` (from 1), another
 * process's write lands: `otherWrites[n]`.
 */
function scriptedStore(
	record: string[],
	otherWrites: Record<number, OtherWrite> = {},
	slow?: SlowDatabase,
) {
	const calls: string[][] = [];
	const after: string[][] = [];
	return {
		calls,
		record: () => record,
		checkProcessedAndRecord: async (values: string[]) => {
			if (slow) await sleep(slow.callMs);
			calls.push(values);
			if (calls.length === 1 && slow) {
				// A write that read the record before ours, landing long after.
				void sleep(slow.lateWriteAfterMs).then(() => {
					record = slow.lateWrite(record, after);
				});
			}
			const known = new Set(record);
			const processed = values.filter((value) => known.has(value));
			record = [...record, ...values.filter((value) => !known.has(value))];
			after[calls.length] = record;
			record = otherWrites[calls.length]?.(record, after) ?? record;
			return { new: values.filter((value) => !known.has(value)), processed };
		},
	};
}

/** Message items (`ran before` recorded in the store) and one other event (no tag). */
function items(takenBy: 'this process' | 'another process'): INodeExecutionData[] {
	const messages = [
		tagged({ json: { text: 'ran before' } }, { digest: 'digest-ran' }),
		tagged({ json: { text: 'first' } }, { digest: 'digest-first' }),
		tagged({ json: { text: 'second' } }, { digest: 'digest-second' }),
	];
	if (takenBy === 'another process')
		for (const item of messages)
			item[TAG] = { ...(item[TAG] as object), takenBy: 'a webhook processor' };
	return [...messages, { json: { event: 'presence' } }];
}

function executeFunctions(
	mode: WorkflowExecuteMode,
	input: INodeExecutionData[],
	store: ReturnType<typeof scriptedStore>,
): IExecuteFunctions {
	return {
		getInputData: () => input,
		getMode: () => mode,
		getExecutionId: () => '4711',
		getWorkflow: () => ({ id: `workflow-${Math.random()}` }),
		getNode: () => ({ id: 'trigger-node' }),
		logger: { info: () => undefined, warn: () => undefined, debug: () => undefined },
		helpers: { checkProcessedAndRecord: store.checkProcessedAndRecord },
	} as unknown as IExecuteFunctions;
}

async function run(
	mode: WorkflowExecuteMode,
	input: INodeExecutionData[],
	store: ReturnType<typeof scriptedStore>,
) {
	const started = Date.now();
	const [output] = await firstRunsOnly.call(executeFunctions(mode, input, store));
	// The tag webhook() put on for execute() never reaches the next node.
	expect(output.every((item) => !(TAG in item))).toBe(true);
	return { texts: output.map((item) => item.json.text), waitedMs: Date.now() - started };
}

const claims = (values: string[]) => values.filter((value) => value.startsWith('claim:'));
const digests = (values: string[]) => values.filter((value) => value.startsWith('digest-'));

describe('the trigger’s execute() per execution mode', () => {
	it.each([
		{ mode: 'webhook', runs: ['first', 'second', undefined], asksStore: true },
		{ mode: 'trigger', runs: ['first', 'second', undefined], asksStore: true },
		{ mode: 'manual', runs: ['ran before', 'first', 'second', undefined], asksStore: false },
		{ mode: 'retry', runs: ['ran before', 'first', 'second', undefined], asksStore: false },
	] as Array<{ mode: WorkflowExecuteMode; runs: unknown[]; asksStore: boolean }>)(
		'$mode: runs $runs',
		async ({ mode, runs, asksStore }) => {
			const store = scriptedStore(['digest-ran']);
			expect((await run(mode, items('this process'), store)).texts).toEqual(runs);
			// Taken by this process (n8n's regular mode): one call, no claim, no wait.
			expect(store.calls).toEqual(
				asksStore ? [['digest-ran', 'digest-first', 'digest-second']] : [],
			);
		},
	);
});

describe('the trigger’s execute() on a queue-mode worker (another process took the delivery)', () => {
	/** A write that read the record before ours: what we added is gone. */
	const dropOurs: OtherWrite = (record) => record.filter((value) => value === 'digest-ran');
	it.each([
		{ name: 'no other write meanwhile', otherWrites: {}, runs: ['first', 'second'], calls: 2 },
		{
			name: 'another worker’s write drops ours, having taken "first" itself',
			otherWrites: { 1: (record: string[]) => [...dropOurs(record, []), 'digest-first'] },
			runs: ['second'],
			calls: 4,
		},
		{
			name: 'another write drops ours, having taken neither',
			otherWrites: { 1: dropOurs },
			runs: ['first', 'second'],
			calls: 4,
		},
		{
			name: 'a write drops ours, then one that read ours puts it back: still ours',
			otherWrites: { 1: dropOurs, 2: (_record: string[], after: string[][]) => after[1] },
			runs: ['first', 'second'],
			calls: 4,
		},
		{
			name: 'our claim is dropped at every round: they run (twice rather than lost)',
			otherWrites: { 1: dropOurs, 3: dropOurs, 5: dropOurs, 7: dropOurs },
			runs: ['first', 'second'],
			calls: 8,
		},
		{
			// Each call takes 2 s; the late write lands 6 s after our first call returned. Read back 1 s
			// after it (at 5 s) the claim was still there; three times the slowest call (6 s) later, gone.
			name: 'a slow database: a write that read before ours lands seconds later, having taken "first"',
			otherWrites: {},
			slow: {
				callMs: 2000,
				lateWriteAfterMs: 6000,
				lateWrite: (record: string[]) => [...dropOurs(record, []), 'digest-first'],
			},
			runs: ['second'],
			calls: 4,
		},
	] as Array<{
		name: string;
		otherWrites: Record<number, OtherWrite>;
		slow?: SlowDatabase;
		runs: string[];
		calls: number;
	}>)('$name: runs $runs', async ({ otherWrites, slow, runs, calls }) => {
		jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
		try {
			const store = scriptedStore(['digest-ran'], otherWrites, slow);
			const running = run('webhook', items('another process'), store);
			await jest.advanceTimersByTimeAsync(STORE_WRITE_SETTLE_MAX_MS * 8);
			const { texts, waitedMs } = await running;
			expect(texts).toEqual([...runs, undefined]);
			expect(store.calls).toHaveLength(calls);
			store.calls.forEach((values, index) => {
				const round = Math.floor(index / 2) + 1;
				// Each round writes its messages with a claim of its own and the earlier ones...
				if (index % 2 === 0) expect(claims(values)).toHaveLength(round);
				// ...and then, after the wait, reads back only the value written beside its claim.
				else expect(values).toEqual(store.calls[index - 1].filter((v) => v.startsWith('check:')));
			});
			expect(waitedMs).toBeGreaterThanOrEqual(STORE_WRITE_SETTLE_MS);
			expect(digests(store.calls[0])).toEqual(['digest-ran', 'digest-first', 'digest-second']);
		} finally {
			jest.useRealTimers();
		}
	});
});
