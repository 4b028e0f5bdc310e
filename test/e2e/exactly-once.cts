/**
 * Every message exactly once, in a real n8n: for each gateway the credential offers, two
 * simulators playing it receive the same messages: one delivers to the Messaging Gateway Trigger
 * (which registered itself there), the other to n8n's own Webhook node (registered by hand, as a
 * user of the Webhook node does): the yardstick. Each delivers and retries as that gateway does.
 * What each workflow ran is counted by message ID: lost, run twice, and whether each chat's
 * messages ran in the order they were written. Used by test/e2e/exactly-once.e2e.ts.
 */
import { randomUUID } from 'node:crypto';

import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator, SimulatorOptions } from '../simulator/index.cts';
import { expectReadmeSection } from '../support/readme-section.cts';
import { activate, allExecutions, createCredential, logFigures, until } from './e2e-helpers.cts';
import { DEFAULT_N8N_VERSION, N8N_VERSION } from './n8n-install.cts';
import type { N8nInstance } from './n8n-instance.cts';
import { countingTriggerWorkflow, countingWebhookNodeWorkflow } from './workflows.cts';

export const SESSION = SEED.instances.connected.name;
/** Chats writing at once; a chat's messages are at least a second apart, so their stamps differ. */
export const CHATS = 10;

export type GatewayKey = 'messagingGatewayApi' | 'evolutionV2' | 'waha';

interface GatewayPlay {
	name: string;
	/** The simulator's options (its retry pace scaled, see `retries`). */
	simulator: SimulatorOptions;
	/** The credential's Gateway (none: the default, the Messaging Gateway API). */
	credentialGateway?: string;
	/** What the gateway does after a failed delivery, at the pace played, for the README. */
	retries: string;
	/** Points the yardstick simulator's session at n8n's Webhook node, as its user would. */
	registerWebhookNode(simulator: Simulator, url: string): Promise<void>;
}

const post = async (
	simulator: Simulator,
	method: 'POST' | 'PUT',
	path: string,
	body: IDataObject,
	header = 'apikey',
) => {
	const response = await axios.request({
		method,
		url: `${simulator.url}${path}`,
		data: body,
		headers: { [header]: simulator.apiKey },
		validateStatus: () => true,
	});
	if (response.status >= 300)
		throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.data)}`);
};

/**
 * The gateways as played here. Retries are scaled so a test waits minutes, not the gateway's
 * 20: Evolution API v2's ten tries (5 s doubling to 300 s, ~25 min) span ~5 min at 0.2. WAHA's
 * are played as they are: every 10 s for the trigger's 15 minutes, its default for the Webhook
 * node (15 tries 2 s apart, ~30 s).
 */
export const GATEWAYS: Record<GatewayKey, GatewayPlay> = {
	messagingGatewayApi: {
		name: 'Messaging Gateway API (Evolution API v1)',
		// Evolution API 1.8.2 posts once and waits for the answer as long as it takes (no timeout).
		simulator: { gateway: 'spec', deliveryTimeoutMs: 600_000 },
		retries: 'none (one try, no time limit)',
		registerWebhookNode: async (simulator, url) =>
			await post(simulator, 'POST', `/webhook/set/${SESSION}`, {
				url,
				enabled: true,
				events: ['MESSAGES_UPSERT'],
			}),
	},
	evolutionV2: {
		name: 'Evolution API v2 (2.3.6)',
		simulator: { gateway: 'evolution-v2', deliveryClockScale: 0.2 },
		credentialGateway: 'evolutionV2',
		retries: '10 tries, 5 s doubling to 300 s, none after a 404 (played 5× faster)',
		registerWebhookNode: async (simulator, url) =>
			await post(simulator, 'POST', `/webhook/set/${SESSION}`, {
				webhook: { enabled: true, url, events: ['MESSAGES_UPSERT'] },
			}),
	},
	waha: {
		name: 'WAHA (NOWEB)',
		simulator: { gateway: 'waha' },
		credentialGateway: 'waha',
		retries: "the trigger's entry: every 10 s for 15 min; a plain entry: 15 tries 2 s apart",
		registerWebhookNode: async (simulator, url) =>
			await post(
				simulator,
				'PUT',
				`/api/sessions/${SESSION}`,
				{ config: { webhooks: [{ url, events: ['message'] }] } },
				'x-api-key',
			),
	},
};

export type Receiver = 'trigger' | 'webhookNode';
export const RECEIVER_NAMES: Record<Receiver, string> = {
	trigger: 'Messaging Gateway Trigger',
	webhookNode: "n8n's Webhook node",
};

/** One gateway's pair of simulators and the two workflows they deliver to. */
export interface Lane {
	key: GatewayKey;
	/** Letter in the message IDs of this lane. */
	letter: string;
	simulators: Record<Receiver, Simulator>;
	workflowIds: Record<Receiver, string>;
}

const LANE_LETTERS: Record<GatewayKey, string> = {
	messagingGatewayApi: 'M',
	evolutionV2: 'E',
	waha: 'W',
};

/**
 * Starts both simulators of each gateway and creates, in `n8n` (the main process), the trigger's
 * workflow and the Webhook node's, both active. `webhookBase`: where production webhooks are
 * received (n8n's URL, or the webhook processors' in queue mode).
 */
export async function startLanes(
	n8n: N8nInstance,
	webhookBase: string,
	keys: GatewayKey[] = ['messagingGatewayApi', 'evolutionV2', 'waha'],
): Promise<Lane[]> {
	const lanes: Lane[] = [];
	for (const key of keys) {
		const play = GATEWAYS[key];
		const simulators = {
			trigger: await startSimulator(play.simulator),
			webhookNode: await startSimulator(play.simulator),
		};
		const credential = await createCredential(n8n, `Exactly once (${play.name})`, {
			...(play.credentialGateway ? { gateway: play.credentialGateway } : {}),
			baseUrl: simulators.trigger.url,
			apiKey: simulators.trigger.apiKey,
		});
		const webhookPath = `exactly-once-${randomUUID()}`;
		const workflowIds = {} as Record<Receiver, string>;
		for (const [receiver, workflow] of [
			['trigger', countingTriggerWorkflow(credential, SESSION)],
			['webhookNode', countingWebhookNodeWorkflow(webhookPath)],
		] as const) {
			const created = await n8n.api.post('/workflows', {
				...workflow,
				name: `${workflow.name}: ${play.name}`,
			});
			if (created.status !== 200)
				throw new Error(`Creating a workflow failed: ${JSON.stringify(created.data)}`);
			workflowIds[receiver] = String(created.data.id);
			await activate(n8n, workflowIds[receiver]);
		}
		await play.registerWebhookNode(simulators.webhookNode, `${webhookBase}/webhook/${webhookPath}`);
		lanes.push({ key, letter: LANE_LETTERS[key], simulators, workflowIds });
	}
	return lanes;
}

export async function stopLanes(lanes: Lane[]): Promise<void> {
	for (const lane of lanes)
		for (const simulator of Object.values(lane.simulators)) await simulator.stop();
}

/** A message written in a scenario: its ID names the scenario, the lane, the chat and its place there. */
export interface Written {
	id: string;
	chat: number;
	/** Its place among its chat's messages of the scenario (0, 1, 2…). */
	place: number;
}

const ID_PATTERN = /Q[A-Z]{2}C\d{2}M\d{3}Z{10}/g;

export const messageId = (scenario: string, letter: string, chat: number, place: number) =>
	`Q${scenario}${letter}C${String(chat).padStart(2, '0')}M${String(place).padStart(3, '0')}${'Z'.repeat(10)}`;

const chatNumber = (chat: number) => `55119${String(7000000 + chat).padStart(8, '0')}`;

/**
 * Writes messages into every lane (both simulators, the same ID and time) round the chats, one
 * every `spacingMs` (at least 100, so a chat's messages fall in different seconds); `written`
 * holds them per lane letter.
 */
export class Traffic {
	readonly written = new Map<string, Written[]>();
	private places = new Map<number, number>();

	constructor(
		private readonly lanes: Lane[],
		private readonly scenario: string,
	) {
		for (const lane of lanes) this.written.set(lane.letter, []);
	}

	/** One message in every lane, in chat `chat`. */
	async write(chat: number): Promise<void> {
		const place = this.places.get(chat) ?? 0;
		this.places.set(chat, place + 1);
		const timestamp = Math.floor(Date.now() / 1000);
		await Promise.all(
			this.lanes.map(async (lane) => {
				const id = messageId(this.scenario, lane.letter, chat, place);
				for (const simulator of Object.values(lane.simulators)) {
					await simulator.injectInboundMessage({
						from: chatNumber(chat),
						id,
						text: `message ${place} of chat ${chat}`,
						timestamp,
					});
				}
				this.written.get(lane.letter)!.push({ id, chat, place });
			}),
		);
	}

	/** `count` messages round the chats, one every `spacingMs`. */
	async flow(count: number, spacingMs: number): Promise<number> {
		let sent = 0;
		for (; sent < count; sent++) {
			const started = Date.now();
			await this.write(this.total() % CHATS);
			const rest = spacingMs - (Date.now() - started);
			if (rest > 0) await sleep(rest);
		}
		return sent;
	}

	total(): number {
		return [...this.places.values()].reduce((sum, count) => sum + count, 0);
	}
}

/**
 * The message IDs each execution of a counting workflow ran (its first node's output), executions
 * in the order n8n created them. An execution the kill cut short ran nothing to its end (n8n marks
 * it crashed when it starts again): see idsCutShort.
 */
export function idsPerExecution(executions: IDataObject[], scenario: string): string[][] {
	type Items = { main: Array<Array<{ json: IDataObject }> | null> };
	const byId = [...executions].sort((a, b) => Number(a.id) - Number(b.id));
	return byId.flatMap((execution) => {
		const data = execution.data as {
			resultData: { runData: Record<string, Array<{ data?: Items }>> };
		};
		const items = data.resultData.runData['On Message']?.[0]?.data?.main[0] ?? [];
		// An item shows its message's ID in several fields (the raw envelope too): once per item.
		const ids = items.map((item) => [...new Set(JSON.stringify(item.json).match(ID_PATTERN))]);
		const ofScenario = ids.filter((found) => found.length > 0 && found[0][1] === scenario);
		if (ofScenario.some((found) => found.length !== 1))
			throw new Error(`An item carries several message IDs: ${JSON.stringify(ofScenario)}`);
		return ofScenario.length > 0 ? [ofScenario.map((found) => found[0])] : [];
	});
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
	/** What the gateway heard when it delivered a lost message (status and body), how often. */
	lostAnswers?: Record<string, number>;
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
		outOfOrderChats,
	};
}

/**
 * Waits until every simulator is done with every delivery (taken, refused for good or out of
 * tries), each message `traffic` wrote among them: a delivery is logged only once it ends.
 */
export async function untilGatewaysDone(
	lanes: Lane[],
	traffic: Traffic,
	timeoutMs: number,
): Promise<void> {
	const done = (lane: Lane, simulator: Simulator) => {
		const outcomes = simulator.deliveryOutcomes();
		if (!outcomes.every((outcome) => outcome.final)) return false;
		const delivered = new Set(
			outcomes.map((outcome) => JSON.stringify(outcome.body).match(ID_PATTERN)?.[0]),
		);
		return traffic.written.get(lane.letter)!.every((message) => delivered.has(message.id));
	};
	try {
		await until('every gateway to be done with every delivery', timeoutMs, async () =>
			lanes.every((lane) =>
				Object.values(lane.simulators).every((simulator) => done(lane, simulator)),
			)
				? true
				: undefined,
		);
	} catch (error) {
		// Which deliveries are not done, and where each stands.
		const open = lanes.flatMap((lane) =>
			Object.entries(lane.simulators).flatMap(([receiver, simulator]) =>
				simulator
					.deliveryOutcomes()
					.filter((outcome) => !outcome.final)
					.map((outcome) => ({
						lane: lane.key,
						receiver,
						id: JSON.stringify(outcome.body).match(ID_PATTERN)?.[0],
						attempts: outcome.attempts.map((attempt) => attempt.status ?? attempt.error),
					})),
			),
		);
		throw new Error(
			`${(error as Error).message}; not done: ${JSON.stringify(open).slice(0, 2000)}`,
		);
	}
}

/**
 * Waits until every simulator is done with every delivery and n8n has finished every execution, then counts what each workflow ran.
 */
export async function settleAndCount(
	n8n: N8nInstance,
	lanes: Lane[],
	traffic: Traffic,
	scenario: string,
	settleMs = 600_000,
): Promise<Outcome[]> {
	await untilGatewaysDone(lanes, traffic, settleMs);
	const workflowIds = lanes.flatMap((lane) => Object.values(lane.workflowIds));
	// Stored executions still running finish; the count must stay still for a few seconds.
	let previous = -1;
	await until('every execution to finish', 180_000, async () => {
		const lists = await Promise.all(workflowIds.map(async (id) => await allExecutions(n8n, id)));
		const all = lists.flat();
		const done = all.every((execution) => execution.stoppedAt || execution.status === 'crashed');
		const settled = done && all.length === previous;
		previous = all.length;
		if (!settled) await sleep(2000);
		return settled ? true : undefined;
	});
	const outcomes: Outcome[] = [];
	for (const lane of lanes) {
		for (const receiver of ['trigger', 'webhookNode'] as const) {
			const executions = (await allExecutions(n8n, lane.workflowIds[receiver], true)).filter(
				(execution) => JSON.stringify(execution.data ?? {}).includes(`"Q${scenario}${lane.letter}`),
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
							lostAnswers: answersTo(lane.simulators[receiver], outcome.lostIds),
						}
					: {}),
				lastAnswers: lastAnswersOf(lane.simulators[receiver]),
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
	n8n: N8nInstance,
	lanes: Lane[],
	scenario: string,
	redeliveries: Redeliveries,
): Promise<Outcome[]> {
	const traffic = new Traffic(lanes, scenario);
	await traffic.flow(redeliveries.count, 100);
	await untilGatewaysDone(lanes, traffic, 120_000);
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
	return await settleAndCount(n8n, lanes, traffic, scenario);
}

/**
 * Posts each delivery the simulators made of `ids` again, `times(id)` more times: one after
 * another, or all at once. Bodies and headers as the gateway sent them (WAHA's signature too).
 */
export async function redeliver(
	lanes: Lane[],
	ids: Set<string>,
	times: (id: string) => number,
	atOnce: boolean,
	urlOf: (url: string, attempt: number) => string = (url) => url,
): Promise<Map<string, number>> {
	/** How many redeliveries got each answer ("200 {…}"). */
	const answers = new Map<string, number>();
	const posts: Array<() => Promise<unknown>> = [];
	for (const lane of lanes) {
		for (const simulator of Object.values(lane.simulators)) {
			const seen = new Set<string>();
			for (const delivery of simulator.deliveries) {
				const id = JSON.stringify(delivery.body).match(ID_PATTERN)?.[0];
				if (!id || !ids.has(id) || seen.has(id)) continue;
				seen.add(id);
				const repeats = Array.from({ length: times(id) }, (_, attempt) => async () => {
					const answer = await axios
						.post(urlOf(delivery.url, attempt), JSON.stringify(delivery.body), {
							headers: { ...delivery.headers },
							validateStatus: () => true,
						})
						.catch((error: { code?: string }) => ({ status: error.code ?? 'no answer', data: '' }));
					const key = `${answer.status} ${typeof answer.data === 'object' ? JSON.stringify(answer.data).slice(0, 80) : ''}`;
					answers.set(key, (answers.get(key) ?? 0) + 1);
				});
				if (atOnce)
					posts.push(async () => await Promise.all(repeats.map(async (repeat) => await repeat())));
				else
					posts.push(async () => {
						for (const repeat of repeats) await repeat();
					});
			}
		}
	}
	// The messages side by side; each one's repeats after another or at once (fewer side by side then).
	let next = 0;
	await Promise.all(
		Array.from({ length: atOnce ? 3 : 10 }, async () => {
			while (next < posts.length) await posts[next++]();
		}),
	);
	return answers;
}

/** The README's table of scenarios: `intro`, then a row per receiver and gateway of each. */
export function outcomeTable(
	intro: string,
	results: Array<{ scenario: string; outcomes: Outcome[] }>,
): string {
	return [
		intro,
		'',
		'| Scenario | Gateway | Receiver | Messages | Executions | Lost | Run twice | Cut short by the kill | Each chat’s order |',
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

/** The scenarios a test file ran: each one's outcomes asserted and logged, then the README's table. */
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
		expect(trigger.map(({ gateway, lost, duplicated }) => ({ gateway, lost, duplicated }))).toEqual(
			trigger.map(({ gateway }) => ({ gateway, lost: 0, duplicated: 0 })),
		);
	}

	/** Every one of `scenarios` ran, and the README's `section` shows them (on n8n's default version). */
	expectReadmeTable(section: string, scenarios: number, intro: string): void {
		expect(this.results).toHaveLength(scenarios);
		if (N8N_VERSION !== DEFAULT_N8N_VERSION) return;
		expectReadmeSection(section, outcomeTable(intro, this.results), OUTCOME_TABLE_MASK);
	}
}

/** A row of the README's table. */
export function outcomeRow(scenario: string, outcome: Outcome): string {
	return `| ${scenario} | ${GATEWAYS[outcome.gateway].name} | ${RECEIVER_NAMES[outcome.receiver]} | ${outcome.sent} | ${outcome.executions} | ${outcome.lost} | ${outcome.duplicated} | ${outcome.cutShort} | ${outcome.outOfOrderChats === 0 ? 'kept' : `${outcome.outOfOrderChats} of ${CHATS} chats out of order`} |`;
}
