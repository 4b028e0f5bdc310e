import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { fileSourceProperties, readFileSource } from '../../helpers/files';
import { classifyChat } from '../../../shared/identifiers';
import { fieldError, readChat } from '../../helpers/message';
import { isHttpUrl } from '../../helpers/urls';
import { sendButtonsMessage } from '../../helpers/instance-send';
import type { ButtonsMessage, ButtonsSender } from '../../helpers/instance-send';
import {
	readSession,
	sendTargetField,
	sessionFields,
	showOnlyFor,
	simultaneousChatsOption,
	paceSendsOptions,
	waitBetweenItemsOption,
} from '../common/descriptions';
import {
	collectionEntries,
	isBlank,
	readRequiredText,
	readText,
	textFrom,
} from '../../helpers/fields';
import { quoteValue } from '../../../shared/values';

type ButtonType = 'reply' | 'call' | 'copy' | 'url';

/** The network's limits for buttons on one message (WhatsApp's, as for template buttons). */
const BUTTON_LIMITS = { total: 10, perType: { url: 2, call: 1, copy: 1 } } as const;
const BUTTON_RULE = `At most ${BUTTON_LIMITS.total} buttons, of which at most ${BUTTON_LIMITS.perType.url} URL, ${BUTTON_LIMITS.perType.call} call and ${BUTTON_LIMITS.perType.copy} copy button.`;
/** Evolution API v2's own rule (its buttonMessage), checked before any request on that gateway. */
const EVOLUTION_V2_BUTTON_RULE =
	'On Evolution API v2, reply buttons go only on their own, at most 3.';

const properties: INodeProperties[] = [
	...sessionFields,
	sendTargetField('write to'),
	{
		displayName: 'Header',
		name: 'header',
		type: 'string',
		default: '',
		placeholder: 'e.g. Order #1042',
		description:
			'Title shown above the message (optional). Evolution API v2 shows it in bold above the body, or the body in bold when there is no header.',
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
		description: `The buttons, in the order they are shown. At least one. ${BUTTON_RULE} ${EVOLUTION_V2_BUTTON_RULE}`,
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
							'Your own identifier of the reply, to tell which button was tapped (optional; Evolution API v2, which needs one, gets the button text when it is empty)',
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
	// The spec's headerImage is {mimetype, url, filename}: a URL only.
	...fileSourceProperties('headerImage', 'Header Image', true, true),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [...paceSendsOptions, simultaneousChatsOption, waitBetweenItemsOption],
	},
];

export const description = showOnlyFor('message', 'sendButtons', properties);

/** Buttons from the fixed collection, or a list from an expression; validated before any request. */
function readButtons(this: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const entries = collectionEntries.call(
		this,
		this.getNodeParameter('buttons', itemIndex, {}),
		'button',
		itemIndex,
		'Buttons must have at least one button',
		'Add a button with a type and a text.',
	);
	if (entries.length > BUTTON_LIMITS.total) {
		throw fieldError.call(
			this,
			itemIndex,
			`Buttons must have at most ${BUTTON_LIMITS.total} buttons (got ${entries.length})`,
			BUTTON_RULE,
		);
	}
	const buttons = entries.map((button, index) => {
		const field = `Buttons (button ${index + 1})`;
		const type = textFrom
			.call(this, button.type ?? 'reply', `${field}: Type`, itemIndex)
			.trim()
			.toLowerCase() as ButtonType;
		if (!['reply', 'call', 'copy', 'url'].includes(type)) {
			throw fieldError.call(
				this,
				itemIndex,
				`${field}: Type must be reply, call, copy or url (got ${quoteValue(button.type)})`,
			);
		}
		const text = textFrom.call(this, button.text, `${field}: Text`, itemIndex).trim();
		if (isBlank(text)) throw fieldError.call(this, itemIndex, `${field}: Text must not be empty`);
		const result: IDataObject = { type, text };
		if (type === 'reply') {
			const id = textFrom.call(this, button.id, `${field}: ID`, itemIndex).trim();
			if (id !== '') result.id = id;
		} else if (type === 'call') {
			const phone = classifyChat(button.phoneNumber);
			if (phone?.kind !== 'contact') {
				throw fieldError.call(
					this,
					itemIndex,
					`${field}: Phone Number must be a phone number with country code, e.g. +55 11 99999-9999 (got ${quoteValue(button.phoneNumber ?? '')})`,
				);
			}
			result.phoneNumber = phone.value;
		} else if (type === 'copy') {
			const copyCode = textFrom
				.call(this, button.copyCode, `${field}: Copy Code`, itemIndex)
				.trim();
			if (isBlank(copyCode))
				throw fieldError.call(this, itemIndex, `${field}: Copy Code must not be empty`);
			result.copyCode = copyCode;
		} else {
			const url = textFrom.call(this, button.url, `${field}: URL`, itemIndex).trim();
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
	for (const [type, limit] of Object.entries(BUTTON_LIMITS.perType)) {
		const count = buttons.filter((button) => button.type === type).length;
		if (count > limit) {
			throw fieldError.call(
				this,
				itemIndex,
				`Buttons must have at most ${limit} of type ${type} (got ${count})`,
				BUTTON_RULE,
			);
		}
	}
	return buttons;
}

/** Reads and checks every field of Send Buttons for one item, before any request. */
export async function readSendButtons(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<ButtonsMessage> {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	const body = readRequiredText.call(this, 'body', 'Body', itemIndex, {
		hint: 'Enter the message text.',
	});
	const buttons = readButtons.call(this, itemIndex);
	const headerImage = await readFileSource.call(this, 'headerImage', 'Header Image', itemIndex, {
		urlOnly: true,
		mimeTypes: ['image/jpeg', 'image/png'],
	});
	const message: ButtonsMessage = {
		session,
		chat,
		header: readText.call(this, 'header', 'Header', itemIndex),
		body,
		footer: readText.call(this, 'footer', 'Footer', itemIndex),
		buttons,
	};
	if (headerImage) message.headerImage = headerImage as IDataObject;
	return message;
}

/** Send Buttons through `send`, the gateway's way (by default the Messaging Gateway API's). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	send: ButtonsSender = sendButtonsMessage,
): Promise<INodeExecutionData[]> {
	const message = await readSendButtons.call(this, itemIndex);
	return [{ json: await send.call(this, message, itemIndex) }];
}
