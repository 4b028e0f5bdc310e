/**
 * The trigger on Evolution API v2: it registers with v2's wrapped webhook body, its secret token in
 * a header v2 sends with every delivery (not in the URL), turns v2's envelopes into the same
 * simplified items as on the Messaging Gateway API, and puts the previous webhook back (headers
 * included) when it stops. Against the simulator playing Evolution API 2.3.6.
 */
import axios from 'axios';

import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { startTriggerHarness } from '../support/trigger-harness.cts';
import type { TriggerHarness } from '../support/trigger-harness.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;
const TOKEN_HEADER = 'x-messaging-gateway-token';

let simulator: Simulator;
let trigger: TriggerHarness | undefined;

beforeAll(async () => {
	simulator = await startSimulator({ gateway: 'evolution-v2' });
});
afterAll(async () => {
	await simulator.stop();
});
beforeEach(() => simulator.reset());
afterEach(async () => {
	await trigger?.stop();
	trigger = undefined;
});

async function start(events = ['MESSAGES_UPSERT', 'QRCODE_UPDATED']): Promise<TriggerHarness> {
	trigger = await startTriggerHarness({
		gateway: simulator,
		parameters: { session: SESSION, events } as never,
		credentialGateway: 'evolutionV2',
	});
	return trigger;
}

const api = () =>
	axios.create({
		baseURL: simulator.url,
		headers: { apikey: simulator.apiKey },
		validateStatus: () => true,
	});

describe('activation on Evolution API v2', () => {
	it("registers with v2's body: the plain n8n URL, the token in a header v2 sends", async () => {
		const harness = await start();

		await harness.activate();

		const registered = simulator.getWebhook(SESSION);
		const token = (harness.staticData().registration as { token: string }).token;
		expect(registered).toEqual({
			enabled: true,
			url: harness.webhookUrl,
			events: ['MESSAGES_UPSERT', 'QRCODE_UPDATED'],
			webhook_by_events: false,
			webhook_base64: false,
			headers: { [TOKEN_HEADER]: token },
		});
		expect(token).toMatch(/^[0-9a-f]{48}$/);
		expect(simulator.requestsTo('/webhook/set/', 'POST').map((request) => request.body)).toEqual([
			{
				webhook: {
					enabled: true,
					url: harness.webhookUrl,
					events: ['MESSAGES_UPSERT', 'QRCODE_UPDATED'],
					byEvents: false,
					base64: false,
					headers: { [TOKEN_HEADER]: token },
				},
			},
		]);
		expect(await harness.checkExists()).toBe(true);
		// Every request of the lifecycle, judged by Evolution API 2.3.6's own validation.
		await harness.delete();
		const judged = simulator.requests.map((request) => ({
			request: `${request.method} ${request.path}`,
			verdict: checkEvolutionV2(request).outcome,
		}));
		expect(judged.map((entry) => entry.request)).toEqual([
			`GET /webhook/find/${SESSION}`,
			`POST /webhook/set/${SESSION}`,
			`GET /webhook/find/${SESSION}`,
			`GET /webhook/find/${SESSION}`,
			`POST /webhook/set/${SESSION}`,
		]);
		expect(judged.every((entry) => entry.verdict === 'accepted')).toBe(true);
	});

	it('an event v2 does not have is refused by name, and nothing is registered', async () => {
		const harness = await start(['MESSAGES_UPSERT', 'NEW_JWT_TOKEN']);

		await expect(harness.activate()).rejects.toThrow(
			'Evolution API v2 has no event NEW_JWT_TOKEN: the trigger was not registered',
		);
		expect(simulator.requestsTo('/webhook/set/', 'POST')).toEqual([]);
	});
});

describe('deliveries from Evolution API v2', () => {
	it('a message arrives with the token header and becomes the same simplified item as on the other gateway', async () => {
		const harness = await start();
		await harness.activate();

		const message = await simulator.injectInboundMessage({
			instance: SESSION,
			from: ALICE.number,
			text: 'Is my order ready?',
		});
		await harness.waitForDeliveries(1);

		expect(harness.deliveries[0]).toMatchObject({ status: 200, answeredBy: 'n8n' });
		expect(harness.executions()[0][0].json).toMatchObject({
			event: 'MESSAGES_UPSERT',
			session: SESSION,
			chatId: ALICE.chatId,
			messageId: `false_${ALICE.chatId}_${message.shortId}`,
			fromMe: false,
			sender: ALICE.chatId,
			text: 'Is my order ready?',
			isGroup: false,
		});
		expect(JSON.stringify(harness.executions())).not.toContain(
			(harness.staticData().registration as { token: string }).token,
		);
	});

	it.each([
		['no token header', {}],
		['a wrong token header', { [TOKEN_HEADER]: 'f'.repeat(48) }],
	])('%s: 401, nothing runs', async (_name, headers) => {
		const harness = await start();
		await harness.activate();

		const answer = await axios.post(
			harness.webhookUrl,
			{
				event: 'messages.upsert',
				instance: SESSION,
				data: { key: { remoteJid: ALICE.jid, id: 'X' } },
			},
			{ headers, validateStatus: () => true },
		);

		expect(answer.status).toBe(401);
		expect(harness.executions()).toEqual([]);
	});
});

/** The instance's webhook row as GET /webhook/find answers it, without its id and times. */
async function foundRow(): Promise<Record<string, unknown> | null> {
	const answer = await api().get(`/webhook/find/${SESSION}`);
	expect(answer.status).toBe(200);
	if (answer.data === null || answer.data === '') return null;
	const row = { ...answer.data };
	for (const changing of ['id', 'createdAt', 'updatedAt']) delete row[changing];
	return row;
}

describe('deactivation on Evolution API v2 (a set updates only the fields its body names)', () => {
	const crm = {
		enabled: true,
		url: 'https://crm.example.com/hooks/evolution',
		events: ['MESSAGES_UPSERT'],
		byEvents: true,
		base64: false,
	};
	it.each([
		{
			before: 'a webhook with its own headers',
			set: { ...crm, headers: { authorization: 'Bearer crm-token' } },
			headersAfter: { authorization: 'Bearer crm-token' },
		},
		// v2 stores null for a webhook set without headers and refuses null in a set: {} sends none.
		{ before: 'a webhook set without headers', set: crm, headersAfter: {} },
		{
			before: 'a disabled webhook',
			set: { ...crm, enabled: false, headers: { authorization: 'Bearer crm-token' } },
			headersAfter: { authorization: 'Bearer crm-token' },
		},
	])(
		'$before: the row is put back as it was, and our token leaves it',
		async ({ set, headersAfter }) => {
			expect((await api().post(`/webhook/set/${SESSION}`, { webhook: set })).status).toBe(201);
			const before = await foundRow();
			const harness = await start();
			await harness.activate();
			const token = (harness.staticData().registration as { token: string }).token;

			await harness.delete();

			const after = await foundRow();
			expect(after).toEqual({ ...before, headers: headersAfter });
			expect(JSON.stringify(after)).not.toContain(token);
			expect(harness.staticData()).toEqual({});
		},
	);

	it('with nothing there before, disables the webhook and takes our token off it', async () => {
		const harness = await start();
		await harness.activate();
		const token = (harness.staticData().registration as { token: string }).token;

		await harness.delete();

		const after = await foundRow();
		expect(after).toMatchObject({ enabled: false, events: [], headers: {} });
		expect(JSON.stringify(after)).not.toContain(token);
	});
});
