/**
 * Message → Combine Rapid Messages in a real n8n 2.41.1, one process, on WAHA and on Evolution API
 * v2 (the simulator playing each): twenty chats write bursts of 1 to 8 messages at once, in real
 * time, with pauses just under and just over the silence time. The trigger starts one execution
 * per message; exactly one per burst goes on and replies with the burst's texts joined in order;
 * every other ends with no output; no message is left out or answered twice
 * (test/e2e/combine-rapid.cts says how the expected bursts are taken from the gateway's stamps).
 */
import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import {
	burstsByStamps,
	byMessage,
	CHAT_PLANS,
	combineRapidWorkflow,
	messagesTaken,
	apiExecutions,
	executionOutcomes,
	expectedOutcomes,
	expectedPerChat,
	HISTORY_GATEWAYS,
	plannedSizes,
	repliesPerChat,
	replyDelays,
	stampSizes,
	startDelays,
	timesReplied,
	untilAllEnded,
	untilDeliveriesSettled,
	writeBursts,
} from './combine-rapid.cts';
import type { Written } from './combine-rapid.cts';
import { activate, createCredential, logFigures } from './e2e-helpers.cts';
import { refusedRequests } from './gateway-choice.cts';
import { startN8n } from './n8n-instance.cts';
import type { N8nInstance } from './n8n-instance.cts';

const SESSION = SEED.instances.connected.name;

let n8n: N8nInstance;

beforeAll(async () => {
	n8n = await startN8n();
}, 300_000);

afterAll(async () => {
	await n8n?.stop();
});

describe.each([
	{ name: 'WAHA', gateway: HISTORY_GATEWAYS.waha },
	{ name: 'Evolution API v2', gateway: HISTORY_GATEWAYS.evolutionV2 },
])(
	'Combine Rapid Messages in one n8n process on $name: twenty chats writing bursts at once',
	({ name, gateway }) => {
		let simulator: Simulator;
		let workflowId: string;
		let written: Written[];
		let bursts: Written[][];

		beforeAll(async () => {
			simulator = await startSimulator({ gateway: gateway.simulator });
			const credential = await createCredential(n8n, `${name} (combine rapid messages)`, {
				gateway: gateway.credential,
				baseUrl: simulator.url,
				apiKey: simulator.apiKey,
			});
			const created = await n8n.api.post('/workflows', combineRapidWorkflow(credential, SESSION));
			expect(created.status).toBe(200);
			workflowId = String(created.data.id);
			await activate(n8n, workflowId);

			written = await writeBursts(simulator, SESSION, CHAT_PLANS);
			bursts = burstsByStamps(written);
			await untilAllEnded(n8n, workflowId, { simulator, gateway, written });
			await untilDeliveriesSettled(simulator);
		}, 300_000);

		afterAll(async () => {
			if (workflowId) await n8n.api.post(`/workflows/${workflowId}/deactivate`, {});
			await simulator?.stop();
		});

		it('the stamps cut every chat whose pauses leave no choice into its planned bursts', () => {
			const certain = plannedSizes(CHAT_PLANS);
			expect(certain.length).toBeGreaterThan(0);
			expect(
				stampSizes(
					bursts,
					certain.map(({ chat }) => chat),
				),
			).toEqual(certain);
			expect(written).toHaveLength(
				CHAT_PLANS.flatMap((plan) => plan.bursts).reduce((a, b) => a + b),
			);
		});

		it('n8n took every message, on the first try of the gateway or a later one', () => {
			expect(messagesTaken(simulator, gateway, written)).toEqual(
				written.map(({ text }) => ({ text, taken: true })),
			);
		});

		it('the gateway gets exactly one reply per burst, with its texts joined in order', () => {
			expect(repliesPerChat(simulator, gateway, written)).toEqual(expectedPerChat(bursts));
		});

		it('every message is in exactly one reply: none lost, none twice', () => {
			expect(timesReplied(simulator, gateway, written)).toEqual(
				written.map(({ text }) => ({ text, replies: 1 })),
			);
		});

		it("n8n ran one execution per message: each burst's last goes on with the whole burst, the others end with no output", async () => {
			expect(byMessage(await executionOutcomes(apiExecutions(n8n), workflowId))).toEqual(
				byMessage(expectedOutcomes(bursts)),
			);
		});

		it('no reply comes before the silence time has passed since the last message of its burst', async () => {
			const delays = replyDelays(simulator, gateway, bursts);
			logFigures(`Combine Rapid Messages, one n8n process, ${name}: reply after the silence (ms)`, {
				...delays,
				executionStarted: await startDelays(apiExecutions(n8n), workflowId, bursts),
			});
			// How long after the silence depends on the machine: reported, not bounded.
			expect(delays.min).toBeGreaterThanOrEqual(0);
		});

		it("every request passed the gateway's own validation", () => {
			expect(refusedRequests(simulator, gateway.judge)).toEqual([]);
		});
	},
);
