/**
 * Runs a list search of the Messaging Gateway node the way the n8n editor does: n8n-core's real
 * LoadOptionsContext (as the CLI's DynamicNodeParametersService builds it), with the node's
 * current parameters and the test credential, over real HTTP to the gateway.
 */
import type {
	INode,
	INodeListSearchResult,
	INodeParameters,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks, LoadOptionsContext } from 'n8n-core';

import { MessagingGatewayApi } from '../../credentials/MessagingGatewayApi.credentials';
import { MessagingGateway } from '../../nodes/MessagingGateway/MessagingGateway.node';
import type { RequestBodyStyle } from '../../nodes/shared/transport';
import { GATEWAY_NODE_TYPE } from './gateway-node.cts';
import type { GatewayTarget } from './gateway-node.cts';
import { MapNodeTypes, TestCredentialsHelper, additionalDataFor } from './n8n-harness.cts';

export type ListSearchMethod = keyof MessagingGateway['methods']['listSearch'];

export interface ListSearchOptions {
	/** The node's current parameters (what the editor sends), e.g. { session: 'acme-sales' }. */
	parameters: INodeParameters;
	filter?: string;
	paginationToken?: string;
	/** The parameter the list belongs to, as the editor names it (e.g. parameters.contact). */
	path?: string;
	requestBodyStyle?: RequestBodyStyle;
	apiKey?: string;
	/** The node version (default 1). */
	typeVersion?: number;
	/** The credential's API Key Header (default: unset, which means apikey). */
	keyHeader?: 'apikey' | 'X-Api-Key';
	/** The credential's Gateway (default: unset, which means the Messaging Gateway API). */
	gateway?: 'messagingGatewayApi' | 'evolutionV2' | 'waha';
}

let loadCounter = 0;

export async function runListSearch(
	gateway: GatewayTarget,
	method: ListSearchMethod,
	options: ListSearchOptions,
): Promise<INodeListSearchResult> {
	const gatewayNode = new MessagingGateway();
	const node: INode = {
		id: 'under-test',
		name: 'Messaging Gateway',
		type: GATEWAY_NODE_TYPE,
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		parameters: options.parameters,
		credentials: { messagingGatewayApi: { id: 'messagingGatewayApi-id', name: 'Gateway (test)' } },
	};
	const workflow = new Workflow({
		id: 'load-options-workflow',
		name: 'Load Options',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new MapNodeTypes({ [GATEWAY_NODE_TYPE]: gatewayNode }),
		settings: { executionOrder: 'v1' },
	});
	const credentialsHelper = new TestCredentialsHelper(
		{ messagingGatewayApi: new MessagingGatewayApi() },
		{
			messagingGatewayApi: {
				baseUrl: gateway.url,
				apiKey: options.apiKey ?? gateway.apiKey,
				requestBodyStyle: options.requestBodyStyle ?? 'chatIdSession',
				...(options.keyHeader ? { keyHeader: options.keyHeader } : {}),
				...(options.gateway ? { gateway: options.gateway } : {}),
			},
		},
	);
	const hooks = new ExecutionLifecycleHooks('internal', `load-options-${++loadCounter}`, {
		nodes: [node],
		connections: {},
	} as never);
	const additionalData: IWorkflowExecuteAdditionalData = {
		...additionalDataFor(credentialsHelper, hooks),
		// The editor sends the node's current (unsaved) parameters with every list request.
		currentNodeParameters: options.parameters,
	};
	const context = new LoadOptionsContext(
		workflow,
		node,
		additionalData,
		options.path ?? 'parameters.contact',
	);
	const search = gatewayNode.methods.listSearch[method];
	return await search.call(context, options.filter, options.paginationToken);
}
