/** Send Text's fields: the editor's side of the operation, apart from what reads and sends them. */
import type { INodeProperties } from 'n8n-workflow';

import { delayOption, presenceOption } from '../../helpers/message';
import {
	sendTargetField,
	sessionFields,
	simultaneousChatsOption,
	paceSendsOptions,
	waitBetweenItemsOption,
} from '../common/descriptions';
import { replyToOption } from '../../helpers/instance-send';

/** The Split Into Messages choices that split: the options about parts show only with one of them. */
const SPLITTING = ['paragraph', 'sentence', 'maxLength'];

export const sendTextFields: INodeProperties[] = [
	...sessionFields,
	sendTargetField('write to'),
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		placeholder: 'e.g. Hello! Your order #1042 is ready for pickup.',
		description: 'The message text',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Check the Number First',
				name: 'checkNumber',
				type: 'boolean',
				default: false,
				description:
					"Whether to ask the gateway first whether a contact's number is on the messaging network, and fail the item without sending when it is not. The message goes to the JID the network knows the number by. Groups are not checked.",
			},
			delayOption,
			{
				displayName: 'Link Preview',
				name: 'linkPreview',
				type: 'boolean',
				default: true,
				description:
					'Whether to show a preview of the first link in the text. The gateway shows one unless this is off.',
			},
			{
				displayName: 'Maximum Part Length',
				name: 'maxPartLength',
				type: 'number',
				displayOptions: { show: { splitInto: ['maxLength'] } },
				typeOptions: { minValue: 1, numberPrecision: 0 },
				default: 500,
				description:
					'With Split Into Messages: By Maximum Length, the most characters a part has (an emoji counts as one). Each part is the longest piece that fits and ends at a space or line break; a single word, URL or code block longer than this is sent whole as a part of its own.',
			},
			{
				displayName: 'Mention Everyone',
				name: 'mentionEveryone',
				type: 'boolean',
				default: false,
				description: 'Whether to mention every member of the group (groups only)',
			},
			{
				displayName: 'Mention Numbers',
				name: 'mentionNumbers',
				type: 'string',
				default: '',
				placeholder: 'e.g. +55 11 99999-9999, 5521988887777',
				description:
					'Phone numbers with country code to mention, separated by commas or spaces. Write @ followed by the number in the text where the mention should show, e.g. @5511999999999.',
			},
			...paceSendsOptions,
			presenceOption,
			replyToOption,
			simultaneousChatsOption,
			{
				displayName: 'Split Into Messages',
				name: 'splitInto',
				type: 'options',
				// Added means wanted; left out, a text goes as one message (Off stays for saved workflows).
				default: 'paragraph',
				options: [
					{ name: 'Off', value: 'off', description: 'Send the text as one message, as typed' },
					{
						name: 'By Paragraph',
						value: 'paragraph',
						description: 'One message per paragraph (parts are separated by blank lines)',
					},
					{
						name: 'By Sentence',
						value: 'sentence',
						description:
							'One message per sentence and per paragraph. A sentence ends with a period, ! or ? before a space or line break; abbreviations, initials, numbers and URLs do not end one.',
					},
					{
						name: 'By Maximum Length',
						value: 'maxLength',
						description: 'Messages of at most Maximum Part Length characters, cut at spaces',
					},
				],
				description:
					"Whether to send a long reply as several messages, one after another, as a person would. Never cuts inside a word, a URL, a ``` code block or `inline code`; parts are trimmed and empty ones skipped. The output lists every part with its message ID in parts, and messageID is the last part's. Reply To Message ID quotes on the first part only; Mention Everyone goes with the first part, each mentioned number with the parts that write @ and its number (the first part when none does).",
			},
			{
				displayName: 'Typing Before Each Part',
				name: 'typingBeforeEachPart',
				type: 'boolean',
				displayOptions: { show: { splitInto: SPLITTING } },
				default: true,
				description:
					'Whether, with Split Into Messages, the chat shows "typing…" before each part for a time that grows with its length (Typing Per Character, between Typing Minimum and Typing Maximum). It replaces Delay (Ms) and Presence While Delaying for the parts; when off, each part gets Delay (Ms) as set.',
			},
			{
				displayName: 'Typing Maximum (Ms)',
				name: 'typingMaximum',
				type: 'number',
				displayOptions: { show: { splitInto: SPLITTING } },
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 4000,
				description: 'The longest "typing…" before a part, however long it is',
			},
			{
				displayName: 'Typing Minimum (Ms)',
				name: 'typingMinimum',
				type: 'number',
				displayOptions: { show: { splitInto: SPLITTING } },
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 500,
				description: 'The shortest "typing…" before a part, however short it is',
			},
			{
				displayName: 'Typing Per Character (Ms)',
				name: 'typingPerCharacter',
				type: 'number',
				displayOptions: { show: { splitInto: SPLITTING } },
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 40,
				description:
					'How many milliseconds of "typing…" each character of a part adds. At 40, a part of 50 characters shows typing for 2 seconds.',
			},
			waitBetweenItemsOption,
		],
	},
];
