import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isHttpUrl } from '../../helpers/urls';
import { INSTANCE_EVENTS } from '../../../shared/events';
import { EVENT_OPTIONS } from '../../../shared/gateways/catalog/event-options';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { readBoolean, readText, textFrom } from '../../helpers/fields';
import { responseOr } from '../../helpers/responses';

const EVENT_NAMES = new Set(INSTANCE_EVENTS.map((event) => event.name));
/** Delivered names (messages.upsert) and any letter case are accepted too, as agents and expressions use them. */
const EVENT_BY_ALIAS = new Map(
	INSTANCE_EVENTS.flatMap((event) => [
		[event.name, event.name],
		[event.payloadEvent.toUpperCase(), event.name],
	]),
);

const properties: INodeProperties[] = [
	...sessionFields,
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/webhook',
		description:
			'The http(s) address the gateway posts events to. Each session has one webhook: this replaces the current one, including one a Messaging Gateway Trigger registered. Needed even when disabling.',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		default: [],
		options: EVENT_OPTIONS,
		description:
			'The events to deliver. Leave empty for all events. Most workflows need Message Received, QR Code Updated (pairing) and Message Deleted.',
	},
	{
		displayName: 'Enabled',
		name: 'enabled',
		type: 'boolean',
		default: true,
		description:
			'Whether the webhook delivers events. Turn off to stop all deliveries; the gateway then clears the URL and events.',
	},
	{
		displayName: 'Webhook by Events',
		name: 'webhookByEvents',
		type: 'boolean',
		default: false,
		description:
			'Whether each event goes to its own address: the URL followed by the event name, e.g. https://example.com/webhook/messages-upsert',
	},
	{
		displayName: 'Include Media as Base64',
		name: 'webhookBase64',
		type: 'boolean',
		default: false,
		description:
			'Whether new media messages (Message Received) carry the file itself as base64 in message.base64',
	},
];

export const description = showOnlyFor('webhook', 'set', properties);

function readUrl(this: IExecuteFunctions, itemIndex: number): string {
	const url = readText.call(this, 'url', 'URL', itemIndex);
	if (!isHttpUrl(url)) {
		throw new NodeOperationError(
			this.getNode(),
			`URL must be an http(s) address such as https://example.com/webhook (got "${url}")`,
			{
				itemIndex,
				description:
					'The gateway checks the URL even when Enabled is off, so always give a valid address.',
			},
		);
	}
	return url;
}

function readEvents(this: IExecuteFunctions, itemIndex: number): string[] {
	const raw = this.getNodeParameter('events', itemIndex, []) as unknown;
	// An expression may give a comma-separated string instead of a list.
	const entries: unknown[] = Array.isArray(raw)
		? raw
		: textFrom.call(this, raw, 'Events', itemIndex).split(',');
	const events = entries
		.map((event) => textFrom.call(this, event, 'Events', itemIndex).trim())
		.filter((event) => event !== '')
		.map((event) => EVENT_BY_ALIAS.get(event.toUpperCase()) ?? event);
	const unknown = events.filter((event) => !EVENT_NAMES.has(event));
	if (unknown.length > 0) {
		throw new NodeOperationError(
			this.getNode(),
			`Events has unknown event names: ${unknown.join(', ')}`,
			{
				itemIndex,
				description: `Use names such as MESSAGES_UPSERT, QRCODE_UPDATED or MESSAGES_DELETE. Known names: ${[...EVENT_NAMES].join(', ')}.`,
			},
		);
	}
	return [...new Set(events)];
}

/** What Set was asked: the session and the webhook, in the Messaging Gateway API's field names. */
export interface SetWebhookRequest {
	session: string;
	webhook: {
		enabled: boolean;
		url: string;
		events: string[];
		webhook_by_events: boolean;
		webhook_base64: boolean;
	};
}

export function readSetWebhook(this: IExecuteFunctions, itemIndex: number): SetWebhookRequest {
	const session = readSession.call(this, itemIndex);
	const url = readUrl.call(this, itemIndex);
	// Always sent: an empty list means "all events", a missing one crashes some gateway versions.
	const events = readEvents.call(this, itemIndex);
	return {
		session,
		webhook: {
			enabled: readBoolean.call(this, 'enabled', 'Enabled', itemIndex, true),
			url,
			events,
			webhook_by_events: readBoolean.call(
				this,
				'webhookByEvents',
				'Webhook by Events',
				itemIndex,
				false,
			),
			webhook_base64: readBoolean.call(
				this,
				'webhookBase64',
				'Include Media as Base64',
				itemIndex,
				false,
			),
		},
	};
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, webhook: body } = readSetWebhook.call(this, itemIndex);
	// No body at all means the request itself is the best record; a list or a text is no answer.
	const response = responseOr.call(
		this,
		await gatewayApiRequest.call(this, 'POST', gatewayPath`/webhook/set/${session}`, {
			body,
			itemIndex,
		}),
		{ session, ...body },
		itemIndex,
	);

	// {webhook: {instance|instanceName, webhook: {url, events, enabled, ...}}} -> one flat record.
	const outer = (response.webhook ?? {}) as IDataObject;
	const saved = outer.webhook;
	// Another object shape is kept as it is.
	if (typeof saved !== 'object' || saved === null || Array.isArray(saved))
		return [{ json: response }];
	return [
		{
			json: {
				session: outer.instance ?? outer.instanceName ?? session,
				...(saved as IDataObject),
			},
		},
	];
}
