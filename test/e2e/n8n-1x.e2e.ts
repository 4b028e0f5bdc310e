/**
 * n8n 1.x, which many self-hosters still run. A compact set runs on n8n 1.123.81 (installed once
 * into a cache folder of its own, under the same lock as 2.41.1) and, side by side, on 2.41.1: the
 * echo bot (activation, an incoming message, one reply) and a Send Text → Chat Get Many workflow run
 * with `n8n execute`. What ran is written to the n8n-versions section of docs/compatibility.md. The whole suite
 * runs on 1.x with N8N_E2E_VERSION=1.123.81.
 */
import axios from 'axios';
import { sleep } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { ownHostName } from '../support/egress-fixtures.cts';
import { expectReadmeSection } from '../support/readme-section.cts';
import { startScriptedServer } from '../support/scripted-server.cts';
import { activate, createCredential, NEEDS_N8N_2X, until } from './e2e-helpers.cts';
import { executeWorkflow } from './n8n-cli.cts';
import { DEFAULT_N8N_VERSION } from './n8n-install.cts';
import type { N8nVersion } from './n8n-install.cts';
import { runtimeOf, startN8n } from './n8n-instance.cts';
import type { N8nInstance, N8nRuntime } from './n8n-instance.cts';
import { ACTION_TYPE, CREDENTIAL_TYPE, echoBotWorkflow, plainNode } from './workflows.cts';
import type { CredentialRef, WorkflowJson } from './workflows.cts';

const N8N_1X: N8nVersion = '1.123.81';
/** Newest first, as docs/compatibility.md lists them. */
const VERSIONS: N8nVersion[] = [DEFAULT_N8N_VERSION, N8N_1X];
const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;
const FOREIGN_WEBHOOK = 'https://crm.example.com/hooks';
// The first run installs n8n 1.x (about 5 minutes), or waits for another run installing it.
const INSTALL_TIMEOUT_MS = 30 * 60_000;

interface Measured {
	runtime?: N8nRuntime;
	/** What each scenario measured, set at its end: a scenario that failed leaves no entry. */
	scenarios: Record<string, string>;
}
const measured = new Map<N8nVersion, Measured>(
	VERSIONS.map((version) => [version, { scenarios: {} }]),
);

type RunData = Record<string, Array<{ data: { main: Array<Array<{ json: IDataObject }>> } }>>;

/**
 * Manual Trigger → Send Text to Alice → Chat Get Many: the chat list read after the send. Node
 * version 2, what a new workflow gets (its Session is a picker value).
 */
function sendThenListWorkflow(credential: CredentialRef): WorkflowJson {
	const node = (name: string, x: number, parameters: IDataObject): INode => ({
		id: name.toLowerCase().replace(/ /g, '-'),
		name,
		type: ACTION_TYPE,
		typeVersion: 2,
		position: [x, 0],
		parameters: {
			session: { __rl: true, mode: 'name', value: SESSION },
			...parameters,
		} as INode['parameters'],
		credentials: { [CREDENTIAL_TYPE]: credential },
	});
	return {
		name: 'Send Text then Get Many (Messaging Gateway)',
		settings: { executionOrder: 'v1' },
		nodes: [
			plainNode('Start', 'n8n-nodes-base.manualTrigger', 1, 0),
			node('Send Text', 300, {
				resource: 'message',
				operation: 'sendText',
				chatId: { __rl: true, mode: 'id', value: ALICE.number },
				text: 'Hello from n8n',
			}),
			node('Get Many', 600, {
				resource: 'chat',
				operation: 'getMany',
				returnAll: false,
				limit: 20,
			}),
		],
		connections: {
			Start: { main: [[{ node: 'Send Text', type: 'main', index: 0 }]] },
			'Send Text': { main: [[{ node: 'Get Many', type: 'main', index: 0 }]] },
		},
	};
}

/** Manual Trigger → Contact Get Profile Picture with the picture downloaded. */
function profilePictureWorkflow(credential: CredentialRef): WorkflowJson {
	return {
		name: 'Profile picture (Messaging Gateway)',
		settings: { executionOrder: 'v1' },
		nodes: [
			plainNode('Start', 'n8n-nodes-base.manualTrigger', 1, 0),
			{
				id: 'picture',
				name: 'Picture',
				type: ACTION_TYPE,
				typeVersion: 2,
				position: [300, 0],
				parameters: {
					resource: 'contact',
					operation: 'getProfilePicture',
					session: { __rl: true, mode: 'name', value: SESSION },
					contact: { __rl: true, mode: 'id', value: ALICE.number },
					options: { downloadPicture: true },
				},
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: { Start: { main: [[{ node: 'Picture', type: 'main', index: 0 }]] } },
	};
}

describe.each(VERSIONS)('the compact set on n8n %s', (version) => {
	let simulator: Simulator;
	let n8n: N8nInstance;
	let credential: CredentialRef;
	const results = measured.get(version)!;

	beforeAll(async () => {
		simulator = await startSimulator();
		n8n = await startN8n({ version });
		credential = await createCredential(n8n, 'Messaging Gateway (compact set)', {
			baseUrl: simulator.url,
			apiKey: simulator.apiKey,
		});
	}, INSTALL_TIMEOUT_MS);

	afterAll(async () => {
		await n8n?.stop();
		await simulator?.stop();
	});

	it('is the n8n version asked for, with the package loaded', async () => {
		const runtime = await runtimeOf(n8n);

		expect(runtime.n8n).toBe(version);
		expect(runtime.node).toMatch(/^24\./);
		expect(n8n.loaderProblems()).toEqual([]);
		expect(n8n.log()).toMatch(/Loaded all credentials and nodes from n8n-nodes-messaging-gateway/);
		results.runtime = runtime;
	});

	it('echo bot: activation registers the webhook, a message runs it once, one reply; deactivation restores', async () => {
		await axios.post(
			`${simulator.url}/webhook/set/${SESSION}`,
			{ url: FOREIGN_WEBHOOK, events: ['MESSAGES_UPSERT'] },
			{ headers: { apikey: simulator.apiKey } },
		);
		const created = await n8n.api.post('/workflows', echoBotWorkflow(credential, SESSION));
		expect(created.status).toBe(200);
		const workflowId = String(created.data.id);

		await activate(n8n, workflowId);

		const registered = simulator.getWebhook(SESSION);
		expect(registered?.url).toMatch(
			new RegExp(`^${n8n.url}/webhook/[0-9a-f-]{36}/webhook\\?token=[0-9a-f]{48}$`),
		);
		await simulator.injectInboundMessage({ instance: SESSION, from: ALICE.number, text: 'hi' });
		const executionsOf = async () => {
			const response = await n8n.api.get('/executions', {
				params: { workflowId, includeData: true, limit: 20 },
			});
			expect(response.status).toBe(200);
			return response.data.data as IDataObject[];
		};
		const executions = await until('the execution', 30_000, async () => {
			const list = await executionsOf();
			return list.length > 0 && list.every((execution) => execution.stoppedAt) ? list : undefined;
		});
		expect(executions.map((execution) => execution.status)).toEqual(['success']);
		const runData = (executions[0].data as { resultData: { runData: RunData } }).resultData.runData;
		expect(runData['On Message'][0].data.main[0][0].json).toEqual(
			expect.objectContaining({ chatId: ALICE.chatId, text: 'hi', fromMe: false }),
		);
		// The reply comes back as the session's own message: delivered, but no second execution.
		await until('the delivery of the reply', 10_000, async () =>
			simulator.deliveries.find(
				(delivery) =>
					(delivery.body?.data?.key as IDataObject | undefined)?.fromMe === true &&
					delivery.status === 200,
			),
		);
		await sleep(1500);
		expect(await executionsOf()).toHaveLength(1);
		const replies = simulator.requestsTo('/message/sendText/', 'POST');
		expect(replies.map((reply) => [reply.body, reply.auth])).toEqual([
			[{ number: ALICE.number, textMessage: { text: 'Echo: hi' } }, 'valid'],
		]);

		const deactivated = await n8n.api.post(`/workflows/${workflowId}/deactivate`, {});
		expect(deactivated.status).toBe(200);
		await until('the previous webhook to be restored', 30_000, async () =>
			simulator.getWebhook(SESSION)?.url === FOREIGN_WEBHOOK ? true : undefined,
		);
		results.scenarios.echoBot = `1 message in → ${executions.length} execution → ${replies.length} reply; its own reply ran nothing; the previous webhook back on deactivation`;
	});

	it('Send Text → Chat Get Many with n8n execute: the message is sent, the chat list shows it first', async () => {
		const created = await n8n.api.post('/workflows', sendThenListWorkflow(credential));
		expect(created.status).toBe(200);
		simulator.clearLogs();

		const run = await executeWorkflow(n8n, String(created.data.id));

		expect(run.data.resultData.error).toBeUndefined();
		const outputOf = (name: string) =>
			(run.data.resultData.runData[name]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);
		const [sent] = outputOf('Send Text');
		expect(sent.messageId).toMatch(new RegExp(`^true_${ALICE.chatId}_[A-Z0-9]{20}$`));
		const chats = outputOf('Get Many');
		expect(chats.map((chat) => chat.id)).toEqual([
			ALICE.chatId,
			SEED.groups.hikers.id,
			SEED.contacts.bruno.chatId,
			SEED.contacts.bakery.chatId,
			SEED.groups.team.id,
		]);
		expect(String(sent.messageId)).toContain(
			String((chats[0].lastMessage as IDataObject).id)
				.split('_')
				.pop(),
		);
		expect(simulator.requests.map((request) => [request.method, request.path])).toEqual([
			['POST', `/message/sendText/${SESSION}`],
			['GET', `/api/${SESSION}/chats/overview`],
		]);
		expect(simulator.requests.every((request) => request.auth === 'valid')).toBe(true);
		results.scenarios.sendThenList = `1 message sent, ${chats.length} chats listed with it on top`;
	});

	it('a file the gateway names on an internal address is refused (2.x: before sending; 1.x: by the address connected to)', async () => {
		// This machine's own name resolves to one of its own addresses: an internal service.
		const own = await ownHostName();
		const internal = await startScriptedServer();
		try {
			internal.respondWith({ headers: { 'content-type': 'image/jpeg' }, body: 'internal secrets' });
			const pictureUrl = `http://${own.name}:${new URL(internal.url).port}/admin/picture.jpg`;
			simulator.injectFault({
				match: { path: '/chat/fetchProfilePictureUrl/' },
				status: 200,
				body: { wuid: ALICE.jid, profilePictureUrl: pictureUrl },
			});
			const created = await n8n.api.post('/workflows', profilePictureWorkflow(credential));
			expect(created.status).toBe(200);

			const run = await executeWorkflow(n8n, String(created.data.id));

			const error = run.data.resultData.error as { message?: string } | undefined;
			expect(error?.message).toMatch(
				/^Media file: n8n does not fetch files from internal addresses \(/,
			);
			expect(JSON.stringify(run)).not.toContain('internal secrets');
			if (version === N8N_1X) {
				// 1.x gives nodes no resolver: the request went out, its answer was dropped unread.
				expect(error?.message).toMatch(new RegExp(`connected to ${own.address}, a loopback`));
				expect(internal.requests).toHaveLength(1);
			} else {
				expect(error?.message).toMatch(new RegExp(`resolves to ${own.address}`));
				expect(internal.requests).toEqual([]);
			}
		} finally {
			await internal.stop();
		}
	});
});

const SCENARIOS = {
	echoBot: 'Echo bot (trigger in an active workflow)',
	sendThenList: 'Send Text → Chat Get Many (`n8n execute`)',
};

describe('docs/compatibility.md', () => {
	it('lists what ran on each n8n version and what needs n8n 2.x', () => {
		const rows = VERSIONS.map((version) => {
			const { runtime, scenarios } = measured.get(version)!;
			// Only a version on which every check passed gets its row.
			expect({ version, runtime: Boolean(runtime), passed: Object.keys(scenarios) }).toEqual({
				version,
				runtime: true,
				passed: Object.keys(SCENARIOS),
			});
			const passed = `${Object.keys(scenarios).length} of ${Object.keys(SCENARIOS).length}`;
			return `| ${runtime!.n8n} | ${runtime!.node} (n8n accepts ${runtime!.nodeEngines}) | ${runtime!.n8nWorkflow} | ${scenarios.echoBot} | ${scenarios.sendThenList} | ${passed} |`;
		});
		const needs2x = Object.values(NEEDS_N8N_2X).map(
			({ feature, on1x, test }) => `| ${feature} | ${on1x} | \`${test}\` |`,
		);
		expectReadmeSection(
			'compatibility:n8n-versions',
			[
				'Measured in every `npm test` by `test/e2e/n8n-1x.e2e.ts`: the packed package, installed as a community package into each n8n below, against the gateway simulator.',
				'',
				`| n8n | Node.js | \`n8n-workflow\` the nodes run with | ${SCENARIOS.echoBot} | ${SCENARIOS.sendThenList} | Passed |`,
				'| --- | --- | --- | --- | --- | --- |',
				...rows,
				'',
				`The whole end-to-end suite runs on ${DEFAULT_N8N_VERSION} in \`npm test\`; \`N8N_E2E_VERSION=${N8N_1X} npm run test:e2e\` runs it on ${N8N_1X}, and \`N8N_E2E_VERSION=${N8N_1X} npm start\` starts the sandbox on it.`,
				'',
				'What needs n8n 2.x (on 1.x the suite checks what 1.x does instead):',
				'',
				'| Feature | On n8n 1.x | Checked by |',
				'| --- | --- | --- |',
				...needs2x,
			].join('\n'),
		);
	});
});
