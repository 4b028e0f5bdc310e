import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { webhook as sendAndWaitWebhook } from './actions/message/sendAndWait.webhook';
import { router } from './actions/router';
import { GATEWAY_OPERATIONS } from './gateways';
import { listSearch } from './methods';
import { operationProperties, resourceProperty, subtitle } from './actions/resources';

export class MessagingGateway implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Gateway',
		name: 'messagingGateway',
		icon: {
			light: 'file:../../icons/messaging-gateway.svg',
			dark: 'file:../../icons/messaging-gateway.dark.svg',
		},
		group: ['output'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle,
		description:
			'Send and read WhatsApp messages, and manage sessions, groups, channels and contacts, through Evolution API, WAHA or another messaging gateway',
		defaults: { name: 'Messaging Gateway' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'messagingGatewayApi', required: true }],
		// Send and Wait for Response: the answer links resume the waiting execution here. n8n signs
		// them and checks the signature (operation "sendAndWait", path = the node's ID).
		webhooks: ['GET', 'POST'].map((httpMethod) => ({
			name: 'default' as const,
			httpMethod,
			responseMode: 'onReceived',
			responseData: '',
			path: '={{ $nodeId }}',
			restartWebhook: true,
			isFullPath: true,
		})),
		waitingNodeTooltip:
			'Waiting for the answer to the message: the execution goes on when the person opens a link (or the time limit passes)',
		properties: [resourceProperty, ...operationProperties],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, GATEWAY_OPERATIONS);
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await sendAndWaitWebhook.call(this);
	}
}
