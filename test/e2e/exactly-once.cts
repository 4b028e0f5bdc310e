/**
 * Every message exactly once, in a real n8n: for each gateway the credential offers, two
 * simulators playing it receive the same messages: one delivers to the Messaging Gateway Trigger
 * (which registered itself there), the other to n8n's own Webhook node (registered by hand, as a
 * user of the Webhook node does): the yardstick. Each delivers and retries as that gateway does.
 * What each workflow ran is counted in exactly-once-count.cts. Used by test/e2e/exactly-once.e2e.ts
 * and test/queue/exactly-once.queue.ts.
 */
import { randomUUID } from 'node:crypto';

import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator, SimulatorOptions } from '../simulator/index.cts';
import { activate, createCredential, until } from './e2e-helpers.cts';
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
	/** What the gateway does after a failed delivery, at the pace played, for docs/reliability.md. */
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

export const ID_PATTERN = /Q[A-Z]{2}C\d{2}M\d{3}Z{10}/g;

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
