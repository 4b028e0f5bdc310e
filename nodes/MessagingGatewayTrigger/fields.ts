/**
 * The trigger's form: which session, which events, which of them (filters), and how deliveries
 * become items (options). Read in settings.ts and at activation (the node file).
 */
import type { INodeProperties } from 'n8n-workflow';

import { COMMON_EVENT_LABELS } from '../shared/events';
import { EVENT_OPTIONS } from '../shared/gateways/catalog/event-options';
import { sessionFields } from '../shared/session';
import { CATCH_UP_HOURS } from './settings';
import { REDELIVER_MINUTES } from './delivery-memory';

/**
 * Version 3 shows Ignore Own Messages, Simplify and QR Code as Binary as fields of their own: each
 * is on by default and changes what reaches the workflow, which a collection hides until a user
 * adds them. Versions 1 and 2 keep them inside Filters and Options, as workflows saved with them
 * have them.
 */
const BEFORE_3 = { '@version': [{ _cnd: { lt: 3 } }] };
const FROM_3 = { '@version': [{ _cnd: { gte: 3 } }] };

const IGNORE_OWN_MESSAGES = {
	displayName: 'Ignore Own Messages',
	name: 'ignoreOwnMessages',
	type: 'boolean',
	default: true,
	description:
		'Whether to ignore messages sent by this session (from the API or the phone), so a bot that replies cannot trigger itself',
} satisfies INodeProperties;

const SIMPLIFY = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return a simplified version of the event (chat, message ID, sender, text…) with the untouched payload under "raw"',
} satisfies INodeProperties;

const QR_CODE_AS_BINARY = {
	displayName: 'QR Code as Binary',
	name: 'qrCodeAsBinary',
	type: 'boolean',
	default: true,
	description: 'Whether QR code events output the QR code as a PNG in the binary field "data"',
} satisfies INodeProperties;

export const triggerFields: INodeProperties[] = [
	{
		displayName:
			'While active, this trigger registers its webhook on each session it watches (on WAHA beside any others) and undoes that when it stops: see the README',
		name: 'oneWebhookNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Sessions to Watch',
		name: 'sessionScope',
		type: 'options',
		default: 'one',
		options: [
			{
				name: 'All Sessions',
				value: 'all',
				description: 'Every session the gateway has when the workflow is activated',
			},
			{ name: 'One Session', value: 'one', description: 'The session picked below' },
			{ name: 'Several Sessions', value: 'several', description: 'The sessions picked below' },
		],
		description:
			'Which sessions (numbers) start the workflow; each item says which one in "session"',
	},
	...sessionFields.map((field) => ({
		...field,
		displayOptions: { show: { ...field.displayOptions?.show, sessionScope: ['one'] } },
	})),
	{
		displayName: 'Session Names or IDs',
		name: 'sessions',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getSessions' },
		required: true,
		default: [],
		description:
			'The sessions whose events start the workflow. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show: { sessionScope: ['several'] } },
	},
	{
		displayName:
			'Sessions are listed on activation: activate again to watch one created later. One that cannot take the webhook fails the activation, by name.',
		name: 'allSessionsNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { sessionScope: ['all'] } },
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['MESSAGES_UPSERT'],
		options: EVENT_OPTIONS,
		description: `The events that start the workflow; most workflows need ${COMMON_EVENT_LABELS.join(', ')}`,
	},
	{ ...IGNORE_OWN_MESSAGES, displayOptions: { show: FROM_3 } },
	{ ...SIMPLIFY, displayOptions: { show: FROM_3 } },
	// Shown once QR Code Updated is among the events: only those events have a QR code.
	{ ...QR_CODE_AS_BINARY, displayOptions: { show: { ...FROM_3, events: ['QRCODE_UPDATED'] } } },
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
			{ ...IGNORE_OWN_MESSAGES, displayOptions: { show: BEFORE_3 } },
			{
				displayName: 'Only These Chats',
				name: 'onlyChats',
				type: 'string',
				default: '',
				placeholder: 'e.g. +55 11 99999-9999, 120363012345678901@g.us',
				description:
					'Comma-separated phone numbers, chat IDs, LIDs (…@lid) or group IDs; message events from other chats are ignored. A phone number also matches the chat of a person WhatsApp addresses by LID when the event gives their number.',
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
				displayName: 'Catch Up Missed Messages (Hours)',
				name: 'catchUpHours',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: CATCH_UP_HOURS.max },
				default: 24,
				description:
					'After n8n was stopped, restarting or unreachable longer than the gateway tries again, the messages the gateway received meanwhile (up to this many hours back) run with the next event, each once, oldest first (that event among them by its time), marked "caughtUp": true. 0 turns it off. Needs the gateway to keep messages (WAHA NOWEB: its store; activation says when it is off).',
			},
			{
				displayName: 'Include Media',
				name: 'includeMedia',
				type: 'boolean',
				default: false,
				description:
					'Whether the gateway should send the media of incoming messages along, output as binary data in the field "data"',
			},
			{
				displayName: 'Look Up Phone Numbers',
				name: 'lookUpPhoneNumbers',
				type: 'boolean',
				default: true,
				description:
					'Whether to ask the gateway for the phone number of a person the event names only by LID (…@lid), so "phone" and "senderPhone" are filled in. Costs one request per new person before the workflow starts (kept a day; unknown numbers are asked again after 10 minutes). WAHA answers from its LID map; Evolution API from the group\'s members (group messages) and its number check (direct chats), which know a number only sometimes; the Messaging Gateway API has no such lookup. A number the gateway does not know stays null.',
			},
			{ ...QR_CODE_AS_BINARY, displayOptions: { show: BEFORE_3 } },
			{
				displayName: 'Redeliver For (Minutes)',
				name: 'redeliverMinutes',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: REDELIVER_MINUTES.max },
				default: 15,
				description:
					'WAHA: how long WAHA keeps trying, every 10 seconds, to deliver an event n8n did not take (n8n stopped or restarting). WAHA alone gives up after about 30 seconds. Evolution API sets its retries on its server (see the README).',
			},
			{
				displayName: 'Replace an Unseen Webhook',
				name: 'replaceUnseenWebhook',
				type: 'boolean',
				default: true,
				description:
					'Whether activation may replace the webhook of the session when the gateway cannot say which one it has (no /webhook/find, which the spec does not require). The replaced webhook cannot be put back when the trigger stops. Turn off to make activation fail instead.',
			},
			{ ...SIMPLIFY, displayOptions: { show: BEFORE_3 } },
		],
	},
];
