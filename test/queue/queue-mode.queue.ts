/**
 * Both nodes in n8n's queue mode: n8n 2.41.1 as one main, one webhook processor and two workers on
 * PostgreSQL and Redis (test/queue/queue-cluster.cts), against the gateway simulator. The trigger
 * registers from main, deliveries reach the webhook processor, executions run on workers.
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { activate, createCredential, until } from '../e2e/e2e-helpers.cts';
import { ACTION_TYPE, CREDENTIAL_TYPE, echoBotWorkflow, TRIGGER_TYPE } from '../e2e/workflows.cts';
import type { CredentialRef } from '../e2e/workflows.cts';
import { startQueueCluster } from './queue-cluster.cts';
import type { QueueCluster } from './queue-cluster.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;

let simulator: Simulator;
let cluster: QueueCluster;
let credential: CredentialRef;

beforeAll(async () => {
	simulator = await startSimulator();
	cluster = await startQueueCluster();
	credential = await createCredential(cluster.main, 'Messaging Gateway (queue mode)', {
		baseUrl: simulator.url,
		apiKey: simulator.apiKey,
	});
}, 600_000);

afterAll(async () => {
	await cluster?.stop();
	await simulator?.stop();
});

/** The executions of a workflow, read on main (the public API pages through them). */
async function executionsOf(workflowId: string, includeData = false): Promise<IDataObject[]> {
	const all: IDataObject[] = [];
	let cursor: string | undefined;
	for (let page = 0; page < 100; page++) {
		const response = await cluster.main.api.get('/executions', {
			params: { workflowId, includeData, limit: 250, cursor },
		});
		expect(response.status).toBe(200);
		all.push(...(response.data.data as IDataObject[]));
		cursor = response.data.nextCursor ?? undefined;
		if (!cursor || response.data.data.length === 0) break;
	}
	return all;
}

/** Which worker ran each execution, from the line n8n's job processor logs when it starts one. */
function workerOfExecutions(): Map<string, string> {
	const ranBy = new Map<string, string>();
	for (const worker of cluster.workers) {
		for (const match of worker.log().matchAll(/Worker started execution (\d+) \(job/g)) {
			ranBy.set(match[1], worker.name);
		}
	}
	return ranBy;
}

describe('n8n 2.41.1 in queue mode: main, webhook processor, two workers', () => {
	it('loads the credential and both node types on every process, without loader errors', async () => {
		const nodes = await cluster.main.web.get('/types/nodes.json');
		const names = (nodes.data as Array<{ name: string }>).map((type) => type.name);
		expect(names).toEqual(expect.arrayContaining([ACTION_TYPE, TRIGGER_TYPE]));
		const credentials = await cluster.main.web.get('/types/credentials.json');
		expect((credentials.data as Array<{ name: string }>).map((type) => type.name)).toContain(
			CREDENTIAL_TYPE,
		);
		expect(cluster.processes.map((process) => process.name)).toEqual([
			'main',
			'webhook',
			'worker-1',
			'worker-2',
		]);
		for (const process of cluster.processes) {
			expect({ process: process.name, problems: process.loaderProblems() }).toEqual({
				process: process.name,
				problems: [],
			});
			expect({ process: process.name, loaded: process.log() }).toEqual({
				process: process.name,
				loaded: expect.stringMatching(
					/Loaded all credentials and nodes from n8n-nodes-messaging-gateway/,
				),
			});
		}
		// The credential test runs on main with the credential's own request.
		const tested = await cluster.main.rest.post('/credentials/test', {
			credentials: {
				id: credential.id,
				name: credential.name,
				type: CREDENTIAL_TYPE,
				data: { baseUrl: simulator.url, apiKey: simulator.apiKey },
			},
		});
		expect(tested.data.data).toEqual({ status: 'OK', message: expect.any(String) });
	});

	it('registers on main, takes a delivery at the webhook processor, runs it on a worker, refuses a wrong token, restores on deactivation', async () => {
		const previous = 'https://crm.example.com/hooks';
		await axios.post(
			`${simulator.url}/webhook/set/${SESSION}`,
			{ url: previous, events: ['MESSAGES_UPSERT'] },
			{ headers: { apikey: simulator.apiKey } },
		);
		const created = await cluster.main.api.post('/workflows', echoBotWorkflow(credential, SESSION));
		expect(created.status).toBe(200);
		const workflowId = String(created.data.id);

		await activate(cluster.main, workflowId);

		// The URL the gateway calls is the webhook processor's, with the trigger's secret token.
		const registered = simulator.getWebhook(SESSION);
		expect(registered?.url).toMatch(
			new RegExp(`^${cluster.webhookUrl}/webhook/[0-9a-f-]{36}/webhook\\?token=[0-9a-f]{48}$`),
		);
		await simulator.injectInboundMessage({
			instance: SESSION,
			from: ALICE.number,
			text: 'hi queue',
		});
		const delivery = await until('the delivery', 30_000, async () =>
			simulator.deliveries.find((entry) => entry.url === registered!.url),
		);
		expect(delivery.status).toBe(200);
		const [execution] = await until('the execution', 60_000, async () => {
			const list = await executionsOf(workflowId);
			return list.length > 0 && list.every((entry) => entry.stoppedAt) ? list : undefined;
		});
		expect(execution.status).toBe('success');
		expect(execution.mode).toBe('webhook');
		expect(workerOfExecutions().get(String(execution.id))).toMatch(/^worker-[12]$/);
		const reply = await until('the reply', 30_000, async () =>
			simulator.requestsTo('/message/sendText/', 'POST').at(-1),
		);
		expect(reply.body).toEqual({ number: ALICE.number, textMessage: { text: 'Echo: hi queue' } });

		// Our reply comes back as our own message: accepted at the webhook processor, no execution.
		await until('the delivery of our own reply', 30_000, async () =>
			simulator.deliveries.find(
				(entry) =>
					(entry.body?.data?.key as IDataObject | undefined)?.fromMe === true &&
					entry.status === 200,
			),
		);
		// The webhook processor checks the token itself: a wrong one is refused and runs nothing.
		const wrongToken = await axios.post(
			registered!.url.replace(/token=[0-9a-f]+/, `token=${'f'.repeat(48)}`),
			{ event: 'messages.upsert', instance: SESSION, data: {} },
			{ validateStatus: () => true },
		);
		expect(wrongToken.status).toBe(401);
		await sleep(2000);
		expect(await executionsOf(workflowId)).toHaveLength(1);

		const deactivated = await cluster.main.api.post(`/workflows/${workflowId}/deactivate`, {});
		expect(deactivated.status).toBe(200);
		await until('the previous webhook to be restored', 60_000, async () =>
			simulator.getWebhook(SESSION)?.url === previous ? true : undefined,
		);
	});
});
