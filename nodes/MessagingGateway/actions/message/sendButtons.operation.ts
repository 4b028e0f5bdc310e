import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { gatewayApiRequest } from '../../../shared/transport';
import { fileSourceProperties, readFileSource } from '../../helpers/files';
import { classifyChat, toChatId } from '../../../shared/identifiers';
import { fieldError, readChat, responseObject, textOf } from '../../helpers/message';
import { isHttpUrl } from '../../helpers/urls';
import {
	readSession,
	sendTargetField,
	sessionField,
	waitBetweenItemsOption,
} from '../common.descriptions';

type ButtonType = 'reply' | 'call' | 'copy' | 'url';

const properties: INodeProperties[] = [
	sessionField,
	sendTargetField('write to'),
	{
		displayName: 'Header',
		name: 'header',
		type: 'string',
		default: '',
		placeholder: 'e.g. Order #1042',
		description: 'Title shown above the message (optional)',
	},
	{
		displayName: 'Body',
		name: 'body',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 3 },
		placeholder: 'e.g. Your order is ready. How do you want to receive it?',
		description: 'The message text above the buttons',
	},
	{
		displayName: 'Footer',
		name: 'footer',
		type: 'string',
		default: '',
		placeholder: 'e.g. Acme Store',
		description: 'Small text shown under the message (optional)',
	},
	{
		displayName: 'Buttons',
		name: 'buttons',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		required: true,
		default: {},
		placeholder: 'Add Button',
		description: 'The buttons, in the order they are shown (at least one)',
		options: [
			{
				displayName: 'Button',
				name: 'button',
				values: [
					{
						displayName: 'Copy Code',
						name: 'copyCode',
						type: 'string',
						required: true,
						default: '',
						placeholder: 'e.g. SAVE10',
						description: 'The text copied when the button is tapped',
						displayOptions: { show: { type: ['copy'] } },
					},
					{
						displayName: 'ID',
						name: 'id',
						type: 'string',
						default: '',
						placeholder: 'e.g. pickup',
						description:
							'Your own identifier of the reply, to tell which button was tapped (optional)',
						displayOptions: { show: { type: ['reply'] } },
					},
					{
						displayName: 'Phone Number',
						name: 'phoneNumber',
						type: 'string',
						required: true,
						default: '',
						placeholder: 'e.g. +55 11 99999-9999',
						description: 'The phone number to call, with country code',
						displayOptions: { show: { type: ['call'] } },
					},
					{
						displayName: 'Text',
						name: 'text',
						type: 'string',
						required: true,
						default: '',
						placeholder: 'e.g. Pick Up in Store',
						description: 'The label of the button',
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						default: 'reply',
						options: [
							{
								name: 'Call',
								value: 'call',
								description: 'Calls a phone number when tapped',
							},
							{
								name: 'Copy',
								value: 'copy',
								description: 'Copies a code (e.g. a coupon) when tapped',
							},
							{
								name: 'Reply',
								value: 'reply',
								description: 'Sends its text back as a reply when tapped',
							},
							{
								name: 'URL',
								value: 'url',
								description: 'Opens a web address when tapped',
							},
						],
						description: 'What the button does',
					},
					{
						displayName: 'URL',
						name: 'url',
						type: 'string',
						required: true,
						default: '',
						placeholder: 'e.g. https://example.com/track/1042',
						description: 'The http(s) address to open',
						displayOptions: { show: { type: ['url'] } },
					},
				],
			},
		],
	},
	...fileSourceProperties('headerImage', 'Header Image', true),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [waitBetweenItemsOption],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['message'], operation: ['sendButtons'] } },
	properties,
);

/** Buttons from the fixed collection, or a list from an expression; validated before any request. */
function readButtons(this: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const raw = this.getNodeParameter('buttons', itemIndex, {}) as unknown;
	const entries = Array.isArray(raw)
		? raw
		: (((raw as IDataObject | undefined)?.button as unknown[] | undefined) ?? []);
	if (!Array.isArray(entries) || entries.length === 0) {
		throw fieldError.call(
			this,
			itemIndex,
			'Buttons must have at least one button',
			'Add a button with a type and a text.',
		);
	}
	return entries.map((entry, index) => {
		const button = (typeof entry === 'object' && entry !== null ? entry : {}) as IDataObject;
		const field = `Buttons (button ${index + 1})`;
		const type = textOf(button.type ?? 'reply').toLowerCase() as ButtonType;
		if (!['reply', 'call', 'copy', 'url'].includes(type)) {
			throw fieldError.call(
				this,
				itemIndex,
				`${field}: Type must be reply, call, copy or url (got "${String(button.type)}")`,
			);
		}
		const text = textOf(button.text);
		if (text === '') throw fieldError.call(this, itemIndex, `${field}: Text must not be empty`);
		const result: IDataObject = { type, text };
		if (type === 'reply') {
			const id = textOf(button.id);
			if (id !== '') result.id = id;
		} else if (type === 'call') {
			const phone = classifyChat(button.phoneNumber);
			if (phone?.kind !== 'contact') {
				throw fieldError.call(
					this,
					itemIndex,
					`${field}: Phone Number must be a phone number with country code, e.g. +55 11 99999-9999 (got "${textOf(button.phoneNumber)}")`,
				);
			}
			result.phoneNumber = phone.value;
		} else if (type === 'copy') {
			const copyCode = textOf(button.copyCode);
			if (copyCode === '')
				throw fieldError.call(this, itemIndex, `${field}: Copy Code must not be empty`);
			result.copyCode = copyCode;
		} else {
			const url = textOf(button.url);
			if (!isHttpUrl(url)) {
				throw fieldError.call(
					this,
					itemIndex,
					`${field}: URL must be an http(s) address such as https://example.com (got "${url}")`,
				);
			}
			result.url = url;
		}
		return result;
	});
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	const bodyText = textOf(this.getNodeParameter('body', itemIndex, ''));
	if (bodyText === '') {
		throw fieldError.call(this, itemIndex, 'Body must not be empty', 'Enter the message text.');
	}
	const buttons = readButtons.call(this, itemIndex);
	const headerImage = await readFileSource.call(this, 'headerImage', 'Header Image', itemIndex);

	// The spec gives this endpoint one body shape (chatId + session), whatever the credential says.
	const body: IDataObject = {
		session,
		chatId: toChatId(chat),
		header: textOf(this.getNodeParameter('header', itemIndex, '')),
		body: bodyText,
		footer: textOf(this.getNodeParameter('footer', itemIndex, '')),
		buttons,
	};
	if (headerImage) body.headerImage = headerImage as IDataObject;

	const response = await gatewayApiRequest.call(this, 'POST', '/api/sendButtons', {
		body,
		itemIndex,
	});
	return [{ json: responseObject(response) }];
}
