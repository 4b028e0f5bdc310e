/**
 * What each counting workflow ran in the exactly-once tests, by message ID (see exactly-once.cts
 * for the gateways, lanes and traffic): lost, run twice, cut short by a kill, each chat's order,
 * what the gateway heard; the scenarios' assertions and the tables of docs/reliability.md. Used by
 * test/e2e/exactly-once.e2e.ts and test/queue/exactly-once.queue.ts.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Simulator } from '../simulator/index.cts';
import { expectReadmeSection } from '../support/readme-section.cts';
import { describeUnfinished, failedBeforeStart } from '../queue/execution-diagnostics.cts';
import type { ExecutionSource } from '../queue/stored-executions.cts';
import { logFigures, until } from './e2e-helpers.cts';
import {
	CHATS,
	GATEWAYS,
	ID_PATTERN,
	RECEIVER_NAMES,
	redeliver,
	Traffic,
	untilGatewaysDone,
} from './exactly-once.cts';
import type { GatewayKey, Lane, Receiver, Written } from './exactly-once.cts';
import { DEFAULT_N8N_VERSION, N8N_VERSION } from './n8n-install.cts';

/**
 * The message IDs each execution of a counting workflow ran (its first node's output), executions
 * in the order n8n created them. An execution the kill cut short ran nothing to its end (n8n marks
 * it crashed when it starts again): see idsCutShort.
 */
export function idsPerExecution(executions: IDataObject[], scenario: string): string[][] {
	return firstNodeItems(executions).flatMap(({ items }) => {
		// An item shows its message's ID in several fields (the raw envelope too): once per item.
		const ids = items.map((item) => [...new Set(JSON.stringify(item.json).match(ID_PATTERN))]);
		const ofScenario = ids.filter((found) => found.length > 0 && found[0][1] === scenario);
		if (ofScenario.some((found) => found.length !== 1))
			throw new Error(`An item carries several message IDs: ${JSON.stringify(ofScenario)}`);
		return ofScenario.length > 0 ? [ofScenario.map((found) => found[0])] : [];
	});
}

/** Each execution, in the order n8n created them, with its first node's (the trigger's) output. */
function firstNodeItems(
	executions: IDataObject[],
): Array<{ execution: IDataObject; items: Array<{ json: IDataObject }> }> {
	type Items = { main: Array<Array<{ json: IDataObject }> | null> };
	return [...executions]
		.sort((a, b) => Number(a.id) - Number(b.id))
		.map((execution) => {
			const data = execution.data as {
				resultData: { runData: Record<string, Array<{ data?: Items }>> };
			};
			return { execution, items: data.resultData.runData['On Message']?.[0]?.data?.main[0] ?? [] };
		});
}

/**
 * Where a chat's order first broke: the two messages (the later-written one ran first) and the
 * executions that ran them (n8n's ID, how many messages each held, whether it was a catch-up's
 * read-back), to tell a late retry from a read-back.
 */
export function firstOrderBreak(
	executions: IDataObject[],
	scenario: string,
	written: Written[],
): IDataObject | undefined {
	const place = new Map(written.map((message) => [message.id, message]));
	const ran = new Set<string>();
	const lastOfChat = new Map<number, IDataObject>();
	for (const { execution, items } of firstNodeItems(executions)) {
		for (const item of items) {
			const id = JSON.stringify(item.json).match(ID_PATTERN)?.[0];
			const message = id === undefined ? undefined : place.get(id);
			if (!message || id![1] !== scenario || ran.has(id!)) continue;
			ran.add(id!);
			const run = {
				id,
				place: message.place,
				execution: execution.id,
				startedAt: execution.startedAt,
				messagesInExecution: items.length,
				caughtUp: item.json.caughtUp === true,
			};
			const last = lastOfChat.get(message.chat);
			if (last && Number(last.place) > message.place)
				return { chat: message.chat, ranFirst: last, ranLater: run };
			lastOfChat.set(message.chat, run);
		}
	}
	return undefined;
}

/**
 * The message IDs that executions n8n marked crashed held (their start data): what n8n was running
 * when it was killed. n8n does not run a crashed execution again (a person can retry it from the
 * executions list), and neither does the trigger: it had started the workflow for those messages.
 */
export function idsCutShort(executions: IDataObject[], scenario: string): Set<string> {
	const crashed = executions.filter((execution) => execution.status === 'crashed');
	const ids = crashed.flatMap(
		(execution) => JSON.stringify(execution.data ?? {}).match(ID_PATTERN) ?? [],
	);
	return new Set(ids.filter((id) => id[1] === scenario));
}

export interface Outcome extends IDataObject {
	gateway: GatewayKey;
	receiver: Receiver;
	sent: number;
	executions: number;
	lost: number;
	duplicated: number;
	/** Messages only an execution the kill cut short held: started once, never finished. */
	cutShort: number;
	/** The first lost messages' IDs, to look for in n8n's log. */
	lostIds?: string[];
	/** The executions that held a lost message (started with it) by status, to tell where it went. */
	lostHeldBy?: Record<string, number>;
	/** The first messages run twice: their IDs, and the executions that ran them by status. */
	duplicatedIds?: string[];
	duplicatedHeldBy?: Record<string, number>;
	/** What the gateway heard when it delivered a lost message (status and body), how often. */
	lostAnswers?: Record<string, number>;
	/** Every stored execution, of any workflow, whose data names the first lost message. */
	firstLostStoredIn?: IDataObject[];
	/** The workflow's executions n8n failed before their first node ran, by error. */
	failedBeforeStart?: Record<string, number>;
	/** Chats whose messages ran in another order than written. */
	outOfOrderChats: number;
	/** What the gateway heard last of each delivery ("200", "404", "ECONNREFUSED"…): how many. */
	lastAnswers?: Record<string, number>;
}

/**
 * How the executions that started with one of `ids` (their data names it) ended: by status, and
 * whether their first node passed any of them on.
 */
function statusesHolding(
	executions: IDataObject[],
	ids: string[],
	scenario: string,
): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const execution of executions) {
		const held = ids.filter((id) => JSON.stringify(execution.data ?? {}).includes(id));
		if (held.length === 0) continue;
		const ran = new Set(idsPerExecution([execution], scenario).flat());
		const key = `${String(execution.status)}, ${held.some((id) => ran.has(id)) ? 'ran it' : 'left it out'}`;
		counts[key] = (counts[key] ?? 0) + 1;
	}
	return counts;
}

/** What each attempt to deliver one of `ids` heard (status or error, and the answer's start). */
function answersTo(simulator: Simulator, ids: string[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const delivery of simulator.deliveries) {
		if (!ids.some((id) => JSON.stringify(delivery.body).includes(id))) continue;
		const key = `${delivery.status ?? delivery.error} ${delivery.responseBody ?? ''}`.slice(0, 90);
		counts[key] = (counts[key] ?? 0) + 1;
	}
	return counts;
}

/** How many of a simulator's deliveries ended with each answer. */
function lastAnswersOf(simulator: Simulator): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const outcome of simulator.deliveryOutcomes()) {
		const last = outcome.attempts.at(-1);
		const key = String(last?.status ?? last?.error ?? 'none').slice(0, 40);
		counts[key] = (counts[key] ?? 0) + 1;
	}
	return counts;
}

/** What one workflow ran of what was written in its lane. */
export function outcomeOf(
	lane: Lane,
	receiver: Receiver,
	written: Written[],
	perExecution: string[][],
	cutShort: Set<string> = new Set(),
): Outcome {
	const ran = perExecution.flat();
	const seen = new Set(ran);
	const onlyCutShort = written.filter(
		(message) => cutShort.has(message.id) && !seen.has(message.id),
	);
	const lost = written.filter((message) => !seen.has(message.id) && !cutShort.has(message.id));
	const firstRun = ran.filter((id, index) => ran.indexOf(id) === index);
	const twice = [...new Set(ran.filter((id, index) => ran.indexOf(id) !== index))];
	const place = new Map(written.map((message) => [message.id, message]));
	let outOfOrderChats = 0;
	for (let chat = 0; chat < CHATS; chat++) {
		const places = firstRun
			.map((id) => place.get(id))
			.filter((message) => message?.chat === chat)
			.map((message) => message!.place);
		if (places.some((value, index) => index > 0 && value < places[index - 1])) outOfOrderChats++;
	}
	return {
		gateway: lane.key,
		receiver,
		sent: written.length,
		executions: perExecution.length,
		lost: lost.length,
		duplicated: ran.length - seen.size,
		cutShort: onlyCutShort.length,
		...(lost.length > 0 ? { lostIds: lost.slice(0, 10).map((message) => message.id) } : {}),
		...(twice.length > 0 ? { duplicatedIds: twice.slice(0, 10) } : {}),
		outOfOrderChats,
	};
}

/** How many of the counted messages an execution's stored data names. */
const messagesIn = (data: string) => new Set(data.match(ID_PATTERN) ?? []).size;

/** The longest wait for the gateways to be done with every delivery, retries included. */
const SETTLE_MS = 600_000;

/** How long after the traffic the next message comes: past the trigger's half minute between reads. */
const NEXT_MESSAGE_AFTER_MS = 31_000;

/** How long an execution stays 'new', with nothing else moving, before it counts as never handed on. */
const ORPHANED_AFTER_MS = 30_000;

/**
 * How long after it started an execution still 'running' counts as stuck: these workflows run in
 * well under a second, and n8n 2.41 on a starved database left one running for good, having run
 * no node ("timeout exceeded when trying to connect" around it). It is left as it is; the count
 * says which messages it held (lostHeldBy: "running, left it out").
 */
const STUCK_AFTER_MS = 120_000;

/**
 * Waits until every simulator is done with every delivery, writes the next message half a minute
 * later, waits until n8n has finished every execution, then counts what each workflow ran.
 */
export async function settleAndCount(
	executionsOf: ExecutionSource,
	lanes: Lane[],
	traffic: Traffic,
	scenario: string,
	settleMs = SETTLE_MS,
): Promise<Outcome[]> {
	await untilGatewaysDone(lanes, traffic, settleMs);
	// The next message a person writes, half a minute on: with it each n8n process reads back what
	// n8n refused meanwhile (a 503 while its database checks time out, which a gateway that posts
	// once never tries again), as the trigger does while it runs on (catch-up.ts's sweep).
	await sleep(NEXT_MESSAGE_AFTER_MS);
	await traffic.flow(1, 0);
	await untilGatewaysDone(lanes, traffic, settleMs);
	const workflowIds = lanes.flatMap((lane) => Object.values(lane.workflowIds));
	// Stored executions still running finish (read from n8n's database: see stored-executions.cts);
	// the count must stay still for a few seconds. One a killed webhook processor stored and never
	// handed to a worker stays 'new' (n8n marks it crashed at its next queue recovery, hours later):
	// once nothing else moves, it is left as it is (it never ran; the count says where its message
	// went). So is one stuck 'running' (STUCK_AFTER_MS).
	let previous = -1;
	const newSince = new Map<string, number>();
	let unfinished: IDataObject[] = [];
	await until('every execution to finish', 180_000, async () => {
		const lists = await Promise.all(workflowIds.map(async (id) => await executionsOf(id)));
		const all = lists.flat();
		const now = Date.now();
		for (const execution of all)
			if (execution.status === 'new' && !newSince.has(String(execution.id)))
				newSince.set(String(execution.id), now);
		const neverHandedOn = (execution: IDataObject) =>
			execution.status === 'new' && now - newSince.get(String(execution.id))! >= ORPHANED_AFTER_MS;
		const stuck = (execution: IDataObject) =>
			execution.status === 'running' &&
			now - Date.parse(String(execution.startedAt)) >= STUCK_AFTER_MS;
		unfinished = all.filter(
			(execution) =>
				!execution.stoppedAt &&
				execution.status !== 'crashed' &&
				!neverHandedOn(execution) &&
				!stuck(execution),
		);
		const settled = unfinished.length === 0 && all.length === previous;
		previous = all.length;
		if (!settled) await sleep(2000);
		return settled ? true : undefined;
	}).catch(async (error: Error) => {
		throw new Error(
			`${error.message}; still unfinished: ${(await describeUnfinished(executionsOf, unfinished, messagesIn)).join('; ')}`,
		);
	});
	const outcomes: Outcome[] = [];
	for (const lane of lanes) {
		for (const receiver of ['trigger', 'webhookNode'] as const) {
			const stored = await executionsOf(lane.workflowIds[receiver], true);
			const executions = stored.filter((execution) =>
				JSON.stringify(execution.data ?? {}).includes(`"Q${scenario}${lane.letter}`),
			);
			const outcome = outcomeOf(
				lane,
				receiver,
				traffic.written.get(lane.letter)!,
				idsPerExecution(executions, scenario),
				idsCutShort(executions, scenario),
			);
			outcomes.push({
				...outcome,
				...(outcome.lostIds
					? {
							lostHeldBy: statusesHolding(executions, outcome.lostIds, scenario),
							firstLostStoredIn: await executionsOf.naming(outcome.lostIds[0]),
							failedBeforeStart: failedBeforeStart(stored),
							lostAnswers: answersTo(lane.simulators[receiver], outcome.lostIds),
						}
					: {}),
				...(outcome.duplicatedIds && receiver === 'trigger'
					? { duplicatedHeldBy: statusesHolding(executions, outcome.duplicatedIds, scenario) }
					: {}),
				lastAnswers: lastAnswersOf(lane.simulators[receiver]),
				...(outcome.outOfOrderChats > 0
					? {
							firstOrderBreak: firstOrderBreak(
								executions,
								scenario,
								traffic.written.get(lane.letter)!,
							),
						}
					: {}),
			});
		}
	}
	for (const lane of lanes)
		for (const simulator of Object.values(lane.simulators)) simulator.clearLogs();
	return outcomes;
}

/** What a redelivery scenario writes and posts again. */
export interface Redeliveries {
	/** Messages written, 100 ms apart, in turn to the 10 chats. */
	count: number;
	/** How many more times the message at `place` of `chat` is posted again. */
	extraOf: (chat: number, place: number) => number;
	/** Each message's repeats all at once, or one after another. */
	atOnce: boolean;
	/** Where the `attempt`th repeat goes (another webhook processor). */
	urlOf?: (url: string, attempt: number) => string;
}

/**
 * Writes the messages, waits until the gateways delivered them, posts each one again as
 * `redeliveries` says, and counts what each workflow ran.
 */
export async function writeThenRedeliver(
	executionsOf: ExecutionSource,
	lanes: Lane[],
	scenario: string,
	redeliveries: Redeliveries,
): Promise<Outcome[]> {
	const traffic = new Traffic(lanes, scenario);
	await traffic.flow(redeliveries.count, 100);
	// As long as the count's own wait: on a busy machine a delivery n8n answered late is tried again
	// on the gateway's real schedule (Evolution API v2: 5 s doubling), answered 409 while pending.
	await untilGatewaysDone(lanes, traffic, SETTLE_MS);
	const extra = new Map(
		[...traffic.written.values()]
			.flat()
			.map((message) => [message.id, redeliveries.extraOf(message.chat, message.place)]),
	);
	await redeliver(
		lanes,
		new Set(extra.keys()),
		(id) => extra.get(id) ?? 0,
		redeliveries.atOnce,
		redeliveries.urlOf,
	);
	return await settleAndCount(executionsOf, lanes, traffic, scenario);
}

/** The table of scenarios (docs/reliability.md): `intro`, then a row per receiver and gateway of each. */
export function outcomeTable(
	intro: string,
	results: Array<{ scenario: string; outcomes: Outcome[] }>,
): string {
	return [
		intro,
		'',
		'| Scenario | Gateway | Receiver | Messages | Executions | Lost | Run twice | Cut short by the stop | Each chat’s order |',
		'| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
		...results.flatMap(({ scenario, outcomes }) =>
			outcomes.map((outcome) => outcomeRow(scenario, outcome)),
		),
	].join('\n');
}

/**
 * What differs from run to run in that table: what n8n's Webhook node ran, the trigger's
 * executions (and, where measured rather than asserted, its counts), each chat's order on a busy
 * machine.
 */
export const OUTCOME_TABLE_MASK =
	/(?<=Webhook node \|)[^\n]*|(?<=Trigger \| )\d+ \| \d+ \| \d+ \| \d+ \| \d+|(?<=\| )(kept|\d+ of \d+ chats out of order)(?= \|$)/gm;

/** What an outcome that lost or doubled messages says of them. */
const FAILURE_DETAILS = [
	'lostIds',
	'lostHeldBy',
	'lostAnswers',
	'duplicatedIds',
	'duplicatedHeldBy',
	'cutShort',
];

/** The scenarios a test file ran: each one's outcomes asserted and logged, then their table. */
export class ExactlyOnceResults {
	private readonly results: Array<{ scenario: string; outcomes: Outcome[] }> = [];

	/** `label` starts each logged line ("exactly once in queue mode"). */
	constructor(private readonly label: string) {}

	/**
	 * The trigger lost nothing and ran nothing twice, on every gateway. Each chat's order is
	 * measured but not asserted: the first deliveries are posted side by side, as gateways post
	 * them, and on a busy machine n8n can store a chat's next message before the one a second
	 * earlier; what the trigger orders itself is a catch-up, tested in
	 * test/trigger/trigger-catch-up.test.ts.
	 */
	expectExactlyOnce(scenario: string, outcomes: Outcome[]): void {
		this.results.push({ scenario, outcomes });
		logFigures(`${this.label}: ${scenario}`, outcomes);
		const trigger = outcomes.filter((outcome) => outcome.receiver === 'trigger');
		// A failure shows where the lost and doubled messages went (CI's log keeps its end only).
		const withDetails = ({ gateway, lost, duplicated, ...rest }: Outcome) => ({
			gateway,
			lost,
			duplicated,
			...(lost + duplicated > 0
				? {
						details: Object.fromEntries(
							Object.entries(rest).filter(([key]) => FAILURE_DETAILS.includes(key)),
						),
					}
				: {}),
		});
		expect(trigger.map(withDetails)).toEqual(
			trigger.map(({ gateway }) => ({ gateway, lost: 0, duplicated: 0 })),
		);
	}

	/** Every one of `scenarios` ran, and the `section` in docs/ shows them (on n8n's default version). */
	expectReadmeTable(section: string, scenarios: number, intro: string): void {
		expect(this.results).toHaveLength(scenarios);
		if (N8N_VERSION !== DEFAULT_N8N_VERSION) return;
		expectReadmeSection(section, outcomeTable(intro, this.results), OUTCOME_TABLE_MASK);
	}
}

/** A row of the table in docs/reliability.md. */
export function outcomeRow(scenario: string, outcome: Outcome): string {
	return `| ${scenario} | ${GATEWAYS[outcome.gateway].name} | ${RECEIVER_NAMES[outcome.receiver]} | ${outcome.sent} | ${outcome.executions} | ${outcome.lost} | ${outcome.duplicated} | ${outcome.cutShort} | ${outcome.outOfOrderChats === 0 ? 'kept' : `${outcome.outOfOrderChats} of ${CHATS} chats out of order`} |`;
}
