/**
 * Part "n8n" (issue 15, items 2 and 4b): the packed package inside a real n8n 2.41.1 against the
 * gateway simulator. 1,000 Send Text items through our node one at a time, through a minimal node
 * making the same helper calls, and through n8n's HTTP Request node making the identical request;
 * with Simultaneous Chats to 1,000 chats and to one chat (order checked at the simulator); peak
 * RSS of n8n for each; the trigger's delivery → finished-execution latency and a burst against
 * n8n's own Webhook node, in n8n as installed, with lazy isolates and in queue mode
 * (support/trigger-latency.cts); and the latency Combine Rapid Messages adds beyond its silence
 * time (support/combine-rapid.cts).
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import axios from 'axios';
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { createActiveWorkflow, createCredential } from '../test/e2e/e2e-helpers.cts';
import { startN8n } from '../test/e2e/n8n-instance.cts';
import type { N8nInstance } from '../test/e2e/n8n-instance.cts';
import { ACTION_TYPE, CREDENTIAL_TYPE } from '../test/e2e/workflows.cts';
import type { CredentialRef, WorkflowJson } from '../test/e2e/workflows.cts';
import { SEED, startSimulator } from '../test/simulator/index.cts';
import type { Simulator } from '../test/simulator/index.cts';
import { measureCombineRapid } from './support/combine-rapid.cts';
import {
	burstPair,
	DELIVERY_KINDS,
	measureElsewhere,
	pairedLatency,
	triggerGoals,
} from './support/trigger-latency.cts';
import type {
	BurstFigures,
	DeliveryKind,
	LatencyFigures,
	Receiver,
} from './support/trigger-latency.cts';
import type { BenchPart, GoalResult, Stats } from './support/measure.cts';
import { interleaved, ratioGoal, ratioText, round2, stats } from './support/measure.cts';

const SESSION = SEED.instances.connected.name;
const ITEMS = 1_000;
const ONE_CHAT = SEED.contacts.alice.number;
/** The most chats at once the option allows: the setting a user would pick to go fast. */
const SIMULTANEOUS = 50;
const REFERENCE_PACKAGE = 'n8n-nodes-bench-reference';
const REFERENCE_TYPE = `${REFERENCE_PACKAGE}.benchReference`;

/**
 * The floor inside n8n, as a community package: for each item one `httpRequestWithAuthentication`
 * with the same credential, body and expressions as our Send Text, nothing else. Plain JavaScript,
 * so it loads without a build.
 */
const REFERENCE_NODE_SOURCE = `
class BenchReference {
	constructor() {
		this.description = {
			displayName: 'Bench Reference',
			name: 'benchReference',
			group: ['output'],
			version: 1,
			description: 'Sends each item to the gateway with nothing around it',
			defaults: { name: 'Bench Reference' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: '${CREDENTIAL_TYPE}', required: true }],
			properties: [
				{ displayName: 'Number', name: 'number', type: 'string', default: '' },
				{ displayName: 'Text', name: 'text', type: 'string', default: '' },
				{ displayName: 'Hand Over the Credential', name: 'handOver', type: 'boolean', default: true },
				{ displayName: 'With Limits', name: 'limits', type: 'boolean', default: false },
			],
		};
	}
	async execute() {
		const items = this.getInputData();
		const data = await this.getCredentials('${CREDENTIAL_TYPE}');
		const url = data.baseUrl.replace(/\\/+$/, '') + '/message/sendText/${SESSION}';
		// As the package does: the credential read once and handed over with each request. Without
		// it n8n reads (loads and decrypts) the credential again for every request.
		const options = this.getNodeParameter('handOver', 0)
			? { credentialsDecrypted: { id: '', name: '', type: '${CREDENTIAL_TYPE}', data } }
			: undefined;
		const withLimits = this.getNodeParameter('limits', 0);
		const output = [];
		for (let item = 0; item < items.length; item++) {
			const request = {
				method: 'POST',
				url,
				body: { number: this.getNodeParameter('number', item), textMessage: { text: this.getNodeParameter('text', item) } },
				json: true,
			};
			let json;
			if (withLimits) {
				// What the package's transport adds: a deadline for the whole answer, and the answer
				// read as a stream against a size limit, then parsed.
				const response = await this.helpers.httpRequestWithAuthentication.call(this, '${CREDENTIAL_TYPE}', {
					...request,
					encoding: 'stream',
					returnFullResponse: true,
					timeout: 60000,
					abortSignal: AbortSignal.timeout(60000),
				}, options);
				const chunks = [];
				let size = 0;
				for await (const chunk of response.body) {
					size += chunk.length;
					if (size > 64 * 1024 * 1024) throw new Error('answer too large');
					chunks.push(chunk);
				}
				json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
			} else {
				json = await this.helpers.httpRequestWithAuthentication.call(this, '${CREDENTIAL_TYPE}', request, options);
			}
			output.push({ json, pairedItem: { item } });
		}
		return [output];
	}
}
module.exports = { BenchReference };
`;

function installReferencePackage(userFolder: string): void {
	const folder = path.join(userFolder, '.n8n', 'nodes', 'node_modules', REFERENCE_PACKAGE);
	fs.mkdirSync(path.join(folder, 'dist'), { recursive: true });
	fs.writeFileSync(
		path.join(folder, 'package.json'),
		JSON.stringify({
			name: REFERENCE_PACKAGE,
			version: '1.0.0',
			n8n: { n8nNodesApiVersion: 1, nodes: ['dist/BenchReference.node.js'] },
		}),
	);
	fs.writeFileSync(path.join(folder, 'dist', 'BenchReference.node.js'), REFERENCE_NODE_SOURCE);
}

type Variant =
	| 'package'
	| 'reference'
	| 'referenceReadingEachTime'
	| 'referenceWithLimits'
	| 'httpRequest'
	| 'packageManyChats'
	| 'httpRequestManyChats'
	| 'httpRequestManyChatsTwoExpressions'
	| 'packageOneChatSimultaneous';

interface VariantPlan {
	/** The node under test, as it sits in the workflow after the items. */
	node: Omit<INode, 'id' | 'name' | 'position'>;
	manyChats: boolean;
}

function plans(
	credential: CredentialRef,
	gatewayUrl: string,
	apiKey: string,
): Record<Variant, VariantPlan> {
	const credentials = { [CREDENTIAL_TYPE]: credential };
	const ourNode = (options: INodeParameters) => ({
		type: ACTION_TYPE,
		typeVersion: 2,
		credentials,
		parameters: {
			resource: 'message',
			operation: 'sendText',
			session: { __rl: true, mode: 'list', value: SESSION },
			chatId: { __rl: true, mode: 'id', value: '={{ $json.number }}' },
			text: '={{ $json.text }}',
			options,
		},
	});
	const sendUrl = `${gatewayUrl}/message/sendText/${SESSION}`;
	const httpRequestWithUrl = (url: string) => ({
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url,
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'apikey', value: apiKey }] },
			sendBody: true,
			specifyBody: 'json',
			jsonBody:
				'={{ JSON.stringify({ number: $json.number, textMessage: { text: $json.text } }) }}',
			options: {},
		},
	});
	const httpRequest = httpRequestWithUrl(sendUrl);
	const reference = (handOver: boolean, limits = false) => ({
		type: REFERENCE_TYPE,
		typeVersion: 1,
		credentials,
		parameters: { number: '={{ $json.number }}', text: '={{ $json.text }}', handOver, limits },
	});
	return {
		package: { node: ourNode({}), manyChats: false },
		reference: { node: reference(true), manyChats: false },
		referenceReadingEachTime: { node: reference(false), manyChats: false },
		referenceWithLimits: { node: reference(true, true), manyChats: false },
		httpRequest: { node: httpRequest, manyChats: false },
		packageManyChats: { node: ourNode({ simultaneousChats: SIMULTANEOUS }), manyChats: true },
		httpRequestManyChats: { node: httpRequest, manyChats: true },
		// The same request with a second field that is an expression (the URL): what one more
		// expression per item costs, as the package's Chat and Text are two.
		httpRequestManyChatsTwoExpressions: {
			node: httpRequestWithUrl(`={{ ${JSON.stringify(sendUrl)} }}`),
			manyChats: true,
		},
		packageOneChatSimultaneous: {
			node: ourNode({ simultaneousChats: SIMULTANEOUS }),
			manyChats: false,
		},
	};
}

function items(manyChats: boolean): IDataObject[] {
	return Array.from({ length: ITEMS }, (_, index) => ({
		number: manyChats ? String(5511900000000 + index) : ONE_CHAT,
		text: `Order ${index}`,
	}));
}

/** Webhook (answers when the last node is done) → the items → Split Out → the node under test. */
function sendWorkflow(variant: Variant, plan: VariantPlan, webhookPath: string): WorkflowJson {
	const node = (name: string, x: number, rest: Omit<INode, 'id' | 'name' | 'position'>): INode =>
		({ id: randomUUID(), name, position: [x, 0], ...rest }) as INode;
	return {
		name: `Bench: ${variant}`,
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all', saveManualExecutions: true },
		nodes: [
			{
				...node('Start', 0, {
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					parameters: {
						httpMethod: 'POST',
						path: webhookPath,
						responseMode: 'lastNode',
						responseData: 'noData',
						options: {},
					},
				}),
				webhookId: randomUUID(),
			},
			node('Items', 300, {
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				parameters: { mode: 'raw', jsonOutput: JSON.stringify({ items: items(plan.manyChats) }) },
			}),
			node('Split', 600, {
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				parameters: { fieldToSplitOut: 'items' },
			}),
			node('Send', 900, plan.node),
		],
		connections: {
			Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'Split', type: 'main', index: 0 }]] },
			Split: { main: [[{ node: 'Send', type: 'main', index: 0 }]] },
		},
	};
}

/** The resident memory of a process now, in MB. */
function rssMb(pid: number): number {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	const kilobytes = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
	return kilobytes / 1024;
}

/** Runs `work` while sampling the process's RSS every 20 ms; returns the work's result and the peak. */
async function withPeakRss<T>(
	pid: number,
	work: () => Promise<T>,
): Promise<{ result: T; peakMb: number }> {
	let peakMb = rssMb(pid);
	const timer = setInterval(() => {
		peakMb = Math.max(peakMb, rssMb(pid));
	}, 20);
	try {
		const result = await work();
		peakMb = Math.max(peakMb, rssMb(pid));
		return { result, peakMb };
	} finally {
		clearInterval(timer);
	}
}

interface SendRun {
	/** The Send node's own execution time as n8n recorded it. */
	nodeMs: number;
	peakRssMb: number;
}

async function newestExecution(n8n: N8nInstance, workflowId: string): Promise<IDataObject> {
	const response = await n8n.api.get('/executions', {
		params: { workflowId, includeData: true, limit: 1 },
	});
	const [execution] = response.data.data as IDataObject[];
	if (!execution) throw new Error(`No execution of workflow ${workflowId}`);
	return execution;
}

async function runSend(
	n8n: N8nInstance,
	simulator: Simulator,
	variant: Variant,
	plan: VariantPlan,
	workflow: { id: string; url: string },
): Promise<SendRun> {
	simulator.clearLogs();
	const { result, peakMb } = await withPeakRss(n8n.pid, async () =>
		axios.post(workflow.url, {}, { validateStatus: () => true, timeout: 300_000 }),
	);
	if (result.status !== 200) throw new Error(`${variant}: webhook answered ${result.status}`);
	const execution = await newestExecution(n8n, workflow.id);
	type RunData = Record<
		string,
		Array<{ executionTime: number; error?: unknown; data?: { main: unknown[][] } }>
	>;
	const send = (execution.data as { resultData: { runData: RunData } }).resultData.runData
		.Send?.[0];
	const outputs = send?.data?.main[0]?.length ?? 0;
	const sent = simulator.requestsTo('/message/sendText', 'POST');
	if (execution.status !== 'success' || send?.error || outputs !== ITEMS || sent.length !== ITEMS) {
		throw new Error(
			`${variant}: execution ${String(execution.status)}, ${outputs} outputs, ${sent.length} sends at the gateway`,
		);
	}
	if (
		variant === 'packageOneChatSimultaneous' ||
		variant === 'package' ||
		variant === 'reference'
	) {
		const texts = sent.map(
			(request) => ((request.body as IDataObject).textMessage as IDataObject).text,
		);
		const expected = Array.from({ length: ITEMS }, (_, index) => `Order ${index}`);
		if (JSON.stringify(texts) !== JSON.stringify(expected)) {
			throw new Error(`${variant}: the gateway got the messages to one chat out of order`);
		}
	}
	return { nodeMs: send.executionTime, peakRssMb: round2(peakMb) };
}

function msFigures(values: Stats): { minMs: number; medianMs: number } {
	return { minMs: round2(values.min), medianMs: round2(values.median) };
}

export const run: BenchPart = async ({ quick, log }) => {
	// Five rounds: with three, one slow moment of the machine decides a variant's median.
	const rounds = quick ? 1 : 5;
	const deliveries = quick ? 40 : 120;
	const burst = { deliveries: quick ? 200 : 1_000, concurrency: 50 };
	const single = {} as Record<DeliveryKind, Record<Receiver, LatencyFigures>>;
	let defaultBurst: Record<Receiver, BurstFigures> | undefined;
	const simulator = await startSimulator();
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-mg-bench-'));
	installReferencePackage(userFolder);
	let n8n: N8nInstance | undefined;
	const goals: GoalResult[] = [];
	const combineNotes: string[] = [];
	const figures: Record<string, unknown> = {
		items: ITEMS,
		rounds,
		simultaneousChats: SIMULTANEOUS,
	};
	try {
		log('starting n8n 2.41.1 with the packed package and the reference node');
		n8n = await startN8n({
			userFolder,
			env: { N8N_LOG_LEVEL: 'info' },
		});
		const instance = n8n;
		const credential = await createCredential(instance, 'Bench gateway', {
			baseUrl: simulator.url,
			apiKey: simulator.apiKey,
		});
		const workflows = {} as Record<Variant, { id: string; url: string }>;
		const variantPlans = plans(credential, simulator.url, simulator.apiKey);
		for (const [variant, plan] of Object.entries(variantPlans)) {
			const webhookPath = `bench-${variant}-${randomUUID().slice(0, 8)}`;
			const id = await createActiveWorkflow(
				instance,
				sendWorkflow(variant as Variant, plan, webhookPath),
			);
			workflows[variant as Variant] = { id, url: `${instance.url}/webhook/${webhookPath}` };
		}
		const variants = Object.keys(variantPlans) as Variant[];
		const runs = Object.fromEntries(variants.map((variant) => [variant, []])) as unknown as Record<
			Variant,
			SendRun[]
		>;
		const measure = (variant: Variant) => async () => {
			const measured = await runSend(
				instance,
				simulator,
				variant,
				variantPlans[variant],
				workflows[variant],
			);
			runs[variant].push(measured);
			log(
				`${variant}: ${Math.round(measured.nodeMs)} ms, peak RSS ${Math.round(measured.peakRssMb)} MB`,
			);
			return measured.nodeMs;
		};
		log(
			`${ITEMS} Send Text items per run, ${rounds} interleaved rounds of ${variants.length} variants`,
		);
		const timing = await interleaved<Variant>(
			Object.fromEntries(variants.map((variant) => [variant, measure(variant)])) as Record<
				Variant,
				() => Promise<number>
			>,
			rounds,
		);
		// The warm-up round is not in `timing`; its RSS samples are not kept either.
		const peakRss = Object.fromEntries(
			Object.entries(runs).map(([variant, list]) => {
				const recorded = stats(list.slice(-rounds).map((entry) => entry.peakRssMb));
				return [variant, { minMb: round2(recorded.min), medianMb: round2(recorded.median) }];
			}),
		) as Record<Variant, { minMb: number; medianMb: number }>;
		figures.nodeTime = Object.fromEntries(
			Object.entries(timing).map(([variant, values]) => [variant, msFigures(values)]),
		);
		figures.peakRss = peakRss;
		goals.push(
			ratioGoal({
				id: 'n8n.sendText.reference',
				what: `Send Text, ${ITEMS.toLocaleString('en-US')} items to one chat, one at a time, in n8n 2.41.1: package ÷ minimal node with the same helper calls`,
				subject: timing.package,
				baseline: timing.reference,
				limit: 1.05,
				why: `The same minimal node with the transport's limits (a deadline for the whole answer, the answer read as a stream against the 64 MB limit) takes ${Math.round(timing.referenceWithLimits.median)} ms, ${ratioText(timing.referenceWithLimits.median / timing.reference.median)} its bare time; the package takes ${ratioText(timing.package.median / timing.referenceWithLimits.median)} that. The limits keep a hostile or broken gateway from holding n8n or filling its memory; n8n's helpers offer no cheaper way to cap an answer's size.`,
			}),
			{
				id: 'n8n.sendText.credentialReads',
				what: `Where the time went: the same minimal node letting n8n read the credential for each request ÷ handing it over`,
				goal: 'reported',
				measured: `${ratioText(timing.referenceReadingEachTime.median / timing.reference.median)} (${Math.round(timing.referenceReadingEachTime.median)} ms vs ${Math.round(timing.reference.median)} ms)`,
				value: round2(timing.referenceReadingEachTime.median / timing.reference.median),
				met: true,
				why: `n8n loads and decrypts a credential from its database on every read: ${((timing.referenceReadingEachTime.median - timing.reference.median) / ITEMS).toFixed(2)} ms per item here. The package read it twice per item before (its own read and n8n's inside httpRequestWithAuthentication); now once per node run, handed over with each request.`,
			},
			{
				id: 'n8n.sendText.httpRequest',
				what: `Same run: package one at a time ÷ HTTP Request node (all ${ITEMS.toLocaleString('en-US')} requests at once)`,
				goal: 'reported',
				measured: ratioText(timing.package.median / timing.httpRequest.median),
				value: round2(timing.package.median / timing.httpRequest.median),
				met: true,
				why: `One at a time is the default on purpose: a chat's messages must arrive in order and gateways throttle bursts. The HTTP Request node sent all ${ITEMS.toLocaleString('en-US')} at once; with Simultaneous Chats the package sends to different chats side by side.`,
			},
			ratioGoal({
				id: 'n8n.sendText.manyChats',
				what: `Simultaneous Chats ${SIMULTANEOUS}, ${ITEMS.toLocaleString('en-US')} items to ${ITEMS.toLocaleString('en-US')} chats: package ÷ HTTP Request node with as many expression fields (two: its URL and JSON body; the package's Chat and Text)`,
				subject: timing.packageManyChats,
				baseline: timing.httpRequestManyChatsTwoExpressions,
				limit: 1.0,
				why: `n8n 2.41.1 evaluates each expression field in an isolated VM, one item after another in one thread, so sending side by side cannot hide it: it is most of an item's time. The package reads each answer as a stream against its 64 MB limit (the HTTP Request node reads it whole, without a limit); that alone costs per request what the engine row "Where the limits' cost goes" shows. Here the package took ${Math.round(timing.packageManyChats.median)} ms and the HTTP Request node ${Math.round(timing.httpRequestManyChatsTwoExpressions.median)} ms: ${Math.round(((timing.packageManyChats.median - timing.httpRequestManyChatsTwoExpressions.median) * 1000) / ITEMS)} µs per item between them.`,
			}),
			{
				id: 'n8n.sendText.manyChatsOneExpression',
				what: `Same run: package ÷ HTTP Request node with one expression field (its JSON body)`,
				goal: 'reported',
				measured: ratioText(timing.packageManyChats.median / timing.httpRequestManyChats.median),
				value: round2(timing.packageManyChats.median / timing.httpRequestManyChats.median),
				met: true,
				why: `One expression evaluated per item fewer: the HTTP Request node takes ${Math.round(timing.httpRequestManyChats.median)} ms with one and ${Math.round(timing.httpRequestManyChatsTwoExpressions.median)} ms with two.`,
			},
			{
				id: 'n8n.sendText.oneChatSimultaneous',
				what: `Simultaneous Chats ${SIMULTANEOUS}, ${ITEMS.toLocaleString('en-US')} items to one chat: order at the gateway, and ÷ HTTP Request node`,
				goal: 'order kept',
				measured: `in order every run; ${ratioText(timing.packageOneChatSimultaneous.median / timing.httpRequest.median)}`,
				value: round2(timing.packageOneChatSimultaneous.median / timing.httpRequest.median),
				met: true,
				why: 'One chat is one lane: its messages go one after another whatever the setting, so this costs what one at a time costs.',
			},
			{
				id: 'n8n.peakRss',
				what: 'Peak RSS of the n8n process during a run (median)',
				goal: 'reported',
				measured: (Object.keys(peakRss) as Variant[])
					.map((variant) => `${variant} ${Math.round(peakRss[variant].medianMb)} MB`)
					.join(', '),
				met: true,
			},
		);

		log(
			`trigger: ${deliveries} deliveries of each kind one at a time, into the trigger and n8n's Webhook node in turn`,
		);
		const common = { credential, session: SESSION };
		for (const kind of Object.keys(DELIVERY_KINDS) as DeliveryKind[]) {
			single[kind] = await pairedLatency(instance, simulator, { ...common, kind, deliveries });
			log(`trigger: ${kind}: ${JSON.stringify(single[kind])}`);
		}
		log(`trigger: a burst of ${burst.deliveries}, ${burst.concurrency} at a time, into each`);
		defaultBurst = await burstPair(instance, simulator, { ...common, ...burst });
		log(`trigger: burst: ${JSON.stringify(defaultBurst)}`);

		const combine = await measureCombineRapid(instance, { quick, log });
		figures.combineRapid = combine.figures;
		goals.push(...combine.goals);
		combineNotes.push(...combine.notes);
	} finally {
		await n8n?.stop();
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
	try {
		// One n8n at a time on this machine: the others start once the first has stopped.
		const elsewhere = await measureElsewhere(simulator, {
			session: SESSION,
			deliveries,
			burst,
			log,
		});
		figures.trigger = { single, burst: defaultBurst, elsewhere };
		goals.push(...triggerGoals(single, defaultBurst, elsewhere, burst));
	} finally {
		await simulator.stop();
	}
	return {
		id: 'n8n',
		title: 'Real n8n 2.41.1',
		goals,
		figures,
		notes: [
			'n8n 2.41.1 on Node 24 with SQLite, the packed package and a reference community package installed as n8n installs packages; the gateway is the simulator in the bench process.',
			"Each variant is a workflow started by its production webhook (answering when the last node is done); the figure is the Send node's own execution time as n8n records it, so starting the workflow and saving the execution are outside it.",
			'The HTTP Request node sends the identical request (same URL, apikey header and JSON body) as n8n sends it: every item at once.',
			"Peak RSS is sampled every 20 ms from /proc while a run lasts (n8n's main process, which runs the workflows here).",
			"Trigger rows: the same deliveries posted to the trigger (version 2, as the editor adds it) and to n8n's Webhook node answering on receipt, in turn in 4 rounds, one at a time 300 ms apart (so no execution waits for another), timed from posting to the execution's end as n8n records it. After the main n8n stops, one n8n with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true, then n8n in queue mode (PostgreSQL, Redis, main, webhook processor, 2 workers) as installed and with the setting on every process, take the same comparisons.",
			...combineNotes,
		],
	};
};
