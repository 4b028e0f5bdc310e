/**
 * Drives n8n's real editor (served by the n8n of test/e2e/n8n-instance.cts) in Chromium through
 * playwright-core. One module for its two users: test/e2e/editor.e2e.ts opens every view and checks
 * that our nodes render in it, and `npm run screenshots` (take.cts) photographs the same views into
 * docs/images/. What a view must show is read from the built descriptions in dist/, so the checks
 * follow the code when labels change.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { INode, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { chromium } from 'playwright-core';
import type { Browser, Locator, Page } from 'playwright-core';

import { activate, createCredential, until } from '../e2e/e2e-helpers.cts';
import { DEFAULT_OWNER, startN8n } from '../e2e/n8n-instance.cts';
import type { N8nInstance } from '../e2e/n8n-instance.cts';
import { echoBotWorkflow } from '../e2e/workflows.cts';
import type { CredentialRef, WorkflowJson } from '../e2e/workflows.cts';
import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { chromiumPath } from '../support/chromium.cts';
import { PROJECT_ROOT } from '../support/paths.cts';

/** The size of the browser window and of the PNGs. */
export const VIEWPORT = { width: 1280, height: 800 };

const SESSION = SEED.instances.connected.name;
const CUSTOMER = SEED.contacts.alice;
const CREDENTIAL_NAME = 'Messaging Gateway account';
/** What the seed customer writes to the echo bot. */
const CUSTOMER_TEXT = 'Hi! Is my order ready?';
/** What the Send Text workflow sends the seed customer. */
const ORDER_UPDATE = 'Your order #1024 is ready for pickup.';

interface CreatedWorkflow {
	id: string;
	json: WorkflowJson;
}

/** The simulator and an n8n with the package, a credential and the workflows the views show. */
export interface EditorSandbox {
	simulator: Simulator;
	n8n: N8nInstance;
	credential: CredentialRef;
	/** Active: an incoming message runs it (the executions view). */
	echoBot: CreatedWorkflow;
	/** Manual Trigger → Send Text (the Send Text form). */
	sendText: CreatedWorkflow;
	stop(): Promise<void>;
}

/** The action node of a workflow (ours, whatever prefix its type has). */
function actionNodeOf(workflow: WorkflowJson): INode {
	const node = workflow.nodes.find((candidate) => candidate.type.endsWith('.messagingGateway'));
	if (!node) throw new Error(`"${workflow.name}" has no Messaging Gateway node`);
	return node;
}

function triggerNodeOf(workflow: WorkflowJson): INode {
	const node = workflow.nodes.find((candidate) =>
		candidate.type.endsWith('.messagingGatewayTrigger'),
	);
	if (!node) throw new Error(`"${workflow.name}" has no Messaging Gateway Trigger node`);
	return node;
}

/** A manual run of Send Text to the seed customer, built from the echo bot's reply node (same session shape). */
function sendTextWorkflow(echoBot: WorkflowJson): WorkflowJson {
	const reply = actionNodeOf(echoBot);
	const start = 'When clicking ‘Execute workflow’';
	return {
		name: 'Order update (Messaging Gateway)',
		settings: echoBot.settings,
		nodes: [
			{
				id: randomUUID(),
				name: start,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				...reply,
				id: randomUUID(),
				name: 'Tell the customer',
				position: [300, 0],
				parameters: {
					...reply.parameters,
					chatId: { __rl: true, mode: 'id', value: '+55 11 98765-0001' },
					text: ORDER_UPDATE,
				},
			},
		],
		connections: { [start]: { main: [[{ node: 'Tell the customer', type: 'main', index: 0 }]] } },
	};
}

async function createWorkflow(n8n: N8nInstance, json: WorkflowJson): Promise<CreatedWorkflow> {
	const created = await n8n.api.post('/workflows', json);
	if (created.status !== 200) {
		throw new Error(
			`Creating "${json.name}" failed: ${created.status} ${JSON.stringify(created.data)}`,
		);
	}
	return { id: String(created.data.id), json };
}

/** Starts the simulator and n8n in temporary folders (as the sandbox does); `stop` removes both. */
export async function startEditorSandbox(): Promise<EditorSandbox> {
	// Without a browser nothing can be shown: find (or install) it before starting n8n.
	chromiumPath();
	const simulator = await startSimulator();
	let n8n: N8nInstance | undefined;
	const stop = async () => {
		await n8n?.stop();
		await simulator.stop();
	};
	try {
		n8n = await startN8n({ env: { N8N_LOG_LEVEL: 'info' } });
		const credential = await createCredential(n8n, CREDENTIAL_NAME, {
			baseUrl: simulator.url,
			apiKey: simulator.apiKey,
		});
		const echoBot = await createWorkflow(n8n, echoBotWorkflow(credential, SESSION));
		await activate(n8n, echoBot.id);
		const sendText = await createWorkflow(n8n, sendTextWorkflow(echoBot.json));
		return { simulator, n8n, credential, echoBot, sendText, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

/** The labels of the built nodes (dist/), as the editor shows them. */
export interface BuiltLabels {
	/** The action node's display name (the nodes panel lists the package under it). */
	nodeName: string;
	/** The Message resource's name, as the Resource field shows it. */
	messageResource: string;
	/** What the nodes panel lists for every Message operation: its action text, else its name. */
	messageActions: string[];
	/** The name of the Send Text operation, as the Operation field shows it. */
	sendTextOperation: string;
	/** The required fields of Message → Send Text. */
	sendTextFields: string[];
	/** The trigger's fields that always show (its notices aside). */
	triggerFields: string[];
	/** The names of trigger events by value, as the Events field shows them. */
	eventNames: Map<string, string>;
}

function loadBuiltDescription(file: string): INodeTypeDescription {
	const absolute = path.join(PROJECT_ROOT, file);
	if (!fs.existsSync(absolute)) throw new Error(`${file} is missing: run npm run build first`);
	const className = path.basename(file).split('.')[0];
	// The build output itself: the labels must be the ones that ship.
	const exported = require(absolute) as Record<
		string,
		new () => { description: INodeTypeDescription }
	>;
	return new exported[className]().description;
}

/** Whether a field shows for a resource and operation, and depends on nothing else. */
function showsFor(property: INodeProperties, resource: string, operation?: string): boolean {
	const show = property.displayOptions?.show ?? {};
	const hide = property.displayOptions?.hide ?? {};
	const keys = Object.keys(show);
	if (
		Object.keys(hide).length > 0 ||
		keys.some((key) => key !== 'resource' && key !== 'operation')
	) {
		return false;
	}
	const allows = (key: string, value?: string) =>
		!show[key] || (value !== undefined && (show[key] as unknown[]).includes(value));
	return allows('resource', resource) && allows('operation', operation);
}

type Option = { name: string; value: unknown; action?: string };

export function builtLabels(): BuiltLabels {
	const manifest = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));
	const descriptions = (manifest.n8n.nodes as string[]).map(loadBuiltDescription);
	const trigger = descriptions.find((description) => description.group.includes('trigger'));
	const action = descriptions.find((description) => description !== trigger);
	if (!action || !trigger) throw new Error('package.json lists no action node or no trigger');
	const property = (name: string, resource?: string) => {
		const found = action.properties.find(
			(candidate) =>
				candidate.name === name && (resource === undefined || showsFor(candidate, resource)),
		);
		if (!found) throw new Error(`The built action node has no "${name}" field for ${resource}`);
		return found;
	};
	const optionNamed = (options: Option[], value: string) => {
		const option = options.find((candidate) => candidate.value === value);
		if (!option) throw new Error(`No option "${value}" in ${JSON.stringify(options)}`);
		return option.name;
	};
	const messageOperations = property('operation', 'message').options as Option[];
	const events = trigger.properties.find((candidate) => candidate.name === 'events');
	return {
		nodeName: action.displayName,
		messageResource: optionNamed(property('resource').options as Option[], 'message'),
		messageActions: messageOperations.map((option) => option.action ?? option.name),
		sendTextOperation: optionNamed(messageOperations, 'sendText'),
		sendTextFields: action.properties
			.filter(
				(candidate) =>
					candidate.required &&
					showsFor(candidate, 'message', 'sendText') &&
					candidate.displayOptions?.show?.operation !== undefined,
			)
			.map((candidate) => candidate.displayName),
		triggerFields: trigger.properties
			.filter((candidate) => candidate.type !== 'notice' && !candidate.displayOptions)
			.map((candidate) => candidate.displayName),
		eventNames: new Map(
			((events?.options ?? []) as Option[]).map((option) => [String(option.value), option.name]),
		),
	};
}

const byTestId = (page: Page | Locator, id: string) => page.locator(`[data-test-id="${id}"]`);

/** A Chromium page logged in to the sandbox's n8n as its owner, through the sign-in form. */
export async function openEditor(
	sandbox: EditorSandbox,
): Promise<{ page: Page; close: () => Promise<void> }> {
	const browser: Browser = await chromium.launch({
		executablePath: chromiumPath(),
		headless: true,
	});
	try {
		const page = await browser.newPage({ viewport: VIEWPORT, locale: 'en-US', timezoneId: 'UTC' });
		page.setDefaultTimeout(20_000);
		// n8n pops its production checklist up over the first published workflow a browser opens.
		await page.addLocatorHandler(byTestId(page, 'suggested-actions-close'), (close) =>
			close.click(),
		);
		await page.goto(`${sandbox.n8n.url}/signin`);
		await page.locator('#emailOrLdapLoginId').fill(DEFAULT_OWNER.email);
		await page.locator('#password').fill(DEFAULT_OWNER.password);
		await page.locator('[data-test-id="form-submit-button"]').click();
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
		return { page, close: () => browser.close() };
	} catch (error) {
		await browser.close();
		throw error;
	}
}

/**
 * Opens a workflow's canvas (or its run with `subpage` `/executions/<id>`) and waits until it shows
 * the node `nodeOf` picks; with `form`, opens that node's form (n8n's node details view) too.
 */
async function openWorkflow(
	page: Page,
	{ n8n }: EditorSandbox,
	{ id, json }: CreatedWorkflow,
	nodeOf: (workflow: WorkflowJson) => INode,
	{ subpage = '', form = false } = {},
): Promise<void> {
	await page.goto(`${n8n.url}/workflow/${id}${subpage}`);
	const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeOf(json).name}"]`);
	await node.waitFor();
	if (!form) return;
	await node.dblclick();
	await byTestId(page, 'node-parameters').waitFor();
}

/** Scrolls the scrollable panel that holds `element` until the element is `offset` px below the panel's top. */
async function scrollNearTop(element: Locator, offset: number): Promise<void> {
	await element.evaluate((target, pixels) => {
		const scrolls = (candidate: typeof target) =>
			candidate.scrollHeight > candidate.clientHeight &&
			['auto', 'scroll'].includes(
				target.ownerDocument.defaultView?.getComputedStyle(candidate).overflowY ?? '',
			);
		let panel = target.parentElement;
		while (panel && !scrolls(panel)) panel = panel.parentElement;
		if (!panel) return;
		panel.scrollTop +=
			target.getBoundingClientRect().top - panel.getBoundingClientRect().top - pixels;
	}, offset);
}

/** Closes the toasts n8n shows after a run ("Node executed successfully"). */
async function closeNotifications(page: Page): Promise<void> {
	const close = page.locator('.el-notification .el-notification__closeBtn');
	for (let count = await close.count(); count > 0; count--) await close.first().click();
	await page.locator('.el-notification').first().waitFor({ state: 'hidden' });
}

/** Whether the page shows `text` by `deadline`, as text or as a field's value (a select shows its choice in an input). */
async function shows(page: Page, text: string, deadline: number): Promise<boolean> {
	const asText = page.getByText(text, { exact: true }).filter({ visible: true });
	const fields = page.locator('input, textarea').filter({ visible: true });
	for (;;) {
		if ((await asText.count()) > 0) return true;
		const values = await fields.evaluateAll((elements) =>
			elements.map((element) => (element as { value?: string }).value),
		);
		if (values.includes(text)) return true;
		if (Date.now() > deadline) return false;
		await page.waitForTimeout(200);
	}
}

/** Texts among `texts` the page does not show within `timeoutMs` (all share the time). */
export async function missingTexts(
	page: Page,
	texts: string[],
	timeoutMs = 10_000,
): Promise<string[]> {
	const deadline = Date.now() + timeoutMs;
	const missing: string[] = [];
	for (const text of texts) if (!(await shows(page, text, deadline))) missing.push(text);
	return missing;
}

export interface EditorView {
	/** The PNG's name under docs/images/, and the test case's. */
	name: string;
	/** What the README says the picture shows. */
	caption: string;
	/** Opens the view and waits until it is complete. */
	show(page: Page, sandbox: EditorSandbox): Promise<void>;
	/** Texts the view must show. */
	expectedTexts(labels: BuiltLabels, sandbox: EditorSandbox): string[];
}

/** The run of the echo bot the executions view shows: a customer's message, made once. */
async function echoBotRun(sandbox: EditorSandbox): Promise<string> {
	const executions = async () =>
		(await sandbox.n8n.api.get('/executions', { params: { workflowId: sandbox.echoBot.id } })).data
			?.data as Array<{ id: string; status: string; stoppedAt?: string }> | undefined;
	if (!(await executions())?.length) {
		await sandbox.simulator.injectInboundMessage({
			instance: SESSION,
			from: CUSTOMER.number,
			text: CUSTOMER_TEXT,
		});
	}
	const finished = await until('the echo bot run', 30_000, async () => {
		const list = await executions();
		return list?.length && list.every((execution) => execution.stoppedAt) ? list : undefined;
	});
	if (finished[0].status !== 'success') {
		throw new Error(`The echo bot run ended with status ${finished[0].status}`);
	}
	return finished[0].id;
}

export const EDITOR_VIEWS: EditorView[] = [
	{
		name: 'nodes-panel',
		caption: 'The nodes panel, searching "messaging": the node and its actions',
		show: async (page, sandbox) => {
			await openWorkflow(page, sandbox, sandbox.echoBot, triggerNodeOf);
			await byTestId(page, 'node-creator-plus-button').click();
			await byTestId(page, 'node-creator-search-bar').fill('messaging');
			const labels = builtLabels();
			await byTestId(page, 'node-creator-item-name')
				.filter({ hasText: labels.nodeName })
				.first()
				.click();
			// The Message actions, just under the panel's header.
			const firstMessageAction = page.getByText(labels.messageActions[0], { exact: true });
			// A trial click waits until the panel has finished sliding in.
			await firstMessageAction.click({ trial: true });
			await scrollNearTop(firstMessageAction, 45);
		},
		expectedTexts: (labels) => [labels.nodeName, ...labels.messageActions],
	},
	{
		name: 'send-text',
		caption: 'Message → Send Text with its credential, after a run',
		show: async (page, sandbox) => {
			await openWorkflow(page, sandbox, sandbox.sendText, actionNodeOf, { form: true });
			await byTestId(page, 'node-execute-button').click();
			// The output shows the message the gateway sent.
			const output = byTestId(page, 'output-panel');
			await output.getByText(ORDER_UPDATE).first().waitFor();
			// As JSON, the whole answer shows (messageId too); the table cuts it at the panel's edge.
			await byTestId(output, 'ndv-run-data-display-mode')
				.getByText('JSON', { exact: true })
				.click();
			await output.getByText('"messageId"').waitFor();
			await closeNotifications(page);
		},
		expectedTexts: (labels, sandbox) => [
			sandbox.credential.name,
			labels.messageResource,
			labels.sendTextOperation,
			...labels.sendTextFields,
		],
	},
	{
		name: 'trigger',
		caption: 'The trigger: session, events, filters and options',
		show: async (page, sandbox) => {
			await openWorkflow(page, sandbox, sandbox.echoBot, triggerNodeOf, { form: true });
		},
		expectedTexts: (labels, sandbox) => {
			const events = triggerNodeOf(sandbox.echoBot.json).parameters.events as string[];
			return [
				sandbox.credential.name,
				...labels.triggerFields,
				...events.map((event) => labels.eventNames.get(event) ?? `event ${event}`),
			];
		},
	},
	{
		name: 'echo-bot-run',
		caption: 'An echo bot run: a message arrived and the bot answered',
		show: async (page, sandbox) => {
			const workflow = sandbox.echoBot;
			const executionId = await echoBotRun(sandbox);
			await openWorkflow(page, sandbox, workflow, actionNodeOf, {
				subpage: `/executions/${executionId}`,
			});
			for (const node of workflow.json.nodes) {
				await page
					.locator(`[data-test-id="canvas-node"][data-node-name="${node.name}"]`)
					.locator('[data-test-id="canvas-node-status-success"]')
					.waitFor();
			}
			// The logs panel shows the reply the bot sent.
			await byTestId(page, 'logs-overview-header').click();
			await byTestId(page, 'log-details-output').waitFor();
		},
		expectedTexts: (_labels, sandbox) => [
			...sandbox.echoBot.json.nodes.map((node) => node.name),
			`Echo: ${CUSTOMER_TEXT}`,
		],
	},
];
