/**
 * Runs nodes the way n8n runs them: a real Workflow through n8n-core's WorkflowExecute, real
 * request helpers (axios over real HTTP), real pairedItem and continueOnFail handling.
 * Only the credential store is replaced: credentials come from the test, unencrypted.
 * The setup follows n8n-core's own: a Workflow of an input node and the node under test, run by
 * WorkflowExecute with additional data that holds this credentials helper and lifecycle hooks.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IHttpRequestOptions,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, Workflow } from 'n8n-workflow';
import { ExecuteContext, ExecutionLifecycleHooks, RoutingNode, WorkflowExecute } from 'n8n-core';

export const NODE_UNDER_TEST = 'Node Under Test';
const INPUT_NODE_TYPE = 'test.input';

/** Applies a credential type's `authenticate` exactly as n8n's CLI CredentialsHelper does for generic auth. */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly credentialTypes: Record<string, ICredentialType>,
		private readonly credentialData: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = this.credentialTypes[typeName]?.authenticate;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (!authenticate || authenticate.type !== 'generic' || !workflow || !node)
			return requestOptions;
		const resolve = (value: unknown) =>
			typeof value === 'string'
				? workflow.expression.getSimpleParameterValue(
						node,
						value,
						'internal',
						{ $credentials: credentials },
						undefined,
						value,
					)
				: value;
		const result: IHttpRequestOptions = { ...requestOptions };
		for (const section of ['headers', 'qs', 'body'] as const) {
			const entries = authenticate.properties[section] as IDataObject | undefined;
			if (!entries) continue;
			const resolved = Object.fromEntries(
				Object.entries(entries).map(([key, value]) => [key, resolve(value)]),
			);
			(result as unknown as IDataObject)[section] = {
				...((result[section] as IDataObject | undefined) ?? {}),
				...resolved,
			};
		}
		return result;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new Error('Not used by the in-process harness');
	}

	/**
	 * Credential reads that fail before one succeeds, with n8n's own words for its regular
	 * expression watchdog, which fires on a starved process (a busy machine, not a bad pattern).
	 */
	transientFailures = 0;

	/** Credentials read (n8n reads them from its database and decrypts them each time). */
	decryptedReads = 0;

	/** Changes a stored credential, as a user saving it in n8n does. */
	changeCredential(type: string, changes: ICredentialDataDecryptedObject): void {
		this.credentialData[type] = { ...this.credentialData[type], ...changes };
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: unknown,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		this.decryptedReads++;
		if (this.transientFailures > 0) {
			this.transientFailures--;
			throw new Error('Regular expression execution timed out');
		}
		const data = this.credentialData[type];
		if (!data) throw new Error(`No test credentials of type "${type}"`);
		return { ...data };
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type: string) {
		return this.credentialTypes[type]?.properties ?? [];
	}
}

export class MapNodeTypes implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType | IVersionedNodeType>) {}

	getByName(nodeType: string) {
		return this.types[nodeType];
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		const type = this.types[nodeType];
		if (!type) throw new Error(`Unknown node type "${nodeType}"`);
		return NodeHelpers.getVersionedNodeType(type, version);
	}

	getKnownTypes() {
		return {};
	}
}

function inputNodeType(items: INodeExecutionData[]): INodeType {
	return {
		description: {
			displayName: 'Test Input',
			name: INPUT_NODE_TYPE,
			group: ['input'],
			version: 1,
			description: 'Emits the test items',
			defaults: { name: 'Input' },
			inputs: [],
			outputs: ['main'],
			properties: [],
		},
		async execute() {
			return [items.map((item) => ({ ...item, json: { ...item.json } }))];
		},
	};
}

export function additionalDataFor(
	credentialsHelper: ICredentialsHelper,
	hooks: ExecutionLifecycleHooks,
) {
	const unused = () => {
		throw new Error('Not available in the in-process harness');
	};
	return {
		credentialsHelper,
		hooks,
		executionId: hooks.executionId,
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
		executeWorkflow: unused,
		getRunExecutionData: unused,
		getRuntimeCredential: unused,
		logAiEvent: () => {},
		startRunnerTask: unused,
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface RunNodeOptions {
	/** Node types by type name, e.g. { 'n8n-nodes-messaging-gateway.messagingGateway': new MessagingGateway() }. */
	nodeTypes: Record<string, INodeType | IVersionedNodeType>;
	credentialTypes: Record<string, ICredentialType>;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	type: string;
	parameters: INodeParameters;
	typeVersion?: number;
	/** Input items (default: one empty item). */
	items?: INodeExecutionData[];
	/** n8n's node setting "On Error". */
	onError?: INode['onError'];
}

export interface RunNodeResult {
	status: IRun['status'];
	/** Output items of the node under test, per output. */
	outputs: INodeExecutionData[][];
	/** The node's error when the run stopped on it (a plain object, as n8n stores it). */
	error?: IDataObject & { message: string; description?: string; httpCode?: string };
	run: IRun;
}

let executionCounter = 0;

export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	const items = options.items ?? [{ json: {} }];
	const nodeTypes = new MapNodeTypes({
		...options.nodeTypes,
		[INPUT_NODE_TYPE]: inputNodeType(items),
	});
	const credentialRefs = Object.fromEntries(
		Object.keys(options.credentials).map((type) => [
			type,
			{ id: `${type}-id`, name: `${type} (test)` },
		]),
	);
	const nodes: INode[] = [
		{
			id: 'input',
			name: 'Input',
			type: INPUT_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'under-test',
			name: NODE_UNDER_TEST,
			type: options.type,
			typeVersion: options.typeVersion ?? 1,
			position: [200, 0],
			parameters: options.parameters,
			credentials: credentialRefs,
			...(options.onError ? { onError: options.onError } : {}),
		},
	];
	const connections = {
		Input: { main: [[{ node: NODE_UNDER_TEST, type: 'main' as const, index: 0 }]] },
	};
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: 'Harness',
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const executionId = `harness-${++executionCounter}`;
	const hooks = new ExecutionLifecycleHooks('manual', executionId, {
		id: 'harness-workflow',
		name: 'Harness',
		nodes,
		connections,
		active: false,
		settings: { executionOrder: 'v1' },
	} as never);
	const credentialsHelper = new TestCredentialsHelper(options.credentialTypes, options.credentials);
	const additionalData = additionalDataFor(credentialsHelper, hooks);
	const run = await new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: workflow.getNode('Input')!,
	} as never);
	const taskData = run.data.resultData.runData[NODE_UNDER_TEST]?.[0];
	const error = (taskData?.error ?? run.data.resultData.error) as RunNodeResult['error'];
	return {
		status: run.status,
		outputs: (taskData?.data?.main ?? []).map((output) => output ?? []),
		error,
		run,
	};
}

/**
 * Runs a credential type's declarative `test` the way n8n's CredentialsTester does: a RoutingNode
 * request with the credential applied, then the `rules`: on the response code of an error answer,
 * on the first item's body of a 2xx.
 */
export async function runCredentialTest(
	credentialType: ICredentialType,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const testRequest = credentialType.test;
	if (!testRequest)
		return { status: 'Error', message: 'No testing function found for this credential.' };
	const nodeType: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'temp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name: 'Temp' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'temp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [credentialType.name]: { id: 'test', name: 'test' } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new MapNodeTypes({ temp: nodeType }),
	});
	const credentialsHelper = new TestCredentialsHelper(
		{ [credentialType.name]: credentialType },
		{ [credentialType.name]: data },
	);
	const hooks = new ExecutionLifecycleHooks('internal', 'credential-test', {
		nodes: [node],
		connections: {},
	} as never);
	const additionalData = additionalDataFor(credentialsHelper, hooks);
	const runExecutionData = { resultData: { runData: {} } } as IRunExecutionData;
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal' as WorkflowExecuteMode,
		runExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);
	const credentialsDecrypted = { id: 'test', name: 'test', type: credentialType.name, data };
	let response: INodeExecutionData[][] | undefined | null;
	try {
		response = await new RoutingNode(context, nodeType, credentialsDecrypted).runNode();
	} catch (caught) {
		const error = caught as {
			message: string;
			cause?: { code?: string; response?: { status: number; statusText?: string } };
		};
		if (error.cause?.response) {
			const { status, statusText } = error.cause.response;
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (status < 199 || status > 299) {
				return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: String(error.message) };
	}
	// On a 2xx, the body rules, read on the first item of the answer (an array is one item each).
	const first = response?.[0]?.[0]?.json;
	for (const rule of testRequest.rules ?? []) {
		if (
			rule.type === 'responseSuccessBody' &&
			get(first, rule.properties.key) === rule.properties.value
		) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

/** lodash's get for a dotted path, as n8n reads a body rule's key. */
function get(value: unknown, key: string): unknown {
	return key
		.split('.')
		.reduce<unknown>(
			(current, part) =>
				typeof current === 'object' && current !== null
					? (current as Record<string, unknown>)[part]
					: undefined,
			value,
		);
}
