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
import { REWRITE_WINDOW_MS } from '../../nodes/MessagingGatewayTrigger/run-markers';

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
		/** Another process's write, landing now. */
		replace: (values: string[]) => {
			record = values;
		},
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

/** What execute() asks of n8n's store. */
type Store = Pick<ReturnType<typeof scriptedStore>, 'checkProcessedAndRecord'>;

function executeFunctions(
	mode: WorkflowExecuteMode,
	input: INodeExecutionData[],
	store: Store,
): IExecuteFunctions {
	return {
		getInputData: () => input,
		getMode: () => mode,
		getExecutionId: () => '4711',
		getWorkflow: () => ({ id: `workflow-${Math.random()}` }),
		getNode: () => ({ id: 'trigger-node' }),
		logger: { info: () => undefined, warn: () => undefined, debug: () => undefined },
		helpers: {
			checkProcessedAndRecord: async (values: string[]) =>
				await store.checkProcessedAndRecord(values),
		},
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
	return {
		texts: output.map((item) => item.json.text),
		waitedMs: Date.now() - started,
		/** The store calls the execution made; any later ones write its run markers again. */
		ownCalls: store.calls.length,
	};
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
		{
			name: 'no other write meanwhile',
			otherWrites: {},
			runs: ['first', 'second'],
			rounds: 1,
			marks: ['first', 'second'],
		},
		{
			name: 'another worker’s write drops ours, having taken "first" itself',
			otherWrites: { 1: (record: string[]) => [...dropOurs(record, []), 'digest-first'] },
			runs: ['second'],
			rounds: 2,
			marks: ['second'],
		},
		{
			name: 'another write drops ours, having taken neither',
			otherWrites: { 1: dropOurs },
			runs: ['first', 'second'],
			rounds: 2,
			marks: ['first', 'second'],
		},
		{
			name: 'a write drops ours, then one that read ours puts it back: still ours',
			otherWrites: { 1: dropOurs, 2: (_record: string[], after: string[][]) => after[1] },
			runs: ['first', 'second'],
			rounds: 2,
			marks: ['first', 'second'],
		},
		{
			name: 'our claim is dropped at every round: they run (twice rather than lost)',
			otherWrites: { 1: dropOurs, 3: dropOurs, 5: dropOurs, 7: dropOurs },
			runs: ['first', 'second'],
			rounds: 4,
			marks: ['first', 'second'],
		},
		{
			name: 'our claim holds, but another execution had confirmed "first" and marked it run',
			otherWrites: { 2: (record: string[]) => [...record, 'ran:digest-first'] },
			runs: ['second'],
			rounds: 1,
			marks: ['first', 'second'],
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
			rounds: 2,
			marks: ['second'],
		},
	] as Array<{
		name: string;
		otherWrites: Record<number, OtherWrite>;
		slow?: SlowDatabase;
		runs: string[];
		rounds: number;
		marks: string[];
	}>)('$name: runs $runs', async ({ otherWrites, slow, runs, rounds, marks }) => {
		jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
		try {
			const store = scriptedStore(['digest-ran'], otherWrites, slow);
			const running = run('webhook', items('another process'), store);
			await jest.advanceTimersByTimeAsync(STORE_WRITE_SETTLE_MAX_MS * 8);
			const { texts, waitedMs, ownCalls } = await running;
			expect(texts).toEqual([...runs, undefined]);
			// Each round writes its messages with a claim of its own and the earlier ones...
			const roundCalls = store.calls.slice(0, 2 * rounds);
			expect(ownCalls).toBe(2 * rounds + 1);
			roundCalls.forEach((values, index) => {
				if (index % 2 === 0) expect(claims(values)).toHaveLength(index / 2 + 1);
				// ...and then, after the wait, reads back only the value written beside its claim.
				else expect(values).toEqual(store.calls[index - 1].filter((v) => v.startsWith('check:')));
			});
			// Last, the messages still its own are marked run (and left out if already so).
			expect(store.calls[2 * rounds]).toEqual(marks.map((text) => `ran:digest-${text}`));
			expect(waitedMs).toBeGreaterThanOrEqual(STORE_WRITE_SETTLE_MS);
			expect(digests(store.calls[0])).toEqual(['digest-ran', 'digest-first', 'digest-second']);
		} finally {
			jest.useRealTimers();
		}
	});
});

describe('run markers written again after the execution (a late write may drop them)', () => {
	it('at 0.5, 1, 2, 4 and 8 s, then every 8 s, for two minutes: a marker dropped is back at the next', async () => {
		jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
		try {
			const store = scriptedStore(['digest-ran']);
			const write = store.checkProcessedAndRecord;
			/** When the execution marked its messages run (its last call), and the calls after. */
			let markedAt: number | undefined;
			const rewrites: Array<{ at: number; values: string[]; present: boolean }> = [];
			let dropped = false;
			store.checkProcessedAndRecord = async (values: string[]) => {
				if (markedAt === undefined) {
					if (values.every((value) => value.startsWith('ran:'))) markedAt = Date.now();
					return await write(values);
				}
				// A late write drops every marker once, 3 s after they were written.
				if (!dropped && Date.now() - markedAt >= 3000) {
					dropped = true;
					store.replace(store.record().filter((value) => !value.startsWith('ran:')));
				}
				rewrites.push({
					at: Date.now() - markedAt,
					values,
					present: values.every((value) => store.record().includes(value)),
				});
				return await write(values);
			};
			const running = run('webhook', items('another process'), store);
			await jest.advanceTimersByTimeAsync(
				STORE_WRITE_SETTLE_MAX_MS * 2 + REWRITE_WINDOW_MS + 20_000,
			);
			const { ownCalls } = await running;
			expect(store.calls.length).toBeGreaterThan(ownCalls);
			const offsets = rewrites.map(({ at }) => Math.round(at / 500) * 500);
			expect(offsets.slice(0, 5)).toEqual([500, 1000, 2000, 4000, 8000]);
			// Never more than 8 s apart, and none after the two minutes.
			offsets
				.slice(1)
				.forEach((at, index) => expect(at - offsets[index]).toBeLessThanOrEqual(8000));
			expect(offsets.at(-1)).toBeLessThanOrEqual(REWRITE_WINDOW_MS);
			expect(offsets.at(-1)).toBeGreaterThan(REWRITE_WINDOW_MS - 8000);
			expect(
				rewrites.every(({ values }) => values.join() === 'ran:digest-first,ran:digest-second'),
			).toBe(true);
			// The write after the drop found the markers gone and put them back.
			expect(rewrites.map(({ present }) => present).slice(0, 6)).toEqual([
				true,
				true,
				true,
				false,
				true,
				true,
			]);
			expect(store.record()).toEqual(
				expect.arrayContaining(['ran:digest-first', 'ran:digest-second']),
			);
		} finally {
			jest.useRealTimers();
		}
	});
});

/**
 * One message's two executions, on two workers (two copies of the module, as two n8n processes
 * have), against one record each worker's store call reads at its start and writes whole when its
 * write lands: `writeMs` after the read (a pool of connections all in use makes it long).
 */
describe('two workers check the same message at once: it runs exactly once', () => {
	type Module = typeof import('../../nodes/MessagingGatewayTrigger/processed-messages');
	const loadWorker = (): Module => {
		let loaded: Module | undefined;
		jest.isolateModules(() => {
			loaded = jest.requireActual<Module>('../../nodes/MessagingGatewayTrigger/processed-messages');
		});
		return loaded!;
	};

	interface Worker {
		/** When its execution starts, after the other's. */
		startsAfterMs: number;
		/** How long each store call's write lands after its read, call by call (the last repeats). */
		writeMs: number[];
	}

	it.each([
		{ name: 'both fast, at the same moment', a: [5], b: [5], bAfter: 0 },
		{ name: 'worker B’s pool all in use (3 s a write), A’s free', a: [5], b: [3000], bAfter: 0 },
		{ name: 'worker B 20 s a write (past the 15 s cap)', a: [5], b: [20_000], bAfter: 0 },
		{ name: 'worker A slow, B fast', a: [3000], b: [5], bAfter: 0 },
		{ name: 'worker B stalls on its first write only (4 s)', a: [5], b: [4000, 5], bAfter: 0 },
		{ name: 'worker B 400 ms later, 2 s a write', a: [5], b: [2000], bAfter: 400 },
		{ name: 'both slow (2 s a write)', a: [2000], b: [2000], bAfter: 0 },
		{ name: 'both 1 s a write, B 990 ms later', a: [1000], b: [1000], bAfter: 990 },
		// And every combination of these: a write landing 5 ms to 40 s after its read, B later or not.
		...[5, 300, 1500, 6000].flatMap((aMs) =>
			[5, 800, 3000, 12_000, 40_000].flatMap((bMs) =>
				[0, 1100].map((bAfter) => ({
					name: `A ${aMs} ms a write, B ${bMs} ms, ${bAfter} ms later`,
					a: [aMs],
					b: [bMs],
					bAfter,
				})),
			),
		),
	])('$name', async ({ a, b, bAfter }) => {
		jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
		try {
			let record = ['digest-ran'];
			const workerStore = ({ writeMs }: Pick<Worker, 'writeMs'>) => {
				let call = 0;
				return {
					checkProcessedAndRecord: async (values: string[]) => {
						const gap = writeMs[Math.min(call++, writeMs.length - 1)];
						await sleep(2);
						const read = record;
						await sleep(gap);
						const known = new Set(read);
						record = [...read, ...values.filter((value) => !known.has(value))];
						return { processed: values.filter((value) => known.has(value)), new: [] };
					},
				};
			};
			const execute = async (worker: Worker) => {
				await sleep(worker.startsAfterMs);
				const store = workerStore(worker);
				const message = tagged({ json: { text: 'hello' } }, { digest: 'digest-hello' });
				message[TAG] = { ...(message[TAG] as object), takenBy: 'a webhook processor' };
				const context = {
					...executeFunctions('webhook', [message], store),
					getWorkflow: () => ({ id: 'one-workflow' }),
				} as IExecuteFunctions;
				const [output] = await loadWorker().firstRunsOnly.call(context);
				return output.length;
			};
			const both = Promise.all([
				execute({ startsAfterMs: 0, writeMs: a }),
				execute({ startsAfterMs: bAfter, writeMs: b }),
			]);
			await jest.advanceTimersByTimeAsync(REWRITE_WINDOW_MS + 10 * STORE_WRITE_SETTLE_MAX_MS);
			const [ranOnA, ranOnB] = await both;
			expect(ranOnA + ranOnB).toBe(1);
		} finally {
			jest.useRealTimers();
		}
	});
});
