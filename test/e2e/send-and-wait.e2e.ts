/**
 * Send and Wait for Response in a real n8n: a production webhook starts the workflow, the node
 * sends the question through the gateway (the simulator's log has the message with the signed
 * links) and the execution waits; opening a link (or sending the free text page) resumes it and the
 * next node gets the answer. Forged signatures, replays, link-preview fetchers and the time limit
 * are checked on the same waiting executions.
 */
import { randomUUID } from 'node:crypto';

import axios from 'axios';
import type { IDataObject, INode } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { activate, allExecutions, createCredential, until } from './e2e-helpers.cts';
import { startN8n } from './n8n-instance.cts';
import type { N8nInstance } from './n8n-instance.cts';
import { ACTION_TYPE, CREDENTIAL_TYPE, plainNode } from './workflows.cts';
import type { CredentialRef, WorkflowJson } from './workflows.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;

let simulator: Simulator;
let n8n: N8nInstance;
let credential: CredentialRef;

beforeAll(async () => {
	simulator = await startSimulator();
	n8n = await startN8n();
	credential = await createCredential(n8n, 'Messaging Gateway (send and wait)', {
		baseUrl: simulator.url,
		apiKey: simulator.apiKey,
	});
}, 300_000);

afterAll(async () => {
	await n8n?.stop();
	await simulator?.stop();
});

/** Webhook → Send and Wait for Response → After (what the answer hands on). */
function askWorkflow(path: string, parameters: IDataObject): WorkflowJson {
	return {
		name: `Send and wait (${path})`,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				...plainNode('Start', 'n8n-nodes-base.webhook', 2, 0),
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived' },
			},
			{
				...plainNode('Ask', ACTION_TYPE, 2, 300),
				parameters: {
					resource: 'message',
					operation: 'sendAndWait',
					session: { __rl: true, mode: 'name', value: SESSION },
					chatId: { __rl: true, mode: 'id', value: ALICE.number },
					message: 'Refund of $120 for order #1042?',
					...parameters,
				} as INode['parameters'],
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
			plainNode('After', 'n8n-nodes-base.noOp', 1, 600),
		],
		connections: {
			Start: { main: [[{ node: 'Ask', type: 'main', index: 0 }]] },
			Ask: { main: [[{ node: 'After', type: 'main', index: 0 }]] },
		},
	};
}

interface Asked {
	workflowId: string;
	executionId: string;
	/** The links the message carries, by label. */
	links: Record<string, string>;
	/** The request that carried the question. */
	sent: { path: string; body: IDataObject };
}

/** Activates the workflow, starts it, and waits until its execution waits for the answer. */
async function ask(parameters: IDataObject): Promise<Asked> {
	const path = `ask-${randomUUID()}`;
	const created = await n8n.api.post('/workflows', askWorkflow(path, parameters));
	expect(created.status).toBe(200);
	const workflowId = String(created.data.id);
	await activate(n8n, workflowId);
	simulator.clearLogs();
	const started = await axios.post(
		`${n8n.url}/webhook/${path}`,
		{},
		{ validateStatus: () => true },
	);
	expect(started.status).toBe(200);
	const execution = await until('the execution to wait', 60_000, async () =>
		(await allExecutions(n8n, workflowId)).find((entry) => entry.status === 'waiting'),
	);
	const [request] = simulator.requests.filter((entry) => /sendText|sendButtons/.test(entry.path));
	const body = request.body as IDataObject;
	const links: Record<string, string> = {};
	if (request.path.includes('sendButtons')) {
		for (const button of body.buttons as IDataObject[])
			links[String(button.text)] = String(button.url);
	} else {
		const text = String((body.textMessage as IDataObject).text);
		for (const [, label, url] of text.matchAll(/^(.+): (https?:\/\/\S+)$/gm)) links[label] = url;
	}
	return {
		workflowId,
		executionId: String(execution.id),
		links,
		sent: { path: request.path, body },
	};
}

async function executionOf(asked: Asked): Promise<IDataObject> {
	const response = await n8n.api.get(`/executions/${asked.executionId}`, {
		params: { includeData: true },
	});
	expect(response.status).toBe(200);
	return response.data as IDataObject;
}

/** The item the node after Send and Wait received, once the execution has finished. */
async function answerOf(asked: Asked): Promise<IDataObject> {
	const execution = await until('the execution to finish', 120_000, async () => {
		const current = await executionOf(asked);
		return current.finished || current.status === 'success' ? current : undefined;
	});
	const runData = (execution.data as { resultData: { runData: Record<string, IDataObject[]> } })
		.resultData.runData;
	const after = runData.After as Array<{ data: { main: Array<Array<{ json: IDataObject }>> } }>;
	expect(after).toHaveLength(1);
	return after[0].data.main[0][0].json;
}

const get = (url: string, userAgent = 'Mozilla/5.0 (iPhone) Mobile Safari') =>
	axios.get(url, { validateStatus: () => true, headers: { 'User-Agent': userAgent } });

describe('Send and Wait for Response in a real n8n', () => {
	it.each([
		{ link: '✓ Approve', approved: true },
		{ link: '✗ Decline', approved: false },
	])(
		'approval: opening "$link" resumes the execution with approved: $approved',
		async ({ link, approved }) => {
			const asked = await ask({ approvalOptions: { values: { approvalType: 'double' } } });

			// The question went out as text with one signed link per answer, and no link preview.
			expect(asked.sent.path).toBe(`/message/sendText/${SESSION}`);
			expect(asked.sent.body).toMatchObject({
				number: ALICE.number,
				options: { linkPreview: false },
			});
			expect(Object.keys(asked.links)).toEqual(['✓ Approve', '✗ Decline']);
			for (const url of Object.values(asked.links)) {
				expect(url).toMatch(
					new RegExp(
						`^${n8n.url}/webhook-waiting/${asked.executionId}/[0-9a-f-]{36}\\?approved=(true|false)&signature=`,
					),
				);
			}
			// A link-preview fetcher opening the link answers nothing.
			const preview = await get(asked.links[link], 'WhatsApp/2.23.20.0 A');
			expect(preview.status).toBe(204);
			expect((await executionOf(asked)).status).toBe('waiting');

			const opened = await get(asked.links[link]);
			expect(opened.status).toBe(200);
			expect(String(opened.data)).toContain('Got it, thanks');
			expect(await answerOf(asked)).toEqual({
				data: { approved, respondedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
			});

			// Opening a link again (a replay) resumes nothing more: the node after it ran once.
			const replay = await get(asked.links['✓ Approve']);
			expect(replay.status).not.toBe(500);
			expect(await answerOf(asked)).toMatchObject({ data: { approved } });
		},
	);

	it('refuses a link whose signature was changed, and the execution keeps waiting', async () => {
		const asked = await ask({});
		const forged = asked.links['✓ Approve'].replace(
			/signature=([0-9a-f])/,
			(_, first: string) => `signature=${first === 'a' ? 'b' : 'a'}`,
		);
		const withoutSignature = asked.links['✓ Approve'].replace(/&signature=[^&]+/, '');
		const otherAnswer = asked.links['✓ Approve'].replace('approved=true', 'approved=false');

		for (const url of [forged, withoutSignature, otherAnswer]) {
			expect({ url, status: (await get(url)).status }).toEqual({ url, status: 401 });
		}
		expect((await executionOf(asked)).status).toBe('waiting');
		// The real link still works.
		expect((await get(asked.links['✓ Approve'])).status).toBe(200);
		expect(await answerOf(asked)).toMatchObject({ data: { approved: true } });
	});

	it('free text: the link opens a page whose form answers with the typed text', async () => {
		const asked = await ask({
			responseType: 'freeText',
			delivery: 'buttons',
			options: { respondLabel: 'Tell us', formTitle: 'Why the refund?' },
		});

		// As a URL button this time.
		expect(asked.sent.path).toBe('/api/sendButtons');
		expect(asked.sent.body).toMatchObject({
			chatId: ALICE.chatId,
			body: 'Refund of $120 for order #1042?',
			buttons: [{ type: 'url', text: 'Tell us', url: expect.stringContaining('signature=') }],
		});
		const form = await get(asked.links['Tell us']);
		expect(form.status).toBe(200);
		expect(String(form.data)).toMatch(/<form method="POST">.*<textarea name="response"/s);
		expect(String(form.data)).toContain('Why the refund?');
		expect((await executionOf(asked)).status).toBe('waiting');

		const sent = await axios.post(
			asked.links['Tell us'],
			new URLSearchParams({ response: 'The parcel arrived damaged.' }).toString(),
			{
				validateStatus: () => true,
				headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			},
		);
		expect(sent.status).toBe(200);
		expect(await answerOf(asked)).toEqual({
			data: { text: 'The parcel arrived damaged.', respondedAt: expect.any(String) },
		});
	});

	it('goes on with the input item, without an answer, when the time limit passes', async () => {
		const asked = await ask({
			options: {
				limitWaitTime: {
					values: { limitType: 'afterTimeInterval', resumeAmount: 0.05, resumeUnit: 'minutes' },
				},
			},
		});

		// n8n resumes a timed-out wait with the node disabled: its input goes on, with no data field.
		const item = await answerOf(asked);
		expect(item.data).toBeUndefined();
		expect(item.webhookUrl).toMatch(new RegExp(`^${n8n.url}/webhook/ask-`));
	}, 180_000);
});
