/**
 * The README recommends N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true for bots (n8n 2.x then builds an
 * expression isolate only when an expression runs, not for every webhook call and execution). The
 * package's workflows must work the same with it: the echo bot (the trigger, then Send Text with
 * expressions from the trigger's item), in a real n8n so set.
 */
import type { IDataObject } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import {
	activate,
	allExecutions,
	createCredential,
	LAZY_ISOLATES_ENV,
	until,
} from './e2e-helpers.cts';
import { startN8n } from './n8n-instance.cts';
import type { N8nInstance } from './n8n-instance.cts';
import { echoBotWorkflow } from './workflows.cts';
import type { CredentialRef } from './workflows.cts';

const SESSION = SEED.instances.connected.name;

let simulator: Simulator;
let n8n: N8nInstance;
let credential: CredentialRef;

beforeAll(async () => {
	simulator = await startSimulator();
	n8n = await startN8n({ env: LAZY_ISOLATES_ENV });
	credential = await createCredential(n8n, 'Messaging Gateway (lazy isolates)', {
		baseUrl: simulator.url,
		apiKey: simulator.apiKey,
	});
}, 300_000);

afterAll(async () => {
	await n8n?.stop();
	await simulator?.stop();
});

describe('with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true', () => {
	it('the echo bot answers every person once, with the text its expressions give', async () => {
		const created = await n8n.api.post('/workflows', echoBotWorkflow(credential, SESSION));
		expect(created.status).toBe(200);
		const workflowId = String(created.data.id);
		await activate(n8n, workflowId);
		const people = [SEED.contacts.alice, SEED.contacts.bruno];
		for (const [index, person] of people.entries()) {
			await simulator.injectInboundMessage({
				instance: SESSION,
				from: person.number,
				text: `hello ${index}`,
			});
		}
		const replies = await until('both replies', 30_000, async () => {
			const sent = simulator.requestsTo('/message/sendText/', 'POST');
			return sent.length >= people.length ? sent : undefined;
		});
		// Each person's execution runs on its own: the replies may leave in either order.
		const byNumber = (body: IDataObject) => String(body.number);
		expect(
			replies
				.map((reply) => reply.body as IDataObject)
				.sort((a, b) => byNumber(a).localeCompare(byNumber(b))),
		).toEqual(
			people
				.map((person, index) => ({
					number: person.number,
					textMessage: { text: `Echo: hello ${index}` },
				}))
				.sort((a, b) => a.number.localeCompare(b.number)),
		);
		const executions = await until('the executions to finish', 30_000, async () => {
			const list = await allExecutions(n8n, workflowId);
			return list.length >= people.length && list.every((execution) => execution.stoppedAt)
				? list
				: undefined;
		});
		expect(executions.map((execution: IDataObject) => execution.status)).toEqual(
			people.map(() => 'success'),
		);
		await n8n.api.post(`/workflows/${workflowId}/deactivate`, {});
	});
});
