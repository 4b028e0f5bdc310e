/**
 * Message → Combine Rapid Messages in a real n8n, in one process and in queue mode: the workflow
 * (trigger → Combine Rapid Messages → Send Text of the joined text), the bursts twenty chats write
 * at once in real time, and what the gateway and n8n's executions must show afterwards. Shared by
 * test/e2e/combine-rapid.e2e.ts and test/queue/combine-rapid.queue.ts.
 *
 * WhatsApp stamps a message to the whole second, so a pause in real time is seen as a pause in
 * stamps of up to a second more or less. Gaps inside a planned burst are either well under the
 * silence time less a second (the burst stays one, whatever the stamps) or just under the silence
 * time (the stamps decide); gaps between planned bursts are just over the silence time (a new
 * burst, whatever the stamps). Every expectation is taken from the stamps the gateway stored; for
 * chats whose gaps are all certain, those bursts must also be the planned ones.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import type { SentRequest, Verdict } from '../compatibility/verdicts.cts';
import { describeUnfinished } from '../queue/execution-diagnostics.cts';
import type { ExecutionSource } from '../queue/stored-executions.cts';
import { judgeWaha } from '../simulator/index.cts';
import type { Gateway, Simulator } from '../simulator/index.cts';
import { allExecutions, percentile, until, untilCountReaches } from './e2e-helpers.cts';
import { runDataOf } from './example-runs.cts';
import type { N8nInstance } from './n8n-instance.cts';
import { ACTION_TYPE, CREDENTIAL_TYPE, TRIGGER_TYPE } from './workflows.cts';
import type { CredentialRef, WorkflowJson } from './workflows.cts';

/** The workflow's Silence Time (Seconds). */
export const SILENCE_SECONDS = 2;
const SILENCE_MS = SILENCE_SECONDS * 1000;

/** What differs between the gateways that keep a history: how replies and deliveries look. */
export interface HistoryGateway {
	/** The credential's Gateway. */
	credential: 'waha' | 'evolutionV2';
	/** The dialect the simulator plays. */
	simulator: Gateway;
	/** The path (start) of a Send Text request. */
	sendPath: string;
	/** The contact number and the text of a Send Text request's body. */
	reply(body: IDataObject): { number: string; text: string };
	/** The delivery event of a person's message, and the message ID it carries. */
	deliveryEvent: string;
	deliveredId(body: IDataObject): string;
	/** The gateway's own validation of a request. */
	judge(request: SentRequest): Verdict;
	/** The webhook URL the trigger registered for the session. */
	webhookUrl(simulator: Simulator, session: string): string | undefined;
}

const digits = (chat: unknown) => String(chat).split('@')[0];

export const HISTORY_GATEWAYS: Record<'waha' | 'evolutionV2', HistoryGateway> = {
	waha: {
		credential: 'waha',
		simulator: 'waha',
		sendPath: '/api/sendText',
		reply: (body) => ({ number: digits(body.chatId), text: String(body.text) }),
		deliveryEvent: 'message',
		deliveredId: (body) => String((body.payload as IDataObject | undefined)?.id),
		judge: judgeWaha,
		webhookUrl: (simulator, session) => simulator.getWebhooks(session)[0]?.url,
	},
	evolutionV2: {
		credential: 'evolutionV2',
		simulator: 'evolution-v2',
		sendPath: '/message/sendText/',
		reply: (body) => ({ number: digits(body.number), text: String(body.text) }),
		deliveryEvent: 'messages.upsert',
		deliveredId: (body) =>
			String(((body.data as IDataObject | undefined)?.key as IDataObject | undefined)?.id),
		judge: checkEvolutionV2,
		webhookUrl: (simulator, session) => simulator.getWebhook(session)?.url,
	},
};

/** Real gaps between two messages of a chat, in ms, by what the stamps can make of them. */
export const GAPS_MS = {
	/** Under the silence time less a second: the stamps differ by less than the silence time. */
	under: [300, 500, 700],
	/** Just under the silence time: the stamps differ by one second less than it, or by it. */
	near: [1600, 1800],
	/** Just over the silence time: the stamps differ by at least it. */
	over: SILENCE_MS + 300,
} as const;

/** One chat's plan: the sizes of its bursts, and which gaps separate the messages inside them. */
export interface ChatPlan {
	bursts: number[];
	inside: 'under' | 'near';
}

/**
 * Twenty chats writing at once: bursts of 1 to 8 messages, one or two bursts per chat; the last
 * four chats pause just under the silence time inside their bursts.
 */
export const CHAT_PLANS: ChatPlan[] = [
	{ bursts: [1], inside: 'under' },
	{ bursts: [8], inside: 'under' },
	{ bursts: [1, 1], inside: 'under' },
	{ bursts: [2, 3], inside: 'under' },
	{ bursts: [3], inside: 'under' },
	{ bursts: [4], inside: 'under' },
	{ bursts: [5], inside: 'under' },
	{ bursts: [6], inside: 'under' },
	{ bursts: [7], inside: 'under' },
	{ bursts: [1, 2], inside: 'under' },
	{ bursts: [2], inside: 'under' },
	{ bursts: [3, 1], inside: 'under' },
	{ bursts: [8, 2], inside: 'under' },
	{ bursts: [1], inside: 'under' },
	{ bursts: [5], inside: 'under' },
	{ bursts: [2, 2], inside: 'under' },
	{ bursts: [3], inside: 'near' },
	{ bursts: [4], inside: 'near' },
	{ bursts: [2, 2], inside: 'near' },
	{ bursts: [1, 3], inside: 'near' },
];

/** A message a chat wrote, as the gateway stored it. */
export interface Written {
	/** 0-based index of the chat in the plan. */
	chat: number;
	chatId: string;
	/** The person's number. */
	number: string;
	/** The gateway's short message ID. */
	id: string;
	text: string;
	/** 0-based burst of the plan it belongs to. */
	plannedBurst: number;
	/** The gateway's stamp (seconds). */
	stamp: number;
	/** When it reached the gateway (ms since the epoch). */
	at: number;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The contact number of chat `chat` (a person of its own per chat). */
export const numberOf = (chat: number) => `55119876500${pad(chat)}`;

/** The workflow under test: every message → Combine Rapid Messages → Send Text of the joined text. */
export function combineRapidWorkflow(credential: CredentialRef, session: string): WorkflowJson {
	const picked = { __rl: true, mode: 'list', value: session };
	const credentials = { [CREDENTIAL_TYPE]: credential };
	return {
		name: 'Combine rapid messages (Messaging Gateway)',
		settings: {
			executionOrder: 'v1',
			saveDataSuccessExecution: 'all',
			saveDataErrorExecution: 'all',
		},
		nodes: [
			{
				id: randomUUID(),
				name: 'On Message',
				type: TRIGGER_TYPE,
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { session: picked, events: ['MESSAGES_UPSERT'] },
				credentials,
			},
			{
				id: randomUUID(),
				name: 'Combine',
				type: ACTION_TYPE,
				typeVersion: 2,
				position: [300, 0],
				parameters: {
					resource: 'message',
					operation: 'combineRapid',
					session: picked,
					messageId: '={{ $json.messageId }}',
					silenceSeconds: SILENCE_SECONDS,
				},
				credentials,
			},
			{
				id: randomUUID(),
				name: 'Reply',
				type: ACTION_TYPE,
				typeVersion: 2,
				position: [600, 0],
				parameters: {
					resource: 'message',
					operation: 'sendText',
					session: picked,
					chatId: { __rl: true, mode: 'id', value: '={{ $json.chatId }}' },
					text: '={{ $json.text }}',
				},
				credentials,
			},
		],
		connections: {
			'On Message': { main: [[{ node: 'Combine', type: 'main', index: 0 }]] },
			Combine: { main: [[{ node: 'Reply', type: 'main', index: 0 }]] },
		},
	};
}

/** When each message of the plan is written, in ms from the start, with its chat and burst. */
function schedule(plans: ChatPlan[]) {
	const planned: Array<{ chat: number; burst: number; index: number; atMs: number }> = [];
	plans.forEach((plan, chat) => {
		// The chats start 0.3 s apart, so their stamps tick over at different points of their bursts
		// and about seven messages a second reach n8n.
		let atMs = chat * 300;
		plan.bursts.forEach((size, burst) => {
			if (burst > 0) atMs += GAPS_MS.over;
			for (let index = 0; index < size; index++) {
				const gaps = GAPS_MS[plan.inside];
				if (index > 0) atMs += gaps[(chat + burst + index) % gaps.length];
				planned.push({ chat, burst, index, atMs });
			}
		});
	});
	return planned.sort((a, b) => a.atMs - b.atMs);
}

/**
 * Makes every chat of `plans` write its bursts at once, in real time; `onWritten` sees the count
 * written so far (e.g. to stop a worker mid-wait). Returns the messages as the gateway stored them.
 */
export async function writeBursts(
	simulator: Simulator,
	session: string,
	plans: ChatPlan[],
	onWritten?: (written: number) => void,
): Promise<Written[]> {
	const written: Written[] = [];
	const start = Date.now() + 200;
	for (const { chat, burst, index, atMs } of schedule(plans)) {
		const due = start + atMs - Date.now();
		if (due > 0) await sleep(due);
		const text = `chat ${pad(chat + 1)}, turn ${burst + 1}, message ${index + 1}`;
		const at = Date.now();
		const stored = await simulator.injectInboundMessage({
			instance: session,
			from: numberOf(chat),
			pushName: `Person ${pad(chat + 1)}`,
			text,
		});
		written.push({
			chat,
			chatId: stored.chatId,
			number: numberOf(chat),
			id: stored.shortId,
			text,
			plannedBurst: burst,
			stamp: stored.timestamp,
			at,
		});
		onWritten?.(written.length);
	}
	return written;
}

/** The messages of each chat cut into bursts by the gateway's stamps (the node's rule), oldest first. */
export function burstsByStamps(written: Written[]): Written[][] {
	const bursts: Written[][] = [];
	const chats = [...new Set(written.map((message) => message.chat))].sort((a, b) => a - b);
	for (const chat of chats) {
		let current: Written[] = [];
		for (const message of written.filter((entry) => entry.chat === chat)) {
			const previous = current.at(-1);
			if (previous && message.stamp - previous.stamp >= SILENCE_SECONDS) {
				bursts.push(current);
				current = [];
			}
			current.push(message);
		}
		bursts.push(current);
	}
	return bursts;
}

/** The planned bursts of each chat whose gaps leave the stamps no choice, as sizes. */
export function plannedSizes(plans: ChatPlan[]): Array<{ chat: number; sizes: number[] }> {
	return plans
		.map((plan, chat) => ({ chat, sizes: plan.bursts, inside: plan.inside }))
		.filter(({ inside }) => inside === 'under')
		.map(({ chat, sizes }) => ({ chat, sizes }));
}

/** The same, as the stamps cut them. */
export function stampSizes(
	bursts: Written[][],
	chats: number[],
): Array<{ chat: number; sizes: number[] }> {
	return chats.map((chat) => ({
		chat,
		sizes: bursts.filter((burst) => burst[0].chat === chat).map((burst) => burst.length),
	}));
}

/** The numbers of the messages' chats, in the plan's order of chats. */
const chatsInOrder = (messages: Written[]) => [
	...new Set([...messages].sort((a, b) => a.chat - b.chat).map((message) => message.number)),
];

const joined = (burst: Written[]) => burst.map((message) => message.text).join('\n');

/** The workflow's replies: the Send Text requests the gateway received, in arrival order. */
function replies(simulator: Simulator, gateway: HistoryGateway) {
	return simulator
		.requestsTo(gateway.sendPath, 'POST')
		.map((request) => ({ ...gateway.reply(request.body as IDataObject), at: request.at }));
}

/**
 * Per chat, the replies the gateway received, each in its burst's place: two bursts of one chat
 * are two executions, and under load the later one may reply first (nothing orders executions),
 * so replies are ordered by their first text's place among the written messages; the texts
 * within each reply keep the order the node gave them.
 */
export function repliesPerChat(
	simulator: Simulator,
	gateway: HistoryGateway,
	written: Written[],
): Array<{ number: string; replies: string[] }> {
	const place = new Map(written.map(({ text }, index) => [text, index]));
	const placeOf = (reply: string) => place.get(reply.split('\n')[0]) ?? written.length;
	const sent = replies(simulator, gateway);
	return chatsInOrder(written).map((number) => ({
		number,
		replies: sent
			.filter((reply) => reply.number === number)
			.map((reply) => reply.text)
			.sort((a, b) => placeOf(a) - placeOf(b)),
	}));
}

/** Per chat, what the replies must be: one per burst of the stamps, its texts joined in order. */
export function expectedPerChat(bursts: Written[][]): Array<{ number: string; replies: string[] }> {
	return chatsInOrder(bursts.flat()).map((number) => ({
		number,
		replies: bursts.filter((burst) => burst[0].number === number).map(joined),
	}));
}

/** Every message written, each with how many replies carry its text (each must be in exactly one). */
export function timesReplied(
	simulator: Simulator,
	gateway: HistoryGateway,
	written: Written[],
): Array<{ text: string; replies: number }> {
	const lines = replies(simulator, gateway).flatMap((reply) => reply.text.split('\n'));
	return written.map(({ text }) => ({
		text,
		replies: lines.filter((line) => line === text).length,
	}));
}

/**
 * Whether n8n took each message in the end: some delivery of it answered 2xx, after as many tries
 * as the gateway made (a busy n8n may answer a first try late, and the gateway tries again).
 * That it ran exactly once is what the replies and the executions say.
 */
export function messagesTaken(
	simulator: Simulator,
	gateway: HistoryGateway,
	written: Written[],
): Array<{ text: string; taken: boolean }> {
	const outcomes = simulator
		.deliveryOutcomes()
		.filter((outcome) => outcome.event === gateway.deliveryEvent);
	return written.map(({ text, id }) => ({
		text,
		taken: outcomes.some(
			(outcome) =>
				outcome.succeeded && gateway.deliveredId(outcome.body as IDataObject).endsWith(id),
		),
	}));
}

/** What the execution that ran a message did with it. */
export interface ExecutionOutcome {
	messageId: string;
	status: string;
	/** The short IDs of the messages Combine Rapid Messages went on with; empty when it output nothing. */
	combined: string[];
	/** Whether Send Text ran for it. */
	replied: boolean;
}

const shortIdOf = (messageId: unknown) => String(messageId).split('_')[2];

/** The input item an output item came from (the node pairs each to one). */
function pairedIndex(item: INodeExecutionData): number {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'number' ? paired : (paired?.item ?? 0);
}

/** The messages an execution's trigger output (one, or more when a catch-up ran a missed one beside it). */
function messagesRun(execution: IDataObject): INodeExecutionData[] {
	return runDataOf(execution)['On Message']?.[0]?.data?.main?.[0] ?? [];
}

/**
 * What was done with each message, execution by execution: usually one message an execution, but
 * a message n8n refused under load and the trigger's catch-up ran beside the next one shares its
 * execution (its retry then runs nothing). Combine's and Send Text's items are each paired to the
 * item they came from.
 */
export async function executionOutcomes(
	executionsOf: ExecutionReader,
	workflowId: string,
): Promise<ExecutionOutcome[]> {
	const executions = await executionsOf(workflowId, true);
	return executions.flatMap((execution) => {
		const runData = runDataOf(execution);
		const combined = runData.Combine?.[0]?.data?.main?.[0] ?? [];
		const replies = runData.Reply?.[0]?.data?.main?.[0] ?? [];
		return messagesRun(execution).map((trigger, index) => {
			const mine = combined
				.map((item, position) => ({ item, position }))
				.filter(({ item }) => pairedIndex(item) === index);
			return {
				messageId: shortIdOf(trigger.json.messageId),
				status: String(execution.status),
				combined: mine.flatMap(({ item }) =>
					((item.json.messageIds as string[] | undefined) ?? []).map(shortIdOf),
				),
				replied: replies.some((reply) =>
					mine.some(({ position }) => pairedIndex(reply) === position),
				),
			};
		});
	});
}

/** What each message's execution must have done: only a burst's last message goes on, with the burst. */
export function expectedOutcomes(bursts: Written[][]): ExecutionOutcome[] {
	return bursts.flatMap((burst) =>
		burst.map((message, index) => {
			const last = index === burst.length - 1;
			return {
				messageId: message.id,
				status: 'success',
				combined: last ? burst.map((entry) => entry.id) : [],
				replied: last,
			};
		}),
	);
}

/** Outcomes in a fixed order (by message ID), to compare lists whatever order n8n lists them in. */
export const byMessage = (outcomes: ExecutionOutcome[]) =>
	[...outcomes].sort((a, b) => a.messageId.localeCompare(b.messageId));

/**
 * Waits until the gateway is done with every delivery: taken, refused for good, or out of tries
 * (a try that n8n took but whose answer was lost is tried again, and must find it run).
 */
export async function untilDeliveriesSettled(simulator: Simulator): Promise<void> {
	await until('the gateway to be done with every delivery', 120_000, async () =>
		simulator.deliveryOutcomes().every((outcome) => outcome.final) ? true : undefined,
	);
}

/**
 * Where a test reads a workflow's executions: n8n's API (one process, SQLite), or n8n's database
 * (queue mode: stored-executions.cts), which also shows what the API leaves out or redacts.
 */
export type ExecutionReader = (workflowId: string, includeData?: boolean) => Promise<IDataObject[]>;

/** The executions as n8n's public API lists them. */
export function apiExecutions(n8n: N8nInstance): ExecutionReader {
	return async (workflowId, includeData = false) =>
		await allExecutions(n8n, workflowId, includeData);
}

/** What a wait for the executions looks at, and what it says when they do not all end. */
export interface EndedWatch {
	simulator: Simulator;
	gateway: HistoryGateway;
	written: Written[];
	/** n8n's database, where running executions show (queue mode): their state is said too. */
	executionsOf?: ExecutionSource;
}

/**
 * Waits until every message written ran in an execution that ended, while more keep ending.
 * When they stop short it says which messages n8n never took (each delivery's attempts)
 * and, read from n8n's database, which executions are still unfinished.
 */
export async function untilAllEnded(
	n8n: N8nInstance,
	workflowId: string,
	{ simulator, gateway, written, executionsOf }: EndedWatch,
): Promise<void> {
	await untilCountReaches(
		'every message to run in an execution that ended',
		written.length,
		60_000,
		async () => {
			const ended = (await (executionsOf ?? apiExecutions(n8n))(workflowId, true)).filter(
				(execution) => execution.stoppedAt,
			);
			const run = new Set(
				ended.flatMap((execution) =>
					messagesRun(execution).map((item) => shortIdOf(item.json.messageId)),
				),
			);
			return written.filter((message) => run.has(message.id)).length;
		},
		2000,
	).catch(async (error: Error) => {
		const untaken = messagesTaken(simulator, gateway, written)
			.filter(({ taken }) => !taken)
			.map(({ text }) => `${text} (${attemptsOf(simulator, gateway, written, text)})`);
		const unfinished = executionsOf
			? (await executionsOf(workflowId)).filter((execution) => !execution.stoppedAt)
			: [];
		const texts = written.map(({ text }) => text);
		const messagesIn = (data: string) => texts.filter((text) => data.includes(text)).length;
		throw new Error(
			[
				error.message,
				`never taken: ${untaken.join('; ') || 'none'}`,
				executionsOf
					? `unfinished: ${(await describeUnfinished(executionsOf, unfinished, messagesIn)).join('; ') || 'none'}`
					: '',
			]
				.filter(Boolean)
				.join('; '),
		);
	});
}

/** Each attempt the gateway made to deliver one written message: its answer, or its error. */
function attemptsOf(
	simulator: Simulator,
	gateway: HistoryGateway,
	written: Written[],
	text: string,
): string {
	const id = written.find((message) => message.text === text)?.id ?? text;
	const attempts = simulator
		.deliveryOutcomes()
		.filter(
			(outcome) =>
				outcome.event === gateway.deliveryEvent &&
				gateway.deliveredId(outcome.body as IDataObject).endsWith(id),
		)
		.flatMap((outcome) => outcome.attempts.map((attempt) => attempt.status ?? attempt.error));
	return attempts.length > 0 ? `attempts: ${attempts.join(', ')}` : 'never delivered';
}

/**
 * Per burst, ms from its last message reaching the gateway to its reply reaching the gateway,
 * less the silence time: what the workflow adds to the wait it was asked for. Call once the
 * replies match the bursts (the k-th reply of a chat is then its k-th burst's).
 */
export function replyDelays(simulator: Simulator, gateway: HistoryGateway, bursts: Written[][]) {
	const sent = replies(simulator, gateway);
	const delays = bursts
		.map((burst, index) => {
			const number = burst[0].number;
			const nth = bursts.slice(0, index).filter((other) => other[0].number === number).length;
			const reply = sent.filter((entry) => entry.number === number)[nth];
			return reply.at - burst[burst.length - 1].at - SILENCE_MS;
		})
		.sort((a, b) => a - b);
	return {
		bursts: bursts.length,
		messages: bursts.reduce((sum, burst) => sum + burst.length, 0),
		min: delays[0],
		p50: percentile(delays, 0.5),
		p95: percentile(delays, 0.95),
		max: delays.at(-1),
	};
}

/**
 * Per burst, ms from its last message reaching the gateway to n8n starting that message's
 * execution (p50, p95): the part of the reply's delay that is n8n taking the delivery.
 */
export async function startDelays(
	executionsOf: ExecutionReader,
	workflowId: string,
	bursts: Written[][],
) {
	const executions = await executionsOf(workflowId, true);
	const startedAt = new Map(
		executions.map((execution) => [
			shortIdOf(runDataOf(execution)['On Message']?.[0]?.data?.main?.[0]?.[0]?.json.messageId),
			Date.parse(String(execution.startedAt)),
		]),
	);
	const delays = bursts
		.map((burst) => {
			const last = burst[burst.length - 1];
			return (startedAt.get(last.id) ?? Number.NaN) - last.at;
		})
		.sort((a, b) => a - b);
	return { p50: percentile(delays, 0.5), p95: percentile(delays, 0.95) };
}
