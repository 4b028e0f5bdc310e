/**
 * The package against Evolution API v2 in a real n8n: a credential whose Gateway is *Evolution API
 * v2*, the simulator speaking Evolution 2.3.6 (its routes, validation, answers and webhook
 * deliveries). The example workflows users import run unchanged (only their credential points at
 * v2), every operation of the action node runs in one workflow, and every request that reached
 * the gateway passes 2.3.6's own validation.
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { evolutionV2Operations } from '../../nodes/MessagingGateway/gateways/evolution-v2/operations';
import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { allExecutions, binaryContent, createCredential, until } from './e2e-helpers.cts';
import {
	CREDENTIAL_NAMES,
	echoToLidPerson,
	finishedExecutions,
	firstItems,
	importExample,
	outcome,
	runDataOf,
	whileActive,
	withSession,
} from './example-runs.cts';
import type { CredentialCase } from './gateway-choice.cts';
import {
	expectCredentialTest,
	N8N_1X_TEST_TEXTS,
	refusedRequests,
	runEveryOperation,
} from './gateway-choice.cts';
import { startN8n } from './n8n-instance.cts';
import type { N8nInstance } from './n8n-instance.cts';
import { CREDENTIAL_TYPE, readExample } from './workflows.cts';

const CONNECTED = SEED.instances.connected.name;
const PAIRING = SEED.instances.pairing.name;
const ALICE = SEED.contacts.alice;
const BRUNO = SEED.contacts.bruno;
/** The header the trigger asks v2 to send its token in. */
const TOKEN_HEADER = 'x-messaging-gateway-token';

let simulator: Simulator;
/** The Messaging Gateway API's simulator: a gateway that is not Evolution API v2. */
let otherGateway: Simulator;
let n8n: N8nInstance;
const credentialIds: Record<string, string> = {};

beforeAll(async () => {
	simulator = await startSimulator({ gateway: 'evolution-v2' });
	otherGateway = await startSimulator();
	n8n = await startN8n();
	const credential = await createCredential(n8n, CREDENTIAL_NAMES[CREDENTIAL_TYPE], {
		gateway: 'evolutionV2',
		baseUrl: simulator.url,
		apiKey: simulator.apiKey,
	});
	credentialIds[CREDENTIAL_TYPE] = credential.id;
}, 300_000);

afterAll(async () => {
	await n8n?.stop();
	await simulator?.stop();
	await otherGateway?.stop();
});

beforeEach(() => simulator.reset());

/** Every API request that reached the gateway that Evolution API 2.3.6's validation refuses. */
const refusedBy236 = () => refusedRequests(simulator, checkEvolutionV2);

const sendTextRequests = () => simulator.requestsTo('/message/sendText/', 'POST');

/** The example as a user imports it, with its Session set and its credential the v2 one. */
async function importedExample(file: string, session: string): Promise<string> {
	return await importExample(n8n, withSession(readExample(file), session), credentialIds);
}

describe("the credential test on Evolution API v2, through n8n's own endpoint", () => {
	it.each<CredentialCase>([
		{
			name: 'the global key',
			gateway: () => simulator,
			apiKey: () => simulator.apiKey,
			status: 'OK',
			message: /Connection successful/,
		},
		{
			name: 'a wrong key',
			gateway: () => simulator,
			apiKey: () => 'dummy-wrong-key',
			status: 'Error',
			message:
				/^The gateway refused the key \(401\)\. .*Evolution API v2's check takes only the global key/,
			on1x: N8N_1X_TEST_TEXTS.unauthorized,
		},
		{
			name: 'a gateway that is not Evolution API v2',
			gateway: () => otherGateway,
			apiKey: () => otherGateway.apiKey,
			status: 'Error',
			message:
				/^The chosen Gateway's check is not at this Base URL \(404\)\. Check, in this order: 1\. Gateway/,
			on1x: N8N_1X_TEST_TEXTS.notFound,
		},
	])('$name', async ({ name, gateway, apiKey, status, message, on1x }) => {
		await expectCredentialTest(
			n8n,
			`v2: ${name}`,
			{ gateway: 'evolutionV2', baseUrl: gateway().url, apiKey: apiKey() },
			{ status, message, on1x },
		);
		// v2's own check, which no other gateway has, was what n8n called.
		expect(gateway().requestsTo('/verify-creds', 'POST').length).toBeGreaterThan(0);
	});
});

describe('the example workflows on Evolution API v2, unchanged', () => {
	it('echo-bot.json answers a person WhatsApp addresses by LID, at the LID, and its item carries her phone number', async () => {
		const workflowId = await importedExample('echo-bot.json', CONNECTED);

		expect(await echoToLidPerson(n8n, simulator, workflowId, sendTextRequests)).toEqual({
			number: SEED.lidPeople.dora.lid,
			text: 'Echo: hello by lid',
		});
	});

	it('echo-bot.json: registers with v2 (token in a header), answers a message once, restores the previous webhook', async () => {
		const previous = await axios.post(
			`${simulator.url}/webhook/set/${CONNECTED}`,
			{
				webhook: {
					enabled: true,
					url: 'https://crm.example.com/hooks',
					events: ['MESSAGES_UPSERT'],
					headers: { authorization: 'Bearer crm' },
				},
			},
			{ headers: { apikey: simulator.apiKey } },
		);
		expect(previous.status).toBe(201);
		const workflowId = await importedExample('echo-bot.json', CONNECTED);

		await whileActive(n8n, workflowId, async () => {
			const registered = simulator.getWebhook(CONNECTED);
			expect(registered).toEqual(
				expect.objectContaining({ enabled: true, events: ['MESSAGES_UPSERT'] }),
			);
			// The token travels in a header v2 sends with every delivery, never in the URL.
			expect(registered?.url).toMatch(new RegExp(`^${n8n.url}/webhook/[0-9a-f-]{36}/webhook$`));
			expect(Object.keys(registered?.headers ?? {})).toEqual([TOKEN_HEADER]);

			await simulator.injectInboundMessage({ from: ALICE.number, text: 'hello v2' });
			const [execution] = await finishedExecutions(n8n, workflowId, 1);
			expect(outcome(execution)).toBe('success');
			expect(firstItems(runDataOf(execution), 'On Message')[0]?.json).toEqual(
				expect.objectContaining({
					event: 'MESSAGES_UPSERT',
					session: CONNECTED,
					chatId: ALICE.chatId,
					text: 'hello v2',
					fromMe: false,
				}),
			);
			const reply = await until('the echo', 10_000, async () => sendTextRequests().at(-1));
			expect(reply.path).toBe(`/message/sendText/${CONNECTED}`);
			expect(reply.body).toEqual({ number: ALICE.number, text: 'Echo: hello v2' });
			// 2.3.6 announces a send through its API as SEND_MESSAGE only, which the echo bot does not
			// take: its own echo never comes back, and the one delivery n8n got is the person's.
			expect(simulator.deliveries.filter((delivery) => delivery.url === registered?.url)).toEqual([
				expect.objectContaining({ event: 'messages.upsert', status: 200 }),
			]);
			expect(sendTextRequests()).toHaveLength(1);
			expect(await allExecutions(n8n, workflowId)).toHaveLength(1);
		});

		await until('the previous webhook to be restored', 30_000, async () =>
			simulator.getWebhook(CONNECTED)?.url === 'https://crm.example.com/hooks' ? true : undefined,
		);
		expect(simulator.getWebhook(CONNECTED)).toEqual(
			expect.objectContaining({
				enabled: true,
				events: ['MESSAGES_UPSERT'],
				headers: { authorization: 'Bearer crm' },
			}),
		);
		expect(refusedBy236()).toEqual([]);
	});

	it('echo-bot.json watching All Sessions: each session answers its own person, and each webhook is put back', async () => {
		simulator.setInstanceState(PAIRING, 'open');
		const example = withSession(readExample('echo-bot.json'), CONNECTED);
		const nodes = example.nodes.map((node) =>
			node.name === 'On Message'
				? { ...node, parameters: { ...node.parameters, sessionScope: 'all' } }
				: node,
		);
		const workflowId = await importExample(n8n, { ...example, nodes }, credentialIds);

		await whileActive(n8n, workflowId, async () => {
			// One token per session, each in the header v2 sends with that session's deliveries.
			const tokens = [CONNECTED, PAIRING].map(
				(session) => simulator.getWebhook(session)?.headers?.[TOKEN_HEADER],
			);
			expect(tokens.every((token) => typeof token === 'string')).toBe(true);
			expect(tokens[0]).not.toBe(tokens[1]);

			await simulator.injectInboundMessage({ from: ALICE.number, text: 'to sales' });
			await simulator.injectInboundMessage({
				instance: PAIRING,
				from: BRUNO.number,
				text: 'to support',
			});
			const executions = await finishedExecutions(n8n, workflowId, 2);
			expect(executions.map(outcome)).toEqual(['success', 'success']);
			const replies = await until('both echoes', 10_000, async () =>
				sendTextRequests().length >= 2 ? sendTextRequests() : undefined,
			);
			expect(replies.map(({ path, body }) => [path, body]).sort()).toEqual(
				[
					[`/message/sendText/${CONNECTED}`, { number: ALICE.number, text: 'Echo: to sales' }],
					[`/message/sendText/${PAIRING}`, { number: BRUNO.number, text: 'Echo: to support' }],
				].sort(),
			);
		});

		await until('every webhook to be put back', 30_000, async () =>
			[CONNECTED, PAIRING].every((session) => !simulator.getWebhook(session)?.enabled)
				? true
				: undefined,
		);
		expect(refusedBy236()).toEqual([]);
	});

	it('qr-login.json: a QR code from v2 arrives as the PNG v2 sent', async () => {
		const workflowId = await importedExample('qr-login.json', PAIRING);

		await whileActive(n8n, workflowId, async () => {
			const restart = await axios.post(`${simulator.url}/instance/restart/${PAIRING}`, undefined, {
				headers: { apikey: simulator.apiKey },
			});
			expect(restart.status).toBe(200);
			const [execution] = await finishedExecutions(n8n, workflowId, 1);
			expect(outcome(execution)).toBe('success');
			const [item] = firstItems(runDataOf(execution), 'On QR Code');
			expect(item.json).toEqual(
				expect.objectContaining({ event: 'QRCODE_UPDATED', session: PAIRING }),
			);
			const png = await binaryContent(n8n, item.binary!.data as unknown as IDataObject);
			// A restart may show more than one code: the one this execution got.
			const delivered = simulator.deliveries.find(
				(delivery) =>
					delivery.body?.event === 'qrcode.updated' &&
					(delivery.body?.data?.qrcode as IDataObject).code === item.json.qrCode,
			);
			const dataUri = String((delivered?.body?.data?.qrcode as IDataObject).base64);
			expect(png.subarray(0, 8)).toEqual(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'));
			expect(png.equals(Buffer.from(dataUri.split(',')[1], 'base64'))).toBe(true);
		});
		expect(refusedBy236()).toEqual([]);
	});

	it('approval-request.json: Send and Wait asks on v2, waits, and resumes from the signed link', async () => {
		const workflowId = await importedExample('approval-request.json', CONNECTED);

		await whileActive(n8n, workflowId, async () => {
			await simulator.injectInboundMessage({
				from: ALICE.number,
				text: 'My parcel arrived broken',
			});
			const asked = await until('the question to the manager', 30_000, async () =>
				sendTextRequests().find((request) => (request.body as IDataObject).number === BRUNO.number),
			);
			const body = asked.body as IDataObject;
			expect(body.linkPreview).toBe(false);
			const refund = /^✓ Refund: (\S+)$/m.exec(String(body.text))?.[1];
			expect(refund).toMatch(/\/webhook-waiting\/\d+\/[\w-]+\?approved=true&signature=/);
			await until('the execution to wait', 30_000, async () => {
				const executions = await allExecutions(n8n, workflowId);
				return executions.some((execution) => execution.status === 'waiting') ? true : undefined;
			});

			const opened = await axios.get(refund!, { validateStatus: () => true });
			expect(opened.status).toBe(200);
			const [execution] = await finishedExecutions(n8n, workflowId, 1);
			expect(outcome(execution)).toBe('success');
		});
		expect(sendTextRequests().at(-1)?.body).toEqual({
			number: ALICE.number,
			text: 'Good news: your refund is approved.',
		});
		expect(refusedBy236()).toEqual([]);
	});
});

describe('every operation of the action node on Evolution API v2, in one workflow', () => {
	it('runs each offered operation without an error and refuses the others before any request, saying so', async () => {
		// v2 edits only a text the account sent: the workflow edits one sent before it runs.
		const sent = await axios.post(
			`${simulator.url}/message/sendText/${CONNECTED}`,
			{ number: ALICE.number, text: 'Ready at 5pm.' },
			{ headers: { apikey: simulator.apiKey } },
		);
		// v2 makes a pairing code only when a closed session starts connecting.
		const loggedOut = await axios.delete(`${simulator.url}/instance/logout/${PAIRING}`, {
			headers: { apikey: simulator.apiKey },
		});
		expect(loggedOut.status).toBe(200);

		const firstItem = await runEveryOperation(
			n8n,
			simulator,
			credentialIds[CREDENTIAL_TYPE],
			{ label: 'Evolution API v2', notOffered: evolutionV2Operations.notOffered },
			{ 'message.edit': `true_${ALICE.chatId}_${String(sent.data.key.id)}` },
		);

		expect(firstItem('message.sendText')?.json.messageId).toMatch(
			new RegExp(`^true_${ALICE.chatId}_[A-Z0-9]+$`),
		);
		for (const name of ['message.downloadMedia', 'session.connect', 'contact.getProfilePicture']) {
			expect({ name, binary: firstItem(name)?.binary?.data }).toEqual({
				name,
				binary: expect.objectContaining({ mimeType: 'image/png' }),
			});
		}
		expect(firstItem('session.getConnectionState')?.json).toEqual({
			session: CONNECTED,
			state: 'open',
		});
		expect(firstItem('group.get')?.json).toEqual(
			expect.objectContaining({ id: SEED.groups.hikers.id, subject: SEED.groups.hikers.subject }),
		);
		expect(firstItem('session.requestPairingCode')?.json).toEqual(
			expect.objectContaining({ code: expect.any(String) }),
		);
		expect(sendTextRequests().at(-1)?.body).toEqual({
			number: ALICE.number,
			text: 'Hello from n8n',
		});
		expect(refusedBy236()).toEqual([]);
	});
});
