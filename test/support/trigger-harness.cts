/**
 * Plays n8n's part for the trigger node: activation calls webhookMethods (checkExists/create/delete)
 * in n8n-core's real HookContext, and a local HTTP server stands where n8n's webhook endpoint is,
 * running webhook() in n8n-core's real WebhookContext for every delivery the gateway really sends.
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
import { Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks, HookContext, WebhookContext } from 'n8n-core';

import { MessagingGatewayApi } from '../../credentials/MessagingGatewayApi.credentials';
import { MessagingGatewayTrigger } from '../../nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node';
import { additionalDataFor, MapNodeTypes, TestCredentialsHelper } from './n8n-harness.cts';

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
	/** The items webhook() emitted, i.e. one workflow execution; undefined when it started none. */
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
	/** Items of every execution webhook() started, in order. */
	executions(): INodeExecutionData[][];
	waitForDeliveries(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
	/** What the node wrote to n8n's log since this harness started, as "level: message". */
	logLines(): string[];
	stop(): Promise<void>;
}

export interface TriggerHarnessOptions {
	gateway: { url: string; apiKey: string };
	parameters: INodeParameters;
	/** 'trigger' for an active workflow, 'manual' for "Listen for test event". */
	mode?: WorkflowExecuteMode;
	/** The node version (default 1). */
	typeVersion?: number;
	/** The credential's API Key Header (default: unset, which means apikey). */
	keyHeader?: 'apikey' | 'X-Api-Key';
	/** The credential's Gateway field (default: unset, which means the Messaging Gateway API). */
	credentialGateway?: 'messagingGatewayApi' | 'evolutionV2' | 'waha';
	/** The trigger to run (default: the TypeScript source); the bench passes the build in dist/. */
	nodeType?: MessagingGatewayTrigger;
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
	const nodeType = options.nodeType ?? new MessagingGatewayTrigger();
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
	const node: INode = {
		id: 'trigger-node',
		name: TRIGGER_NODE_NAME,
		type: TRIGGER_NODE_TYPE,
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		webhookId: WEBHOOK_ID,
		parameters: options.parameters,
		// A credential of its own per harness: the trigger keeps a credential's API key for a while.
		credentials: {
			messagingGatewayApi: { id: `cred-${++harnessCount}`, name: 'Messaging Gateway (test)' },
		},
	};
	const workflow = new Workflow({
		id: 'trigger-harness',
		name: 'Trigger harness',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: new MapNodeTypes({ [TRIGGER_NODE_TYPE]: nodeType }),
		staticData: {},
		settings: { executionOrder: 'v1' },
	});
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
				try {
					const context = webhookContext(httpRequest, httpResponse);
					const result = await nodeType.webhook.call(context);
					if (result.workflowData) delivery.execution = result.workflowData[0];
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

	function webhookContext(httpRequest: WebhookRequest, httpResponse: JsonResponse): WebhookContext {
		const additionalData = {
			...baseAdditionalData,
			httpRequest,
			httpResponse,
		} as unknown as IWorkflowExecuteAdditionalData;
		return new WebhookContext(
			workflow,
			workflow.getNode(TRIGGER_NODE_NAME)!,
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
			path: `${WEBHOOK_ID}/webhook`,
			webhookDescription: nodeType.description.webhooks![0],
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
			isTest: mode === 'manual',
		};
	}

	const hookContext = () =>
		new HookContext(
			workflow,
			workflow.getNode(TRIGGER_NODE_NAME)!,
			baseAdditionalData,
			mode,
			(mode === 'manual' ? 'manual' : 'activate') as WorkflowActivateMode,
			webhookData(baseAdditionalData),
		);
	captureLogger(hookContext().logger as never);
	const firstLogLine = loggedLines.length;
	const methods = nodeType.webhookMethods.default;
	const checkExists = async () => await methods.checkExists.call(hookContext());
	const create = async () => await methods.create.call(hookContext());

	return {
		webhookUrl: hookContext().getNodeWebhookUrl('default') as string,
		staticData: () => (workflow.staticData[`node:${TRIGGER_NODE_NAME}`] ?? {}) as IDataObject,
		checkExists,
		create,
		delete: async () => await methods.delete.call(hookContext()),
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
		executions: () =>
			deliveries.flatMap((delivery) => (delivery.execution ? [delivery.execution] : [])),
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
		stop: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
