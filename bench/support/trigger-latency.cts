/**
 * The trigger's share of every bot's reply time in a real n8n (issue 25, item 1): the same
 * deliveries posted to the trigger and to n8n's own Webhook node in the same n8n, timed from
 * posting to the execution's end as n8n records it. Kinds: a text message with Simplify on (what
 * every bot gets), a photo with Include Media (the file inside the delivery, webhook_base64) and a
 * QR code with QR as Binary. The trigger is version 2, as the editor adds it.
 */
import { createHash, randomUUID } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { sleep } from 'n8n-workflow';

import {
	allExecutions,
	createActiveWorkflow,
	createCredential,
	deliverBurst,
	LAZY_ISOLATES_ENV,
	percentile,
	triggerMessageIds,
	untilCountReaches,
	webhookNodeMessageIds,
} from '../../test/e2e/e2e-helpers.cts';
import type { BurstResult } from '../../test/e2e/e2e-helpers.cts';
import { startN8n } from '../../test/e2e/n8n-instance.cts';
import type { N8nInstance } from '../../test/e2e/n8n-instance.cts';
import { countingTriggerWorkflow, countingWebhookNodeWorkflow } from '../../test/e2e/workflows.cts';
import type { CredentialRef, WorkflowJson } from '../../test/e2e/workflows.cts';
import { qrCodeDataUri } from '../../test/simulator/png.cts';
import type { Simulator } from '../../test/simulator/index.cts';
import { startQueueCluster } from '../../test/queue/queue-cluster.cts';
import type { GoalResult } from './measure.cts';
import { ratioText, round2 } from './measure.cts';

export type DeliveryKind = 'text' | 'media' | 'qr';
export type Receiver = 'trigger' | 'webhookNode';

const SENDER = '5511988887777';

/** A photo as WhatsApp sends one (about 100 kB), the same bytes every run. */
const PHOTO_BASE64 = Buffer.concat(
	Array.from({ length: 3200 }, (_, index) => createHash('sha256').update(String(index)).digest()),
).toString('base64');

interface KindPlan {
	label: string;
	events: string[];
	options?: INodeParameters;
	envelope(session: string, id: string): IDataObject;
}

const messageData = (id: string, message: IDataObject, messageType: string): IDataObject => ({
	key: { remoteJid: `${SENDER}@s.whatsapp.net`, fromMe: false, id },
	pushName: 'Bench',
	message,
	messageType,
	messageTimestamp: Math.floor(Date.now() / 1000),
});

export const DELIVERY_KINDS: Record<DeliveryKind, KindPlan> = {
	text: {
		label: 'a text message, Simplify on',
		events: ['MESSAGES_UPSERT'],
		envelope: (session, id) => ({
			event: 'messages.upsert',
			instance: session,
			data: messageData(id, { conversation: `hello ${id}` }, 'conversation'),
		}),
	},
	media: {
		label: `a ${Math.round((PHOTO_BASE64.length * 3) / 4 / 1000)} kB photo inside the delivery, Include Media on`,
		events: ['MESSAGES_UPSERT'],
		options: { includeMedia: true },
		envelope: (session, id) => ({
			event: 'messages.upsert',
			instance: session,
			data: messageData(
				id,
				{
					imageMessage: { mimetype: 'image/jpeg', caption: `photo ${id}` },
					base64: PHOTO_BASE64,
				},
				'imageMessage',
			),
		}),
	},
	qr: {
		label: 'a QR code, QR as Binary on',
		events: ['QRCODE_UPDATED'],
		options: { qrCodeAsBinary: true },
		envelope: (session, id) => ({
			event: 'qrcode.updated',
			instance: session,
			data: { qrcode: { instance: session, code: id, base64: qrCodeDataUri(id) } },
		}),
	},
};

/** The delivery ID an execution received, whichever receiver and kind. */
function receivedId(execution: IDataObject, receiver: Receiver): string | undefined {
	if (receiver === 'webhookNode') return webhookNodeMessageIds([execution])[0];
	const [messageId] = triggerMessageIds([execution]);
	if (messageId !== undefined) return messageId;
	// A QR code event has no message ID: the code it carries stands for it.
	type RunData = Record<string, Array<{ data: { main: Array<Array<{ json: IDataObject }>> } }>>;
	const runData = (execution.data as { resultData: { runData: RunData } }).resultData.runData;
	const qrCode = runData['On Message']?.[0]?.data.main[0]?.[0]?.json.qrCode;
	return typeof qrCode === 'string' ? qrCode : undefined;
}

export interface ActiveReceiver {
	receiver: Receiver;
	workflowId: string;
	url: string;
	stop(): Promise<void>;
}

/** Where a receiver is set up: its credential and session, and where production webhooks are served. */
export interface ReceiverSetup {
	credential: CredentialRef;
	session: string;
	/** Queue mode: the webhook processor; by default the n8n that runs the workflow. */
	webhookBaseUrl?: string;
}

/**
 * The receiver's counting workflow, active: the trigger (registered at the gateway, so one at a
 * time per session) or the Webhook node answering on receipt as the trigger does.
 */
export async function activateReceiver(
	n8n: N8nInstance,
	simulator: Simulator,
	receiver: Receiver,
	options: ReceiverSetup & { kind: DeliveryKind },
): Promise<ActiveReceiver> {
	const plan = DELIVERY_KINDS[options.kind];
	const webhookPath = `bench-${options.kind}-${randomUUID().slice(0, 8)}`;
	const workflow: WorkflowJson =
		receiver === 'trigger'
			? countingTriggerWorkflow(options.credential, options.session, {
					typeVersion: 2,
					events: plan.events,
					options: plan.options,
				})
			: countingWebhookNodeWorkflow(webhookPath);
	const workflowId = await createActiveWorkflow(n8n, workflow);
	const url =
		receiver === 'trigger'
			? simulator.getWebhook(options.session)?.url
			: `${options.webhookBaseUrl ?? n8n.url}/webhook/${webhookPath}`;
	if (!url) throw new Error('The trigger did not register its webhook at the gateway');
	return {
		receiver,
		workflowId,
		url,
		stop: async () => {
			await n8n.api.post(`/workflows/${workflowId}/deactivate`, {});
		},
	};
}

export interface DeliveryRun {
	answered: BurstResult;
	/** Posting the first delivery → the last answer, ms. */
	answeredInMs: number;
	/** Per delivery answered 200 that ran: posting it → its execution's end, ms. */
	latenciesMs: number[];
	/** Answered 200 and never run, and run more than once. */
	lost: number;
	doubled: number;
}

/**
 * Posts `count` deliveries of `kind`, `concurrency` at a time, then waits (on progress) until
 * every delivery answered 200 has a finished execution; what was answered 200 and never ran, or
 * ran twice, is counted, never hidden.
 */
export async function deliverAndWait(
	n8n: N8nInstance,
	target: ActiveReceiver,
	options: {
		session: string;
		kind: DeliveryKind;
		count: number;
		concurrency: number;
		spacingMs?: number;
	},
): Promise<DeliveryRun> {
	const finishedCount = async () =>
		(await allExecutions(n8n, target.workflowId)).filter((execution) => execution.stoppedAt).length;
	const before = await finishedCount();
	const ids = Array.from(
		{ length: options.count },
		() => `3EB0${randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}`,
	);
	const started = Date.now();
	const answered = await deliverBurst({
		url: target.url,
		session: options.session,
		from: { number: SENDER, pushName: 'Bench' },
		ids,
		concurrency: options.concurrency,
		envelope: (id) => DELIVERY_KINDS[options.kind].envelope(options.session, id),
		spacingMs: options.spacingMs,
	});
	const answeredInMs = Date.now() - started;
	// Waits on progress (a slow machine takes longer, it does not fail), then a moment more, so an
	// execution started twice would show up too.
	await untilCountReaches(
		'every delivery answered 200 to finish',
		before + answered.accepted.length,
		120_000,
		finishedCount,
		250,
	).catch(() => undefined);
	if (options.concurrency > 1) await sleep(2000);
	const accepted = new Set(answered.accepted);
	const sent = new Set(ids);
	const ran = new Map<string, IDataObject[]>();
	for (const execution of await allExecutions(n8n, target.workflowId, true)) {
		const id = receivedId(execution, target.receiver);
		if (id && sent.has(id)) ran.set(id, [...(ran.get(id) ?? []), execution]);
	}
	const latenciesMs = [...ran]
		.filter(([id]) => accepted.has(id))
		.map(
			([id, [execution]]) =>
				new Date(String(execution.stoppedAt)).getTime() - answered.sentAt.get(id)!,
		);
	return {
		answered,
		answeredInMs,
		latenciesMs,
		lost: [...accepted].filter((id) => !ran.has(id)).length,
		doubled: [...ran.values()].filter((executions) => executions.length > 1).length,
	};
}

export interface LatencyFigures {
	deliveries: number;
	p50Ms: number;
	p95Ms: number;
}

export function latencyFigures(latenciesMs: number[]): LatencyFigures {
	const sorted = [...latenciesMs].sort((a, b) => a - b);
	return {
		deliveries: sorted.length,
		p50Ms: percentile(sorted, 0.5),
		p95Ms: percentile(sorted, 0.95),
	};
}

/**
 * Time between two deliveries measured one at a time: n8n answers a delivery once the execution is
 * stored, before it has run, so deliveries sent on each answer would pile executions up (in queue
 * mode several at once on the workers) and time the pile. This is more than a delivery takes.
 */
const SPACING_MS = 300;

/**
 * Deliveries one at a time (SPACING_MS apart, no execution waiting for another) into each receiver
 * in turn, in rounds (trigger, Webhook node, Webhook node, trigger, …) so a slow moment of the
 * machine hits both.
 */
export async function pairedLatency(
	n8n: N8nInstance,
	simulator: Simulator,
	options: ReceiverSetup & { kind: DeliveryKind; deliveries: number },
): Promise<Record<Receiver, LatencyFigures>> {
	const rounds = 4;
	const perRound = Math.ceil(options.deliveries / rounds);
	const latencies: Record<Receiver, number[]> = { trigger: [], webhookNode: [] };
	const receivers = {
		trigger: await activateReceiver(n8n, simulator, 'trigger', options),
		webhookNode: await activateReceiver(n8n, simulator, 'webhookNode', options),
	};
	try {
		for (let round = 0; round < rounds; round++) {
			const order: Receiver[] =
				round % 2 === 0 ? ['trigger', 'webhookNode'] : ['webhookNode', 'trigger'];
			for (const receiver of order) {
				const run = await deliverAndWait(n8n, receivers[receiver], {
					session: options.session,
					kind: options.kind,
					count: perRound,
					concurrency: 1,
					spacingMs: SPACING_MS,
				});
				if (run.answered.refused.length > 0 || run.lost > 0 || run.doubled > 0) {
					throw new Error(
						`${receiver} (${options.kind}): ${run.answered.refused.length} refused, ${run.lost} lost, ${run.doubled} doubled: ${run.answered.refused.slice(0, 3).join('; ')}`,
					);
				}
				latencies[receiver].push(...run.latenciesMs);
			}
		}
	} finally {
		await receivers.trigger.stop();
		await receivers.webhookNode.stop();
	}
	return {
		trigger: latencyFigures(latencies.trigger),
		webhookNode: latencyFigures(latencies.webhookNode),
	};
}

export interface BurstFigures {
	deliveries: number;
	concurrency: number;
	/** Posting the first delivery → the last answer, s. */
	answeredInS: number;
	answered200: number;
	refused: number;
	lost: number;
	doubled: number;
}

/** A burst of text deliveries into one receiver: how long until all were answered, and what ran. */
async function burstInto(
	n8n: N8nInstance,
	simulator: Simulator,
	receiver: Receiver,
	options: ReceiverSetup & { deliveries: number; concurrency: number },
): Promise<BurstFigures> {
	const target = await activateReceiver(n8n, simulator, receiver, { ...options, kind: 'text' });
	try {
		const run = await deliverAndWait(n8n, target, {
			session: options.session,
			kind: 'text',
			count: options.deliveries,
			concurrency: options.concurrency,
		});
		return {
			deliveries: options.deliveries,
			concurrency: options.concurrency,
			answeredInS: Math.round(run.answeredInMs / 100) / 10,
			answered200: run.answered.accepted.length,
			refused: run.answered.refused.length,
			lost: run.lost,
			doubled: run.doubled,
		};
	} finally {
		await target.stop();
	}
}

/** The same burst into the Webhook node, then into the trigger. */
export async function burstPair(
	n8n: N8nInstance,
	simulator: Simulator,
	options: ReceiverSetup & { deliveries: number; concurrency: number },
): Promise<Record<Receiver, BurstFigures>> {
	return {
		webhookNode: await burstInto(n8n, simulator, 'webhookNode', options),
		trigger: await burstInto(n8n, simulator, 'trigger', options),
	};
}

/** "p50 57 ms, p95 71 ms (n8n's Webhook node: p50 71 ms, p95 111 ms)". */
function latencyText(ours: LatencyFigures, webhookNode: LatencyFigures): string {
	return `p50 ${ours.p50Ms} ms, p95 ${ours.p95Ms} ms (n8n's Webhook node: p50 ${webhookNode.p50Ms} ms, p95 ${webhookNode.p95Ms} ms)`;
}

/** Trigger ÷ Webhook node at p50 and at p95; judged on the larger, against `limit` when it has one. */
export function latencyGoal(options: {
	id: string;
	what: string;
	latency: Record<Receiver, LatencyFigures>;
	limit?: number;
	why?: string;
}): GoalResult {
	const { trigger, webhookNode } = options.latency;
	const p50 = trigger.p50Ms / webhookNode.p50Ms;
	const p95 = trigger.p95Ms / webhookNode.p95Ms;
	const worst = Math.max(p50, p95);
	return {
		id: options.id,
		what: options.what,
		goal: options.limit === undefined ? 'reported' : `≤ ${ratioText(options.limit)} at p50 and p95`,
		measured: `${latencyText(trigger, webhookNode)}: ${ratioText(p50)} / ${ratioText(p95)}`,
		value: round2(worst),
		met: options.limit === undefined || worst <= options.limit,
		...(options.why ? { why: options.why } : {}),
	};
}

/** The trigger's burst time ÷ the Webhook node's, every delivery answered 200 run exactly once. */
export function burstGoal(options: {
	id: string;
	what: string;
	bursts: Record<Receiver, BurstFigures>;
	limit: number;
	why?: string;
}): GoalResult {
	const { trigger, webhookNode } = options.bursts;
	const ratio = trigger.answeredInS / webhookNode.answeredInS;
	const kept = (burst: BurstFigures) =>
		`${burst.answered200} answered 200 in ${burst.answeredInS} s, ${burst.refused} refused, ${burst.lost} lost, ${burst.doubled} run twice`;
	return {
		id: options.id,
		what: options.what,
		goal: `≤ ${ratioText(options.limit)}, none lost`,
		measured: `${ratioText(ratio)}: trigger ${kept(trigger)}; Webhook node ${kept(webhookNode)}`,
		value: round2(ratio),
		met: ratio <= options.limit && trigger.lost === 0 && trigger.doubled === 0,
		...(options.why ? { why: options.why } : {}),
	};
}

/** LAZY_ISOLATES_ENV as the README writes it. */
const LAZY_SETTING = Object.entries(LAZY_ISOLATES_ENV)
	.map(([name, value]) => `${name}=${value}`)
	.join(' ');

export interface ElsewhereFigures {
	/** n8n 2.41.1 with LAZY_ISOLATES_ENV: single text deliveries and the burst. */
	lazy: { single: Record<Receiver, LatencyFigures>; burst: Record<Receiver, BurstFigures> };
	/** Queue mode (PostgreSQL, Redis, main, webhook processor, two workers): single text deliveries, as installed and with LAZY_ISOLATES_ENV. */
	queue: Record<'asInstalled' | 'lazy', Record<Receiver, LatencyFigures>>;
}

/**
 * The same comparisons where n8n runs otherwise: one n8n with LAZY_ISOLATES_ENV (the burst and
 * single deliveries), and n8n in queue mode (single deliveries through the webhook processor to
 * the workers), each with its own credential for `simulator`.
 */
export async function measureElsewhere(
	simulator: Simulator,
	options: {
		session: string;
		deliveries: number;
		burst: { deliveries: number; concurrency: number };
		log(line: string): void;
	},
): Promise<ElsewhereFigures> {
	const credentialFor = (n8n: N8nInstance) =>
		createCredential(n8n, 'Bench gateway', { baseUrl: simulator.url, apiKey: simulator.apiKey });
	options.log(`trigger: n8n with ${LAZY_SETTING}`);
	const lazyN8n = await startN8n({ env: { N8N_LOG_LEVEL: 'info', ...LAZY_ISOLATES_ENV } });
	let lazy: ElsewhereFigures['lazy'];
	try {
		const credential = await credentialFor(lazyN8n);
		const common = { credential, session: options.session };
		const single = await pairedLatency(lazyN8n, simulator, {
			...common,
			kind: 'text',
			deliveries: options.deliveries,
		});
		lazy = { single, burst: await burstPair(lazyN8n, simulator, { ...common, ...options.burst }) };
	} finally {
		await lazyN8n.stop();
	}
	const queue = {} as ElsewhereFigures['queue'];
	for (const [setting, env] of [
		['asInstalled', {}],
		['lazy', LAZY_ISOLATES_ENV],
	] as const) {
		options.log(
			`trigger: n8n in queue mode (PostgreSQL, Redis, main, webhook processor, 2 workers)${setting === 'lazy' ? ` with ${LAZY_SETTING}` : ''}`,
		);
		const cluster = await startQueueCluster(2, { ...env });
		try {
			const credential = await credentialFor(cluster.main);
			queue[setting] = await pairedLatency(cluster.main, simulator, {
				credential,
				session: options.session,
				kind: 'text',
				deliveries: options.deliveries,
				webhookBaseUrl: cluster.webhookUrl,
			});
		} finally {
			await cluster.stop();
		}
	}
	return { lazy, queue };
}

const TRIGGER_LIMIT = 1.1;

/** Trigger ÷ Webhook node, the larger of p50 and p95. */
function worstRatio(latency: Record<Receiver, LatencyFigures>): number {
	return Math.max(
		latency.trigger.p50Ms / latency.webhookNode.p50Ms,
		latency.trigger.p95Ms / latency.webhookNode.p95Ms,
	);
}

/**
 * The trigger's rows: single deliveries of each kind and the burst in n8n as installed, then the
 * same with LAZY_ISOLATES_ENV, and single deliveries in queue mode both ways. A miss in n8n as
 * installed names what the same comparison measured with the setting.
 */
export function triggerGoals(
	single: Record<DeliveryKind, Record<Receiver, LatencyFigures>>,
	burst: Record<Receiver, BurstFigures>,
	elsewhere: ElsewhereFigures,
	size: { deliveries: number; concurrency: number },
): GoalResult[] {
	const setting = LAZY_SETTING;
	const { lazy, queue } = elsewhere;
	const spaced = `one at a time (${SPACING_MS} ms apart)`;
	const isolates = `n8n 2.41.1 as installed builds an expression isolate (a V8 context of its own) for the webhook call of every trigger except its own Webhook node, whose call it knows needs none, and one more for each execution; with ${setting} it builds one only when an expression runs, the same for both.`;
	const withSetting = (latency: Record<Receiver, LatencyFigures>) => {
		const rest = `${latency.trigger.p50Ms - latency.webhookNode.p50Ms} ms at p50, ${latency.trigger.p95Ms - latency.webhookNode.p95Ms} ms at p95`;
		return `${isolates} With it, the same deliveries (a row below) take the trigger ${latencyText(latency.trigger, latency.webhookNode)}: ${worstRatio(latency) <= TRIGGER_LIMIT ? "the difference is n8n's isolate, not the trigger's own work" : `most of the difference is n8n's isolate; what is left (${rest}) is the trigger's own checks and the reads it asks n8n for`}.`;
	};
	const burstRatio = (figures: Record<Receiver, BurstFigures>) =>
		figures.trigger.answeredInS / figures.webhookNode.answeredInS;
	const burstWhat = (where: string) =>
		`Trigger ${where}: a burst of ${size.deliveries.toLocaleString('en-US')} text deliveries, ${size.concurrency} at a time (SQLite), time until all were answered ÷ n8n's Webhook node's, and every delivery answered 200 run exactly once`;
	const singleWhat = (
		where: string,
		kind: DeliveryKind,
		latency: Record<Receiver, LatencyFigures>,
	) =>
		`Trigger ${where}: delivery → execution finished, ${latency.trigger.deliveries} deliveries of ${DELIVERY_KINDS[kind].label}, ${spaced}, ÷ n8n's Webhook node given the same deliveries`;
	const asInstalled = 'in n8n 2.41.1 as installed';
	const lazyWhere = `in n8n 2.41.1 with ${setting}`;
	const queueWhere =
		'in n8n 2.41.1 in queue mode (PostgreSQL, Redis; the webhook processor stores and queues, a worker runs)';
	const singleGoal = (kind: DeliveryKind, limit?: number): GoalResult =>
		latencyGoal({
			id: kind === 'text' ? 'n8n.trigger.latency' : `n8n.trigger.latency.${kind}`,
			what: singleWhat(asInstalled, kind, single[kind]),
			latency: single[kind],
			limit,
			why:
				kind === 'text'
					? worstRatio(single.text) > TRIGGER_LIMIT
						? withSetting(lazy.single)
						: 'Both answer on receipt, once n8n has stored the execution; the trigger also checks the token, the envelope and the filters, and removes secrets.'
					: `${isolates} Beyond that the trigger turns the file into n8n binary data (stored as n8n stores files); the Webhook node keeps the delivery as JSON.`,
		});
	return [
		singleGoal('text', TRIGGER_LIMIT),
		singleGoal('media'),
		singleGoal('qr'),
		latencyGoal({
			id: 'n8n.trigger.lazy.latency',
			what: singleWhat(lazyWhere, 'text', lazy.single),
			latency: lazy.single,

			why: `With the setting the trigger is ${lazy.single.trigger.p50Ms - lazy.single.webhookNode.p50Ms} ms from the Webhook node at p50 and ${lazy.single.trigger.p95Ms - lazy.single.webhookNode.p95Ms} ms at p95; its own logic is microseconds (the Trigger part above), the rest is n8n's handling of a trigger's webhook, which this bench does not split further. In n8n as installed the same deliveries took the trigger p50 ${single.text.trigger.p50Ms} ms and the Webhook node p50 ${single.text.webhookNode.p50Ms} ms: building isolates is most of what a delivery costs n8n there.`,
		}),
		burstGoal({
			id: 'n8n.trigger.burst',
			what: burstWhat(asInstalled),
			bursts: burst,
			limit: TRIGGER_LIMIT,
			why:
				burstRatio(burst) <= TRIGGER_LIMIT
					? 'The trigger acknowledges a delivery only once n8n has stored its execution, as the Webhook node answering on receipt does.'
					: `${isolates} With it the same burst took the trigger ${ratioText(burstRatio(lazy.burst))} the Webhook node's time (next row): the difference is n8n's isolate, not the trigger's own work.`,
		}),
		burstGoal({
			id: 'n8n.trigger.lazy.burst',
			what: burstWhat(lazyWhere),
			bursts: lazy.burst,
			limit: TRIGGER_LIMIT,
			why: `The same burst took the Webhook node ${burst.webhookNode.answeredInS} s and the trigger ${burst.trigger.answeredInS} s in n8n as installed.`,
		}),
		latencyGoal({
			id: 'n8n.trigger.queue.latency',
			what: singleWhat(queueWhere, 'text', queue.asInstalled),
			latency: queue.asInstalled,
			limit: TRIGGER_LIMIT,
			why:
				worstRatio(queue.asInstalled) > TRIGGER_LIMIT
					? withSetting(queue.lazy)
					: "Measured to the execution's end on a worker: the webhook processor answers once the execution is stored and queued, a worker picks it up from Redis.",
		}),
		latencyGoal({
			id: 'n8n.trigger.queue.lazy.latency',
			what: singleWhat(`${queueWhere} with ${setting} on every process`, 'text', queue.lazy),
			latency: queue.lazy,

			why: `In queue mode as installed the same deliveries took the trigger p50 ${queue.asInstalled.trigger.p50Ms} ms and the Webhook node p50 ${queue.asInstalled.webhookNode.p50Ms} ms.`,
		}),
	];
}
