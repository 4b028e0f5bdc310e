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

import { NodeHelpers } from 'n8n-workflow';
import type {
	ICredentialType,
	IDataObject,
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { chromium } from 'playwright-core';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';

import { combineRapidWorkflow } from '../e2e/combine-rapid.cts';
import { activate, createCredential, until } from '../e2e/e2e-helpers.cts';
import { n8nVersionProfile } from '../e2e/n8n-install.cts';
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
const WAHA_CREDENTIAL_NAME = 'WAHA account';
/** What the seed customer writes to the echo bot. */
const CUSTOMER_TEXT = 'Hi! Is my order ready?';
/** What the Send Text workflow sends the seed customer. */
const ORDER_UPDATE = 'Your order #1024 is ready for pickup.';
/** The paced Send Text's Options: 20 sends a minute from the session, up to 5 s later at random, one n8n sending. */
const OFFER_PACE = { pacePerMinute: 20, paceJitterSeconds: 5, paceWorkers: 1 };

interface CreatedWorkflow {
	id: string;
	json: WorkflowJson;
}

/** The simulators (the spec's and WAHA's) and an n8n with the package, its credentials and the views' workflows. */
export interface EditorSandbox {
	simulator: Simulator;
	n8n: N8nInstance;
	credential: CredentialRef;
	/** Gateway: WAHA, on a second simulator that plays WAHA. */
	wahaCredential: CredentialRef;
	/** Active: an incoming message runs it (the executions view). */
	echoBot: CreatedWorkflow;
	/** Manual Trigger → Send Text (the Send Text form). */
	sendText: CreatedWorkflow;
	/** Trigger → Combine Rapid Messages → Send Text (the Combine Rapid Messages form). */
	combineRapid: CreatedWorkflow;
	/** Manual Trigger → Status → Post (the Post a Status form). */
	statusPost: CreatedWorkflow;
	/** Manual Trigger → Send Text with Pace Sends in its Options (the pace's form). */
	sendPace: CreatedWorkflow;
	/** Inactive: the echo bot answering on two sessions (the trigger's Several Sessions form). */
	severalSessions: CreatedWorkflow;
	/** Inactive: the echo bot with the WAHA credential (the trigger's form on WAHA). */
	wahaEchoBot: CreatedWorkflow;
	stop(): Promise<void>;
}

/** The action node of a workflow (ours, whatever prefix its type has), the first of `operation` if given. */
function actionNodeOf(workflow: WorkflowJson, operation?: string): INode {
	const node = workflow.nodes.find(
		(candidate) =>
			candidate.type.endsWith('.messagingGateway') &&
			(!operation || candidate.parameters.operation === operation),
	);
	if (!node) {
		const doing = operation ? ` doing ${operation}` : '';
		throw new Error(`"${workflow.name}" has no Messaging Gateway node${doing}`);
	}
	return node;
}

const combineRapidNodeOf = (workflow: WorkflowJson) => actionNodeOf(workflow, 'combineRapid');

function triggerNodeOf(workflow: WorkflowJson): INode {
	const node = workflow.nodes.find((candidate) =>
		candidate.type.endsWith('.messagingGatewayTrigger'),
	);
	if (!node) throw new Error(`"${workflow.name}" has no Messaging Gateway Trigger node`);
	return node;
}

/** Manual Trigger → the echo bot's action node named `nodeName`, with `parameters` over its own. */
function manualWorkflow(
	echoBot: WorkflowJson,
	name: string,
	nodeName: string,
	parameters: INodeParameters,
): WorkflowJson {
	const action = actionNodeOf(echoBot);
	const start = 'When clicking ‘Execute workflow’';
	return {
		name,
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
				...action,
				id: randomUUID(),
				name: nodeName,
				position: [300, 0],
				parameters: { ...action.parameters, ...parameters },
			},
		],
		connections: { [start]: { main: [[{ node: nodeName, type: 'main', index: 0 }]] } },
	};
}

/** A manual run of Send Text to the seed customer, built from the echo bot's reply node (same session shape). */
function sendTextWorkflow(echoBot: WorkflowJson): WorkflowJson {
	return manualWorkflow(echoBot, 'Order update (Messaging Gateway)', 'Tell the customer', {
		chatId: { __rl: true, mode: 'id', value: '+55 11 98765-0001' },
		text: ORDER_UPDATE,
	});
}

/** Manual Trigger → Status → Post, a text on green in Bebas Neue (the Post a Status form). */
function statusPostWorkflow(echoBot: WorkflowJson): WorkflowJson {
	const { session } = actionNodeOf(echoBot).parameters;
	return manualWorkflow(echoBot, 'Sunday opening (Messaging Gateway)', 'Post the opening hours', {
		resource: 'status',
		operation: 'post',
		session,
		statusType: 'text',
		text: 'Open on Sunday from 9 to 13!',
		font: 'bebasNeueRegular',
		audience: 'allContacts',
	});
}

/** Manual Trigger → Send Text of an offer, paced (OFFER_PACE): the Pace Sends options in the form. */
function sendPaceWorkflow(echoBot: WorkflowJson): WorkflowJson {
	return manualWorkflow(echoBot, 'Weekly offer (Messaging Gateway)', 'Send the offer', {
		chatId: { __rl: true, mode: 'id', value: '+55 11 98765-0001' },
		text: 'This week only: 10% off every cake.',
		options: OFFER_PACE,
	});
}

/** The echo bot answering on two numbers: its trigger watches Several Sessions. */
function severalSessionsWorkflow(credential: CredentialRef): WorkflowJson {
	const workflow = echoBotWorkflow(credential, SESSION);
	const trigger = triggerNodeOf(workflow);
	trigger.parameters = {
		...trigger.parameters,
		sessionScope: 'several',
		sessions: [SESSION, SEED.instances.pairing.name],
	};
	return { ...workflow, name: 'Echo bot on two numbers (Messaging Gateway)' };
}

/** The echo bot on WAHA, its trigger with WAHA's own option (Redeliver For) set, so the form shows it. */
function wahaEchoBotWorkflow(credential: CredentialRef): WorkflowJson {
	const workflow = echoBotWorkflow(credential, SESSION);
	const trigger = triggerNodeOf(workflow);
	trigger.parameters = {
		...trigger.parameters,
		options: { redeliverMinutes: 30 },
	};
	return { ...workflow, name: 'Echo bot on WAHA (Messaging Gateway)' };
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
	let wahaSimulator: Simulator | undefined;
	let n8n: N8nInstance | undefined;
	const stop = async () => {
		await n8n?.stop();
		await wahaSimulator?.stop();
		await simulator.stop();
	};
	try {
		wahaSimulator = await startSimulator({ gateway: 'waha' });
		n8n = await startN8n({ env: { N8N_LOG_LEVEL: 'info' } });
		const credential = await createCredential(n8n, CREDENTIAL_NAME, {
			baseUrl: simulator.url,
			apiKey: simulator.apiKey,
		});
		const wahaCredential = await createCredential(n8n, WAHA_CREDENTIAL_NAME, {
			gateway: 'waha',
			baseUrl: wahaSimulator.url,
			apiKey: wahaSimulator.apiKey,
		});
		const echoBot = await createWorkflow(n8n, echoBotWorkflow(credential, SESSION));
		await activate(n8n, echoBot.id);
		const sendText = await createWorkflow(n8n, sendTextWorkflow(echoBot.json));
		const combineRapid = await createWorkflow(n8n, combineRapidWorkflow(credential, SESSION));
		const statusPost = await createWorkflow(n8n, statusPostWorkflow(echoBot.json));
		const sendPace = await createWorkflow(n8n, sendPaceWorkflow(echoBot.json));
		const severalSessions = await createWorkflow(n8n, severalSessionsWorkflow(credential));
		const wahaEchoBot = await createWorkflow(n8n, wahaEchoBotWorkflow(wahaCredential));
		return {
			simulator,
			n8n,
			credential,
			wahaCredential,
			echoBot,
			sendText,
			combineRapid,
			statusPost,
			sendPace,
			severalSessions,
			wahaEchoBot,
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

/** The node descriptions and the credential as built into dist/ (the ones that ship). */
export interface BuiltNodes {
	action: INodeTypeDescription;
	trigger: INodeTypeDescription;
	credential: ICredentialType;
}

/** A new instance of the class the built `file` exports under the file's name. */
function loadBuilt<T>(file: string): T {
	const absolute = path.join(PROJECT_ROOT, file);
	if (!fs.existsSync(absolute)) throw new Error(`${file} is missing: run npm run build first`);
	const className = path.basename(file).split('.')[0];
	const exported = require(absolute) as Record<string, new () => T>;
	return new exported[className]();
}

export function builtNodes(): BuiltNodes {
	const manifest = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));
	const descriptions = (manifest.n8n.nodes as string[]).map(
		(file) => loadBuilt<{ description: INodeTypeDescription }>(file).description,
	);
	const trigger = descriptions.find((description) => description.group.includes('trigger'));
	const action = descriptions.find((description) => description !== trigger);
	const [credential] = (manifest.n8n.credentials as string[]).map(loadBuilt<ICredentialType>);
	if (!action || !trigger) throw new Error('package.json lists no action node or no trigger');
	if (!credential) throw new Error('package.json lists no credential');
	return { action, trigger, credential };
}

/** The fields the editor shows for `node`, decided by n8n's own rule (displayOptions, version). */
function shownFields(description: INodeTypeDescription, node: INode): INodeProperties[] {
	const values =
		NodeHelpers.getNodeParameters(
			description.properties,
			node.parameters,
			true,
			false,
			node,
			description,
		) ?? {};
	return description.properties.filter((property) =>
		NodeHelpers.displayParameter(values, property, node, description),
	);
}

/** The credential's Gateway field: its label and the names of its choices. */
function gatewayField(credential: ICredentialType): { label: string; choices: string[] } {
	const field = credential.properties.find((property) => property.name === 'gateway');
	if (!field) throw new Error(`The credential ${credential.displayName} has no Gateway field`);
	const options = (field.options ?? []) as INodePropertyOptions[];
	return { label: field.displayName, choices: options.map((option) => option.name) };
}

/** The names of the options of `node`'s field `name` whose values it holds, as its select shows them. */
function chosenOptionNames(description: INodeTypeDescription, node: INode, name: string): string[] {
	const field = shownFields(description, node).find((property) => property.name === name);
	const chosen = ([] as unknown[]).concat(node.parameters[name]);
	const options = (field?.options ?? []) as INodePropertyOptions[];
	return chosen.map(
		(value) =>
			options.find((option) => option.value === value)?.name ?? `no option ${String(value)}`,
	);
}

/**
 * What `node`'s form shows: its credential, the labels of its fields (notices aside: they are
 * sentences, not labels) and of the entries set in its collections (Options, Filters), and the
 * names of the options chosen in the `choiceFields`.
 */
function formTexts(
	description: INodeTypeDescription,
	node: INode,
	choiceFields: string[],
): string[] {
	const fields = shownFields(description, node);
	const labels = fields
		.filter((property) => !['notice', 'callout', 'hidden'].includes(property.type))
		.map((property) => property.displayName);
	const entries = fields
		.filter((property) => property.type === 'collection')
		.flatMap((collection) => {
			const set = Object.keys((node.parameters[collection.name] ?? {}) as IDataObject);
			return ((collection.options ?? []) as INodeProperties[])
				.filter((entry) => set.includes(entry.name))
				.map((entry) => entry.displayName);
		});
	const choices = choiceFields.flatMap((name) => chosenOptionNames(description, node, name));
	const credentials = Object.values(node.credentials ?? {}).map((credential) => credential.name);
	return [...credentials, ...labels, ...entries, ...choices];
}

/** What the nodes panel lists for the operations of `node`'s resource: their action texts, else names. */
function actionLabels(description: INodeTypeDescription, node: INode): string[] {
	const field = shownFields(description, node).find((property) => property.name === 'operation');
	return ((field?.options ?? []) as INodePropertyOptions[]).map(
		(option) => option.action ?? option.name,
	);
}

/** The canvas subtitle of an action node ("Message: Send Text"): its resource and operation as named. */
function subtitleOf(description: INodeTypeDescription, node: INode): string {
	const nameOf = (field: string) => {
		const property = shownFields(description, node).find((each) => each.name === field);
		const options = (property?.options ?? []) as INodePropertyOptions[];
		return options.find((option) => option.value === node.parameters[field])?.name;
	};
	return `${nameOf('resource')}: ${nameOf('operation')}`;
}

/** The nodes panel's entries for the trigger's events (n8n labels them by each option's action). */
function triggerPanelLabels(trigger: INodeTypeDescription): string[] {
	const events = trigger.properties.find((property) => property.name === 'events');
	return ((events?.options ?? []) as INodePropertyOptions[])
		.slice(0, 3)
		.map((option) => option.action ?? option.name);
}

const byTestId = (page: Page | Locator | FrameLocator, id: string) =>
	page.locator(`[data-test-id="${id}"]`);

/** Where the executions view draws a run: n8n 1.x draws it in its workflow preview, an iframe. */
function executionCanvas(page: Page, { n8n }: EditorSandbox): Page | FrameLocator {
	return n8nVersionProfile(n8n.version).major === 1
		? page.frameLocator('[data-test-id="workflow-preview-iframe"]')
		: page;
}

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
		await page.locator('input[name="emailOrLdapLoginId"]').fill(DEFAULT_OWNER.email);
		await page.locator('input[name="password"]').fill(DEFAULT_OWNER.password);
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
	{ subpage = '', form = false, canvas = page as Page | FrameLocator } = {},
): Promise<void> {
	await page.goto(`${n8n.url}/workflow/${id}${subpage}`);
	const node = canvas.locator(
		`[data-test-id="canvas-node"][data-node-name="${nodeOf(json).name}"]`,
	);
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

/** Drags the right edge of the open node's form `pixels` to the right: long labels show whole. */
async function widenForm(page: Page, pixels: number): Promise<void> {
	const form = await byTestId(page, 'node-parameters').boundingBox();
	const edges = byTestId(page, 'resize-handle').filter({ visible: true });
	for (const edge of await edges.all()) {
		const box = await edge.boundingBox();
		if (!form || !box || box.height < form.height / 2) continue;
		// The handle at the form's right side (the other one is at its left).
		if (Math.abs(box.x - (form.x + form.width)) > 40) continue;
		const y = form.y + form.height / 2;
		await page.mouse.move(box.x + box.width / 2, y);
		await page.mouse.down();
		await page.mouse.move(box.x + box.width / 2 + pixels, y, { steps: 10 });
		await page.mouse.up();
		return;
	}
	throw new Error("The node's form has no resize handle at its right side");
}

/** Closes the toasts n8n shows after a run ("Node executed successfully"). */
async function closeNotifications(page: Page): Promise<void> {
	const close = page.locator('.el-notification .el-notification__closeBtn');
	for (let count = await close.count(); count > 0; count--) await close.first().click();
	await page.locator('.el-notification').first().waitFor({ state: 'hidden' });
}

/**
 * Whether the page shows `text` by `deadline`, as text or as a field's value (a select shows its
 * choice in an input), in the page or in a frame of it (n8n 1.x shows an execution in an iframe).
 */
async function shows(page: Page, text: string, deadline: number): Promise<boolean> {
	for (;;) {
		for (const frame of page.frames()) {
			const asText = frame.getByText(text, { exact: true }).filter({ visible: true });
			if ((await asText.count()) > 0) return true;
			const values = await frame
				.locator('input, textarea')
				.filter({ visible: true })
				.evaluateAll((elements) =>
					elements.map((element) => (element as { value?: string }).value),
				);
			if (values.includes(text)) return true;
		}
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
	/** Texts the view must show, from the built nodes and the workflow it shows. */
	expectedTexts(built: BuiltNodes, sandbox: EditorSandbox): string[];
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

/** A view of one node's form, opened in the workflow `workflowOf` picks, with nothing run. */
function formView(view: {
	name: string;
	caption: string;
	workflowOf: (sandbox: EditorSandbox) => CreatedWorkflow;
	nodeOf: (workflow: WorkflowJson) => INode;
	descriptionOf: (built: BuiltNodes) => INodeTypeDescription;
	/** The fields whose chosen options the form must show by name. */
	choiceFields: string[];
	/** What to do in the open form before the picture (widen it, scroll it). */
	arrange?: (page: Page) => Promise<void>;
}): EditorView {
	return {
		name: view.name,
		caption: view.caption,
		show: async (page, sandbox) => {
			await openWorkflow(page, sandbox, view.workflowOf(sandbox), view.nodeOf, { form: true });
			await view.arrange?.(page);
			// Off the form, onto the empty input panel: a hovered field shows its Fixed/Expression switch.
			await page.mouse.move(VIEWPORT.width / 6, VIEWPORT.height / 5);
		},
		expectedTexts: (built, sandbox) =>
			formTexts(
				view.descriptionOf(built),
				view.nodeOf(view.workflowOf(sandbox).json),
				view.choiceFields,
			),
	};
}

/** The trigger's form: the node, its description and the chosen options it names (Events). */
const TRIGGER_FORM = {
	nodeOf: triggerNodeOf,
	descriptionOf: (built: BuiltNodes) => built.trigger,
	choiceFields: ['events'],
};

export const EDITOR_VIEWS: EditorView[] = [
	{
		name: 'nodes-panel',
		caption: 'The nodes panel, searching "messaging": the node and its actions',
		show: async (page, sandbox) => {
			await openWorkflow(page, sandbox, sandbox.echoBot, triggerNodeOf);
			await byTestId(page, 'node-creator-plus-button').click();
			await byTestId(page, 'node-creator-search-bar').fill('messaging');
			const { action } = builtNodes();
			await byTestId(page, 'node-creator-item-name')
				.filter({ hasText: action.displayName })
				.first()
				.click();
			// The actions of the Send Text node's resource (Message), just under the panel's header.
			const firstAction = page.getByText(
				actionLabels(action, actionNodeOf(sandbox.sendText.json))[0],
				{
					exact: true,
				},
			);
			// A trial click waits until the panel has finished sliding in.
			await firstAction.click({ trial: true });
			await scrollNearTop(firstAction, 45);
			// Onto empty canvas, so neither an action nor a node shows its hover state.
			await page.mouse.move(VIEWPORT.width / 5, VIEWPORT.height / 4);
		},
		expectedTexts: ({ action }, sandbox) => [
			action.displayName,
			...actionLabels(action, actionNodeOf(sandbox.sendText.json)),
		],
	},
	{
		name: 'nodes-panel-trigger',
		caption: 'The nodes panel, searching "whatsapp": the trigger and its events as entries',
		show: async (page, sandbox) => {
			// A new workflow: its first step is a trigger, so the panel lists the trigger's events.
			await page.goto(`${sandbox.n8n.url}/workflow/new`);
			await byTestId(page, 'canvas-add-button').click();
			await byTestId(page, 'node-creator-search-bar').fill('whatsapp');
			// n8n lists the action node and the trigger as one entry, named after the action node.
			const { action, trigger } = builtNodes();
			await byTestId(page, 'node-creator-item-name')
				.filter({ hasText: action.displayName })
				.first()
				.click();
			const firstEvent = page.getByText(triggerPanelLabels(trigger)[0], { exact: true });
			await firstEvent.click({ trial: true });
			await page.mouse.move(VIEWPORT.width / 5, VIEWPORT.height / 4);
		},
		expectedTexts: ({ action, trigger }) => [action.displayName, ...triggerPanelLabels(trigger)],
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
		expectedTexts: ({ action }, sandbox) =>
			formTexts(action, actionNodeOf(sandbox.sendText.json), ['resource', 'operation']),
	},
	formView({
		name: 'trigger',
		caption: 'The trigger: session, events, filters and options',
		workflowOf: (sandbox) => sandbox.echoBot,
		...TRIGGER_FORM,
	}),
	{
		name: 'echo-bot-run',
		caption: 'An echo bot run: a message arrived and the bot answered',
		show: async (page, sandbox) => {
			const workflow = sandbox.echoBot;
			const executionId = await echoBotRun(sandbox);
			const canvas = executionCanvas(page, sandbox);
			await openWorkflow(page, sandbox, workflow, actionNodeOf, {
				subpage: `/executions/${executionId}`,
				canvas,
			});
			// Every node marked as run and every connection as having carried items: the run has
			// been drawn (nodes and connections get their state one after the other).
			for (const node of workflow.json.nodes) {
				await canvas
					.locator(`[data-test-id="canvas-node"][data-node-name="${node.name}"]`)
					.locator('[data-test-id="canvas-node-status-success"]')
					.waitFor();
			}
			for (const source of Object.keys(workflow.json.connections)) {
				await canvas
					.locator(`[data-test-id="edge-label"][data-source-node-name="${source}"]`)
					.and(canvas.locator('[data-edge-status="success"]'))
					.first()
					.waitFor();
			}
			// The logs panel shows the reply the bot sent.
			await byTestId(canvas, 'logs-overview-header').click();
			await byTestId(canvas, 'log-details-output').waitFor();
		},
		expectedTexts: ({ action }, sandbox) => [
			...sandbox.echoBot.json.nodes.map((node) => node.name),
			`Echo: ${CUSTOMER_TEXT}`,
			// The canvas names what the action node does, not its raw values ("sendText: message").
			subtitleOf(action, actionNodeOf(sandbox.echoBot.json)),
		],
	},
	{
		name: 'credential-gateway',
		caption:
			'The credential, its Gateway list first and open: Evolution API v1 / Messaging Gateway API, Evolution API v2 or WAHA',
		show: async (page, sandbox) => {
			await page.goto(`${sandbox.n8n.url}/home/credentials/${sandbox.credential.id}`);
			// The editor tests a saved credential on opening: wait for its answer, or its banner
			// would push the form down while the picture is taken.
			await byTestId(page, 'credentials-config-container-test-success').waitFor();
			const { label, choices } = gatewayField(builtNodes().credential);
			await byTestId(page, 'credential-connection-parameter')
				.filter({ has: page.getByText(label, { exact: true }) })
				.locator('input')
				.click();
			// The last choice drawn: the list has opened.
			await page
				.getByRole('option')
				.filter({ has: page.getByText(choices.at(-1) ?? '', { exact: true }) })
				.waitFor();
			// Onto the dialog's empty side menu: the hovered field shows its Fixed/Expression switch.
			await page.mouse.move(VIEWPORT.width / 4, (VIEWPORT.height * 3) / 4);
		},
		expectedTexts: ({ credential }) => {
			const { label, choices } = gatewayField(credential);
			return [label, ...choices];
		},
	},
	formView({
		name: 'combine-rapid',
		caption: 'Message → Combine Rapid Messages: the message, the silence time and options',
		workflowOf: (sandbox) => sandbox.combineRapid,
		nodeOf: combineRapidNodeOf,
		descriptionOf: (built) => built.action,
		choiceFields: ['resource', 'operation'],
	}),
	formView({
		name: 'status-post',
		caption: 'Status → Post: a text status, its colour, font and who sees it',
		workflowOf: (sandbox) => sandbox.statusPost,
		nodeOf: (workflow) => actionNodeOf(workflow, 'post'),
		descriptionOf: (built) => built.action,
		choiceFields: ['resource', 'operation', 'statusType', 'font', 'audience'],
	}),
	formView({
		name: 'trigger-waha',
		caption: "The trigger with a WAHA credential, and WAHA's own option Redeliver For",
		workflowOf: (sandbox) => sandbox.wahaEchoBot,
		...TRIGGER_FORM,
	}),
	formView({
		name: 'trigger-sessions',
		caption: "The trigger watching Several Sessions: the sessions picked from the gateway's list",
		workflowOf: (sandbox) => sandbox.severalSessions,
		...TRIGGER_FORM,
		choiceFields: ['sessionScope', 'events'],
	}),
	// Last: it widens the form, which n8n keeps for the forms opened after it.
	formView({
		name: 'send-pace',
		caption:
			'Message → Send Text paced: Pace Sends (Messages per Minute), Pace Jitter (Seconds) and Pace Workers Sending in its Options',
		workflowOf: (sandbox) => sandbox.sendPace,
		nodeOf: (workflow) => actionNodeOf(workflow, 'sendText'),
		descriptionOf: (built) => built.action,
		choiceFields: ['resource', 'operation'],
		arrange: async (page) => {
			// "Pace Sends (Messages per Minute)" is cut short in a form of n8n's default width.
			await widenForm(page, 100);
			// The three pace options sit below the fold: from Operation (Send Text) down to them.
			await scrollNearTop(
				byTestId(page, 'node-parameters').getByText('Operation', { exact: true }),
				12,
			);
		},
	}),
];
