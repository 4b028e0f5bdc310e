import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { ChatReference } from '../../../shared/identifiers';
import { delayOption, fieldError, presenceOption, readChat } from '../../helpers/message';
import {
	collectionEntries,
	isBlank,
	readOptions,
	readRequiredText,
	readText,
	textFrom,
} from '../../helpers/fields';
import { readSendOptions, replyToOption, sendToChat } from '../../helpers/instance-send';
import {
	readSession,
	sendTargetField,
	sessionFields,
	showOnlyFor,
	simultaneousChatsOption,
	paceSendsOptions,
	waitBetweenItemsOption,
} from '../common/descriptions';

const properties: INodeProperties[] = [
	...sessionFields,
	{
		displayName:
			'List messages are shown by some gateway engines and phones only; elsewhere the recipient sees nothing or a plain text. Try one on your gateway before relying on it.',
		name: 'listNotice',
		type: 'notice',
		default: '',
	},
	sendTargetField('send the list to'),
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Our menu',
		description: 'Bold title at the top of the message',
	},
	{
		displayName: 'Text',
		name: 'description',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 3 },
		placeholder: 'e.g. Pick a dish and we prepare it right away.',
		description: 'The message text under the title',
	},
	{
		displayName: 'Button Text',
		name: 'buttonText',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. See the Menu',
		description: 'Label of the button that opens the list',
	},
	{
		displayName: 'Footer',
		name: 'footerText',
		type: 'string',
		default: '',
		placeholder: 'e.g. Acme Kitchen',
		description: 'Small text under the message (optional)',
	},
	{
		displayName: 'Rows',
		name: 'rows',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		required: true,
		default: {},
		placeholder: 'Add Row',
		description:
			'The choices, in order. Rows with the same section are shown together under its title.',
		options: [
			{
				displayName: 'Row',
				name: 'row',
				values: [
					{
						displayName: 'Description',
						name: 'description',
						type: 'string',
						default: '',
						placeholder: 'e.g. With rice and beans',
						description: 'Smaller text under the row title (optional)',
					},
					{
						displayName: 'Row ID',
						name: 'rowId',
						type: 'string',
						default: '',
						placeholder: 'e.g. feijoada',
						description:
							'Your own identifier, sent back when the row is picked. By default the row title.',
					},
					{
						displayName: 'Section',
						name: 'section',
						type: 'string',
						default: '',
						placeholder: 'e.g. Main Dishes',
						description: 'Title of the section the row belongs to. By default the list title.',
					},
					{
						displayName: 'Title',
						name: 'title',
						type: 'string',
						required: true,
						default: '',
						placeholder: 'e.g. Feijoada',
						description: 'The choice as the recipient sees it',
					},
				],
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
			delayOption,
			...paceSendsOptions,
			presenceOption,
			replyToOption,
			simultaneousChatsOption,
			waitBetweenItemsOption,
		],
	},
];

export const description = showOnlyFor('message', 'sendList', properties);

/** Rows grouped into sections in the order their sections first appear; IDs must be unique. */
function readSections(
	this: IExecuteFunctions,
	itemIndex: number,
	listTitle: string,
): IDataObject[] {
	const entries = collectionEntries.call(
		this,
		this.getNodeParameter('rows', itemIndex, {}),
		'row',
		itemIndex,
		'Rows must have at least one row',
		'Add a row with a title.',
	);
	const sections = new Map<string, IDataObject[]>();
	const rowIds = new Set<string>();
	entries.forEach((entry, index) => {
		const field = `Rows (row ${index + 1})`;
		const text = (key: string, label: string) =>
			textFrom.call(this, entry[key], `${field}: ${label}`, itemIndex).trim();
		const title = text('title', 'Title');
		if (isBlank(title)) throw fieldError.call(this, itemIndex, `${field}: Title must not be empty`);
		const rowId = text('rowId', 'Row ID') || title;
		if (rowIds.has(rowId)) {
			throw fieldError.call(
				this,
				itemIndex,
				`${field}: Row ID "${rowId}" is used by an earlier row`,
				'Each row needs its own ID (by default its title), so the reply tells which row was picked.',
			);
		}
		rowIds.add(rowId);
		const row: IDataObject = { title };
		const rowDescription = text('description', 'Description');
		if (rowDescription !== '') row.description = rowDescription;
		row.rowId = rowId;
		const section = text('section', 'Section') || listTitle;
		sections.set(section, [...(sections.get(section) ?? []), row]);
	});
	return [...sections].map(([title, rows]) => ({ title, rows }));
}

/** What the user asked Send List to do, checked; each gateway sends it its own way. */
export interface SendListRequest {
	session: string;
	chat: ChatReference;
	title: string;
	text: string;
	buttonText: string;
	/** '' when not given. */
	footerText: string;
	/** `{title, rows: [{title, description?, rowId}]}` each, in the order their sections first appear. */
	sections: IDataObject[];
	/** Delay, presence and the quoted message, as instance-family sends take them. */
	sendOptions: IDataObject;
	options: IDataObject;
}

/** Reads and checks every field of Send List for one item, before any request. */
export function readSendList(this: IExecuteFunctions, itemIndex: number): SendListRequest {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	const title = readRequiredText.call(this, 'title', 'Title', itemIndex);
	const text = readRequiredText.call(this, 'description', 'Text', itemIndex);
	const buttonText = readRequiredText.call(this, 'buttonText', 'Button Text', itemIndex);
	const footerText = readText.call(this, 'footerText', 'Footer', itemIndex);
	const sections = readSections.call(this, itemIndex, title);
	const options = readOptions.call(this, itemIndex);
	const sendOptions = readSendOptions.call(this, itemIndex, options);
	return { session, chat, title, text, buttonText, footerText, sections, sendOptions, options };
}

/** Send List on the Messaging Gateway API: `POST /message/sendList/<session>` (`listMessage`). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, chat, title, text, buttonText, footerText, sections, sendOptions } =
		readSendList.call(this, itemIndex);
	const listMessage: IDataObject = { title, description: text, buttonText };
	if (footerText !== '') listMessage.footerText = footerText;
	listMessage.sections = sections;
	return sendToChat.call(this, itemIndex, session, 'sendList', chat, sendOptions, {
		listMessage,
	});
}
