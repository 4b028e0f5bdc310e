/**
 * The package against Evolution API v2 in a real n8n: a credential whose Gateway is *Evolution API
 * v2*, the simulator speaking Evolution 2.3.6 (its routes, validation, answers and webhook
 * deliveries). The example workflows users import run unchanged (only their credential points at
 * v2), every operation of the action node runs in one workflow, and every request that reached
 * the gateway passes 2.3.6's own validation.
 */
import axios from 'axios';
import { sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { evolutionV2Operations } from '../../nodes/shared/gateways/evolution-v2/operations';
import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import {
	allExecutions,
	binaryContent,
	createCredential,
	hasFeature,
	until,
} from './e2e-helpers.cts';
import { everyOperation, seededOperationCases, RUN_IN_OWN_TEST } from './every-operation.cts';
import {
	CREDENTIAL_NAMES,
	finishedExecutions,
	firstItems,
	importExample,
	outcome,
	runDataOf,
	whileActive,
	withSession,
} from './example-runs.cts';
import { executeWorkflow } from './n8n-cli.cts';
import { startN8n } from './n8n-instance.cts';
import type { N8nInstance } from './n8n-instance.cts';
import { CREDENTIAL_TYPE, operationsWorkflow, readExample } from './workflows.cts';

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

/**
 * Every API request that reached the gateway that Evolution API 2.3.6's validation refuses. Files
 * the answers point at (the simulator serves pictures and media at `/api/files/`; a real v2 points
 * at WhatsApp's servers) are downloads, not API requests.
 */
function refusedBy236(): Array<{ request: string; reasons: unknown }> {
	return simulator.requests
		.filter((request) => !request.path.startsWith('/api/files/'))
		.map((request) => ({
			request: `${request.method} ${request.path}`,
			verdict: checkEvolutionV2(request),
		}))
		.filter(({ verdict }) => verdict.outcome !== 'accepted')
		.map(({ request, verdict }) => ({ request, reasons: verdict }));
}

const sendTextRequests = () => simulator.requestsTo('/message/sendText/', 'POST');

/** The example as a user imports it, with its Session set and its credential the v2 one. */
async function importedExample(file: string, session: string): Promise<string> {
	return await importExample(n8n, withSession(readExample(file), session), credentialIds);
}

describe("the credential test on Evolution API v2, through n8n's own endpoint", () => {
	it.each([
		[
			'the global key',
			() => simulator.url,
			() => simulator.apiKey,
			'OK',
			/Connection successful/,
			undefined,
		],
		[
			'a wrong key',
			() => simulator.url,
			() => 'dummy-wrong-key',
			'Error',
			/^API key rejected: .*With Gateway: Evolution API v2 the test needs the global API key/,
			/^Authorization failed - please check your credentials$/,
		],
		[
			'a gateway that is not Evolution API v2',
			() => otherGateway.url,
			() => otherGateway.apiKey,
			'Error',
			/^No messaging gateway answers at this Base URL \(404\)\. .*With Gateway: Evolution API v2 or WAHA, no such gateway answers there/,
			/^The resource you are requesting could not be found$/,
		],
	])('%s', async (name, baseUrl, apiKey, status, message, on1x) => {
		const data = { gateway: 'evolutionV2', baseUrl: baseUrl(), apiKey: apiKey() };
		const credential = await createCredential(n8n, `v2 credential test: ${name}`, data);

		const response = await n8n.rest.post('/credentials/test', {
			credentials: { id: credential.id, name: credential.name, type: CREDENTIAL_TYPE, data },
		});

		expect(response.status).toBe(200);
		// n8n 1.x shows its own texts instead of the credential's (NEEDS_N8N_2X.credentialTestMessages).
		const expected = hasFeature(n8n, 'credentialTestMessages') || !on1x ? message : on1x;
		expect(response.data.data).toEqual({ status, message: expect.stringMatching(expected) });
		// v2's own check, which no other gateway has, was what n8n called.
		const gateway = baseUrl() === simulator.url ? simulator : otherGateway;
		expect(gateway.requestsTo('/verify-creds', 'POST').length).toBeGreaterThan(0);
	});
});

describe('the example workflows on Evolution API v2, unchanged', () => {
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
			// The bot's own echo comes back as a delivery and must not be echoed again.
			await sleep(1500);
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
		const sentId = `true_${ALICE.chatId}_${String(sent.data.key.id)}`;
		// v2 makes a pairing code only when a closed session starts connecting.
		const loggedOut = await axios.delete(`${simulator.url}/instance/logout/${PAIRING}`, {
			headers: { apikey: simulator.apiKey },
		});
		expect(loggedOut.status).toBe(200);
		const cases = seededOperationCases().map((operationCase) =>
			operationCase.name === 'message.edit'
				? { ...operationCase, parameters: { ...operationCase.parameters, messageId: sentId } }
				: operationCase,
		);
		expect(cases.map((operationCase) => operationCase.name).sort()).toEqual(everyOperation());
		const created = await n8n.api.post(
			'/workflows',
			operationsWorkflow(
				{ id: credentialIds[CREDENTIAL_TYPE], name: CREDENTIAL_NAMES[CREDENTIAL_TYPE] },
				cases,
			),
		);
		expect(created.status).toBe(200);
		simulator.clearLogs();

		const run = await executeWorkflow(n8n, String(created.data.id));

		const runData = run.data.resultData.runData;
		const firstItem = (name: string) => firstItems(runData, name)[0];
		const outcomes = cases.map(({ name }) => ({ name, error: firstItem(name)?.json?.error }));
		expect(outcomes).toEqual(
			cases.map(({ name }) => ({
				name,
				error:
					name in evolutionV2Operations.notOffered
						? expect.stringMatching(/ is not available on Evolution API v2: /)
						: undefined,
			})),
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
		// What reached the gateway: authenticated, and valid for Evolution API 2.3.6, every request.
		expect(simulator.requests.length).toBeGreaterThanOrEqual(
			cases.length - Object.keys(evolutionV2Operations.notOffered).length,
		);
		expect(simulator.requests.every((request) => request.auth === 'valid')).toBe(true);
		expect(refusedBy236()).toEqual([]);
		// Send and Wait puts a whole execution to wait: the approval example above runs it on v2.
		expect(Object.keys(RUN_IN_OWN_TEST)).toEqual(['message.sendAndWait']);
	});
});
