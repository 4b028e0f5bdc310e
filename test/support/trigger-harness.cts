/**
 * Plays n8n's part for the trigger node: activation calls webhookMethods (checkExists/create/delete)
 * in n8n-core's real HookContext, and a local HTTP server stands where n8n's webhook endpoint is,
 * running webhook() in n8n-core's real WebhookContext for every delivery the gateway really sends,
 * then the execution webhook() started in n8n-core's engine (which runs the trigger's execute()).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IWebhookData,
	IWebhookFunctions,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, sleep, Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks, HookContext, WebhookContext, WorkflowExecute } from 'n8n-core';

import { MessagingGatewayApi } from '../../credentials/MessagingGatewayApi.credentials';
import { MessagingGatewayTrigger } from '../../nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node';
import { additionalDataFor, MapNodeTypes, TestCredentialsHelper } from './n8n-harness.cts';
import { installProcessedDataStore } from './processed-data.cts';

/** A query string as Express (n8n's web server) parses it: a repeated key becomes a list. */
function queryObject(params: URLSearchParams): Record<string, string | string[]> {
	const query: Record<string, string | string[]> = {};
	for (const key of new Set(params.keys())) {
		const values = params.getAll(key);
		query[key] = values.length > 1 ? values : values[0];
	}
	return query;
}

export const TRIGGER_NODE_TYPE = 'n8n-nodes-messaging-gateway.messagingGatewayTrigger';
const TRIGGER_NODE_NAME = 'Messaging Gateway Trigger';
const WEBHOOK_ID = 'c0ffee00-0000-4000-8000-000000000001';

export interface ReceivedDelivery {
	status: number;
	responseBody: unknown;
	/**
	 * The items the execution webhook() started ran with (the trigger's output, after its
	 * execute() left out messages that ran before); undefined when it started none.
	 */
	execution?: INodeExecutionData[];
	/**
	 * Who wrote the answer: the node itself, or n8n from what webhook() returned (in real n8n
	 * 2.x only after storing the execution; the harness stores nothing and answers at once).
	 */
	answeredBy?: 'node' | 'n8n';
}

export interface TriggerHarness {
	/** The n8n webhook URL of the trigger (without the token). */
	webhookUrl: string;
	staticData(): IDataObject;
	/** Changes the node's static data in n8n's database (another process saved its copy over it). */
	editStaticData(edit: (nodeData: IDataObject) => void): void;
	checkExists(): Promise<boolean>;
	create(): Promise<boolean>;
	delete(): Promise<boolean>;
	/** The next `count` credential reads fail as n8n's regular expression watchdog fails on a starved process. */
	failNextCredentialReads(count: number): void;
	/** Credential reads so far (each one a database read and a decryption in n8n). */
	credentialReads(): number;
	/** Saves a new API key into the credential. */
	changeApiKey(apiKey: string): void;
	/** What n8n does on activation: create only when checkExists says there is nothing. */
	activate(): Promise<void>;
	/** n8n-core's real WebhookContext for one request, built as the server builds it for every delivery. */
	webhookContext(httpRequest: WebhookRequest, httpResponse: JsonResponse): IWebhookFunctions;
	setParameters(parameters: INodeParameters): void;
	deliveries: ReceivedDelivery[];
	/** The parsed bodies webhook() was given, the objects themselves, in order (to see they stay unchanged). */
	requestBodies: unknown[];
	/** Every request the webhook endpoint received, as it arrived (to post one again). */
	received: ReceivedRequest[];
	/** Posts a received request to the webhook endpoint again, as the gateway's retry would. */
	redeliver(request: ReceivedRequest): Promise<{ status: number; body: unknown }>;
	/** n8n fails to store the next `count` executions webhook() starts: it answers 500, saves nothing. */
	failNextExecutionStores(count: number): void;
	/**
	 * n8n stores the next `count` executions webhook() starts and answers 200, then fails each
	 * before its first step (a database connection it could not get): the trigger's execute()
	 * never runs, and nothing is saved.
	 */
	failNextExecutionStarts(count: number): void;
	/**
	 * n8n stores no execution webhook() starts (a busy database) until the returned function is
	 * called; then it stores them and answers.
	 */
	holdExecutionStores(): () => void;
	/**
	 * n8n restarted: the trigger's code loaded anew (nothing kept in memory), the database kept;
	 * the hooks after it run as `activationMode` when given (n8n starting: 'init').
	 */
	restart(nodeType: MessagingGatewayTrigger, activationMode?: WorkflowActivateMode): void;
	/** Items of every execution webhook() started (and n8n stored) that ran any, in order. */
	executions(): INodeExecutionData[][];
	/** Executions webhook() started whose every message had run before (they ran nothing). */
	emptyExecutions(): number;
	waitForDeliveries(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
	/** What the node wrote to n8n's log since this harness started, as "level: message". */
	logLines(): string[];
	/** Resolves once the node logged a line containing `part` (fails after 30 s without it). */
	untilLogged(part: string): Promise<void>;
	stop(): Promise<void>;
}

export interface TriggerHarnessOptions {
	gateway: { url: string; apiKey: string };
	parameters: INodeParameters;
	/** 'trigger' for an active workflow, 'manual' for "Listen for test event". */
	mode?: WorkflowExecuteMode;
	/**
	 * Why the hooks run (getActivationMode): 'activate' (a person switched the workflow on; the
	 * default), 'manual' with mode 'manual', or 'init' (n8n starting) and the others n8n knows.
	 */
	activationMode?: WorkflowActivateMode;
	/** The node version (default 1). */
	typeVersion?: number;
	/** The credential's API Key Header (default: unset, which means apikey). */
	keyHeader?: 'apikey' | 'X-Api-Key';
	/** The credential's Gateway field (default: unset, which means the Messaging Gateway API). */
	credentialGateway?: 'messagingGatewayApi' | 'evolutionV2' | 'waha';
	/** The trigger to run (default: the TypeScript source); the bench passes the build in dist/. */
	nodeType?: MessagingGatewayTrigger;
	/** The node's webhook ID (n8n gives each trigger node its own): another trigger's has another. */
	webhookId?: string;
}

/** A request as the webhook endpoint received it. */
export interface ReceivedRequest {
	url: string;
	headers: http.IncomingHttpHeaders;
	rawBody: Buffer;
}

/** What webhook() sees of a request: the fields of n8n's Express request it reads. */
export interface WebhookRequest {
	method?: string;
	url?: string;
	headers: http.IncomingHttpHeaders;
	query: Record<string, string | string[]>;
	body: unknown;
	rawBody: Buffer;
}

export interface JsonResponse {
	/** Express's response is Node's: the trigger watches it for when (and how) n8n answered. */
	once(event: 'finish' | 'close', listener: () => void): unknown;
	readonly statusCode: number;
	status(code: number): JsonResponse;
	json(body: unknown): void;
	send(body: unknown): void;
	end(): void;
	setHeader(name: string, value: string): void;
	headersSent: boolean;
}

function responseAdapter(
	res: http.ServerResponse,
	record: (status: number, body: unknown) => void,
): JsonResponse {
	let statusCode = 200;
	const adapter: JsonResponse = {
		once(event, listener) {
			return res.once(event, listener);
		},
		get statusCode() {
			return res.statusCode;
		},
		headersSent: false,
		status(code) {
			statusCode = code;
			return adapter;
		},
		json(body) {
			record(statusCode, body);
			adapter.headersSent = true;
			res.writeHead(statusCode, { 'content-type': 'application/json' }).end(JSON.stringify(body));
		},
		send(body) {
			record(statusCode, body);
			adapter.headersSent = true;
			res.writeHead(statusCode).end(typeof body === 'string' ? body : JSON.stringify(body));
		},
		end() {
			record(statusCode, undefined);
			adapter.headersSent = true;
			res.writeHead(statusCode).end();
		},
		setHeader(name, value) {
			res.setHeader(name, value);
		},
	};
	return adapter;
}

type LogLevel = 'error' | 'warn' | 'info' | 'debug';
const LOG_LEVELS: LogLevel[] = ['error', 'warn', 'info', 'debug'];
/** Every line written through n8n's logger since the first harness started. */
const loggedLines: string[] = [];
let loggerCaptured = false;

/** Records the lines of n8n's logger (one instance for the process, which nodes see as this.logger). */
function captureLogger(logger: Record<LogLevel, (message: string, meta?: object) => void>): void {
	if (loggerCaptured) return;
	loggerCaptured = true;
	for (const level of LOG_LEVELS) {
		const write = logger[level].bind(logger);
		logger[level] = (message, meta) => {
			loggedLines.push(`${level}: ${message}`);
			write(message, meta);
		};
	}
}

let harnessCount = 0;

export async function startTriggerHarness(options: TriggerHarnessOptions): Promise<TriggerHarness> {
	const mode = options.mode ?? 'trigger';
	let activationMode: WorkflowActivateMode =
		options.activationMode ?? (mode === 'manual' ? 'manual' : 'activate');
	let nodeType = options.nodeType ?? new MessagingGatewayTrigger();
	const received: ReceivedRequest[] = [];
	let failingStores = 0;
	let failingStarts = 0;
	let storesHeld: Promise<void> | undefined;
	const credentialsHelper = new TestCredentialsHelper(
		{ messagingGatewayApi: new MessagingGatewayApi() },
		{
			messagingGatewayApi: {
				baseUrl: options.gateway.url,
				apiKey: options.gateway.apiKey,
				...(options.keyHeader ? { keyHeader: options.keyHeader } : {}),
				...(options.credentialGateway ? { gateway: options.credentialGateway } : {}),
			},
		},
	);
	const webhookId = options.webhookId ?? WEBHOOK_ID;
	const node: INode = {
		id: 'trigger-node',
		name: TRIGGER_NODE_NAME,
		type: TRIGGER_NODE_TYPE,
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		webhookId,
		parameters: options.parameters,
		// A credential of its own per harness: the trigger keeps a credential's API key for a while.
		credentials: {
			messagingGatewayApi: { id: `cred-${++harnessCount}`, name: 'Messaging Gateway (test)' },
		},
	};
	const nodeTypes = new MapNodeTypes({ [TRIGGER_NODE_TYPE]: nodeType });
	/**
	 * The workflow's static data as n8n's database holds it. As n8n does, every webhook call,
	 * every activation hook and every execution gets its own copy, loaded at its start, and a
	 * changed copy is saved whole when it ends well: two at once each save their own copy, the
	 * later one over the other. As n8n 2.41.1 does, a webhook call that started an execution saves
	 * nothing (n8n's runner wraps static data anew before the call's copy is saved, and the copy
	 * looks unchanged); the execution saves what it changed.
	 */
	let storedStaticData: IDataObject = {};
	/** Each harness is a workflow of its own (the trigger keeps what it delivered per workflow). */
	const workflowId = `trigger-harness-${harnessCount}`;
	const loadedWorkflow = () =>
		new Workflow({
			id: workflowId,
			name: 'Trigger harness',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: JSON.parse(JSON.stringify(storedStaticData)) as IDataObject,
			settings: { executionOrder: 'v1' },
		});
	const saveStaticData = (workflow: Workflow) => {
		if (workflow.staticData.__dataChanged !== true) return;
		const { __dataChanged: _changed, ...saved } = workflow.staticData;
		storedStaticData = JSON.parse(JSON.stringify(saved)) as IDataObject;
	};
	/** The workflow the hooks and the webhook URL read (its node and settings; static data is loaded per call). */
	const workflow = loadedWorkflow();
	const deliveries: ReceivedDelivery[] = [];
	const requestBodies: unknown[] = [];
	const waiters: Array<{ count: number; resolve: () => void }> = [];
	const notify = () => {
		for (const waiter of [...waiters]) {
			if (deliveries.length >= waiter.count) {
				waiters.splice(waiters.indexOf(waiter), 1);
				waiter.resolve();
			}
		}
	};

	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			void (async () => {
				const rawBody = Buffer.concat(chunks);
				received.push({ url: req.url ?? '/', headers: req.headers, rawBody });
				const url = new URL(req.url ?? '/', 'http://localhost');
				let body: unknown = {};
				try {
					body = rawBody.length ? JSON.parse(rawBody.toString('utf8')) : {};
				} catch {
					body = rawBody.toString('utf8');
				}
				const delivery: ReceivedDelivery = { status: 0, responseBody: undefined };
				requestBodies.push(body);
				const httpResponse = responseAdapter(res, (status, responseBody) => {
					delivery.status = status;
					delivery.responseBody = responseBody;
				});
				const httpRequest = {
					method: req.method,
					url: req.url,
					headers: req.headers,
					query: queryObject(url.searchParams),
					body,
					rawBody,
				};
				const requestWorkflow = loadedWorkflow();
				try {
					const context = webhookContext(httpRequest, httpResponse, requestWorkflow);
					const result = await nodeType.webhook.call(context);
					if (result.workflowData && storesHeld) await storesHeld;
					if (result.workflowData && failingStores > 0) {
						// n8n could not store the execution: it answers 500 and saves no static data.
						failingStores--;
						throw new Error('There was a problem executing the workflow');
					}
					if (result.workflowData && failingStarts > 0) {
						failingStarts--;
					} else if (result.workflowData) {
						delivery.execution = await runExecution(result.workflowData[0]);
					} else saveStaticData(requestWorkflow);
					delivery.answeredBy = httpResponse.headersSent ? 'node' : 'n8n';
					if (!result.noWebhookResponse && !httpResponse.headersSent) {
						httpResponse
							.status(200)
							.json(result.webhookResponse ?? { message: 'Workflow was started' });
					}
				} catch (error) {
					if (!httpResponse.headersSent)
						httpResponse.status(500).json({ message: (error as Error).message });
				}
				deliveries.push(delivery);
				notify();
			})();
		});
	});
	let executionCount = 0;
	/**
	 * Runs an execution webhook() started as n8n does: n8n-core's engine, the trigger first (its
	 * execute() with the items), static data loaded at the start and saved after when changed.
	 */
	async function runExecution(items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
		await installProcessedDataStore();
		const runWorkflow = loadedWorkflow();
		const runHooks = new ExecutionLifecycleHooks(mode, `trigger-run-${++executionCount}`, {
			id: workflowId,
			nodes: [node],
			connections: {},
		} as never);
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{ node: runWorkflow.getNode(TRIGGER_NODE_NAME)!, data: { main: [items] }, source: null },
				],
			},
		});
		const run = await new WorkflowExecute(
			additionalDataFor(credentialsHelper, runHooks),
			mode,
			runExecutionData,
		).processRunExecutionData(runWorkflow);
		if (mode !== 'manual') saveStaticData(runWorkflow);
		const task = run.data.resultData.runData[TRIGGER_NODE_NAME]?.[0];
		const error = task?.error ?? run.data.resultData.error;
		if (error) throw error;
		return task?.data?.main?.[0] ?? [];
	}

	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const hooks = new ExecutionLifecycleHooks(mode, 'trigger-harness', {
		nodes: [node],
		connections: {},
	} as never);
	const baseAdditionalData = {
		...additionalDataFor(credentialsHelper, hooks),
		webhookBaseUrl: `http://127.0.0.1:${port}/webhook`,
		webhookTestBaseUrl: `http://127.0.0.1:${port}/webhook-test`,
	} as IWorkflowExecuteAdditionalData;

	function webhookContext(
		httpRequest: WebhookRequest,
		httpResponse: JsonResponse,
		requestWorkflow = loadedWorkflow(),
	): WebhookContext {
		const additionalData = {
			...baseAdditionalData,
			httpRequest,
			httpResponse,
		} as unknown as IWorkflowExecuteAdditionalData;
		return new WebhookContext(
			requestWorkflow,
			requestWorkflow.getNode(TRIGGER_NODE_NAME)!,
			additionalData,
			mode,
			webhookData(additionalData),
			[],
			null,
		);
	}

	function webhookData(additionalData: IWorkflowExecuteAdditionalData): IWebhookData {
		return {
			httpMethod: 'POST',
			node: TRIGGER_NODE_NAME,
			path: `${webhookId}/webhook`,
			webhookDescription: nodeType.description.webhooks![0],
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
			isTest: mode === 'manual',
		};
	}

	const hookContext = (hookWorkflow = workflow) =>
		new HookContext(
			hookWorkflow,
			hookWorkflow.getNode(TRIGGER_NODE_NAME)!,
			baseAdditionalData,
			mode,
			activationMode,
			webhookData(baseAdditionalData),
		);
	captureLogger(hookContext().logger as never);
	const firstLogLine = loggedLines.length;
	const methods = () => nodeType.webhookMethods.default;
	/** An activation hook on a freshly loaded copy of static data, saved when the hook succeeds. */
	const runHook = async (hook: (this: HookContext) => Promise<boolean>) => {
		const hookWorkflow = loadedWorkflow();
		const result = await hook.call(hookContext(hookWorkflow));
		saveStaticData(hookWorkflow);
		return result;
	};
	const checkExists = async () => await runHook(methods().checkExists);
	const create = async () => await runHook(methods().create);

	return {
		webhookUrl: hookContext().getNodeWebhookUrl('default') as string,
		staticData: () => (storedStaticData[`node:${TRIGGER_NODE_NAME}`] ?? {}) as IDataObject,
		editStaticData: (edit) => {
			const key = `node:${TRIGGER_NODE_NAME}`;
			const nodeData = { ...((storedStaticData[key] ?? {}) as IDataObject) };
			edit(nodeData);
			storedStaticData = { ...storedStaticData, [key]: nodeData };
		},
		checkExists,
		create,
		delete: async () => await runHook(methods().delete),
		failNextCredentialReads: (count) => {
			credentialsHelper.transientFailures = count;
		},
		credentialReads: () => credentialsHelper.decryptedReads,
		changeApiKey: (apiKey) => credentialsHelper.changeCredential('messagingGatewayApi', { apiKey }),
		activate: async () => {
			if (!(await checkExists())) await create();
		},
		webhookContext,
		setParameters(parameters) {
			workflow.getNode(TRIGGER_NODE_NAME)!.parameters = parameters;
		},
		deliveries,
		requestBodies,
		received,
		redeliver: (request) =>
			new Promise((resolve, reject) => {
				const post = http.request(
					`http://127.0.0.1:${port}${request.url}`,
					{ method: 'POST', headers: request.headers },
					(response) => {
						const chunks: Buffer[] = [];
						response.on('data', (chunk: Buffer) => chunks.push(chunk));
						response.on('end', () => {
							const text = Buffer.concat(chunks).toString('utf8');
							resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : '' });
						});
					},
				);
				post.on('error', reject);
				post.end(request.rawBody);
			}),
		failNextExecutionStores: (count) => {
			failingStores = count;
		},
		failNextExecutionStarts: (count) => {
			failingStarts = count;
		},
		holdExecutionStores: () => {
			let release = () => {};
			storesHeld = new Promise<void>((resolve) => {
				release = () => {
					storesHeld = undefined;
					resolve();
				};
			});
			return release;
		},
		restart: (freshNodeType, restartedAs) => {
			nodeType = freshNodeType;
			activationMode = restartedAs ?? activationMode;
		},
		executions: () =>
			deliveries.flatMap((delivery) => (delivery.execution?.length ? [delivery.execution] : [])),
		emptyExecutions: () => deliveries.filter((delivery) => delivery.execution?.length === 0).length,
		waitForDeliveries: (count, timeoutMs = 5000) =>
			new Promise<ReceivedDelivery[]>((resolve, reject) => {
				if (deliveries.length >= count) {
					resolve(deliveries);
					return;
				}
				const timer = setTimeout(
					() => reject(new Error(`Only ${deliveries.length} of ${count} deliveries arrived`)),
					timeoutMs,
				);
				waiters.push({
					count,
					resolve: () => {
						clearTimeout(timer);
						resolve(deliveries);
					},
				});
			}),
		logLines: () => loggedLines.slice(firstLogLine),
		untilLogged: async (part) => {
			// Waits on the log, not a time: only a trigger that never logs it fails, even on a busy machine.
			const giveUpAt = Date.now() + 30_000;
			while (!loggedLines.slice(firstLogLine).some((line) => line.includes(part))) {
				if (Date.now() >= giveUpAt) throw new Error(`The trigger never logged "${part}"`);
				await sleep(10);
			}
		},
		stop: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
