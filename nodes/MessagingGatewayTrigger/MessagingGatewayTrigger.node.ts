import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { classifyChat } from '../shared/identifiers';
import { splitList } from '../shared/lists';
import type { ChatReference } from '../shared/identifiers';
import { INSTANCE_EVENTS } from '../shared/events';
import { readSessionParameter } from '../shared/session';
import type { Delivery, DeliveryFilters, DeliveryOutput } from './deliveries';
import { deliveryToItem, envelopeProblem, reasonToIgnore, tokensMatch } from './deliveries';
import type { TriggerStaticData, WantedRegistration } from './registration';
import { assertNonEmptyEvents, isRegistered, register, unregister } from './registration';

/** The events most workflows start from. */
const MAIN_EVENTS = ['Messages Upsert', 'QR Code Updated', 'Messages Delete'];

function parseOnlyChats(this: IHookFunctions | IWebhookFunctions, raw: string): ChatReference[] {
	return splitList(raw).map((entry) => {
		const reference = classifyChat(entry);
		if (!reference) {
			throw new NodeOperationError(
				this.getNode(),
				`Only These Chats must list phone numbers, chat IDs (…@c.us), JIDs (…@s.messenger.net) or group IDs (…@g.us) (got "${entry}")`,
			);
		}
		return reference;
	});
}

function wantedRegistration(this: IHookFunctions): WantedRegistration {
	const events = this.getNodeParameter('events', []) as string[];
	assertNonEmptyEvents.call(this, events);
	// Validate the chat list at activation, so a typo fails loudly instead of silently filtering everything.
	parseOnlyChats.call(this, this.getNodeParameter('filters.onlyChats', '') as string);
	return {
		session: readSessionParameter.call(this),
		webhookUrl: this.getNodeWebhookUrl('default') as string,
		events,
		base64: this.getNodeParameter('options.includeMedia', false) as boolean,
	};
}

export class MessagingGatewayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Gateway Trigger',
		name: 'messagingGatewayTrigger',
		icon: {
			light: 'file:../../icons/messaging-gateway.svg',
			dark: 'file:../../icons/messaging-gateway.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["session"] }}',
		description: 'Starts the workflow on messages and other events of a messaging gateway session',
		defaults: { name: 'Messaging Gateway Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'messagingGatewayApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'The gateway keeps one webhook per session. While this trigger is active (or listening for a test event) it replaces the webhook of the session, and it puts the previous one back when it stops. A gateway that cannot say which webhook it has (no /webhook/find) keeps whatever it has when the trigger stops.',
				name: 'oneWebhookNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Session',
				name: 'session',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. default',
				description: 'The session name, also called instance name',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['MESSAGES_UPSERT'],
				options: INSTANCE_EVENTS.map((event) => ({
					name: event.displayName,
					value: event.name,
					description: event.description,
				})),
				description: `The events that start the workflow; most workflows need ${MAIN_EVENTS.join(', ')}`,
			},
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				options: [
					{
						displayName: 'Chat Type',
						name: 'chatType',
						type: 'options',
						default: 'all',
						options: [
							{ name: 'All Chats', value: 'all' },
							{ name: 'Direct Chats Only', value: 'direct' },
							{ name: 'Groups Only', value: 'groups' },
						],
						description: 'Which chats message events may come from',
					},
					{
						displayName: 'Ignore Own Messages',
						name: 'ignoreOwnMessages',
						type: 'boolean',
						default: true,
						description:
							'Whether to ignore messages sent by this session (from the API or the phone), so a bot that replies cannot trigger itself',
					},
					{
						displayName: 'Only These Chats',
						name: 'onlyChats',
						type: 'string',
						default: '',
						placeholder: 'e.g. +55 11 99999-9999, 120363012345678901@g.us',
						description:
							'Comma-separated phone numbers, chat IDs or group IDs; message events from other chats are ignored',
					},
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Include Media',
						name: 'includeMedia',
						type: 'boolean',
						default: false,
						description:
							'Whether the gateway should send the media of incoming messages along, output as binary data in the field "data"',
					},
					{
						displayName: 'QR Code as Binary',
						name: 'qrCodeAsBinary',
						type: 'boolean',
						default: true,
						description:
							'Whether QR code events output the QR code as a PNG in the binary field "data"',
					},
					{
						displayName: 'Simplify',
						name: 'simplify',
						type: 'boolean',
						default: true,
						description:
							'Whether to return a simplified version of the event (chat, message ID, sender, text…) with the untouched payload under "raw"',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node') as TriggerStaticData;
				return await isRegistered.call(this, staticData, wantedRegistration.call(this));
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node') as TriggerStaticData;
				await register.call(this, staticData, wantedRegistration.call(this));
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node') as TriggerStaticData;
				await unregister.call(this, staticData);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const response = this.getResponseObject();
		const staticData = this.getWorkflowStaticData('node') as TriggerStaticData;
		const expectedToken = staticData.registration?.token;
		const token = (this.getQueryData() as IDataObject).token;
		if (!expectedToken || typeof token !== 'string' || !tokensMatch(token, expectedToken)) {
			response.status(401).json({ message: 'Unknown or missing token' });
			return { noWebhookResponse: true };
		}

		const body: unknown = this.getBodyData();
		const problem = envelopeProblem(body);
		if (problem) {
			response.status(400).json({ received: false, error: problem });
			return { noWebhookResponse: true };
		}
		const delivery = body as Delivery;
		const filters: DeliveryFilters = {
			session: readSessionParameter.call(this),
			events: this.getNodeParameter('events', []) as string[],
			ignoreOwnMessages: this.getNodeParameter('filters.ignoreOwnMessages', true) as boolean,
			chatType: this.getNodeParameter('filters.chatType', 'all') as DeliveryFilters['chatType'],
			onlyChats: parseOnlyChats.call(
				this,
				this.getNodeParameter('filters.onlyChats', '') as string,
			),
		};
		const ignored = reasonToIgnore(delivery, filters);
		// Answer at once with a small JSON body; the gateway does not wait for the workflow.
		if (ignored) {
			response.status(200).json({ received: true, ignored });
			return { noWebhookResponse: true };
		}
		const output: DeliveryOutput = {
			simplify: this.getNodeParameter('options.simplify', true) as boolean,
			qrCodeAsBinary: this.getNodeParameter('options.qrCodeAsBinary', true) as boolean,
			includeMedia: this.getNodeParameter('options.includeMedia', false) as boolean,
		};
		const credentials = await this.getCredentials<{ apiKey?: unknown }>('messagingGatewayApi');
		const secrets = [expectedToken];
		if (typeof credentials.apiKey === 'string') secrets.push(credentials.apiKey);
		const item = await deliveryToItem.call(this, delivery, output, secrets);
		response.status(200).json({ received: true });
		return { noWebhookResponse: true, workflowData: [[item]] };
	}
}
