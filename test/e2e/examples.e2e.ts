/**
 * The example workflows users import (examples/*.json) in a real n8n (2.41.1, or the one
 * N8N_E2E_VERSION picks; on 1.x see NEEDS_N8N_2X.exampleNodeVersions) against the gateway
 * simulator: each file is saved as the editor saves an imported file, with only its Session (and
 * the download folder) changed; n8n links its credentials by name; then it runs as a user runs it
 * (activated and fed by the gateway, or executed) and the test checks what reached the gateway.
 */
import axios from 'axios';
import { sleep } from 'n8n-workflow';
import type { IDataObject, INode, IRun } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { MessageSnapshot, Simulator } from '../simulator/index.cts';
import { avatarPng } from '../simulator/png.cts';
import { FAKE_TOOL_CALL_ID, startFakeOpenAi } from '../support/fake-openai.cts';
import type { FakeOpenAi } from '../support/fake-openai.cts';
import {
	activate,
	allExecutions,
	binaryContent,
	createCredential,
	filesIn,
	hasFeature,
	removeFolder,
	scratchFolder,
	until,
} from './e2e-helpers.cts';
import * as runs from './example-runs.cts';
import {
	createFakeOpenAiCredential,
	CREDENTIAL_NAMES,
	FILES_FOLDER_PLACEHOLDER,
	firstItems,
	importExample,
	outcome,
	runDataOf,
	SESSION_PLACEHOLDER,
	sessionNameOf,
	withSession,
} from './example-runs.cts';
import { executeWorkflow } from './n8n-cli.cts';
import { startN8n } from './n8n-instance.cts';
import type { N8nInstance } from './n8n-instance.cts';
import {
	ACTION_TYPE,
	CREDENTIAL_TYPE,
	exampleFileNames,
	readExample,
	TOOL_TYPE,
	TRIGGER_TYPE,
} from './workflows.cts';
import type { WorkflowJson } from './workflows.cts';

const OUR_TYPES = [ACTION_TYPE, TRIGGER_TYPE, TOOL_TYPE];
/** n8n's own nodes the examples use at a version n8n 1.x does not have (NEEDS_N8N_2X.exampleNodeVersions). */
const NEWER_THAN_N8N_1X: Record<string, number> = {
	'@n8n/n8n-nodes-langchain.agent': 3.1,
	'n8n-nodes-base.readWriteFile': 1.1,
};

const CONNECTED = SEED.instances.connected.name;
const PAIRING = SEED.instances.pairing.name;
const ALICE = SEED.contacts.alice;
const BRUNO = SEED.contacts.bruno;
const CARLA = SEED.contacts.carla;

let simulator: Simulator;
let fakeOpenAi: FakeOpenAi;
let n8n: N8nInstance;
let filesFolder: string;
const credentialIds: Record<string, string> = {};

beforeAll(async () => {
	simulator = await startSimulator();
	fakeOpenAi = await startFakeOpenAi();
	filesFolder = scratchFolder('n8n-mg-example-files-');
	n8n = await startN8n({ env: { N8N_RESTRICT_FILE_ACCESS_TO: filesFolder } });
	const gateway = await createCredential(n8n, CREDENTIAL_NAMES[CREDENTIAL_TYPE], {
		baseUrl: simulator.url,
		apiKey: simulator.apiKey,
	});
	credentialIds[CREDENTIAL_TYPE] = gateway.id;
	credentialIds.openAiApi = await createFakeOpenAiCredential(n8n, fakeOpenAi);
}, 300_000);

afterAll(async () => {
	await n8n?.stop();
	await fakeOpenAi?.stop();
	await simulator?.stop();
	if (filesFolder) removeFolder(filesFolder);
});

/** Waits until the workflow has `count` finished executions; returns them with their data. */
const finishedExecutions = async (workflowId: string, count: number) =>
	await runs.finishedExecutions(n8n, workflowId, count);

/** Activates the workflow for `act`, and deactivates it afterwards even when `act` fails (one webhook per session). */
const whileActive = async (workflowId: string, act: () => Promise<void>) =>
	await runs.whileActive(n8n, workflowId, act);

function sendTextRequests() {
	return simulator.requestsTo('/message/sendText/', 'POST');
}

interface LoadedNodeType {
	name: string;
	version: number | number[];
	properties: Array<{ name: string }>;
}
let nodeTypesLoaded: Promise<LoadedNodeType[]> | undefined;

/** Every node type (each version) the editor knows, fetched once: the list is large. */
async function loadedNodeTypes(): Promise<LoadedNodeType[]> {
	nodeTypesLoaded ??= n8n.web.get('/types/nodes.json').then((response) => {
		expect(response.status).toBe(200);
		return response.data as LoadedNodeType[];
	});
	return await nodeTypesLoaded;
}

interface ExampleCase {
	/** The session the user would set after import. */
	session: string;
	run(workflowId: string, example: WorkflowJson): Promise<void>;
	/** What n8n 1.x does instead, for an example it cannot run (NEEDS_N8N_2X.exampleNodeVersions). */
	on1x?(workflowId: string): Promise<void>;
}

function nodeOf(example: WorkflowJson, type: string): INode {
	const node = example.nodes.find((candidate) => candidate.type === type);
	if (!node) throw new Error(`The example has no ${type} node`);
	return node;
}

interface FromAiField {
	description: string;
	type: string;
}

/** The `$fromAI('key', 'description', 'type')` calls in a tool node's parameters, by key. */
function fromAiFieldsOf(node: INode): Record<string, FromAiField> {
	const calls = JSON.stringify(node.parameters).matchAll(
		/\$fromAI\('([^']+)', '([^']*)', '([^']+)'\)/g,
	);
	return Object.fromEntries(
		[...calls].map(([, key, description, type]) => [key, { description, type }]),
	);
}

const CASES: Record<string, ExampleCase> = {
	'ai-whatsapp-assistant.json': {
		session: CONNECTED,
		// On the Messaging Gateway API, Combine Rapid Messages reads the chat from Evolution API v1's
		// findMessages (the simulator answers it): a text turn goes through the agent to a reply.
		// test/e2e/assistant.e2e.ts runs every kind of turn on WAHA. Another customer than the other
		// examples' writes, so their messages of a moment ago are not part of this turn.
		run: async (workflowId) => {
			const reply = 'We have sourdough until 6 pm.';
			fakeOpenAi.script({ toolArguments: { emoji: '👍' }, finalText: reply });
			const completions = fakeOpenAi.completions.length;
			await whileActive(workflowId, async () => {
				await simulator.injectInboundMessage({ from: CARLA.number, text: 'Any sourdough today?' });
				const [execution] = await finishedExecutions(workflowId, 1);
				expect(outcome(execution)).toBe('success');
				expect(
					firstItems(runDataOf(execution), 'Combine Rapid Messages').map((item) => item.json.text),
				).toEqual(['Any sourdough today?']);
			});
			expect(sendTextRequests().map((request) => request.body)).toEqual([
				expect.objectContaining({ number: CARLA.number, textMessage: { text: reply } }),
			]);
			expect(fakeOpenAi.completions.length - completions).toBe(2);
			expect(JSON.stringify(fakeOpenAi.completions[completions].body.messages)).toContain(
				'Any sourdough today?',
			);
			expect(fakeOpenAi.transcriptions).toEqual([]);
			expect(fakeOpenAi.imageAnalyses).toEqual([]);
			// Pause While a Person Answers reads the chat's newest page, then Combine Rapid Messages.
			expect(
				simulator.requestsTo('/chat/findMessages/', 'POST').map((request) => request.body),
			).toEqual([
				{ where: { key: { remoteJid: CARLA.number } }, limit: 50 },
				{ where: { key: { remoteJid: CARLA.number } }, limit: 50 },
			]);
		},
		// n8n 1.x has no AI Agent 3.1: the workflow cannot be activated, and nothing is sent.
		on1x: async (workflowId) => {
			await expect(activate(n8n, workflowId)).rejects.toThrow(
				/^Activation failed: 400 .*Cannot read properties of undefined \(reading 'execute'\)/,
			);
			expect(sendTextRequests()).toEqual([]);
		},
	},
	'approval-request.json': {
		session: CONNECTED,
		run: async (workflowId) => {
			await whileActive(workflowId, async () => {
				await simulator.injectInboundMessage({
					from: ALICE.number,
					text: 'My parcel arrived broken',
				});
				// The manager gets the question with the two signed links; the execution waits.
				const asked = await until('the question to the manager', 30_000, async () =>
					sendTextRequests().find(
						(request) => (request.body as IDataObject).number === BRUNO.number,
					),
				);
				const text = String(((asked.body as IDataObject).textMessage as IDataObject).text);
				expect(text).toMatch(/wrote: "My parcel arrived broken"\nMay we give them a refund\?/);
				const refund = /^✓ Refund: (\S+)$/m.exec(text)?.[1];
				expect(refund).toMatch(/\/webhook-waiting\/\d+\/[\w-]+\?approved=true&signature=/);
				const [waiting] = await until('the execution to wait', 30_000, async () => {
					const executions = await allExecutions(n8n, workflowId);
					return executions.some((execution) => execution.status === 'waiting')
						? executions
						: undefined;
				});
				expect(waiting.status).toBe('waiting');

				const opened = await axios.get(refund!, { validateStatus: () => true });
				expect(opened.status).toBe(200);
				const [execution] = await finishedExecutions(workflowId, 1);
				expect(outcome(execution)).toBe('success');
			});
			// The customer hears the manager's decision.
			expect(sendTextRequests().at(-1)?.body).toEqual({
				number: ALICE.number,
				textMessage: { text: 'Good news: your refund is approved.' },
			});
		},
	},
	'echo-bot.json': {
		session: CONNECTED,
		run: async (workflowId) => {
			await whileActive(workflowId, async () => {
				await simulator.injectInboundMessage({ from: ALICE.number, text: 'hello examples' });
				await finishedExecutions(workflowId, 1);
				const reply = await until('the echo', 10_000, async () => sendTextRequests().at(-1));
				expect(reply.path).toBe(`/message/sendText/${CONNECTED}`);
				expect(reply.body).toEqual({
					number: ALICE.number,
					textMessage: { text: 'Echo: hello examples' },
				});
				// The bot's own echo comes back as a delivery and must not be echoed again.
				await sleep(1500);
				expect(sendTextRequests()).toHaveLength(1);
				expect(await allExecutions(n8n, workflowId)).toHaveLength(1);
			});
		},
	},

	'qr-login.json': {
		session: PAIRING,
		run: async (workflowId) => {
			await whileActive(workflowId, async () => {
				const restart = await axios.put(`${simulator.url}/instance/restart/${PAIRING}`, undefined, {
					headers: { apikey: simulator.apiKey },
				});
				expect(restart.status).toBe(200);
				const [execution] = await finishedExecutions(workflowId, 1);
				expect(outcome(execution)).toBe('success');
				const [item] = firstItems(runDataOf(execution), 'On QR Code');
				expect(item.json).toEqual(
					expect.objectContaining({ event: 'QRCODE_UPDATED', session: PAIRING }),
				);
				expect(item.binary?.data).toEqual(
					expect.objectContaining({ mimeType: 'image/png', fileName: 'qrcode.png' }),
				);
				const png = await binaryContent(n8n, item.binary!.data as unknown as IDataObject);
				const delivered = simulator.deliveries.find(
					(delivery) => delivery.body?.event === 'qrcode.updated',
				);
				const dataUri = String((delivered?.body?.data?.qrcode as IDataObject).base64);
				expect(png.subarray(0, 8)).toEqual(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'));
				expect(png.equals(Buffer.from(dataUri.split(',')[1], 'base64'))).toBe(true);
			});
		},
	},

	'bulk-send.json': {
		session: CONNECTED,
		run: async (workflowId, example) => {
			const send = nodeOf(example, ACTION_TYPE);
			const waitMs = (send.parameters.options as IDataObject).waitBetweenItems as number;
			expect(waitMs).toBeGreaterThan(0);

			const run: IRun = await executeWorkflow(n8n, workflowId);

			expect(run.data.resultData.error).toBeUndefined();
			const recipients = firstItems(run.data.resultData.runData, 'Recipients');
			expect(recipients.length).toBeGreaterThan(1);
			const sent = sendTextRequests();
			expect(sent.map((request) => request.body)).toEqual(
				recipients.map(({ json }) => ({
					number: String(json.number).replace(/\D/g, ''),
					textMessage: { text: `Hi ${json.name}! Our shop opens at 9 am tomorrow. See you there!` },
				})),
			);
			const gaps = sent.slice(1).map((request, index) => request.at - sent[index].at);
			// Timers may fire a millisecond early; anything shorter would mean no wait at all.
			for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(waitMs - 5);
			expect(firstItems(run.data.resultData.runData, send.name)).toHaveLength(recipients.length);
		},
	},

	'download-media.json': {
		session: CONNECTED,
		run: async (workflowId) => {
			const photo = avatarPng([200, 40, 90], 24);
			await whileActive(workflowId, async () => {
				// A text message is filtered out; only the photo is downloaded and written.
				await simulator.injectInboundMessage({ from: BRUNO.number, text: 'no file here' });
				const image = await simulator.injectInboundMessage({
					from: ALICE.number,
					media: { mimetype: 'image/png', base64: photo.toString('base64'), caption: 'receipt' },
				});
				const executions = await finishedExecutions(workflowId, 2);
				expect(executions.map(outcome)).toEqual(['success', 'success']);
				expect(filesIn(filesFolder)).toEqual([
					{ path: `media-${image.shortId}.png`, content: photo },
				]);
				expect(simulator.requestsTo('/chat/getBase64FromMediaMessage/', 'POST')).toHaveLength(1);
			});
		},
	},

	'ai-agent-whatsapp.json': {
		session: CONNECTED,
		run: async (workflowId, example) => {
			const tool = nodeOf(example, TOOL_TYPE);
			const fields = fromAiFieldsOf(tool);
			const script = {
				toolArguments: { message: 'We open at 9 am tomorrow. See you!', quoteCustomer: true },
				finalText: 'I told the customer we open at 9 am, quoting their question.',
			};
			expect(Object.keys(fields).sort()).toEqual(Object.keys(script.toolArguments).sort());
			fakeOpenAi.script(script);
			let question: MessageSnapshot | undefined;
			await whileActive(workflowId, async () => {
				question = await simulator.injectInboundMessage({
					from: ALICE.number,
					text: 'When do you open?',
				});
				const [execution] = await finishedExecutions(workflowId, 1);
				expect(outcome(execution)).toBe('success');
				// The agent's final answer is the workflow's output.
				expect(firstItems(runDataOf(execution), 'AI Agent')[0].json.output).toBe(script.finalText);
			});
			// The tool sent what the model asked for, to the customer who wrote, quoting the question.
			expect(sendTextRequests().map((request) => request.path)).toEqual([
				`/message/sendText/${CONNECTED}`,
			]);
			expect(sendTextRequests().map((request) => request.body)).toEqual([
				{
					number: ALICE.number,
					options: {
						quoted: {
							key: { id: question!.shortId, remoteJid: question!.remoteJid, fromMe: false },
						},
					},
					textMessage: { text: script.toolArguments.message },
				},
			]);
			const [toolCall, final] = fakeOpenAi.completions;
			expect(fakeOpenAi.completions.map((completion) => completion.answered)).toEqual([
				{ toolCall: tool.name.replace(/ /g, '_'), arguments: script.toolArguments },
				{ text: script.finalText },
			]);
			expect(toolCall.authorization).toBe('Bearer dummy-openai-key');
			expect(JSON.stringify(toolCall.body.messages)).toContain('When do you open?');
			// What the model reads about the tool: the example's description, and one described
			// parameter per $fromAI() field, all of them required.
			expect(toolCall.body.tools).toHaveLength(1);
			const offered = toolCall.body.tools![0].function;
			expect(offered.name).toBe(tool.name.replace(/ /g, '_'));
			expect(offered.description).toBe(tool.parameters.toolDescription);
			expect(offered.parameters).toEqual(
				expect.objectContaining({
					type: 'object',
					properties: Object.fromEntries(
						Object.entries(fields).map(([key, field]) => [
							key,
							{ type: field.type, description: field.description },
						]),
					),
				}),
			);
			expect((offered.parameters!.required as string[]).sort()).toEqual(Object.keys(fields).sort());
			for (const field of Object.values(fields))
				expect(field.description.length).toBeGreaterThan(20);
			// The model got the tool's result: the ID of the message the gateway stored as sent.
			const toolResult = final.body.messages.find((message) => message.role === 'tool');
			expect(toolResult?.tool_call_id).toBe(FAKE_TOOL_CALL_ID);
			const sentId = new RegExp(`true_${ALICE.chatId}_[A-Za-z0-9]+`).exec(
				String(toolResult?.content),
			)?.[0];
			const sent = simulator.findMessage(CONNECTED, String(sentId));
			expect(sent).toEqual(
				expect.objectContaining({ id: sentId, fromMe: true, chatId: ALICE.chatId }),
			);
			expect(JSON.stringify(sent?.evolution)).toContain(script.toolArguments.message);
		},
		// n8n 1.x has no AI Agent 3.1: the workflow cannot be activated, and nothing is sent.
		on1x: async (workflowId) => {
			await expect(activate(n8n, workflowId)).rejects.toThrow(
				/^Activation failed: 400 .*Cannot read properties of undefined \(reading 'execute'\)/,
			);
			expect(sendTextRequests()).toEqual([]);
		},
	},
};

describe('the example workflows', () => {
	const files = exampleFileNames();

	it('are the files the cases cover, and no case lacks its file', () => {
		expect(files.length).toBeGreaterThan(0);
		expect(Object.keys(CASES).sort()).toEqual(files);
	});

	it.each(files)(
		'%s uses node types, versions and parameters that n8n has (our nodes at their newest version), and no credential of this instance',
		async (file) => {
			const example = readExample(file);
			const nodeTypes = await loadedNodeTypes();
			for (const node of example.nodes) {
				const type = nodeTypes.find(
					(candidate) =>
						candidate.name === node.type &&
						([] as number[]).concat(candidate.version).includes(node.typeVersion),
				);
				const newerThan1x = NEWER_THAN_N8N_1X[node.type] === node.typeVersion;
				expect({ node: node.name, known: type !== undefined }).toEqual({
					node: node.name,
					known: hasFeature(n8n, 'exampleNodeVersions') || !newerThan1x,
				});
				if (!type) continue;
				if (OUR_TYPES.includes(node.type)) {
					const versions = nodeTypes
						.filter((candidate) => candidate.name === node.type)
						.flatMap((candidate) => ([] as number[]).concat(candidate.version));
					expect({ node: node.name, typeVersion: node.typeVersion }).toEqual({
						node: node.name,
						typeVersion: Math.max(...versions),
					});
				}
				const names = new Set(type!.properties.map((property) => property.name));
				const unknown = Object.keys(node.parameters).filter((name) => !names.has(name));
				expect({ node: node.name, unknown }).toEqual({ node: node.name, unknown: [] });
				for (const [credentialType, credential] of Object.entries(node.credentials ?? {})) {
					expect(credential).toEqual({ id: null, name: CREDENTIAL_NAMES[credentialType] });
				}
			}
		},
	);

	it.each(files)(
		'%s runs once imported with its Session set',
		async (file) => {
			const exampleCase = CASES[file];
			expect(exampleCase).toBeDefined();
			const example = readExample(file);
			const placeholders = example.nodes.filter(
				(node) => sessionNameOf(node.parameters.session) === SESSION_PLACEHOLDER,
			);
			expect(placeholders.length).toBeGreaterThan(0);
			const imported = JSON.parse(
				JSON.stringify(withSession(example, exampleCase.session))
					.split(FILES_FOLDER_PLACEHOLDER)
					.join(filesFolder),
			) as WorkflowJson;
			simulator.clearLogs();

			const workflowId = await importExample(n8n, imported, credentialIds);
			if (exampleCase.on1x && !hasFeature(n8n, 'exampleNodeVersions')) {
				await exampleCase.on1x(workflowId);
			} else {
				await exampleCase.run(workflowId, example);
			}
		},
		120_000,
	);
});

describe("the AI agent's Send Text tool with Split Into Messages", () => {
	it('sends the text the model wrote as one message per paragraph, in order, typing before each, and tells the model every part', async () => {
		const example = readExample('ai-agent-whatsapp.json');
		const tool = nodeOf(example, TOOL_TYPE);
		tool.parameters.options = {
			...(tool.parameters.options as IDataObject),
			splitInto: 'paragraph',
			typingPerCharacter: 10,
			typingMinimum: 200,
			typingMaximum: 400,
		};
		const paragraphs = ['We open at 9 am tomorrow.', 'Sourdough is ready at 10.', 'See you!'];
		fakeOpenAi.script({
			toolArguments: { message: paragraphs.join('\n\n'), quoteCustomer: false },
			finalText: 'I answered in three messages.',
		});
		simulator.clearLogs();
		const workflowId = await importExample(n8n, withSession(example, CONNECTED), credentialIds);
		if (!hasFeature(n8n, 'exampleNodeVersions')) {
			// n8n 1.x has no AI Agent 3.1 (see the example's own case).
			await expect(activate(n8n, workflowId)).rejects.toThrow(/^Activation failed: 400 /);
			return;
		}
		const completions = fakeOpenAi.completions.length;
		await whileActive(workflowId, async () => {
			await simulator.injectInboundMessage({ from: ALICE.number, text: 'When do you open?' });
			const [execution] = await finishedExecutions(workflowId, 1);
			expect(outcome(execution)).toBe('success');
		});
		const sends = sendTextRequests();
		expect(sends.map((request) => (request.body as IDataObject).textMessage)).toEqual(
			paragraphs.map((text) => ({ text })),
		);
		// Typing for 10 ms a character within 200–400 ms, shown by the gateway before each part.
		expect(sends.map((request) => (request.body as IDataObject).options as IDataObject)).toEqual(
			paragraphs.map((text) =>
				expect.objectContaining({
					delay: Math.min(400, Math.max(200, text.length * 10)),
					presence: 'composing',
				}),
			),
		);
		for (let index = 1; index < sends.length; index++) {
			expect(sends[index].at).toBeGreaterThan(sends[index - 1].at);
		}
		const final = fakeOpenAi.completions[completions + 1];
		const toolResult = String(
			final.body.messages.find((message) => message.role === 'tool')?.content,
		);
		for (const text of paragraphs) expect(toolResult).toContain(text);
		expect(
			toolResult.match(new RegExp(`true_${ALICE.chatId}_[A-Za-z0-9]+`, 'g'))?.length,
		).toBeGreaterThanOrEqual(3);
	}, 120_000);
});
