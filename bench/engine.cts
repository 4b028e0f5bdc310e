/**
 * Part "engine" (issue 15, item 1): per-item cost of Send Text and of Chat Get Many (Return All
 * over 2,000 chats) in n8n-core's own engine, against a minimal reference node making the same
 * helper calls (`httpRequestWithAuthentication`, the same expressions) and against raw axios with
 * keep-alive, all on one fast fake gateway. The built package (dist/) is measured.
 */
import * as http from 'node:http';

import axios from 'axios';
import type {
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeParameters,
	INodeType,
} from 'n8n-workflow';

import { runNode } from '../test/support/n8n-harness.cts';
import { built, isBuiltFile } from './support/built.cts';
import {
	FAKE_API_KEY,
	FAKE_SESSION,
	sizedSession,
	startFakeGateway,
} from './support/fake-gateway.cts';
import { profiledShare } from './support/cpu-profile.cts';
import { streamCost } from './support/stream-cost.cts';
import type { AnswerReading } from './support/stream-cost.cts';
import type { FakeGateway, FakeRoute, KeyHeader, SizedAs } from './support/fake-gateway.cts';
import type { BenchPart, GoalResult, Stats } from './support/measure.cts';
import { elapsedMs, interleaved, ratioGoal, ratioText, round2, stats } from './support/measure.cts';

const CHAT_COUNT = 2_000;
const OUR_TYPE = 'n8n-nodes-messaging-gateway.messagingGateway';
const REFERENCE_TYPE = 'bench.reference';
const CREDENTIAL_TYPE = 'messagingGatewayApi';

/**
 * The floor inside n8n: what any node sending these requests must do, and nothing else (no
 * validation, no error shaping, no limits), with the same helper calls as the package: the
 * credential read once, handed to `httpRequestWithAuthentication` with each request.
 */
export function referenceNode(): INodeType {
	return {
		description: {
			displayName: 'Reference',
			name: 'reference',
			group: ['output'],
			version: 1,
			description: 'The same requests with nothing around them',
			defaults: { name: 'Reference' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [
				{ displayName: 'Operation', name: 'operation', type: 'string', default: 'sendText' },
				{ displayName: 'Number', name: 'number', type: 'string', default: '' },
				{ displayName: 'Text', name: 'text', type: 'string', default: '' },
				{ displayName: 'With Limits', name: 'limits', type: 'boolean', default: false },
			],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const items = this.getInputData();
			const data = await this.getCredentials(CREDENTIAL_TYPE);
			const baseUrl = String(data.baseUrl);
			// The credential goes with each request, as the package does, so n8n does not read it again.
			const credentialsDecrypted = { id: '', name: '', type: CREDENTIAL_TYPE, data };
			const withLimits = this.getNodeParameter('limits', 0) === true;
			const send = async (request: IHttpRequestOptions): Promise<unknown> => {
				if (!withLimits) {
					return await this.helpers.httpRequestWithAuthentication.call(
						this,
						CREDENTIAL_TYPE,
						request,
						{
							credentialsDecrypted,
						},
					);
				}
				// What the package's transport adds to each request: a deadline for the whole answer
				// and the answer read as a stream against a size limit, then parsed.
				const response = (await this.helpers.httpRequestWithAuthentication.call(
					this,
					CREDENTIAL_TYPE,
					{
						...request,
						encoding: 'stream',
						returnFullResponse: true,
						timeout: 60_000,
						abortSignal: AbortSignal.timeout(60_000),
					},
					{ credentialsDecrypted },
				)) as { body: NodeJS.ReadableStream };
				const chunks: Buffer[] = [];
				let size = 0;
				for await (const chunk of response.body) {
					size += (chunk as Buffer).length;
					if (size > 64 * 1024 * 1024) throw new Error('answer too large');
					chunks.push(chunk as Buffer);
				}
				return JSON.parse(Buffer.concat(chunks).toString('utf8'));
			};
			const output: INodeExecutionData[] = [];
			for (let item = 0; item < items.length; item++) {
				if (this.getNodeParameter('operation', item) === 'sendText') {
					const json = (await send({
						method: 'POST',
						url: `${baseUrl}/message/sendText/${FAKE_SESSION}`,
						body: {
							number: this.getNodeParameter('number', item),
							textMessage: { text: this.getNodeParameter('text', item) },
						},
						json: true,
					})) as IDataObject;
					output.push({ json, pairedItem: { item } });
					continue;
				}
				for (let offset = 0; ; offset += 20) {
					const page = (await send({
						method: 'GET',
						url: `${baseUrl}/api/${FAKE_SESSION}/chats/overview`,
						qs: { limit: 20, offset },
						json: true,
					})) as IDataObject[];
					for (const json of page) output.push({ json, pairedItem: { item } });
					if (page.length < 20) break;
				}
			}
			return [output];
		},
	};
}

function sendTextItems(count: number): INodeExecutionData[] {
	return Array.from({ length: count }, (_, index) => ({
		json: { number: String(5511900000000 + (index % 500)), text: `Order ${index} is ready` },
	}));
}

const OUR_PARAMETERS: Record<'sendText' | 'getMany', INodeParameters> = {
	sendText: {
		resource: 'message',
		operation: 'sendText',
		session: FAKE_SESSION,
		chatId: { __rl: true, mode: 'id', value: '={{ $json.number }}' },
		text: '={{ $json.text }}',
	},
	getMany: { resource: 'chat', operation: 'getMany', session: FAKE_SESSION, returnAll: true },
};

const REFERENCE_PARAMETERS: Record<'sendText' | 'getMany', INodeParameters> = {
	sendText: { operation: 'sendText', number: '={{ $json.number }}', text: '={{ $json.text }}' },
	getMany: { operation: 'getMany' },
};

type Variant = 'package' | 'reference' | 'axios';
/** The variants timeVariant runs; the one with limits only explains a gap at 1,000 items. */
type AnyVariant = Variant | 'referenceWithLimits';
type Operation = 'sendText' | 'getMany';

/**
 * The credential's Gateway choices Send Text is timed on: the credential's extra fields, where the
 * fake gateway must see each request (route and key header), and what each sends and gets back.
 * The spec's is the credential every other row uses (no Gateway field: the default).
 */
const GATEWAYS = {
	spec: {
		label: "the spec's gateway",
		credential: {},
		route: 'spec.sendText',
		header: 'apikey',
		sends:
			"POST /message/sendText/{session} with Evolution API v1's body {number, textMessage: {text}}, answered with the sent message's key and content",
	},
	evolutionV2: {
		label: 'Evolution API v2',
		credential: { gateway: 'evolutionV2' },
		route: 'evolutionV2.sendText',
		header: 'apikey',
		sends:
			"the same route with v2's flat body {number, text}, rebuilt from the spec's per request, answered with the stored message (about 1.4× the spec's answer)",
	},
	waha: {
		label: 'WAHA',
		credential: { gateway: 'waha' },
		route: 'waha.sendText',
		header: 'x-api-key',
		sends:
			"POST /api/sendText with {session, chatId, text} (a fixed path: no session to encode into it), the key in X-Api-Key, answered with a WAMessage about twice the spec's answer (the engine's message in _data), its full message ID read from `id`",
	},
} satisfies Record<
	string,
	{ label: string; credential: IDataObject; route: FakeRoute; header: KeyHeader; sends: string }
>;
type GatewayChoice = keyof typeof GATEWAYS;

interface Harness {
	gateway: FakeGateway;
	ourNode: INodeType;
	credentialType: ICredentialType;
}

interface RunOptions {
	/** The credential's Gateway (the spec's when not given); only the package speaks the others. */
	gateway?: GatewayChoice;
	/** The session sent to (the bench's own when not given): a sized session picks the fake's answer. */
	session?: string;
	/** Receives the outputs of an n8n run, to hold them. */
	keep?: (outputs: INodeExecutionData[][]) => void;
}

/** One run of a variant: milliseconds, the items it produced, and why n8n failed it, if it did. */
interface Run {
	took: number;
	produced: number;
	failure?: string;
}

/** The same requests with raw axios and keep-alive, outside n8n (the spec's gateway only). */
async function runAxios(
	harness: Harness,
	operation: Operation,
	items: INodeExecutionData[],
	agent: http.Agent,
): Promise<Run> {
	const client = axios.create({
		baseURL: harness.gateway.baseUrl,
		headers: { apikey: FAKE_API_KEY },
		httpAgent: agent,
	});
	const start = process.hrtime.bigint();
	let produced = 0;
	for (const item of items) {
		if (operation === 'sendText') {
			await client.post(`/message/sendText/${FAKE_SESSION}`, {
				number: item.json.number,
				textMessage: { text: item.json.text },
			});
			produced++;
			continue;
		}
		for (let offset = 0; ; offset += 20) {
			const { data } = await client.get<IDataObject[]>(`/api/${FAKE_SESSION}/chats/overview`, {
				params: { limit: 20, offset },
			});
			produced += data.length;
			if (data.length < 20) break;
		}
	}
	return { took: elapsedMs(start), produced };
}

/** One run of the package or the reference node in n8n-core, with the chosen gateway's credential. */
async function runInN8n(
	harness: Harness,
	variant: Exclude<AnyVariant, 'axios'>,
	operation: Operation,
	items: INodeExecutionData[],
	{ gateway = 'spec', session, keep }: RunOptions,
): Promise<Run> {
	const ours = variant === 'package';
	const start = process.hrtime.bigint();
	const result = await runNode({
		nodeTypes: { [ours ? OUR_TYPE : REFERENCE_TYPE]: ours ? harness.ourNode : referenceNode() },
		credentialTypes: { [CREDENTIAL_TYPE]: harness.credentialType },
		credentials: {
			[CREDENTIAL_TYPE]: {
				baseUrl: harness.gateway.baseUrl,
				apiKey: FAKE_API_KEY,
				...GATEWAYS[gateway].credential,
			},
		},
		type: ours ? OUR_TYPE : REFERENCE_TYPE,
		parameters: ours
			? { ...OUR_PARAMETERS[operation], ...(session === undefined ? {} : { session }) }
			: { ...REFERENCE_PARAMETERS[operation], limits: variant === 'referenceWithLimits' },
		items,
	});
	const took = elapsedMs(start);
	keep?.(result.outputs);
	return {
		took,
		produced: result.outputs[0]?.length ?? 0,
		...(result.status === 'success'
			? {}
			: { failure: `status ${result.status}: ${result.error?.message ?? ''}` }),
	};
}

/**
 * Runs one variant over `items` and returns milliseconds. Checks the output count, and that every
 * request went to the chosen gateway's route with its key header (one per item for Send Text), so
 * a broken or misrouted run cannot pass as fast.
 */
async function timeVariant(
	harness: Harness,
	variant: AnyVariant,
	operation: Operation,
	items: INodeExecutionData[],
	agent: http.Agent,
	options: RunOptions = {},
): Promise<number> {
	const expected = operation === 'sendText' ? items.length : items.length * CHAT_COUNT;
	const { route, header } =
		operation === 'sendText'
			? GATEWAYS[options.gateway ?? 'spec']
			: { route: 'chatsOverview' as const, header: 'apikey' as const };
	const fake = harness.gateway;
	const before = { all: fake.requests(), routed: fake.answered(route, header) };
	const run =
		variant === 'axios'
			? await runAxios(harness, operation, items, agent)
			: await runInN8n(harness, variant, operation, items, options);
	const all = fake.requests() - before.all;
	const routed = fake.answered(route, header) - before.routed;
	const misrouted = routed !== all || (operation === 'sendText' && routed !== items.length);
	if (run.failure || run.produced !== expected || misrouted) {
		throw new Error(
			`${variant} ${operation}${options.gateway ? ` on ${options.gateway}` : ''}: ${run.produced} items (expected ${expected}), ${routed} of ${all} requests to ${route} with ${header}${run.failure ? `; ${run.failure}` : ''}`,
		);
	}
	return run.took;
}

/** Min and median per variant, rounded, as the figures keep them (in the unit measured). */
function minAndMedian(
	byVariant: Record<string, Stats>,
): Record<string, { min: number; median: number }> {
	return Object.fromEntries(
		Object.entries(byVariant).map(([variant, stats]) => [
			variant,
			{ min: round2(stats.min), median: round2(stats.median) },
		]),
	);
}

function perItem(stats: Stats, items: number): Stats {
	const scale = (value: number) => value / items;
	return {
		min: scale(stats.min),
		median: scale(stats.median),
		max: scale(stats.max),
		samples: stats.samples.map(scale),
	};
}

function microseconds(stats: Stats): { minUs: number; medianUs: number } {
	return { minUs: round2(stats.min * 1000), medianUs: round2(stats.median * 1000) };
}

/**
 * Bytes held per output item: the heap after a run whose outputs are kept, minus the heap once they
 * are dropped (both after a full GC), so caches the engine builds on its first run do not count.
 */
async function retainedBytesPerItem(
	harness: Harness,
	variant: Exclude<Variant, 'axios'>,
	items: INodeExecutionData[],
	agent: http.Agent,
): Promise<number | undefined> {
	const collect = (globalThis as { gc?: () => void }).gc;
	if (!collect) return undefined;
	let kept: INodeExecutionData[][] = [];
	await timeVariant(harness, variant, 'sendText', items, agent, {
		keep: (outputs) => (kept = outputs),
	});
	collect();
	const holding = process.memoryUsage().heapUsed;
	const count = kept[0]?.length ?? 0;
	kept = [];
	collect();
	const released = process.memoryUsage().heapUsed;
	return count > 0 ? Math.round((holding - released) / count) : undefined;
}

/**
 * What picking the credential's gateway costs Send Text per request, two ways:
 * - the package's own code per request on each gateway, under V8's profiler in the same runs (the
 *   goal: a share within a run, which the machine's noise between runs does not move);
 * - each gateway's run end to end, against the spec's gateway, beside two controls: the spec's
 *   gateway timed again (the figure's own noise), and the spec's gateway answering with each other
 *   gateway's fields besides its own (how much of a gap is the larger answer, not the package).
 */
async function gatewayChoice(
	harness: Harness,
	items: INodeExecutionData[],
	agent: http.Agent,
	rounds: number,
	log: (line: string) => void,
): Promise<{
	goals: GoalResult[];
	figures: Record<string, unknown>;
	/** The package's own code per request on the spec's gateway, and the request's whole time, under the profiler. */
	specOwnCode: { ownCodeUs: number; requestUs: number };
}> {
	const choices = Object.keys(GATEWAYS) as GatewayChoice[];
	const others = choices.filter((gateway): gateway is SizedAs => gateway !== 'spec');
	const send = (options: RunOptions) => () =>
		timeVariant(harness, 'package', 'sendText', items, agent, options);
	const perRequestUs = (ms: number) => (ms * 1000) / items.length;

	log(`Send Text, ${items.length} items on each gateway under the profiler, ${rounds} rounds`);
	const profiledTotals: number[] = [];
	const ownCode = await interleaved(
		Object.fromEntries(
			choices.map((gateway) => [
				gateway,
				async () => {
					const profiled = await profiledShare(send({ gateway }), isBuiltFile);
					if (gateway === 'spec') profiledTotals.push(profiled.totalMs);
					return perRequestUs(profiled.chosenMs);
				},
			]),
		) as Record<GatewayChoice, () => Promise<number>>,
		rounds,
	);
	const specRequestUs = perRequestUs(stats(profiledTotals).median);
	const ownRatio = (gateway: GatewayChoice) =>
		(specRequestUs + ownCode[gateway].median - ownCode.spec.median) / specRequestUs;
	const costliest = others.reduce((a, b) => (ownRatio(b) > ownRatio(a) ? b : a));

	// A 2% difference end to end needs more rounds than the others for its median to show.
	const endToEndRounds = rounds * 2;
	log(
		`Send Text, ${items.length} items on each gateway end to end, with its controls, ${endToEndRounds} rounds`,
	);
	const sized = (gateway: SizedAs) => `${gateway}Sized` as const;
	const endToEnd = await interleaved(
		{
			...Object.fromEntries(choices.map((gateway) => [gateway, send({ gateway })])),
			specAgain: send({}),
			...Object.fromEntries(
				others.map((gateway) => [sized(gateway), send({ session: sizedSession(gateway) })]),
			),
		} as Record<GatewayChoice | 'specAgain' | ReturnType<typeof sized>, () => Promise<number>>,
		endToEndRounds,
	);
	const overSpec = (variant: Stats) => variant.median / endToEnd.spec.median;
	const us = (value: number) => `${round2(value)} µs`;
	return {
		specOwnCode: { ownCodeUs: ownCode.spec.median, requestUs: specRequestUs },
		figures: {
			gatewayChoiceOwnCodeUs: minAndMedian(ownCode),
			gatewayChoiceProfiledRequestUs: round2(specRequestUs),
			gatewayChoiceMs: minAndMedian(endToEnd),
		},
		goals: [
			{
				id: 'engine.gatewayChoice',
				what: `Send Text, ${items.length.toLocaleString('en-US')} items in n8n-core: a request on the costlier of ${others.map((gateway) => GATEWAYS[gateway].label).join(' and ')} ÷ on ${GATEWAYS.spec.label}, counting what the package's own code takes more (V8's profiler, the same runs)`,
				goal: '≤ 1.02×',
				measured: `${ratioText(ownRatio(costliest))}: the package's code ${choices.map((gateway) => `${us(ownCode[gateway].median)} on ${GATEWAYS[gateway].label}`).join(', ')}, of ${us(specRequestUs)} per request`,
				value: round2(ownRatio(costliest)),
				met: ownRatio(costliest) <= 1.02,
				why: `The gateway is picked once per run and each request built in that gateway's own words: ${others.map((gateway) => `${GATEWAYS[gateway].label}: ${GATEWAYS[gateway].sends}`).join('; ')}; against ${GATEWAYS.spec.label}: ${GATEWAYS.spec.sends}. Each run is profiled (a sample every 100 µs) and the samples in the package's built files counted, so the figure is a share within runs (the request's time is the spec's under the profiler). End to end (next row) ${GATEWAYS.spec.label} timed against itself measured ${ratioText(overSpec(endToEnd.specAgain))}: the noise a ratio between runs carries, beside a 2% goal.`,
			},
			{
				id: 'engine.gatewayChoice.endToEnd',
				what: `Send Text, ${items.length.toLocaleString('en-US')} items in n8n-core end to end: each other gateway ÷ ${GATEWAYS.spec.label}`,
				goal: 'reported',
				measured: `${others.map((gateway) => `${GATEWAYS[gateway].label} ${ratioText(overSpec(endToEnd[gateway]))}`).join(', ')}; ${GATEWAYS.spec.label} against itself ${ratioText(overSpec(endToEnd.specAgain))}`,
				value: round2(Math.max(...others.map((gateway) => overSpec(endToEnd[gateway])))),
				met: true,
				why: `${GATEWAYS.spec.label} timed twice in the same rounds differs by ${ratioText(overSpec(endToEnd.specAgain))}: this figure's noise, over ${endToEndRounds} rounds. The other gateways answer with more than the spec's: ${others.map((gateway) => `${GATEWAYS.spec.label} answering with ${GATEWAYS[gateway].label}'s fields besides its own takes ${ratioText(overSpec(endToEnd[sized(gateway)]))}`).join(', ')}, with no other difference: n8n's client, the engine and the output carry the larger answer.`,
			},
		],
	};
}

export const run: BenchPart = async ({ quick, log }) => {
	const gateway = await startFakeGateway(CHAT_COUNT);
	const agent = new http.Agent({ keepAlive: true });
	const harness: Harness = {
		gateway,
		ourNode: built<INodeType>(
			'nodes/MessagingGateway/MessagingGateway.node.js',
			'MessagingGateway',
		),
		credentialType: built<ICredentialType>(
			'credentials/MessagingGatewayApi.credentials.js',
			'MessagingGatewayApi',
		),
	};
	const rounds = quick ? 3 : 7;
	const sizes = quick ? [100, 1_000] : [100, 1_000, 10_000];
	const goals: GoalResult[] = [];
	const figures: Record<string, unknown> = { chatRecords: CHAT_COUNT, rounds, sizes };
	try {
		// V8 optimizes the code of every variant over its first thousands of calls: each is warm before
		// any size is timed, so the smallest size, measured first, does not pay for that alone.
		log('Send Text, 1,000 items per variant twice, to warm up (not measured)');
		const warmUp = sendTextItems(1_000);
		for (let pass = 0; pass < 2; pass++) {
			for (const variant of ['package', 'reference', 'axios'] as const) {
				await timeVariant(harness, variant, 'sendText', warmUp, agent);
			}
		}
		const perSize: Record<number, Record<Variant, Stats>> = {};
		for (const size of sizes) {
			const items = sendTextItems(size);
			// Fewer rounds for 10,000 items (each takes seconds), more for 100 (a run's fixed cost and
			// its noise weigh most there): the median is what counts.
			const sizeRounds =
				size >= 10_000 ? Math.max(3, Math.ceil(rounds / 2)) : size <= 100 ? rounds * 3 : rounds;
			log(`Send Text, ${size} items, ${sizeRounds} rounds`);
			const measured = await interleaved<Variant>(
				{
					package: () => timeVariant(harness, 'package', 'sendText', items, agent),
					reference: () => timeVariant(harness, 'reference', 'sendText', items, agent),
					axios: () => timeVariant(harness, 'axios', 'sendText', items, agent),
				},
				sizeRounds,
			);
			perSize[size] = {
				package: perItem(measured.package, size),
				reference: perItem(measured.reference, size),
				axios: perItem(measured.axios, size),
			};
		}
		figures.sendTextPerItem = Object.fromEntries(
			Object.entries(perSize).map(([size, byVariant]) => [
				size,
				Object.fromEntries(
					Object.entries(byVariant).map(([variant, stats]) => [variant, microseconds(stats)]),
				),
			]),
		);
		const at1000 = perSize[1_000];
		// Where a gap to the reference comes from: the same reference with the transport's limits.
		const thousand = sendTextItems(1_000);
		log(`Send Text, 1,000 items: package against the reference with the transport's limits`);
		const limits = await interleaved(
			{
				package: () => timeVariant(harness, 'package', 'sendText', thousand, agent),
				referenceWithLimits: () =>
					timeVariant(harness, 'referenceWithLimits', 'sendText', thousand, agent),
				reference: () => timeVariant(harness, 'reference', 'sendText', thousand, agent),
			},
			rounds,
		);
		figures.sendTextLimitsMs = minAndMedian(limits);
		const limitsShare = limits.referenceWithLimits.median / limits.reference.median;
		const ownShare = limits.package.median / limits.referenceWithLimits.median;
		// Where the limits' cost goes: n8n's own HTTP client alone, the answer buffered or streamed.
		log(`a streamed answer in n8n's own HTTP client, alone, against a buffered one`);
		const reading = await streamCost(gateway.baseUrl, 2_000, rounds);
		const readingUs = Object.fromEntries(
			Object.entries(reading.perRequestUs).map(([way, values]) => [way, round2(values.median)]),
		) as Record<AnswerReading, number>;
		figures.answerReadingUs = { axios: reading.axiosVersion, ...readingUs };
		const streamExtraUs = readingUs.streamed - readingUs.buffered;
		const wrapUs = readingUs.streamed - readingUs.streamedUnwrapped;
		const perItemUs = at1000.reference.median * 1000;
		const answerReadingGoal: GoalResult = {
			id: 'engine.answerReading',
			what: `Where the limits' cost goes: a Send Text answer streamed through n8n's own HTTP client (axios ${reading.axiosVersion}) as n8n's helpers stream it, alone, per request, against the same answer buffered`,
			goal: 'reported',
			measured: `+${round2(streamExtraUs)} µs per request (streamed ${readingUs.streamed} µs, buffered ${readingUs.buffered} µs), ${ratioText((perItemUs + streamExtraUs) / perItemUs)} of the reference's ${round2(perItemUs)} µs per item`,
			value: round2(streamExtraUs),
			met: true,
			why: `n8n's helpers pass axios maxContentLength Infinity, and axios then wraps every streamed answer in an async generator that counts its bytes against that limit: ${round2(wrapUs)} µs of the difference (streamed without the wrap: ${readingUs.streamedUnwrapped} µs). A buffered answer has no size limit in n8n's helpers (the same Infinity), so a gateway could fill n8n's memory; streaming it is the only way to stop at 64 MB.`,
		};
		// Measured here (its rows follow later): the package's own share of a request explains this gap.
		const choice = await gatewayChoice(harness, thousand, agent, rounds, log);
		const { ownCodeUs, requestUs } = choice.specOwnCode;
		goals.push(
			ratioGoal({
				id: 'engine.sendText.reference',
				what: 'Send Text, 1,000 items in n8n-core: package ÷ minimal reference node',
				subject: at1000.package,
				baseline: at1000.reference,
				limit: 1.05,
				why: `The reference sent with the transport's limits (a deadline for the whole answer, the answer read as a stream against the 64 MB limit) is ${ratioText(limitsShare)} the bare reference; the package is ${ratioText(ownShare)} that reference. The limits are what keeps a hostile or broken gateway from holding or filling n8n's memory; reading the answer as a stream, the only way n8n's helpers allow to stop at a size, costs ${round2(streamExtraUs)} µs per request in n8n's own HTTP client alone (next row). The package's own code (reading and checking the fields, the gateway's words, the answer's checks and the output) takes ${round2(ownCodeUs)} µs of a ${round2(requestUs)} µs request under V8's profiler (${((ownCodeUs / requestUs) * 100).toFixed(1)}%; the gateway choice's row).`,
			}),
		);
		goals.push(answerReadingGoal);
		const axiosRatio = at1000.package.median / at1000.axios.median;
		goals.push({
			id: 'engine.sendText.axios',
			what: 'Send Text, 1,000 items: package ÷ raw axios with keep-alive',
			goal: 'reported',
			measured: ratioText(axiosRatio),
			value: round2(axiosRatio),
			met: true,
			why: `Raw axios runs outside n8n: no engine, no expressions, no credential helper. The reference node inside n8n is ${ratioText(at1000.reference.median / at1000.axios.median)} raw axios, so that much is n8n's own share.`,
		});
		// A run has a fixed cost (n8n's engine starts, the credential is read) that 100 items share
		// and 10,000 hardly feel: per-item cost is what each further item adds.
		const singleItem = sendTextItems(1);
		const fixed = await interleaved(
			{
				package: () => timeVariant(harness, 'package', 'sendText', singleItem, agent),
				reference: () => timeVariant(harness, 'reference', 'sendText', singleItem, agent),
			},
			rounds * 3,
		);
		const marginalOf = (variant: 'package' | 'reference', size: number) =>
			(perSize[size][variant].median * size - fixed[variant].median) / (size - 1);
		const marginal = (size: number) => marginalOf('package', size);
		// The minimal reference node in the same rounds: what its further items cost at each size.
		const referenceSpread = sizes.map(
			(size) => marginalOf('reference', size) / marginalOf('reference', 1_000),
		);
		const spreadText = (values: number[]) =>
			sizes
				.map((size, index) => `${size.toLocaleString('en-US')}: ${ratioText(values[index])}`)
				.join(', ');
		figures.sendTextFixedMs = round2(fixed.package.median);
		figures.sendTextReferenceFixedMs = round2(fixed.reference.median);
		figures.sendTextMarginalUs = Object.fromEntries(
			sizes.map((size) => [size, round2(marginal(size) * 1000)]),
		);
		const spread = sizes.map((size) => marginal(size) / marginal(1_000));
		const worstIndex = spread.reduce(
			(at, value, index) => (Math.abs(value - 1) > Math.abs(spread[at] - 1) ? index : at),
			0,
		);
		const worst = spread[worstIndex];
		const worstSize = sizes[worstIndex];
		const referenceAtWorst = referenceSpread[worstIndex];
		goals.push({
			id: 'engine.sendText.flat',
			what: `Send Text cost per further item from ${sizes[0].toLocaleString('en-US')} to ${sizes[sizes.length - 1].toLocaleString('en-US')} items, against 1,000 (a run's fixed cost apart)`,
			goal: 'within ±10%',
			measured: spreadText(spread),
			value: round2(worst),
			met: Math.abs(worst - 1) <= 0.1,
			why: `A further item costs the run's time less a one-item run's (${round2(fixed.package.median)} ms), over the items after the first. Each size is timed in its own block of rounds, so a slower or faster moment of the machine during a block moves that size for every variant; the minimal reference node, timed the same way in the same blocks: ${spreadText(referenceSpread)} (at ${worstSize.toLocaleString('en-US')} items ${ratioText(referenceAtWorst)} against the package's ${ratioText(worst)}). Nothing in the package grows with the number of items (outputs are collected once, in order).`,
		});

		goals.push(...choice.goals);
		Object.assign(figures, choice.figures);

		// A run takes tens of milliseconds, where one slow moment of the machine weighs much: more rounds.
		const getManyRounds = rounds * 5;
		log(`Chat Get Many, Return All over ${CHAT_COUNT} chats, ${getManyRounds} rounds`);
		const oneItem = [{ json: {} }];
		const getManyOf = (variant: AnyVariant) => () =>
			timeVariant(harness, variant, 'getMany', oneItem, agent);
		const getMany = await interleaved<Variant>(
			{
				package: getManyOf('package'),
				reference: getManyOf('reference'),
				axios: getManyOf('axios'),
			},
			getManyRounds,
		);
		figures.getManyMs = minAndMedian(getMany);
		// The package's own share of those pages, counted by the profiler as for the gateway choice.
		const getManyShares: number[] = [];
		for (let round = 0; round < rounds; round++) {
			const profiled = await profiledShare(getManyOf('package'), isBuiltFile);
			getManyShares.push(profiled.chosenMs / profiled.totalMs);
		}
		const getManyOwn = stats(getManyShares);
		goals.push(
			ratioGoal({
				id: 'engine.getMany.reference',
				what: `Chat Get Many, Return All over ${CHAT_COUNT.toLocaleString('en-US')} chats (100 pages): package ÷ reference node`,
				subject: getMany.package,
				baseline: getMany.reference,
				limit: 1.05,
				why: `100 requests, each with the transport's limits (with them the reference's Send Text takes ${ratioText(limitsShare)} its bare time), plus a check per page that the gateway did not send the same page again. The package's own code takes ${(getManyOwn.median * 100).toFixed(1)}% of its run under V8's profiler (median of ${rounds} runs).`,
			}),
		);

		const heapItems = sendTextItems(quick ? 1_000 : 5_000);
		const retained = {
			package: await retainedBytesPerItem(harness, 'package', heapItems, agent),
			reference: await retainedBytesPerItem(harness, 'reference', heapItems, agent),
		};
		figures.retainedBytesPerItem = retained;
		goals.push({
			id: 'engine.sendText.heap',
			what: 'Heap retained per Send Text output item (kept outputs, after GC)',
			goal: 'reported',
			measured:
				retained.package === undefined || retained.reference === undefined
					? 'not measured (run without --expose-gc)'
					: `${retained.package} B (reference node ${retained.reference} B)`,
			met: true,
			why: 'An output item holds the gateway answer plus the full message ID; the reference node keeps the bare answer.',
		});
	} finally {
		agent.destroy();
		await gateway.close();
	}
	return {
		id: 'engine',
		title: "n8n's engine, per item",
		goals,
		figures,
		notes: [
			`n8n-core ${require('n8n-core/package.json').version}'s WorkflowExecute runs an input node and the node under test; the fake gateway answers from memory on loopback.`,
			'The reference node reads the credential once and calls httpRequestWithAuthentication per request with the same expressions; raw axios sends the same requests with a keep-alive agent.',
			`Interleaved rounds (one warm-up round unrecorded); per-item figures are medians of ${rounds} rounds (fewer for 10,000 items).`,
		],
	};
};
