/**
 * Importing and running the example workflows (examples/*.json) in a real n8n as a user does:
 * shared by the examples suite (the Messaging Gateway API) and the Evolution API v2 suite, which
 * runs the same files with a credential whose Gateway is v2.
 */
import type { IDataObject, INode, INodeExecutionData, IRun, IRunData } from 'n8n-workflow';

import { activate, allExecutions, until } from './e2e-helpers.cts';
import type { FakeOpenAi } from '../support/fake-openai.cts';
import { SEED } from '../simulator/index.cts';
import type { RecordedRequest, Simulator } from '../simulator/index.cts';
import type { N8nInstance } from './n8n-instance.cts';
import { ACTION_TYPE, CREDENTIAL_TYPE, TOOL_TYPE, TRIGGER_TYPE } from './workflows.cts';
import type { WorkflowJson } from './workflows.cts';

/** The names n8n gives a new credential of each type, which the examples refer to. */
export const CREDENTIAL_NAMES: Record<string, string> = {
	[CREDENTIAL_TYPE]: 'Messaging Gateway API account',
	openAiApi: 'OpenAI account',
};
/** What the examples have in the Session fields a user sets after import. */
export const SESSION_PLACEHOLDER = 'default';
/** Where the download example writes: n8n's only writable folder by default, in its Docker image. */
export const FILES_FOLDER_PLACEHOLDER = '/home/node/.n8n-files';
const OUR_TYPES = [ACTION_TYPE, TRIGGER_TYPE, TOOL_TYPE];

/** The session name a Session parameter holds: text (node version 1) or a picker value (version 2 on). */
export function sessionNameOf(parameter: unknown): unknown {
	return typeof parameter === 'object' && parameter !== null
		? (parameter as IDataObject).value
		: parameter;
}

/** The example as a user has it after setting the Session (nodes that take it from the trigger keep their expression). */
export function withSession(example: WorkflowJson, session: string): WorkflowJson {
	const nodes = example.nodes.map((node) => {
		const current = node.parameters.session;
		if (!OUR_TYPES.includes(node.type) || sessionNameOf(current) !== SESSION_PLACEHOLDER)
			return node;
		const chosen =
			typeof current === 'object' ? { ...(current as IDataObject), value: session } : session;
		return { ...node, parameters: { ...node.parameters, session: chosen } };
	});
	return { ...example, nodes };
}

/**
 * Saves the example as the editor saves an imported file, and checks n8n linked the credentials by
 * their names to the ones given (type → id); returns the workflow's id.
 */
export async function importExample(
	n8n: N8nInstance,
	example: WorkflowJson,
	credentialIds: Record<string, string>,
): Promise<string> {
	const saved = await n8n.rest.post('/workflows', example);
	expect(saved.status).toBe(200);
	const nodes = saved.data.data.nodes as INode[];
	const linked = nodes.flatMap((node) =>
		Object.entries(node.credentials ?? {}).map(([type, credential]) => ({ type, credential })),
	);
	expect(linked.length).toBeGreaterThan(0);
	for (const { type, credential } of linked) {
		expect({ type, credential }).toEqual({
			type,
			credential: { id: credentialIds[type], name: CREDENTIAL_NAMES[type] },
		});
	}
	return String(saved.data.data.id);
}

/** Waits until the workflow has `count` finished executions; returns them with their data. */
export async function finishedExecutions(
	n8n: N8nInstance,
	workflowId: string,
	count: number,
): Promise<IDataObject[]> {
	return await until(`${count} finished execution(s)`, 60_000, async () => {
		const executions = await allExecutions(n8n, workflowId, true);
		return executions.length >= count && executions.every((execution) => execution.stoppedAt)
			? executions
			: undefined;
	});
}

export function runDataOf(execution: IDataObject): IRunData {
	return (execution.data as unknown as IRun['data']).resultData.runData;
}

/** "success", or the status with the error's message, so a failure says what went wrong. */
export function outcome(execution: IDataObject): string {
	const error = (execution.data as unknown as IRun['data'] | undefined)?.resultData.error;
	return error ? `${execution.status}: ${error.message}` : String(execution.status);
}

export function firstItems(runData: IRunData, node: string): INodeExecutionData[] {
	return runData[node]?.[0]?.data?.main?.[0] ?? [];
}

/** Activates the workflow for `act`, and deactivates it afterwards even when `act` fails (one webhook per session). */
export async function whileActive(
	n8n: N8nInstance,
	workflowId: string,
	act: () => Promise<void>,
): Promise<void> {
	await activate(n8n, workflowId);
	let failure: unknown;
	try {
		await act();
	} catch (error) {
		failure = error;
	}
	const deactivated = await n8n.api.post(`/workflows/${workflowId}/deactivate`, {});
	// The first failure is the one to read.
	if (failure) throw failure;
	expect(deactivated.status).toBe(200);
}

/** The OpenAI credential the AI example links by name, pointing at the scripted OpenAI server; returns its id. */
export async function createFakeOpenAiCredential(
	n8n: N8nInstance,
	fakeOpenAi: FakeOpenAi,
): Promise<string> {
	const openAi = await n8n.api.post('/credentials', {
		name: CREDENTIAL_NAMES.openAiApi,
		type: 'openAiApi',
		data: { apiKey: 'dummy-openai-key', url: fakeOpenAi.baseUrl, header: false },
	});
	if (openAi.status !== 200) {
		throw new Error(`Creating the OpenAI credential failed: ${JSON.stringify(openAi.data)}`);
	}
	return String(openAi.data.id);
}

/**
 * The echo bot, active, answers a person WhatsApp addresses by LID (SEED.lidPeople.dora): her
 * message starts one execution whose item carries her LID as chatId and her phone number, and the
 * echo goes to her LID. Returns the reply's body, as the gateway received it (`sentTexts` lists
 * the gateway's Send Text requests).
 */
export async function echoToLidPerson(
	n8n: N8nInstance,
	simulator: Simulator,
	workflowId: string,
	sentTexts: () => RecordedRequest[],
): Promise<unknown> {
	const { dora } = SEED.lidPeople;
	let body: unknown;
	await whileActive(n8n, workflowId, async () => {
		await simulator.injectInboundMessage({ from: dora.lid, text: 'hello by lid' });
		const [execution] = await finishedExecutions(n8n, workflowId, 1);
		expect(outcome(execution)).toBe('success');
		expect(firstItems(runDataOf(execution), 'On Message')[0]?.json).toEqual(
			expect.objectContaining({ chatId: dora.lid, phone: dora.number, lid: dora.lid }),
		);
		body = (await until('the echo', 10_000, async () => sentTexts().at(-1))).body;
	});
	return body;
}
