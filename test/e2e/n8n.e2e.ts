import { randomUUID } from 'node:crypto';

import axios from 'axios';
import { sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import {
	activate,
	binaryContent,
	createActiveWorkflow,
	createCredential,
	hasFeature,
	logFigures,
	until,
} from './e2e-helpers.cts';
import {
	everyOperation,
	expectEveryOperationResults,
	seededOperationCases,
} from './every-operation.cts';
import { executeWorkflow } from './n8n-cli.cts';
import { N8N_VERSION } from './n8n-install.cts';
import { startN8n } from './n8n-instance.cts';
import type { N8nInstance } from './n8n-instance.cts';
import {
	arrivalsOf,
	gapsOf,
	pacedSendWorkflow,
	runAtOnce,
	sendsOverPace,
	turnMs,
} from './send-pace.cts';
import {
	ACTION_TYPE,
	CREDENTIAL_TYPE,
	echoBotWorkflow,
	mediaRoundTripWorkflow,
	operationsWorkflow,
	TRIGGER_TYPE,
} from './workflows.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;

let simulator: Simulator;
let n8n: N8nInstance;

beforeAll(async () => {
	simulator = await startSimulator();
	n8n = await startN8n();
}, 300_000);

afterAll(async () => {
	await n8n?.stop();
	await simulator?.stop();
});

async function executionsOf(workflowId: string): Promise<IDataObject[]> {
	const response = await n8n.api.get('/executions', {
		params: { workflowId, includeData: true, limit: 20 },
	});
	expect(response.status).toBe(200);
	return response.data.data as IDataObject[];
}

describe(`the package inside n8n ${N8N_VERSION}`, () => {
	it('loads both nodes, the AI tool variant and the credential without loader errors', async () => {
		const nodes = await n8n.web.get('/types/nodes.json');
		const credentials = await n8n.web.get('/types/credentials.json');

		const nodeNames = (nodes.data as Array<{ name: string }>).map((type) => type.name);
		expect(nodeNames).toEqual(
			expect.arrayContaining([ACTION_TYPE, TRIGGER_TYPE, `${ACTION_TYPE}Tool`]),
		);
		expect((credentials.data as Array<{ name: string }>).map((type) => type.name)).toContain(
			CREDENTIAL_TYPE,
		);
		expect(n8n.loaderProblems()).toEqual([]);
		expect(n8n.log()).toMatch(/Loaded all credentials and nodes from n8n-nodes-messaging-gateway/);
	});

	it("tests credentials through n8n's own endpoint: OK, key refused, instance token, not the gateway, unreachable", async () => {
		// What the dialog says on n8n 2.x, and on 1.x, which shows its own texts instead of the
		// credential's and of the network error code (NEEDS_N8N_2X.credentialTestMessages).
		const cases: Array<{
			name: string;
			data: IDataObject;
			answer?: number;
			status: string;
			message: RegExp;
			on1x?: RegExp;
		}> = [
			{
				name: 'good',
				data: { baseUrl: `${simulator.url}/`, apiKey: simulator.apiKey },
				status: 'OK',
				message: /Connection successful/,
			},
			{
				name: 'wrong key',
				data: { baseUrl: simulator.url, apiKey: 'dummy-wrong-key' },
				status: 'Error',
				message: /^The gateway refused the key \(401\)\. Check, in this order: 1\. Gateway/,
				on1x: /^Authorization failed - please check your credentials$/,
			},
			{
				name: 'instance token',
				data: { baseUrl: simulator.url, apiKey: simulator.apiKey },
				answer: 403,
				status: 'Error',
				message: /^The gateway accepted this key for single instances only \(403\)/,
				on1x: /^Forbidden - perhaps check your credentials\?$/,
			},
			{
				name: 'not the gateway',
				data: { baseUrl: simulator.url, apiKey: simulator.apiKey },
				answer: 404,
				status: 'Error',
				message:
					/^The chosen Gateway's check is not at this Base URL \(404\)\. Check, in this order: 1\. Gateway/,
				on1x: /^The resource you are requesting could not be found$/,
			},
			{
				name: 'wrong URL',
				data: { baseUrl: 'http://127.0.0.1:9', apiKey: simulator.apiKey },
				status: 'Error',
				message: /ECONNREFUSED/,
				on1x: /^The service refused the connection - perhaps it is offline$/,
			},
		];
		const ownMessages = hasFeature(n8n, 'credentialTestMessages');
		for (const { name, data, answer, status, message, on1x } of cases) {
			if (answer) {
				simulator.injectFault({
					match: { method: 'GET', path: '/instance/fetchInstances' },
					status: answer,
					body: { status: answer, error: 'Injected', response: { message: ['Injected'] } },
				});
			}
			const credential = await createCredential(n8n, `Credential test: ${name}`, data);
			const response = await n8n.rest.post('/credentials/test', {
				credentials: { id: credential.id, name: credential.name, type: CREDENTIAL_TYPE, data },
			});
			expect(response.status).toBe(200);
			expect({ name, ...response.data.data }).toEqual({
				name,
				status,
				message: expect.stringMatching(ownMessages || !on1x ? message : on1x),
			});
		}
		// Each injected answer was used by its own case.
		expect((await axios.get(`${simulator.url}/__sim/faults`)).data).toEqual({ pending: [] });
	});
});

describe('the trigger in an active workflow (echo bot)', () => {
	it('registers on activation, answers a message once, ignores its own reply and bad tokens, restores on deactivation', async () => {
		const foreign = await axios.post(
			`${simulator.url}/webhook/set/${SESSION}`,
			{ url: 'https://crm.example.com/hooks', events: ['MESSAGES_UPSERT'] },
			{ headers: { apikey: simulator.apiKey } },
		);
		expect(foreign.status).toBe(201);
		const credential = await createCredential(n8n, 'Messaging Gateway (e2e)', {
			baseUrl: simulator.url,
			apiKey: simulator.apiKey,
		});
		const created = await n8n.api.post('/workflows', echoBotWorkflow(credential, SESSION));
		expect(created.status).toBe(200);
		const workflowId = String(created.data.id);

		await activate(n8n, workflowId);

		const registered = simulator.getWebhook(SESSION);
		expect(registered).toEqual(
			expect.objectContaining({
				enabled: true,
				events: ['MESSAGES_UPSERT'],
				webhook_by_events: false,
			}),
		);
		expect(registered?.url).toMatch(
			new RegExp(`^${n8n.url}/webhook/[0-9a-f-]{36}/webhook\\?token=[0-9a-f]{48}$`),
		);

		// A contact writes: one execution, whose trigger item has the simplified fields, and the reply goes out.
		await simulator.injectInboundMessage({
			instance: SESSION,
			from: ALICE.number,
			text: 'hello bot',
		});
		const executions = await until('the execution', 30_000, async () => {
			const list = await executionsOf(workflowId);
			return list.length > 0 && list.every((execution) => execution.stoppedAt) ? list : undefined;
		});
		expect(executions).toHaveLength(1);
		expect(executions[0].status).toBe('success');
		const runData = (
			executions[0].data as IDataObject & {
				resultData: {
					runData: Record<string, Array<{ data: { main: Array<Array<{ json: IDataObject }>> } }>>;
				};
			}
		).resultData.runData;
		expect(runData['On Message'][0].data.main[0][0].json).toEqual(
			expect.objectContaining({
				event: 'MESSAGES_UPSERT',
				session: SESSION,
				chatId: ALICE.chatId,
				text: 'hello bot',
				fromMe: false,
				isGroup: false,
			}),
		);
		const reply = await until('the reply', 10_000, async () =>
			simulator.requestsTo('/message/sendText/', 'POST').at(-1),
		);
		expect(reply.body).toEqual({ number: ALICE.number, textMessage: { text: 'Echo: hello bot' } });
		expect(reply.auth).toBe('valid');

		// The reply comes back as our own message: delivered, answered, but no second execution.
		await until('the delivery of our own reply', 10_000, async () =>
			simulator.deliveries.find(
				(delivery) =>
					(delivery.body?.data?.key as IDataObject | undefined)?.fromMe === true &&
					delivery.status === 200,
			),
		);
		const badToken = await axios.post(
			registered!.url.replace(/token=[0-9a-f]+/, `token=${'f'.repeat(48)}`),
			{ event: 'messages.upsert', instance: SESSION, data: {} },
			{ validateStatus: () => true },
		);
		expect(badToken.status).toBe(401);
		await sleep(1500);
		expect(await executionsOf(workflowId)).toHaveLength(1);

		const deactivated = await n8n.api.post(`/workflows/${workflowId}/deactivate`, {});
		expect(deactivated.status).toBe(200);
		await until('the previous webhook to be restored', 30_000, async () =>
			simulator.getWebhook(SESSION)?.url === 'https://crm.example.com/hooks' ? true : undefined,
		);
		expect(simulator.getWebhook(SESSION)).toEqual(
			expect.objectContaining({
				enabled: true,
				url: 'https://crm.example.com/hooks',
				events: ['MESSAGES_UPSERT'],
			}),
		);
	});
});

describe('every operation of the action node in a real workflow', () => {
	it('runs every operation (node version 2) against the gateway; the one the gateway does not implement becomes an error item', async () => {
		const credential = await createCredential(n8n, 'Messaging Gateway (operations)', {
			baseUrl: simulator.url,
			apiKey: simulator.apiKey,
		});
		const cases = seededOperationCases();
		expect(cases.map((operationCase) => operationCase.name).sort()).toEqual(everyOperation());
		const created = await n8n.api.post('/workflows', operationsWorkflow(credential, cases));
		expect(created.status).toBe(200);
		simulator.clearLogs();

		const run = await executeWorkflow(n8n, String(created.data.id));

		await expectEveryOperationResults(n8n, simulator, run.data.resultData.runData, cases);
	});
});

describe('binary media through real n8n', () => {
	it('sends a file made in the workflow from its binary field and downloads the same bytes back', async () => {
		const credential = await createCredential(n8n, 'Messaging Gateway (media round trip)', {
			baseUrl: simulator.url,
			apiKey: simulator.apiKey,
		});
		// A one-page PDF's worth of arbitrary bytes: any byte value must survive the trip.
		const original = Buffer.from(Array.from({ length: 3000 }, (_, index) => (index * 37) % 256));
		const workflow = mediaRoundTripWorkflow(credential, SESSION, ALICE.number, {
			base64: original.toString('base64'),
			fileName: 'price-list.pdf',
			mimeType: 'application/pdf',
		});
		const created = await n8n.api.post('/workflows', workflow);
		expect(created.status).toBe(200);
		simulator.clearLogs();

		const run = await executeWorkflow(n8n, String(created.data.id));

		const runData = run.data.resultData.runData;
		const sent = runData['Send Media']?.[0]?.data?.main?.[0]?.[0];
		expect(sent?.json.messageId).toMatch(new RegExp(`^true_${ALICE.chatId}_`));
		expect(simulator.requestsTo('/message/sendMedia/', 'POST')[0]?.body).toMatchObject({
			mediaMessage: {
				mediatype: 'document',
				fileName: 'price-list.pdf',
				mimetype: 'application/pdf',
				media: original.toString('base64'),
			},
		});
		const downloaded = runData['Download Media']?.[0]?.data?.main?.[0]?.[0];
		expect(downloaded?.binary?.file).toMatchObject({
			mimeType: 'application/pdf',
			fileName: 'price-list.pdf',
		});
		const bytes = await binaryContent(n8n, downloaded!.binary!.file as unknown as IDataObject);
		expect(bytes.equals(original)).toBe(true);
	});
});

describe('Pace Sends across the executions of one n8n process', () => {
	/** 60 a minute: a turn a second, shared by every execution of the process. */
	const PACE = { pacePerMinute: 60, paceWorkers: 1 };

	it.each([
		{
			name: 'unpaced (the control): the same two runs send together',
			pace: undefined,
			withinPace: false,
		},
		{
			name: 'paced at 60 a minute: a second between sends, whichever execution sends',
			pace: PACE,
			withinPace: true,
		},
	])('two executions at once, $name', async ({ name, pace, withinPace }) => {
		const credential = await createCredential(n8n, `Messaging Gateway (${name})`, {
			baseUrl: simulator.url,
			apiKey: simulator.apiKey,
		});
		const webhookPath = `paced-${randomUUID()}`;
		const workflowId = await createActiveWorkflow(
			n8n,
			pacedSendWorkflow(credential, { session: SESSION, chatId: ALICE.number, webhookPath, pace }),
		);
		const prefix = pace ? 'paced' : 'unpaced';
		const runs = ['first', 'second'].map((run) => [1, 2].map((n) => `${prefix} ${run} ${n}`));
		simulator.clearLogs();

		const statuses = await runAtOnce(`${n8n.url}/webhook/${webhookPath}`, runs);

		const arrivals = arrivalsOf(simulator, prefix);
		logFigures(`Pace Sends in one n8n process, ${name}: ms between arrivals`, gapsOf(arrivals));
		expect({
			statuses,
			texts: arrivals.map((arrival) => arrival.text).sort(),
			executions: new Set(arrivals.map((arrival) => arrival.executionId)).size,
			// Every send a turn after the one before, and the four three turns apart at least.
			withinPace: sendsOverPace(arrivals, turnMs(PACE)) === 0,
		}).toEqual({ statuses: [200, 200], texts: runs.flat().sort(), executions: 2, withinPace });
		await n8n.api.post(`/workflows/${workflowId}/deactivate`, {});
	});
});
