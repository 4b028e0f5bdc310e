/**
 * Send and Wait for Response's fields: the question, the answers offered, how the links travel,
 * and the wait limit.
 */
import type { INodeProperties } from 'n8n-workflow';

import { sendTargetField, sessionFields } from '../common/descriptions';

export const sendAndWaitFields: INodeProperties[] = [
	...sessionFields,
	sendTargetField('ask'),
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		placeholder: 'e.g. Refund of $120 for order #1042: approve?',
		description:
			'What the person reads. The links (or buttons) to answer come after it. The workflow waits until they answer.',
	},
	{
		displayName: 'Response Type',
		name: 'responseType',
		type: 'options',
		default: 'approval',
		options: [
			{
				name: 'Approval',
				value: 'approval',
				description: 'The person taps a link to approve (or decline)',
			},
			{
				name: 'Free Text',
				value: 'freeText',
				description: 'The person opens a short page and types an answer',
			},
		],
	},
	{
		displayName: 'Approval Options',
		name: 'approvalOptions',
		type: 'fixedCollection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Type of Approval',
						name: 'approvalType',
						type: 'options',
						default: 'single',
						options: [
							{ name: 'Approve Only', value: 'single' },
							{ name: 'Approve and Decline', value: 'double' },
						],
					},
					{
						displayName: 'Approve Button Label',
						name: 'approveLabel',
						type: 'string',
						default: '✓ Approve',
					},
					{
						displayName: 'Decline Button Label',
						name: 'disapproveLabel',
						type: 'string',
						default: '✗ Decline',
						displayOptions: { show: { approvalType: ['double'] } },
					},
				],
			},
		],
		displayOptions: { show: { responseType: ['approval'] } },
	},
	{
		displayName: 'Deliver Links As',
		name: 'delivery',
		type: 'options',
		default: 'text',
		options: [
			{
				name: 'Links in the Text',
				value: 'text',
				description: 'A plain text message with one link per answer: every engine shows it',
			},
			{
				name: 'URL Buttons',
				value: 'buttons',
				description:
					'A message with one URL button per answer (Send Buttons); some engines do not render buttons',
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
				displayName: 'Answer Page Text',
				name: 'answeredText',
				type: 'string',
				default: 'Got it, thanks. You can close this page now.',
				description: 'What the person sees after answering',
			},
			{
				displayName: 'Form Button Label',
				name: 'formButtonLabel',
				type: 'string',
				default: 'Send',
				description: 'The submit button of the free text page',
				displayOptions: { show: { '/responseType': ['freeText'] } },
			},
			{
				displayName: 'Form Title',
				name: 'formTitle',
				type: 'string',
				default: 'Your answer',
				description: 'Title of the free text page',
				displayOptions: { show: { '/responseType': ['freeText'] } },
			},
			{
				displayName: 'Limit Wait Time',
				name: 'limitWaitTime',
				type: 'fixedCollection',
				default: {},
				placeholder: 'Add limit',
				description:
					'Stop waiting at some point. The workflow then goes on with the input item unchanged (no "data" field), as n8n\'s own send-and-wait nodes do.',
				options: [
					{
						displayName: 'Values',
						name: 'values',
						values: [
							{
								displayName: 'Limit Type',
								name: 'limitType',
								type: 'options',
								default: 'afterTimeInterval',
								options: [
									{
										name: 'After Time Interval',
										value: 'afterTimeInterval',
										description: 'Waits for a certain amount of time',
									},
									{
										name: 'At Specified Time',
										value: 'atSpecifiedTime',
										description: 'Waits until a date and time',
									},
								],
							},
							{
								displayName: 'Amount',
								name: 'resumeAmount',
								type: 'number',
								default: 1,
								typeOptions: { minValue: 0, numberPrecision: 2 },
								displayOptions: { show: { limitType: ['afterTimeInterval'] } },
							},
							{
								displayName: 'Unit',
								name: 'resumeUnit',
								type: 'options',
								default: 'hours',
								options: [
									{ name: 'Minutes', value: 'minutes' },
									{ name: 'Hours', value: 'hours' },
									{ name: 'Days', value: 'days' },
								],
								displayOptions: { show: { limitType: ['afterTimeInterval'] } },
							},
							{
								displayName: 'Max Date and Time',
								name: 'maxDateAndTime',
								type: 'dateTime',
								default: '',
								description: 'When to stop waiting',
								displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
							},
						],
					},
				],
			},
			{
				displayName: 'Respond Link Label',
				name: 'respondLabel',
				type: 'string',
				default: 'Answer here',
				description: 'The label of the link (or button) to the free text page',
				displayOptions: { show: { '/responseType': ['freeText'] } },
			},
		],
	},
];
