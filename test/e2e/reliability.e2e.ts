/**
 * Reliability in a real n8n (2.41.1, or the one N8N_E2E_VERSION picks): both "On Error" continue
 * modes route and pair every item, a burst of 1,000 deliveries (50 at a time) makes exactly 1,000
 * executions, and 1,000 sends with 1% failing split 990 / 10 with each message sent exactly once.
 * The figures of 2.41.1 go into docs/reliability.md.
 */
import { randomUUID } from 'node:crypto';

import axios from 'axios';
import { sleep } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, IRun } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { expectReadmeSection, readReadmeSection } from '../support/readme-section.cts';
import {
	activate,
	allExecutions,
	createCredential,
	deliverBurst,
	hasFeature,
	holdDatabase,
	logFigures,
	startCpuHog,
	triggerMessageIds,
	untilCountReaches,
	webhookNodeMessageIds,
} from './e2e-helpers.cts';
import type { BurstResult, N8n2xFeature } from './e2e-helpers.cts';
import { executeWorkflow } from './n8n-cli.cts';
import { DEFAULT_N8N_VERSION, N8N_VERSION } from './n8n-install.cts';
import { startN8n } from './n8n-instance.cts';
import type { N8nInstance } from './n8n-instance.cts';
import {
	countingTriggerWorkflow,
	countingWebhookNodeWorkflow,
	itemsThroughNodeWorkflow,
} from './workflows.cts';
import type { CredentialRef } from './workflows.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;
const BURST = { deliveries: 1000, concurrency: 50 };
const BULK = { items: 1000, failingEvery: 100 };

let simulator: Simulator;
let n8n: N8nInstance;
let credential: CredentialRef;
const figures: IDataObject = {};

beforeAll(async () => {
	simulator = await startSimulator();
	// 1,000 executions log less at info level; nothing here reads n8n's debug lines.
	n8n = await startN8n({ env: { N8N_LOG_LEVEL: 'info' } });
	credential = await createCredential(n8n, 'Messaging Gateway (reliability)', {
		baseUrl: simulator.url,
		apiKey: simulator.apiKey,
	});
}, 300_000);

afterAll(async () => {
	await n8n?.stop();
	await simulator?.stop();
});

const SEND_TEXT = {
	resource: 'message',
	operation: 'sendText',
	session: '={{ $json.session }}',
	chatId: { __rl: true, mode: 'id', value: '={{ $json.chat }}' },
	text: '={{ $json.text }}',
};

async function runItems(
	items: IDataObject[],
	onError: 'continueRegularOutput' | 'continueErrorOutput',
	options: IDataObject = {},
): Promise<IRun> {
	const created = await n8n.api.post(
		'/workflows',
		itemsThroughNodeWorkflow(credential, items, { ...SEND_TEXT, options }, onError),
	);
	expect(created.status).toBe(200);
	simulator.clearLogs();
	return await executeWorkflow(n8n, String(created.data.id), 240_000);
}

function outputsOf(run: IRun, node: string): INodeExecutionData[][] {
	return (run.data.resultData.runData[node]?.[0]?.data?.main ?? []).map((items) => items ?? []);
}

const pairedIndex = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;

/**
 * Checks that "Continue (using error output)" put the `failing` of `count` items on the error
 * output and the others on the success output, each paired to its item (n8n 1.x and 2.x alike).
 */
function expectErrorOutputSplit(run: IRun, count: number, failing: number[]) {
	const all = Array.from({ length: count }, (_, index) => index);
	const [success, errors = []] = outputsOf(run, 'Send');
	expect(errors.map(pairedIndex)).toEqual(failing);
	expect(success.map(pairedIndex)).toEqual(all.filter((index) => !failing.includes(index)));
	expect(success.filter((item) => item.json.error !== undefined)).toEqual([]);
	return {
		success,
		errors,
		expectedErrors: failing,
		failedItems: outputsOf(run, 'Failed')[0] ?? [],
	};
}

describe('"On Error" continue modes in real n8n', () => {
	// Five of eight fail: two at validation, two at the gateway, one at validation of the session.
	const ITEMS: IDataObject[] = [
		{ session: SESSION, chat: ALICE.number, text: 'one' },
		{ session: SESSION, chat: 'nobody', text: 'two' },
		{ session: SESSION, chat: ALICE.number, text: 'three' },
		{ session: 'ghost', chat: ALICE.number, text: 'four' },
		{ session: SESSION, chat: ALICE.number, text: '\u200B' },
		{ session: SESSION, chat: '+44 20 7000 0001', text: 'six' },
		{ session: SESSION, chat: ALICE.number, text: 'seven' },
		{ session: '..', chat: ALICE.number, text: 'eight' },
	];
	const FAILING = [1, 3, 4, 5, 7];

	it('"Continue (using error output)": 3 on the success output, 5 on the error output, each paired', async () => {
		const run = await runItems(ITEMS, 'continueErrorOutput');

		const { success, errors, expectedErrors, failedItems } = expectErrorOutputSplit(
			run,
			ITEMS.length,
			FAILING,
		);
		// On the error branch n8n merges the input item into the error item, so it knows what failed.
		expect((outputsOf(run, 'Failed')[0] ?? []).map((item) => item.json.text)).toEqual(
			expectedErrors.map((index) => ITEMS[index].text),
		);
		expect(failedItems.map((item) => String(item.json.error))).toEqual([
			expect.stringMatching(/^Chat must be /),
			expect.stringMatching(/^Gateway error 404: /),
			'Text must not be empty',
			expect.stringMatching(/^Gateway error 400: The number 442070000001 is not registered/),
			expect.stringMatching(/^Session must be a name such as default, not "\.\."/),
		]);
		expect(outputsOf(run, 'Sent')[0]).toHaveLength(success.length);
		// Only the items that passed validation reached the gateway.
		expect(simulator.requestsTo('/message/sendText/', 'POST')).toHaveLength(5);
		figures.errorOutput = { in: ITEMS.length, success: success.length, errors: errors.length };
	}, 240_000);

	it('"Continue (regular output)": 8 items in place, the 5 failures as error items', async () => {
		const run = await runItems(ITEMS, 'continueRegularOutput');

		const [items] = outputsOf(run, 'Send');
		expect(items.map(pairedIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
		expect(items.flatMap((item, index) => (item.json.error ? [index] : []))).toEqual(FAILING);
		figures.regularOutput = {
			in: ITEMS.length,
			out: items.length,
			errors: items.filter((item) => item.json.error).length,
		};
	}, 240_000);
});

describe('Simultaneous Chats in real n8n', () => {
	it('4 chats at once: each chat in input order at the gateway, the failing item on the error output, all paired', async () => {
		const chats = [ALICE.number, SEED.contacts.bruno.number, SEED.contacts.carla.number];
		const items = Array.from({ length: 12 }, (_, index) => ({
			session: SESSION,
			chat: index === 7 ? 'nobody' : chats[index % chats.length],
			text: `message ${Math.floor(index / chats.length) + 1} to chat ${index % chats.length}`,
		}));
		simulator.injectFault({ match: { path: '/message/sendText/' }, times: 24, latencyMs: 50 });

		const run = await runItems(items, 'continueErrorOutput', { simultaneousChats: 4 });

		expectErrorOutputSplit(run, items.length, [7]);
		const texts = simulator
			.requestsTo('/message/sendText/', 'POST')
			.map((request) => (request.body as { textMessage: { text: string } }).textMessage.text);
		for (const chat of [0, 1, 2]) {
			const expected = items
				.filter((item, index) => index !== 7 && item.text.endsWith(`chat ${chat}`))
				.map((item) => item.text);
			expect(texts.filter((text) => text.endsWith(`chat ${chat}`))).toEqual(expected);
		}
		// Side by side: the three chats' sends interleave instead of one chat after another.
		expect(
			texts
				.slice(0, 3)
				.map((text) => text.slice(-1))
				.sort(),
		).toEqual(['0', '1', '2']);
	}, 240_000);
});

describe('1,000 sends with 1% failing, "Continue (using error output)"', () => {
	it('990 on the success branch, 10 on the error branch, every message sent exactly once', async () => {
		const items = Array.from({ length: BULK.items }, (_, index) => ({
			session: SESSION,
			chat: `5511${900000000 + index}`,
			text: `Bulk message ${index}`,
		}));
		const at = (offset: number, every: number) =>
			items.flatMap((_, index) => (index % every === offset ? [index] : []));
		// The gateway fails 1% of the chats with 500, which is not retried, and answers 5 other
		// chats 503 once, which is retried: chosen by chat, so the same items fail on every run.
		const failing = at(37, BULK.failingEvery);
		const busyOnce = at(71, 200);
		for (const [indexes, status] of [
			[failing, 500],
			[busyOnce, 503],
		] as const) {
			for (const index of indexes) {
				simulator.injectFault({
					match: { method: 'POST', path: '/message/sendText/', body: `"${items[index].chat}"` },
					status,
					body: { status, error: 'Injected fault', response: { message: ['Injected fault'] } },
					headers: { 'Retry-After': '0' },
				});
			}
		}

		const run = await runItems(items, 'continueErrorOutput');

		const { success, errors, failedItems } = expectErrorOutputSplit(run, items.length, failing);
		expect(failedItems.map((item) => String(item.json.error))).toEqual(
			failing.map(() => expect.stringMatching(/^Gateway error 500: /)),
		);
		const requests = simulator.requestsTo('/message/sendText/', 'POST');
		const textOf = (request: (typeof requests)[number]) =>
			(request.body as { textMessage: { text: string } }).textMessage.text;
		const sent = requests.filter((request) => !request.faulted).map(textOf);
		const refused = requests.filter((request) => request.faulted).map(textOf);
		// Each message the gateway took arrived once; each refused one was tried once more only after a 503.
		expect(sent).toEqual(
			items.filter((_, index) => !failing.includes(index)).map((item) => item.text),
		);
		expect(refused.sort()).toEqual(
			[...failing, ...busyOnce].map((index) => items[index].text).sort(),
		);
		// Every fault was used: none waited for a request that never came.
		expect((await axios.get(`${simulator.url}/__sim/faults`)).data).toEqual({ pending: [] });
		figures.bulk = {
			items: BULK.items,
			failing: failing.length,
			busyOnce: busyOnce.length,
			success: success.length,
			errors: errors.length,
			lost: BULK.items - success.length - errors.length,
			requests: requests.length,
			sent: sent.length,
			duplicates: sent.length - new Set(sent).size,
		};
	}, 300_000);
});

/** Who receives a burst: n8n's own Webhook node (the yardstick) or our trigger, in one n8n. */
type Receiver = 'webhookNode' | 'trigger';
type Load = 'idle' | 'cpuHog';

const RECEIVER_NAMES: Record<Receiver, string> = {
	webhookNode: "n8n's Webhook node",
	trigger: 'Messaging Gateway Trigger',
};
const LOAD_NAMES: Record<Load, string> = {
	idle: 'on an idle machine',
	cpuHog: 'beside a CPU hog (a process keeping one core busy)',
};

interface BurstFigures extends IDataObject {
	receiver: Receiver;
	load: Load;
	deliveries: number;
	answeredInS: number;
	answered200: number;
	refused: number;
	executions: number;
	succeeded: number;
	/** Answered 200 and never executed: what a gateway was told was received and never ran. */
	lost: number;
	doubled: number;
}

const bursts: BurstFigures[] = [];

/**
 * One burst into `receiver`'s workflow, then the wait (on progress, not a fixed time) for every
 * execution n8n stored; the figures compare what was answered 200 with what ran.
 */
async function measureBurst(receiver: Receiver, load: Load): Promise<BurstFigures> {
	const webhookPath = `burst-${randomUUID()}`;
	const created = await n8n.api.post(
		'/workflows',
		receiver === 'trigger'
			? countingTriggerWorkflow(credential, SESSION)
			: countingWebhookNodeWorkflow(webhookPath),
	);
	expect(created.status).toBe(200);
	const workflowId = String(created.data.id);
	await activate(n8n, workflowId);
	const url =
		receiver === 'trigger'
			? simulator.getWebhook(SESSION)!.url
			: `${n8n.url}/webhook/${webhookPath}`;
	if (receiver === 'trigger') expect(url).toMatch(/\?token=[0-9a-f]{48}$/);

	const prefix = `${receiver === 'trigger' ? 'T' : 'W'}${load === 'idle' ? 'I' : 'H'}`;
	const ids = Array.from(
		{ length: BURST.deliveries },
		(_, index) => `${prefix}${String(index).padStart(14, '0')}`,
	);
	const hog = load === 'cpuHog' ? startCpuHog() : undefined;
	const startedAt = Date.now();
	let burst: BurstResult;
	try {
		burst = await deliverBurst({
			url,
			session: SESSION,
			from: ALICE,
			ids,
			concurrency: BURST.concurrency,
		});
	} finally {
		hog?.kill();
	}
	const answeredInS = (Date.now() - startedAt) / 1000;

	// Executions finish after their answers; on 2 cores, up to minutes later. What was answered
	// 200 must all run; the wait ends when they have, or when no more finished for a minute.
	const finished = async () =>
		(await allExecutions(n8n, workflowId)).filter((execution) => execution.stoppedAt).length;
	await untilCountReaches(
		'every execution to finish',
		burst.accepted.length,
		60_000,
		finished,
	).catch(() => undefined);
	// A moment more, so an execution started twice, or one still coming, would show up too.
	await sleep(2000);
	const executions = await allExecutions(n8n, workflowId, true);
	const seen =
		receiver === 'trigger' ? triggerMessageIds(executions) : webhookNodeMessageIds(executions);
	const seenSet = new Set(seen);
	const deactivated = await n8n.api.post(`/workflows/${workflowId}/deactivate`, {});
	expect(deactivated.status).toBe(200);
	const figures: BurstFigures = {
		receiver,
		load,
		deliveries: BURST.deliveries,
		answeredInS: Math.round(answeredInS),
		answered200: burst.accepted.length,
		refused: burst.refused.length,
		executions: executions.length,
		succeeded: executions.filter((execution) => execution.status === 'success').length,
		lost: burst.accepted.filter((id) => !seenSet.has(id)).length,
		doubled: seen.length - seenSet.size,
	};
	bursts.push(figures);
	// What the gateway heard and what n8n did, for the run's log.
	logFigures(`burst into ${RECEIVER_NAMES[receiver]} ${LOAD_NAMES[load]}`, {
		...figures,
		refusedAnswers: [...new Set(burst.refused)].slice(0, 5),
	});
	return { ...figures, refusedAnswers: burst.refused } as BurstFigures;
}

describe("a burst of deliveries: the trigger beside n8n's own Webhook node, in one n8n", () => {
	it.each<Load>(['idle', 'cpuHog'])(
		`${BURST.deliveries} deliveries, ${BURST.concurrency} at a time, on %s: every delivery answered 200 ran exactly once`,
		async (load) => {
			const yardstick = await measureBurst('webhookNode', load);
			const trigger = await measureBurst('trigger', load);

			// The trigger acknowledges only what n8n stored: nothing answered 200 is lost or doubled,
			// and every execution succeeded.
			expect({ lost: trigger.lost, doubled: trigger.doubled }).toEqual({ lost: 0, doubled: 0 });
			expect(trigger.executions).toBe(trigger.answered200);
			expect(trigger.succeeded).toBe(trigger.executions);
			// A delivery n8n could not store is refused with a 5xx (which a gateway retries), never
			// answered 200. n8n 2.x on SQLite stores a whole burst (n8n 1.x: NEEDS_N8N_2X.burst).
			const refusedAnswers = (trigger as IDataObject).refusedAnswers as string[];
			expect(refusedAnswers.filter((answer) => !/^5\d\d /.test(answer))).toEqual([]);
			if (hasFeature(n8n, 'burst')) {
				expect(trigger.answered200).toBe(BURST.deliveries);
				expect(yardstick.answered200 - yardstick.lost).toBe(
					yardstick.executions - yardstick.doubled,
				);
			}
		},
		1_800_000,
	);
});

describe('a delivery n8n cannot store', () => {
	it('is answered 500 (for the gateway to retry), never 200; every delivery answered 200 ran', async () => {
		const created = await n8n.api.post('/workflows', countingTriggerWorkflow(credential, SESSION));
		expect(created.status).toBe(200);
		const workflowId = String(created.data.id);
		await activate(n8n, workflowId);
		const url = simulator.getWebhook(SESSION)!.url;
		const deliver = async (ids: string[]) =>
			await deliverBurst({ url, session: SESSION, from: ALICE, ids, concurrency: 1 });

		// Another writer holds n8n's database: every execution n8n tries to store fails.
		const held = await holdDatabase(n8n);
		let whileHeld: BurstResult;
		try {
			whileHeld = await deliver(['HELD00000000001', 'HELD00000000002', 'HELD00000000003']);
		} finally {
			await held.release();
		}
		const afterwards = await deliver(['FREED0000000001']);
		const answeredOk = [...whileHeld.accepted, ...afterwards.accepted];
		const finished = async () =>
			(await allExecutions(n8n, workflowId)).filter((execution) => execution.stoppedAt).length;
		await untilCountReaches('the stored executions to finish', answeredOk.length, 60_000, finished);
		await sleep(2000);
		const ran = triggerMessageIds(await allExecutions(n8n, workflowId, true));
		const deactivated = await n8n.api.post(`/workflows/${workflowId}/deactivate`, {});
		expect(deactivated.status).toBe(200);

		// What the gateway was told was received is exactly what ran.
		expect([...ran].sort()).toEqual([...answeredOk].sort());
		expect(afterwards.statuses).toEqual([200]);
		if (hasFeature(n8n, 'acknowledgedOnceStored')) {
			expect(whileHeld.statuses).toEqual([500, 500, 500]);
		}
		figures.held = { deliveries: whileHeld.statuses.length, statuses: whileHeld.statuses };
	});
});

describe('docs/reliability.md', () => {
	it(`shows what real n8n did (the page shows n8n ${DEFAULT_N8N_VERSION}'s figures)`, () => {
		const { errorOutput, regularOutput, bulk } = figures as Record<string, IDataObject>;
		expect([errorOutput, regularOutput, bulk, figures.held].every(Boolean)).toBe(true);
		expect(bursts).toHaveLength(4);
		const rows: Array<{ text: string; needs?: N8n2xFeature }> = [
			{
				text: `| "Continue (using error output)", 5 of ${errorOutput.in} items failing | ${errorOutput.in} items | ${errorOutput.success} on the success output, ${errorOutput.errors} on the error output, each paired to its item |`,
			},
			{
				text: `| "Continue (regular output)", same items | ${regularOutput.in} items | ${regularOutput.out} items in place, ${regularOutput.errors} of them error items |`,
			},
			{
				text: `| Send Text, "Continue (using error output)"; the gateway answers 500 for ${bulk.failing} chats and 503 once for ${bulk.busyOnce} others | ${bulk.items} items | ${bulk.success} on the success output, ${bulk.errors} on the error output, ${bulk.lost} lost; ${bulk.requests} requests (the 503s retried), ${bulk.sent} messages sent, ${bulk.duplicates} sent twice |`,
			},
			{
				needs: 'acknowledgedOnceStored',
				text: `| Deliveries into an active trigger while another writer holds n8n's database (it cannot store executions) | ${(figures.held as IDataObject).deliveries} deliveries | answered ${[...new Set((figures.held as IDataObject).statuses as number[])].join(', ')}, none 200; none run (the gateway may retry them) |`,
			},
			...bursts.map((burst) => ({
				needs: 'burst' as const,
				text: `| ${burst.deliveries} deliveries into ${RECEIVER_NAMES[burst.receiver]}, ${BURST.concurrency} at a time, ${LOAD_NAMES[burst.load]} | ${burst.answered200} answered 200 within ${burst.answeredInS} s, ${burst.refused} refused (5xx, for the gateway to retry) | ${burst.executions} executions (${burst.succeeded} succeeded); **${burst.lost} answered 200 and never run**, ${burst.doubled} run twice |`,
			})),
		];
		if (N8N_VERSION === DEFAULT_N8N_VERSION) {
			expectReadmeSection(
				'reliability:real-n8n',
				[
					`Measured with the packed package in n8n ${DEFAULT_N8N_VERSION} against the gateway simulator:`,
					'',
					'| Run | In | Out |',
					'| --- | --- | --- |',
					...rows.map((row) => row.text),
				].join('\n'),
				// How long a burst took to answer differs from run to run (and machine to machine).
				/within \d+ s/g,
			);
		} else {
			// A run on another n8n (N8N_E2E_VERSION) measures the page's figures too, except in the
			// rows of what needs n8n 2.x, where the tests above checked what this version does instead.
			const shown = (readReadmeSection('reliability:real-n8n') ?? '').split('\n');
			const comparable = rows.filter((row) => !row.needs || hasFeature(n8n, row.needs));
			expect(comparable.map((row) => row.text).filter((row) => !shown.includes(row))).toEqual([]);
		}
	});
});
