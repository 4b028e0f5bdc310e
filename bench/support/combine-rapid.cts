/**
 * Combine Rapid Messages in a real n8n (issue: "report the added latency, silence time + overhead";
 * goal: the buffer's overhead beyond its silence time ≤ 50 ms p95). Two WAHA simulators, each with
 * one active workflow of its own credential: Trigger → Combine Rapid Messages → Send Text, and the
 * same without Combine (Trigger → Send Text) as the baseline. Bursts of 1, 3 and 5 messages from a
 * few chats go to each in turn, one burst at a time; each is timed from the injection of its last
 * message at the simulator to the reply's Send Text arriving there.
 */
import { randomUUID } from 'node:crypto';

import { sleep } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

import {
	createActiveWorkflow,
	allExecutions,
	createCredential,
	percentile,
	until,
} from '../../test/e2e/e2e-helpers.cts';
import type { N8nInstance } from '../../test/e2e/n8n-instance.cts';
import { ACTION_TYPE, CREDENTIAL_TYPE, TRIGGER_TYPE } from '../../test/e2e/workflows.cts';
import type { CredentialRef, WorkflowJson } from '../../test/e2e/workflows.cts';
import { SEED, startSimulator } from '../../test/simulator/index.cts';
import type { RecordedRequest, Simulator } from '../../test/simulator/index.cts';
import type { GoalResult } from './measure.cts';
import { round2 } from './measure.cts';

const SESSION = SEED.instances.connected.name;
/** The node's default Silence Time: what a workflow gets unless someone changes it. */
const SILENCE_SECONDS = 3;
/** The goal: what the buffer may add beyond its silence time, at p95. */
const GOAL_P95_MS = 50;
/** Sizes of the bursts, in turn: half single messages, the rest 3 and 5 messages. */
const BURST_SIZES = [1, 3, 1, 5];
/** People writing, in turn (numbers not in the seed's contacts). */
const CHATS = ['5511970000001', '5511970000002', '5511970000003'];
/** Between the messages of a burst: well under the silence time, as someone typing fast. */
const MESSAGE_GAP_MS = 250;
/** After a burst's replies, before the next burst: n8n saves the executions meanwhile. */
const SETTLE_MS = 400;

type Path = 'combine' | 'baseline';

interface BurstTiming {
	size: number;
	/** The text of the burst's last message (its execution's trigger item carries it). */
	lastText: string;
	/** When the last message was injected at the simulator, and when the reply arrived there. */
	injectedAt: number;
	replyAt: number;
	/** Last message injected → its reply's Send Text at the gateway. */
	latencyMs: number;
}

interface Rig {
	simulator: Simulator;
	workflowId: string;
}

const pickedSession = { __rl: true, mode: 'list', value: SESSION };

function node(name: string, x: number, rest: Omit<INode, 'id' | 'name' | 'position'>): INode {
	return { id: randomUUID(), name, position: [x, 0], ...rest } as INode;
}

/** Trigger → (Combine Rapid Messages →) Send Text with the text it got, to the chat it came from. */
function replyWorkflow(credential: CredentialRef, withCombine: boolean): WorkflowJson {
	const credentials = { [CREDENTIAL_TYPE]: credential };
	const trigger = {
		...node('On Message', 0, {
			type: TRIGGER_TYPE,
			typeVersion: 2,
			parameters: { session: pickedSession, events: ['MESSAGES_UPSERT'] },
			credentials,
		}),
		webhookId: randomUUID(),
	};
	const combine = node('Combine', 300, {
		type: ACTION_TYPE,
		typeVersion: 2,
		parameters: {
			resource: 'message',
			operation: 'combineRapid',
			session: pickedSession,
			messageId: '={{ $json.messageId }}',
			silenceSeconds: SILENCE_SECONDS,
		},
		credentials,
	});
	const reply = node('Reply', 600, {
		type: ACTION_TYPE,
		typeVersion: 2,
		parameters: {
			resource: 'message',
			operation: 'sendText',
			session: pickedSession,
			chatId: { __rl: true, mode: 'id', value: '={{ $json.chatId }}' },
			text: '={{ $json.text }}',
		},
		credentials,
	});
	const link = (to: string) => ({ main: [[{ node: to, type: 'main' as const, index: 0 }]] });
	return {
		name: withCombine ? 'Bench: Combine Rapid Messages → reply' : 'Bench: reply to each message',
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
		nodes: withCombine ? [trigger, combine, reply] : [trigger, reply],
		connections: withCombine
			? { 'On Message': link('Combine'), Combine: link('Reply') }
			: { 'On Message': link('Reply') },
	};
}

async function startRig(n8n: N8nInstance, withCombine: boolean): Promise<Rig> {
	const simulator = await startSimulator({ gateway: 'waha' });
	const credential = await createCredential(
		n8n,
		`Bench WAHA (${withCombine ? 'combine' : 'baseline'})`,
		{ gateway: 'waha', baseUrl: simulator.url, apiKey: simulator.apiKey },
	);
	const workflowId = await createActiveWorkflow(n8n, replyWorkflow(credential, withCombine));
	await until('the trigger to add its webhook at WAHA', 30_000, async () =>
		simulator.getWebhooks(SESSION).length === 1 ? true : undefined,
	);
	return { simulator, workflowId };
}

const replies = (simulator: Simulator) => simulator.requestsTo('/api/sendText', 'POST');
const textOf = (request: RecordedRequest) => String((request.body as IDataObject).text);

/** Polls the gateway's request log every 5 ms (the times are the gateway's, not the poll's). */
async function waitForReplies(
	simulator: Simulator,
	count: number,
	description: string,
): Promise<RecordedRequest[]> {
	const deadline = Date.now() + 30_000 + SILENCE_SECONDS * 1000;
	for (;;) {
		const sent = replies(simulator);
		if (sent.length >= count) return sent;
		if (Date.now() > deadline) {
			throw new Error(`Timed out waiting for ${description}: ${sent.length} of ${count} replies`);
		}
		await sleep(5);
	}
}

/**
 * One burst to one rig: the messages a person writes in quick succession, then the reply to the
 * last one (baseline: every message's reply; Combine: one reply with the burst's texts joined).
 */
async function burst(rig: Rig, path: Path, index: number, size: number): Promise<BurstTiming> {
	const { simulator } = rig;
	simulator.clearLogs();
	const from = CHATS[(index + CHATS.length) % CHATS.length];
	const texts = Array.from(
		{ length: size },
		(_, message) => `${path} burst ${index} message ${message}`,
	);
	let injectedAt = 0;
	for (const [message, text] of texts.entries()) {
		if (message > 0) await sleep(MESSAGE_GAP_MS);
		injectedAt = Date.now();
		await simulator.injectInboundMessage({ from, text });
	}
	const lastText = texts[texts.length - 1];
	let reply: RecordedRequest | undefined;
	if (path === 'baseline') {
		const sent = await waitForReplies(simulator, size, `the replies to burst ${index}`);
		reply = sent.find((request) => textOf(request) === lastText);
		await sleep(SETTLE_MS);
		if (!reply) throw new Error(`baseline burst ${index}: no reply to its last message`);
	} else {
		[reply] = await waitForReplies(simulator, 1, `the turn of burst ${index}`);
		await sleep(SETTLE_MS);
		if (textOf(reply) !== texts.join('\n') || replies(simulator).length !== 1) {
			throw new Error(
				`combine burst ${index}: expected one reply with the ${size} texts joined, got ${JSON.stringify(replies(simulator).map(textOf))}`,
			);
		}
	}
	return { size, lastText, injectedAt, replyAt: reply.at, latencyMs: reply.at - injectedAt };
}

interface Percentiles {
	p50Ms: number;
	p95Ms: number;
}

function percentiles(values: number[]): Percentiles {
	const sorted = [...values].sort((a, b) => a - b);
	return { p50Ms: round2(percentile(sorted, 0.5)), p95Ms: round2(percentile(sorted, 0.95)) };
}

export interface CombineRapidMeasurement {
	goals: GoalResult[];
	figures: Record<string, unknown>;
	notes: string[];
}

/** Runs the bursts through both workflows in the running n8n and judges the overhead. */
export async function measureCombineRapid(
	n8n: N8nInstance,
	options: { quick: boolean; log(line: string): void },
): Promise<CombineRapidMeasurement> {
	const bursts = options.quick ? 12 : 40;
	const rigs: Partial<Record<Path, Rig>> = {};
	try {
		rigs.combine = await startRig(n8n, true);
		rigs.baseline = await startRig(n8n, false);
		const both = rigs as Record<Path, Rig>;
		const timings: Record<Path, BurstTiming[]> = { combine: [], baseline: [] };
		options.log(
			`combine: ${bursts} bursts of ${[...new Set(BURST_SIZES)].join('/')} messages from ${CHATS.length} chats, Silence Time ${SILENCE_SECONDS} s, with and without Combine in turn`,
		);
		// One unrecorded burst each first: the first run of a node in n8n loads and compiles it.
		for (const path of ['combine', 'baseline'] as Path[]) await burst(both[path], path, -1, 2);
		for (let index = 0; index < bursts; index++) {
			const size = BURST_SIZES[index % BURST_SIZES.length];
			// Which path goes first alternates, so a slow moment of the machine hits both alike.
			const order: Path[] = index % 2 === 0 ? ['combine', 'baseline'] : ['baseline', 'combine'];
			for (const path of order) timings[path].push(await burst(both[path], path, index, size));
		}
		// The last burst's executions may still be being saved.
		const recorded = (path: Path) =>
			until(`n8n to have saved the ${path} bursts' executions`, 30_000, async () =>
				waterfalls(n8n, both[path], path, timings[path]).catch(() => undefined),
			);
		const combine = await recorded('combine');
		const baseline = await recorded('baseline');
		return judge(timings, combine, baseline.bursts);
	} finally {
		for (const rig of Object.values(rigs)) {
			await n8n.api.post(`/workflows/${rig.workflowId}/deactivate`, {});
			await rig.simulator.stop();
		}
	}
}

/** Where one burst's latency went, from n8n's record of the last message's execution. */
interface Waterfall {
	/** Last message injected → its execution started (the delivery, the trigger, n8n storing it). */
	toStartMs: number;
	/** Execution started → the node after the trigger started (Combine, or Send Text). */
	toNodeMs: number;
	/** Combine's execution time beyond the silence (it counts the silence from its own start). */
	combineBeyondSilenceMs?: number;
	/** Combine's end → Send Text's start. */
	toReplyNodeMs?: number;
	/** Send Text's start → its request at the gateway. */
	replyRequestMs: number;
}

/**
 * Each burst's last message's execution as n8n recorded it (matched by its trigger item's text),
 * split into the steps of its latency; and, of the Combine executions that stopped (the burst's
 * earlier messages), Combine's time beyond the silence.
 */
async function waterfalls(
	n8n: N8nInstance,
	rig: Rig,
	path: Path,
	timings: BurstTiming[],
): Promise<{ bursts: Waterfall[]; stoppedBeyondSilenceMs: number[] }> {
	type Run = {
		startTime: number;
		executionTime: number;
		data?: { main: Array<Array<{ json: IDataObject }>> };
	};
	const byText = new Map<string, { startedAt: number; runData: Record<string, Run[]> }>();
	for (const execution of await allExecutions(n8n, rig.workflowId, true)) {
		const runData = (execution.data as { resultData: { runData: Record<string, Run[]> } })
			.resultData.runData;
		const text = runData['On Message']?.[0]?.data?.main[0]?.[0]?.json.text;
		byText.set(String(text), { startedAt: Date.parse(String(execution.startedAt)), runData });
	}
	const lastTexts = new Set(timings.map((timing) => timing.lastText));
	const stoppedBeyondSilenceMs: number[] = [];
	if (path === 'combine') {
		for (const [text, { runData }] of byText) {
			const combine = runData.Combine?.[0];
			if (lastTexts.has(text) || !combine || text.includes('burst -1 ')) continue;
			stoppedBeyondSilenceMs.push(combine.executionTime - SILENCE_SECONDS * 1000);
		}
	}
	const bursts = timings.map((timing): Waterfall => {
		const execution = byText.get(timing.lastText);
		const reply = execution?.runData.Reply?.[0];
		if (!execution || !reply) {
			throw new Error(`${path}: no execution of "${timing.lastText}" that reached Send Text`);
		}
		const combine = execution.runData.Combine?.[0];
		const firstNode = combine ?? reply;
		return {
			toStartMs: execution.startedAt - timing.injectedAt,
			toNodeMs: firstNode.startTime - execution.startedAt,
			...(combine
				? {
						combineBeyondSilenceMs: combine.executionTime - SILENCE_SECONDS * 1000,
						toReplyNodeMs: reply.startTime - (combine.startTime + combine.executionTime),
					}
				: {}),
			replyRequestMs: timing.replyAt - reply.startTime,
		};
	});
	return { bursts, stoppedBeyondSilenceMs };
}

function judge(
	timings: Record<Path, BurstTiming[]>,
	combineRecord: { bursts: Waterfall[]; stoppedBeyondSilenceMs: number[] },
	baselineRecord: Waterfall[],
): CombineRapidMeasurement {
	const silenceMs = SILENCE_SECONDS * 1000;
	const latency = (path: Path, filter: (timing: BurstTiming) => boolean = () => true) =>
		percentiles(timings[path].filter(filter).map((timing) => timing.latencyMs));
	const combine = latency('combine');
	const baseline = latency('baseline');
	// Burst i went through both workflows: the percentiles of the per-burst differences, so a
	// slow burst on one side is not compared with a fast one on the other.
	const difference = (
		minus: number,
		filter: (timing: BurstTiming) => boolean = () => true,
	): Percentiles =>
		percentiles(
			timings.combine.flatMap((timing, index) =>
				filter(timing) ? [timing.latencyMs - timings.baseline[index].latencyMs - minus] : [],
			),
		);
	const single = (timing: BurstTiming) => timing.size === 1;
	const several = (timing: BurstTiming) => timing.size > 1;
	const added = difference(0);
	const overhead = difference(silenceMs);
	const singleOverhead = difference(silenceMs, single);
	const severalOverhead = difference(silenceMs, several);
	const step = (record: Waterfall[], key: keyof Waterfall) =>
		percentiles(record.map((waterfall) => waterfall[key] ?? 0));
	const steps = {
		withCombine: {
			toExecutionStart: step(combineRecord.bursts, 'toStartMs'),
			toCombineStart: step(combineRecord.bursts, 'toNodeMs'),
			combineBeyondSilence: step(combineRecord.bursts, 'combineBeyondSilenceMs'),
			toSendTextStart: step(combineRecord.bursts, 'toReplyNodeMs'),
			sendTextToGateway: step(combineRecord.bursts, 'replyRequestMs'),
		},
		withoutCombine: {
			toExecutionStart: step(baselineRecord, 'toStartMs'),
			toSendTextStart: step(baselineRecord, 'toNodeMs'),
			sendTextToGateway: step(baselineRecord, 'replyRequestMs'),
		},
		combineBeyondSilenceWhereStopped: percentiles(combineRecord.stoppedBeyondSilenceMs),
	};
	// What Combine itself adds, per burst as n8n recorded it: its time beyond the silence and the
	// step from it to Send Text (the rest of the path is the baseline's too).
	const ownOverhead = percentiles(
		combineRecord.bursts.map(
			(waterfall) => (waterfall.combineBeyondSilenceMs ?? 0) + (waterfall.toReplyNodeMs ?? 0),
		),
	);
	const bursts = timings.combine.length;
	const met = overhead.p95Ms <= GOAL_P95_MS;
	const pair = (value: Percentiles) => `${value.p50Ms} / ${value.p95Ms} ms`;
	const c = steps.withCombine;
	const b = steps.withoutCombine;
	const where = `Step by step as n8n recorded each burst's last execution, p50 / p95 with Combine vs without: last message → execution started ${pair(c.toExecutionStart)} vs ${pair(b.toExecutionStart)}; → first node started ${pair(c.toCombineStart)} vs ${pair(b.toSendTextStart)}; Combine beyond its silence (history read, decision) ${pair(c.combineBeyondSilence)}, then → Send Text started ${pair(c.toSendTextStart)}; Send Text → request at the gateway ${pair(c.sendTextToGateway)} vs ${pair(b.sendTextToGateway)}. Combine's own share (beyond silence + the step to Send Text): ${pair(ownOverhead)}. Single-message bursts ${pair(singleOverhead)}, bursts of 3 and 5 ${pair(severalOverhead)} overhead.`;
	return {
		goals: [
			{
				id: 'n8n.combineRapid.addedLatency',
				what: `Combine Rapid Messages (WAHA, Silence Time ${SILENCE_SECONDS} s) in n8n 2.41.1, single process: added latency (silence + overhead), a burst's last message at the gateway → the reply there, ${bursts} bursts of 1, 3 and 5 messages from ${CHATS.length} chats`,
				goal: 'reported',
				measured: `p50 ${added.p50Ms} ms, p95 ${added.p95Ms} ms (with Combine p50 ${combine.p50Ms} ms, p95 ${combine.p95Ms} ms; without, Trigger → Send Text: p50 ${baseline.p50Ms} ms, p95 ${baseline.p95Ms} ms)`,
				value: added.p95Ms,
				met: true,
				why: 'The workflow answers once the person has been silent for the silence time after their last message: that wait, and the overhead below, is what Combine adds to what any reply costs (the baseline: the same workflow without Combine in the same n8n, burst for burst, in turn).',
			},
			{
				id: 'n8n.combineRapid.overhead',
				what: `Same bursts: Combine's overhead beyond its silence time (with Combine − without − ${SILENCE_SECONDS} s, burst by burst, at p50 and at p95); queue mode not measured (the bench runs n8n as a single process)`,
				goal: `≤ ${GOAL_P95_MS} ms p95`,
				measured: `p95 ${overhead.p95Ms} ms, p50 ${overhead.p50Ms} ms`,
				value: overhead.p95Ms,
				met,
				why: where,
			},
		],
		figures: {
			silenceSeconds: SILENCE_SECONDS,
			bursts,
			burstSizes: BURST_SIZES,
			chats: CHATS.length,
			withCombine: combine,
			withoutCombine: baseline,
			addedLatency: added,
			overheadBeyondSilence: overhead,
			overheadSingleMessage: singleOverhead,
			overheadSeveralMessages: severalOverhead,
			combineOwnOverhead: ownOverhead,
			steps,
			samples: {
				withCombineMs: timings.combine.map((timing) => timing.latencyMs),
				withoutCombineMs: timings.baseline.map((timing) => timing.latencyMs),
			},
		},
		notes: [
			`Combine Rapid Messages: two WAHA simulators in the bench process, each with one active workflow in the same n8n: Trigger → Combine Rapid Messages (Silence Time ${SILENCE_SECONDS} s) → Send Text, and Trigger → Send Text. Each burst (1, 3 or 5 messages ${MESSAGE_GAP_MS} ms apart, from one of ${CHATS.length} chats) goes to one, then the same burst to the other, one burst at a time, which goes first alternating; one unrecorded burst each first.`,
			"A burst's latency runs from the injection of its last message at the simulator (which stores it and posts it to the trigger's webhook) to the reply's sendText request arriving there, both on the bench's clock. With Combine the reply must carry every text of the burst, once; without, the reply to the last message is timed.",
			`Overhead beyond silence = p50 (p95) over the bursts of (with Combine − without − ${SILENCE_SECONDS} s), burst by burst. The steps come from the saved executions of the bursts' last messages (their start, each node's start and execution time); Combine counts the silence from its own start.`,
			'Queue mode is not measured here: the bench starts no queue-mode n8n (test/queue does, for the tests).',
		],
	};
}
