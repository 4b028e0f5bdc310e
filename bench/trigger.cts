/**
 * Bench part "trigger" (issue 15, item 4, in-process half): the cost of the built trigger's
 * webhook() per event, for a typical delivery (a text message from a contact, Message Received,
 * Simplify on, default filters, the token of a real registration), against a trivial trigger that
 * returns the body, both called in the same n8n-core WebhookContext with the same request.
 * Two figures: our own logic per event (ours minus a trigger that makes only the calls into n8n
 * ours makes), whose goal is ≤ 2 µs, and ours minus the trivial trigger with everything included,
 * reported with the share of n8n's own calls (parameter reads, credential, static data) that any
 * trigger with these settings makes. A third figure: what remembering deliveries (issue 33) costs
 * per delivery, the delivery memory's work alone (support/delivery-memory-cost.cts).
 */
import * as fs from 'node:fs';

import type { IDataObject, INodeType, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import * as ts from 'typescript';

import type { MessagingGatewayTrigger } from '../nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node';
import type * as CheckedDeliveryModule from '../nodes/MessagingGatewayTrigger/checked-delivery';
import type * as DeliveryMemoryModule from '../nodes/MessagingGatewayTrigger/delivery-memory';
import type * as SettingsModule from '../nodes/MessagingGatewayTrigger/settings';
import type {
	OurRegistration,
	SessionState,
} from '../nodes/MessagingGatewayTrigger/webhook/registration';
import { built, builtModule } from './support/built.cts';
import { deliveryMemoryCost } from './support/delivery-memory-cost.cts';
import { severalSessionsCost } from './support/several-sessions-cost.cts';
import type { Webhook } from './support/webhook-timing.cts';
import { microsecondsPerEvent, newMessageId, silentResponse } from './support/webhook-timing.cts';
import type * as TriggerHarnessModule from '../test/support/trigger-harness.cts';
import type { TriggerHarness, WebhookRequest } from '../test/support/trigger-harness.cts';
import type * as SimulatorModule from '../test/simulator/index.cts';
import type { BenchPart, GoalResult, PartResult } from './support/measure.cts';
import { interleaved, microsecondsText, round2, roundedStats } from './support/measure.cts';

const GOAL_MICROSECONDS = 2;

/** The trivial trigger: what any webhook trigger must do at least (hand the body on). */
const trivialTrigger: Pick<INodeType, 'webhook'> = {
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return { workflowData: [[{ json: this.getBodyData() }]] };
	},
};

/**
 * The trigger harness imports the trigger's TypeScript sources (ts-jest compiles them in tests);
 * outside jest they are compiled on load, the way test/support/run-ts.js compiles .cts files.
 * The figures come from the build in dist/ all the same: the harness is handed that build.
 */
function compileTypeScriptOnLoad(): void {
	const extensions = require.extensions as Record<
		string,
		(module: NodeJS.Module, filename: string) => void
	>;
	if (extensions['.ts']) return;
	extensions['.ts'] = (module, filename) => {
		const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
			fileName: filename,
			compilerOptions: {
				module: ts.ModuleKind.CommonJS,
				target: ts.ScriptTarget.ES2022,
				esModuleInterop: true,
			},
		});
		(module as unknown as { _compile(code: string, filename: string): void })._compile(
			outputText,
			filename,
		);
	};
}

/** One call our webhook() made into n8n (a method of the context), with its arguments. */
interface ContextCall {
	name: string;
	args: unknown[];
}

/** The public methods of a context (n8n's side), by name. */
function contextMethods(context: IWebhookFunctions): string[] {
	const names = new Set<string>();
	for (
		let proto: object | null = context;
		proto && proto !== Object.prototype;
		proto = Object.getPrototypeOf(proto) as object | null
	) {
		for (const name of Object.getOwnPropertyNames(proto)) {
			const descriptor = Object.getOwnPropertyDescriptor(proto, name);
			const isPublic = name !== 'constructor' && !name.startsWith('_');
			if (isPublic && typeof descriptor?.value === 'function') names.add(name);
		}
	}
	return [...names];
}

/**
 * Records the calls one event of `webhook` makes into n8n: every public method of the context is
 * wrapped; only outermost calls count (n8n's methods call each other).
 */
async function recordCalls(webhook: Webhook, context: IWebhookFunctions): Promise<ContextCall[]> {
	const calls: ContextCall[] = [];
	const target = context as unknown as Record<string, (...args: unknown[]) => unknown>;
	let depth = 0;
	for (const name of contextMethods(context)) {
		const original = target[name];
		target[name] = function (this: unknown, ...args: unknown[]) {
			if (depth === 0) calls.push({ name, args });
			depth++;
			try {
				return original.apply(this, args);
			} finally {
				depth--;
			}
		};
	}
	await webhook.call(context);
	return calls;
}

/**
 * A trigger that makes the given calls into n8n and nothing else (awaiting what is a promise, as
 * ours does), then returns the body as the trivial trigger does: ours minus this is our own logic.
 */
function replayOf(calls: ContextCall[]): Webhook {
	return async function (this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const methods = this as unknown as Record<string, (...args: unknown[]) => unknown>;
		for (const call of calls) {
			const result = methods[call.name](...call.args);
			if (result instanceof Promise) await result;
		}
		return { workflowData: [[{ json: this.getBodyData() }]] };
	};
}

export const run: BenchPart = async ({ quick, log }): Promise<PartResult> => {
	compileTypeScriptOnLoad();
	// Loaded here, after the .ts loader is in place (imports would load before it).
	const { startSimulator, SEED } = require('../test/simulator/index.cts') as typeof SimulatorModule;
	const { startTriggerHarness } =
		require('../test/support/trigger-harness.cts') as typeof TriggerHarnessModule;
	const ours = built<MessagingGatewayTrigger>(
		'nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node.js',
		'MessagingGatewayTrigger',
	);

	const eventsPerSample = quick ? 2_000 : 20_000;
	// The goal is a difference of two medians a few microseconds apart: many short rounds steady it.
	const rounds = quick ? 3 : 27;
	const session = SEED.instances.connected.name;
	const simulator = await startSimulator();
	let harness: TriggerHarness | undefined;
	try {
		// A typical configuration of a new node (version 2: Session picked from the list), as n8n
		// stores it; the defaults of Filters and Options stay as they are.
		harness = await startTriggerHarness({
			gateway: simulator,
			parameters: {
				session: { __rl: true, mode: 'list', value: session },
				events: ['MESSAGES_UPSERT'],
			},
			typeVersion: 2,
			nodeType: ours,
		});
		// A real registration (the token the gateway posts with), then one real delivery of the
		// gateway simulator: its body is the request of every measured event.
		await harness.activate();
		await simulator.injectInboundMessage({
			instance: session,
			from: SEED.contacts.alice.number,
			text: 'Is my order ready?',
		});
		const [delivered] = await simulator.waitForDeliveries(1);
		const [handled] = await harness.waitForDeliveries(1);
		if (handled.status !== 200 || handled.execution?.length !== 1) {
			throw new Error(
				`The trigger did not start one execution for the delivery (HTTP ${handled.status})`,
			);
		}
		const token = (harness.staticData().registration as { token: string }).token;
		const body = delivered.body as IDataObject;
		const request: WebhookRequest = {
			method: 'POST',
			url: `${new URL(harness.webhookUrl).pathname}?token=${token}`,
			headers: { 'content-type': 'application/json' },
			query: { token },
			body,
			rawBody: Buffer.from(JSON.stringify(body)),
		};
		const contextFor = () => harness!.webhookContext(request, silentResponse());
		const messageKey = (body.data as IDataObject).key as IDataObject;

		// Both triggers must do their job in this context, or the figures compare nothing (a new
		// message: the one the gateway delivered has run, and a redelivery of it starts nothing).
		messageKey.id = newMessageId();
		const check = await ours.webhook.call(contextFor());
		const item = check.workflowData?.[0]?.[0]?.json;
		if (item?.text !== 'Is my order ready?' || item?.event !== 'MESSAGES_UPSERT') {
			throw new Error('The built trigger did not emit the simplified message in the bench context');
		}
		const trivialCheck = await trivialTrigger.webhook!.call(contextFor());
		if (trivialCheck.workflowData?.[0]?.[0]?.json !== body) {
			throw new Error('The trivial trigger did not emit the body in the bench context');
		}

		// The calls into n8n one event makes: counted, and replayed alone to time them.
		const webhookOfOurs = ours.webhook as Webhook;
		messageKey.id = newMessageId();
		const calls = await recordCalls(webhookOfOurs, contextFor());
		const callsPerEvent: Record<string, number> = {};
		for (const call of calls) callsPerEvent[call.name] = (callsPerEvent[call.name] ?? 0) + 1;
		const parameterReads = callsPerEvent.getNodeParameter ?? 0;

		log(`${eventsPerSample} events per sample, ${rounds} rounds after a warm-up round`);
		const timed = (webhook: Webhook) => async () =>
			await microsecondsPerEvent(webhook, contextFor(), eventsPerSample, messageKey);
		const measured = await interleaved(
			{
				ours: timed(webhookOfOurs),
				n8nCallsOnly: timed(replayOf(calls)),
				trivial: timed(trivialTrigger.webhook as Webhook),
			},
			rounds,
		);
		// Each kind of call alone, for the breakdown (fewer rounds: it explains, it is not the goal).
		const byMethod = await interleaved(
			Object.fromEntries(
				Object.keys(callsPerEvent).map((name) => [
					name,
					timed(replayOf(calls.filter((call) => call.name === name))),
				]),
			),
			Math.max(3, Math.floor(rounds / 3)),
		);
		// The delivery memory's work alone, with the inputs webhook() gives it for this delivery.
		const folder = 'nodes/MessagingGatewayTrigger/';
		const memoryModule = builtModule<typeof DeliveryMemoryModule>(`${folder}delivery-memory.js`);
		const { checkedDelivery } = builtModule<typeof CheckedDeliveryModule>(
			`${folder}checked-delivery.js`,
		);
		const { collection, readFilters } = builtModule<typeof SettingsModule>(`${folder}settings.js`);
		const memoryContext = contextFor();
		const registration = harness.staticData().registration as OurRegistration;
		const delivery = checkedDelivery.call(memoryContext, registration, body);
		if ('problem' in delivery) throw new Error(`The delivery was refused: ${delivery.problem}`);
		const memoryCost = await deliveryMemoryCost(
			{
				memory: memoryModule.DELIVERIES,
				deliveryDigest: memoryModule.deliveryDigest,
				rememberSeconds: memoryModule.rememberSeconds,
			},
			{
				delivery,
				filters: { ...readFilters.call(memoryContext), session: registration.session },
				options: collection.call(memoryContext, 'options'),
				key: messageKey,
				stored: harness.staticData().delivered,
				response: silentResponse(),
				trigger: token,
				events: eventsPerSample,
				rounds: Math.max(3, Math.floor(rounds / 3)),
			},
		);
		// The same delivery to a trigger watching many sessions, its session last among them.
		const severalCost = await severalSessionsCost({
			ours,
			startTriggerHarness,
			gateway: simulator,
			state: harness.staticData() as SessionState,
			request,
			key: messageKey,
			events: eventsPerSample,
			rounds: Math.max(3, Math.floor(rounds / 3)),
		});
		const trivialMedian = measured.trivial.median;
		const ownMedian = measured.ours.median - trivialMedian;
		const ownMin = measured.ours.min - measured.trivial.min;
		const inN8nCalls = measured.n8nCallsOnly.median - trivialMedian;
		const ownLogic = measured.ours.median - measured.n8nCallsOnly.median;
		const n8nCallsPerEvent = Object.fromEntries(
			Object.entries(byMethod)
				.map(([name, stats]) => ({
					name,
					calls: callsPerEvent[name],
					microseconds: round2(Math.max(0, stats.median - trivialMedian)),
				}))
				.sort((left, right) => right.microseconds - left.microseconds)
				.map(({ name, calls: count, microseconds }) => [name, { calls: count, microseconds }]),
		);
		const callsText = Object.entries(n8nCallsPerEvent)
			.map(([name, entry]) => `${name} ${entry.calls}× ${microsecondsText(entry.microseconds)}`)
			.join(', ');
		const breakdown = `${microsecondsText(inN8nCalls)} in the calls into n8n a correct trigger must make (${callsText}) and ${microsecondsText(ownLogic)} in our own logic`;
		const ownLogicMin = measured.ours.min - measured.n8nCallsOnly.min;
		const ownLogicMet = ownLogic <= GOAL_MICROSECONDS;
		const ownLogicGoal: GoalResult = {
			id: 'trigger.ownLogicPerEvent',
			what: 'Trigger webhook(): our own logic per event, excluding the calls into n8n it makes (typical message, Simplify on)',
			goal: `≤ ${GOAL_MICROSECONDS} µs`,
			measured: `${microsecondsText(ownLogic)} (min−min ${microsecondsText(ownLogicMin)})`,
			value: round2(ownLogic),
			met: ownLogicMet,
			why: ownLogicMet
				? `Ours ${microsecondsText(measured.ours.median)} − the same calls into n8n replayed alone ${microsecondsText(measured.n8nCallsOnly.median)} per event (medians).`
				: `Ours ${microsecondsText(measured.ours.median)} − the same calls into n8n replayed alone ${microsecondsText(measured.n8nCallsOnly.median)} leaves ${microsecondsText(ownLogic)} per event in our own code, ${microsecondsText(ownLogic - GOAL_MICROSECONDS)} over the goal: checking the token and the envelope, reading the filters, cleaning the envelope of secrets and building the simplified item (the calls into n8n are not in this figure).`,
		};
		const allIncludedGoal: GoalResult = {
			id: 'trigger.ownCodePerEvent',
			what: 'Trigger webhook(): ours − trivial trigger per event, all included (typical message, Simplify on)',
			goal: 'reported',
			measured: `${microsecondsText(ownMedian)} (min−min ${microsecondsText(ownMin)}; ${parameterReads} parameter reads)`,
			value: round2(ownMedian),
			met: true,
			why: `Of ${microsecondsText(ownMedian)} per event, ${microsecondsText(inN8nCalls)} are n8n's own calls that any trigger with these settings makes (${callsText}: each parameter read once per event, the credential for the API key to keep out of the item, the static data for the token) and ${microsecondsText(ownLogic)} our own logic.`,
		};
		return {
			id: 'trigger',
			title: 'Trigger',
			goals: [ownLogicGoal, allIncludedGoal, memoryCost.goal, severalCost.goal],
			figures: {
				eventsPerSample,
				rounds,
				microsecondsPerEvent: {
					ours: roundedStats(measured.ours),
					n8nCallsOnly: roundedStats(measured.n8nCallsOnly),
					trivial: roundedStats(measured.trivial),
					ownCode: { median: round2(ownMedian), minMinusMin: round2(ownMin) },
					inN8nCalls: round2(inN8nCalls),
					ownLogic: { median: round2(ownLogic), minMinusMin: round2(ownLogicMin) },
				},
				parameterReadsPerEvent: parameterReads,
				n8nCallsPerEvent,
				samples: {
					ours: measured.ours.samples.map(round2),
					n8nCallsOnly: measured.n8nCallsOnly.samples.map(round2),
					trivial: measured.trivial.samples.map(round2),
				},
				deliveryMemory: memoryCost.figures,
				severalSessions: severalCost.figures,
			},
			notes: [
				"Both triggers run in n8n-core's real WebhookContext, built by test/support/trigger-harness.cts, with the body of one real delivery of the gateway simulator (a text message from a contact, messages.upsert), and the built trigger in dist/ (version 2, Session from the list, Message Received, default Filters, Simplify on) checks the token of its real registration.",
				`One context per sample and variant, ${eventsPerSample} events each; n8n builds a new context per request, which costs every variant alike and is left out. ${rounds} interleaved rounds after a warm-up round. All included = median of ours − median of the trivial trigger (which returns the body).`,
				`Our own logic (the goal): a third variant makes only the calls into n8n that one event of ours makes (recorded, then replayed in the same context, awaiting what is a promise as ours does), so ours − it is our own logic: ${breakdown}. Each kind of call was also replayed alone, for the breakdown.`,
				'The calls into n8n are what the settings require of any trigger: each of the 4 parameters (Session, Events, Filters, Options) read once per event, since a parameter that became unusable must be reported for every delivery; the credential, read per event because its API key can be rotated and must be kept out of the item; the static data, for the token of the registration.',
				...memoryCost.notes,
				...severalCost.notes,
			],
		};
	} finally {
		await harness?.stop();
		await simulator.stop();
	}
};
