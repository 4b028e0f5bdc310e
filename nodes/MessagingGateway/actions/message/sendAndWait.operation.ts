import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { WAIT_INDEFINITELY } from 'n8n-workflow';

import type { ChatReference } from '../../../shared/identifiers';
import { escapeHtml } from '../../../shared/values';
import { sendButtonsMessage, sendToChat } from '../../helpers/instance-send';
import type { ButtonsSender } from '../../helpers/instance-send';
import {
	decimalFrom,
	fieldError,
	optionFrom,
	readOptions,
	readRequiredText,
	textFrom,
} from '../../helpers/fields';
import { readChat } from '../../helpers/message';
import { readSession, sendTargetField, sessionFields, showOnlyFor } from '../common/descriptions';

type ResponseType = 'approval' | 'freeText';

const LIMIT_UNITS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;

const properties: INodeProperties[] = [
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

export const description = showOnlyFor('message', 'sendAndWait', properties);

interface Answer {
	label: string;
	url: string;
}

/** The answers the person can give, each with its signed resume URL (n8n checks the signature). */
function answersOf(
	this: IExecuteFunctions,
	itemIndex: number,
	responseType: ResponseType,
): Answer[] {
	const options = readOptions.call(this, itemIndex);
	const label = (raw: unknown, name: string, fallback: string) =>
		textFrom.call(this, raw, name, itemIndex).trim() || fallback;
	if (responseType === 'freeText') {
		return [
			{
				label: label(options.respondLabel, 'Respond Link Label', 'Answer here'),
				url: this.getSignedResumeUrl(),
			},
		];
	}
	const approval = this.getNodeParameter('approvalOptions.values', itemIndex, {}) as IDataObject;
	const answers = [
		{
			label: label(approval.approveLabel, 'Approve Button Label', '✓ Approve'),
			url: this.getSignedResumeUrl({ approved: 'true' }),
		},
	];
	const approvalType = optionFrom.call(
		this,
		approval.approvalType ?? 'single',
		'Type of Approval',
		itemIndex,
		['single', 'double'],
	);
	if (approvalType === 'double') {
		answers.push({
			label: label(approval.disapproveLabel, 'Decline Button Label', '✗ Decline'),
			url: this.getSignedResumeUrl({ approved: 'false' }),
		});
	}
	return answers;
}

/** When to stop waiting: never, after an interval, or at a date; checked before sending. */
function waitTillOf(this: IExecuteFunctions, itemIndex: number): Date {
	const options = readOptions.call(this, itemIndex);
	const limit = (options.limitWaitTime as IDataObject | undefined)?.values as
		| IDataObject
		| undefined;
	if (!limit) return WAIT_INDEFINITELY;
	const limitType = optionFrom.call(
		this,
		limit.limitType ?? 'afterTimeInterval',
		'Limit Type',
		itemIndex,
		['afterTimeInterval', 'atSpecifiedTime'],
	);
	if (limitType === 'atSpecifiedTime') {
		const text = textFrom.call(this, limit.maxDateAndTime, 'Max Date and Time', itemIndex).trim();
		const date = new Date(text);
		if (text === '' || Number.isNaN(date.getTime())) {
			throw fieldError.call(
				this,
				itemIndex,
				`Max Date and Time must be a date and time, e.g. 2026-12-24T18:00:00 (got "${text}")`,
			);
		}
		return date;
	}
	const amount = decimalFrom.call(this, limit.resumeAmount ?? 1, 'Amount', itemIndex, {
		min: 0,
		max: 3650,
	});
	const unit = optionFrom.call(this, limit.resumeUnit ?? 'hours', 'Unit', itemIndex, [
		'minutes',
		'hours',
		'days',
	]);
	return new Date(Date.now() + amount * LIMIT_UNITS[unit as keyof typeof LIMIT_UNITS]);
}

/** How a gateway sends the question with its links as text, without a link preview. */
export type LinksTextSender = (
	this: IExecuteFunctions,
	session: string,
	chat: ChatReference,
	text: string,
	itemIndex: number,
) => Promise<unknown>;

/** The instance-family sendText (`/message/sendText/<session>`), as the Messaging Gateway API and Evolution API take it. */
async function sendLinksText(
	this: IExecuteFunctions,
	session: string,
	chat: ChatReference,
	text: string,
	itemIndex: number,
): Promise<unknown> {
	// No preview: a preview fetcher opening an approve link must not answer for the person.
	return await sendToChat.call(
		this,
		itemIndex,
		session,
		'sendText',
		chat,
		{ linkPreview: false },
		{ textMessage: { text } },
	);
}

/**
 * Sends the question with its signed links (URL buttons through `sendButtons`, text through
 * `sendText`, each the gateway's way) and puts the execution to wait for the answer.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	sendButtons: ButtonsSender = sendButtonsMessage,
	sendText: LinksTextSender = sendLinksText,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	const message = readRequiredText.call(this, 'message', 'Message', itemIndex, {
		keepSpaces: true,
		hint: 'Enter the question to ask.',
	});
	const responseType = optionFrom.call(
		this,
		this.getNodeParameter('responseType', itemIndex, 'approval'),
		'Response Type',
		itemIndex,
		['approval', 'freeText'],
	);
	const delivery = optionFrom.call(
		this,
		this.getNodeParameter('delivery', itemIndex, 'text'),
		'Deliver Links As',
		itemIndex,
		['text', 'buttons'],
	);
	const waitTill = waitTillOf.call(this, itemIndex);
	// An execution waits for one answer: more items would each need an execution of their own.
	const count = this.getInputData().length;
	if (count > 1) {
		throw fieldError.call(
			this,
			itemIndex,
			`Send and Wait for Response waits for one answer per execution, and got ${count} items: nothing was sent`,
			'Ask each person in an execution of their own: put the node in a sub-workflow (Execute Workflow, one item each) or after a trigger that starts one execution per message.',
		);
	}
	const answers = answersOf.call(this, itemIndex, responseType as ResponseType);

	if (delivery === 'buttons') {
		await sendButtons.call(
			this,
			{
				session,
				chat,
				header: '',
				body: message,
				footer: '',
				buttons: answers.map(({ label, url }) => ({ type: 'url', text: label, url })),
			},
			itemIndex,
		);
	} else {
		const text = [message, '', ...answers.map(({ label, url }) => `${label}: ${url}`)].join('\n');
		await sendText.call(this, session, chat, text, itemIndex);
	}
	await this.putExecutionToWait(waitTill);
	// An answer replaces this output (see `webhook`). When the limit passes, n8n resumes with this
	// node disabled, so the input item goes on unchanged whatever is returned here.
	return [this.getInputData()[itemIndex]];
}

/** Link-preview fetchers and crawlers: opening a link is not an answer when they do it. */
const PREVIEW_AGENTS =
	/whatsapp|facebookexternalhit|facebot|telegrambot|slackbot|twitterbot|discordbot|linkedinbot|skypeuripreview|googlebot|bingbot|applebot|embedly|preview|crawler|spider|\bbot\b/i;

function page(title: string, body: string): string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}textarea{width:100%;min-height:8rem;font:inherit}button{margin-top:1rem;padding:.6rem 1.2rem;font:inherit}</style></head><body><h1>${title}</h1>${body}</body></html>`;
}

/**
 * The resume webhook of Send and Wait for Response: n8n calls it for the signed links the
 * message carries (it has checked the signature; a wrong or reused link never gets here). An
 * approval link answers when opened; the free text link shows a page whose form answers.
 */
export async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject();
	const response = this.getResponseObject();
	const responseType = this.getNodeParameter('responseType', 'approval') as ResponseType;
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const answeredText = escapeHtml(
		String(options.answeredText || 'Got it, thanks. You can close this page now.'),
	);
	const answered = page('Thank you', `<p>${answeredText}</p>`);
	const respondedAt = new Date().toISOString();

	if (
		request.method === 'GET' &&
		PREVIEW_AGENTS.test(String(request.headers['user-agent'] ?? ''))
	) {
		response.status(204).end();
		return { noWebhookResponse: true };
	}
	if (responseType === 'freeText') {
		const body = request.method === 'POST' ? this.getBodyData() : {};
		const text = typeof body.response === 'string' ? body.response.trim() : '';
		// The page until an answer is typed: opening it, or sending it empty, answers nothing.
		if (text === '') {
			const title = escapeHtml(String(options.formTitle || 'Your answer'));
			const button = escapeHtml(String(options.formButtonLabel || 'Send'));
			response
				.status(200)
				.type('html')
				.send(
					page(
						title,
						`<form method="POST"><textarea name="response" required aria-label="${title}"></textarea><br><button type="submit">${button}</button></form>`,
					),
				);
			return { noWebhookResponse: true };
		}
		return {
			webhookResponse: answered,
			workflowData: [[{ json: { data: { text, respondedAt } } }]],
		};
	}
	const query = this.getQueryData() as IDataObject;
	return {
		webhookResponse: answered,
		workflowData: [[{ json: { data: { approved: query.approved === 'true', respondedAt } } }]],
	};
}
