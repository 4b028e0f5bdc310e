import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { toNumber } from '../../../shared/identifiers';
import { isBlank } from '../../../shared/values';
import type { ChatReference } from '../../../shared/identifiers';
import {
	delayAndPresence,
	delayOption,
	fieldError,
	presenceOption,
	readChat,
} from '../../helpers/message';
import {
	readSession,
	sendTargetField,
	sessionFields,
	showOnlyFor,
	simultaneousChatsOption,
	waitBetweenItemsOption,
} from '../common/descriptions';
import {
	booleanFrom,
	integerFrom,
	optionBoolean,
	optionFrom,
	readOptions,
	readRequiredText,
} from '../../helpers/fields';
import { checkNumbers, readPhoneNumbers } from '../../helpers/numbers';
import {
	instanceRequest,
	readQuoted,
	replyToOption,
	sentMessageOutput,
} from '../../helpers/instance-send';
import { SPLIT_MODES, splitText, typingTimeOf } from '../../helpers/text-parts';
import type { SplitMode, TypingTime } from '../../helpers/text-parts';

const properties: INodeProperties[] = [
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
			presenceOption,
			replyToOption,
			simultaneousChatsOption,
			{
				displayName: 'Split Into Messages',
				name: 'splitInto',
				type: 'options',
				default: 'off',
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
				default: true,
				description:
					'Whether, with Split Into Messages, the chat shows "typing…" before each part for a time that grows with its length (Typing Per Character, between Typing Minimum and Typing Maximum). It replaces Delay (Ms) and Presence While Delaying for the parts; when off, each part gets Delay (Ms) as set.',
			},
			{
				displayName: 'Typing Maximum (Ms)',
				name: 'typingMaximum',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 4000,
				description: 'The longest "typing…" before a part, however long it is',
			},
			{
				displayName: 'Typing Minimum (Ms)',
				name: 'typingMinimum',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 500,
				description: 'The shortest "typing…" before a part, however short it is',
			},
			{
				displayName: 'Typing Per Character (Ms)',
				name: 'typingPerCharacter',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 40,
				description:
					'How many milliseconds of "typing…" each character of a part adds. At 40, a part of 50 characters shows typing for 2 seconds.',
			},
			waitBetweenItemsOption,
		],
	},
];

export const description = showOnlyFor('message', 'sendText', properties);

/** What the user asked Send Text to do; each gateway sends it in its own way. */
export interface SendTextRequest {
	session: string;
	chat: ChatReference;
	/** As typed: line breaks and indentation matter. */
	text: string;
	delay?: number;
	presence?: string;
	linkPreview?: boolean;
	/** The quoted message's key (`{id, remoteJid, fromMe}`), from Reply To Message ID. */
	quoted?: IDataObject;
	mentionEveryone: boolean;
	/** Digits of the numbers to mention. */
	mentioned: string[];
	checkFirst: boolean;
	/** Split Into Messages, when not Off. */
	split?: TextSplit;
}

/** How Send Text cuts its text into messages, and the typing shown before each (none: Delay (Ms) as set). */
export interface TextSplit {
	mode: Exclude<SplitMode, 'off'>;
	maxLength: number;
	typing?: TypingTime;
}

/** Split Into Messages and the typing options; undefined when Off. */
function readSplit(this: IExecuteFunctions, options: IDataObject, itemIndex: number) {
	const mode = optionFrom.call(
		this,
		options.splitInto ?? 'off',
		'Split Into Messages',
		itemIndex,
		SPLIT_MODES,
	) as SplitMode;
	if (mode === 'off') return undefined;
	const whole = (key: string, displayName: string, fallback: number, min: number) =>
		integerFrom.call(this, options[key] ?? fallback, displayName, itemIndex, min);
	const split: TextSplit = {
		mode,
		maxLength: whole('maxPartLength', 'Maximum Part Length', 500, 1),
	};
	if (
		optionBoolean.call(
			this,
			options,
			'typingBeforeEachPart',
			'Typing Before Each Part',
			itemIndex,
			true,
		)
	) {
		split.typing = {
			perCharacter: whole('typingPerCharacter', 'Typing Per Character (Ms)', 40, 0),
			minimum: whole('typingMinimum', 'Typing Minimum (Ms)', 500, 0),
			maximum: whole('typingMaximum', 'Typing Maximum (Ms)', 4000, 0),
		};
		if (split.typing.minimum > split.typing.maximum) {
			throw fieldError.call(
				this,
				itemIndex,
				`Typing Minimum (Ms) must not be more than Typing Maximum (Ms) (got ${split.typing.minimum} and ${split.typing.maximum})`,
			);
		}
	}
	return split;
}

/** Reads and checks every field of Send Text for one item, before any request. */
export function readSendText(this: IExecuteFunctions, itemIndex: number): SendTextRequest {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	// Sent as typed (line breaks and indentation matter); a number from an expression becomes text.
	const text = readRequiredText.call(this, 'text', 'Text', itemIndex, {
		keepSpaces: true,
		hint: 'Enter the message to send, or map it from an input field with an expression.',
	});
	const options = readOptions.call(this, itemIndex);
	const { delay, presence } = delayAndPresence.call(this, itemIndex, options);
	const request: SendTextRequest = {
		session,
		chat,
		text,
		mentionEveryone: optionBoolean.call(
			this,
			options,
			'mentionEveryone',
			'Mention Everyone',
			itemIndex,
			false,
		),
		mentioned: readPhoneNumbers
			.call(this, options.mentionNumbers ?? '', 'Mention Numbers', itemIndex, true)
			.map((entry) => entry.number),
		checkFirst: optionBoolean.call(
			this,
			options,
			'checkNumber',
			'Check the Number First',
			itemIndex,
			false,
		),
	};
	if (delay !== undefined) request.delay = delay as number;
	if (presence !== undefined) request.presence = presence as string;
	if (options.linkPreview !== undefined) {
		request.linkPreview = booleanFrom.call(this, options.linkPreview, 'Link Preview', itemIndex);
	}
	const quoted = readQuoted.call(this, itemIndex, options);
	if (quoted) request.quoted = quoted.key as IDataObject;
	const split = readSplit.call(this, options, itemIndex);
	if (split) request.split = split;
	if (request.mentionEveryone && chat.kind !== 'group') {
		throw fieldError.call(
			this,
			itemIndex,
			`Mention Everyone works only in groups, and Chat is a contact (${chat.value})`,
			'Pick a group as Chat, or turn Mention Everyone off.',
		);
	}
	return request;
}

/**
 * The number a text goes to: the chat's, or with Check the Number First the JID the network
 * knows it by (e.g. a Brazilian number with or without its 9th digit); a number that is not on
 * the network fails the item before anything is sent.
 */
export async function recipientOf(
	this: IExecuteFunctions,
	request: SendTextRequest,
	itemIndex: number,
): Promise<string> {
	const number = toNumber(request.chat);
	// Some gateways answer 201 for numbers that are not on the network, and nothing arrives.
	if (!request.checkFirst || request.chat.kind !== 'contact') return number;
	const [check] = await checkNumbers.call(this, request.session, [number], itemIndex);
	if (!check.exists) throw notOnNetwork.call(this, number, itemIndex);
	return check.jid ?? number;
}

/** Check the Number First found no account for `number`: the item fails before anything is sent. */
export function notOnNetwork(
	this: IExecuteFunctions,
	number: string,
	itemIndex: number,
): NodeOperationError {
	return new NodeOperationError(
		this.getNode(),
		`Number ${number} is not on the network: nothing was sent`,
		{
			itemIndex,
			description:
				'The gateway says no account uses this number. Check the country code and the area code, or turn off Check the Number First to send anyway.',
		},
	);
}

/**
 * POSTs a text's body to `/message/sendText/<session>` (the route of both Evolution API versions and
 * the spec) and outputs the gateway's answer with the full message ID, so React, Edit or Delete
 * can follow.
 */
export async function postText(
	this: IExecuteFunctions,
	request: SendTextRequest,
	body: IDataObject,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await instanceRequest.call(
		this,
		{ method: 'POST', route: 'message/sendText', body },
		request.session,
		itemIndex,
	);
	return [{ json: sentMessageOutput.call(this, response, request.chat, itemIndex) }];
}

/**
 * The requests of one Send Text: the request itself when Split Into Messages is Off, else one per
 * part, in order, each with its typing time as Delay (Ms) and "composing" as presence (or Delay
 * (Ms) as set, with Typing Before Each Part off). The reply goes with the first part, Mention
 * Everyone too; a mentioned number with the parts that write `@<number>`, the first when none does.
 */
export function textPartRequests(request: SendTextRequest): SendTextRequest[] {
	const { split } = request;
	if (!split) return [request];
	// Parts of only invisible characters (a zero-width space) are not sent either.
	const texts = splitText(request.text, split.mode, split.maxLength).filter(
		(text) => !isBlank(text),
	);
	const unplaced = request.mentioned.filter(
		(number) => !texts.some((text) => text.includes(`@${number}`)),
	);
	return texts.map((text, index) => {
		const part: SendTextRequest = {
			...request,
			text,
			quoted: index === 0 ? request.quoted : undefined,
			mentionEveryone: index === 0 && request.mentionEveryone,
			mentioned: [
				...(index === 0 ? unplaced : []),
				...request.mentioned.filter((number) => text.includes(`@${number}`)),
			],
		};
		if (!part.quoted) delete part.quoted;
		if (split.typing) {
			part.delay = typingTimeOf(text, split.typing);
			part.presence = 'composing';
		}
		return part;
	});
}

/** `1–2` or `3`: a range of part numbers as the error names them. */
function partRange(first: number, last: number): string {
	return first === last ? `${first}` : `${first}–${last}`;
}

/**
 * A part that failed, with which parts went out (their message IDs) and which did not, in the
 * error's message and description, where "On Error: Continue" items carry them too. The error
 * keeps its class and the gateway's words.
 */
function partFailure(
	this: IExecuteFunctions,
	caught: unknown,
	sent: IDataObject[],
	total: number,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	const error =
		caught instanceof NodeApiError || caught instanceof NodeOperationError
			? caught
			: new NodeOperationError(this.getNode(), caught as Error, { itemIndex });
	const failed = sent.length + 1;
	const outcome =
		sent.length === 0
			? `nothing was sent`
			: `part${sent.length > 1 ? 's' : ''} ${partRange(1, sent.length)} sent, ${partRange(failed, total)} not`;
	error.message = `${error.message} (part ${failed} of ${total} failed: ${outcome})`;
	const sentList = sent
		.map((part, index) => `part ${index + 1}: ${String(part.messageId ?? 'no message ID')}`)
		.join(', ');
	const summary =
		sent.length === 0
			? `None of the ${total} parts was sent.`
			: `Sent: ${sentList}. Not sent: part${failed < total ? 's' : ''} ${partRange(failed, total)} of ${total}.`;
	error.description = error.description ? `${summary} ${error.description}` : summary;
	return error;
}

/**
 * Sends Send Text's request, or with Split Into Messages its parts one after another with
 * `sendOne` (the gateway's own send, which shows the typing); outputs the last part's answer with
 * `parts: [{text, messageId}]`. A failed part stops the rest and says which parts went out.
 */
export async function sendTextInParts(
	this: IExecuteFunctions,
	request: SendTextRequest,
	itemIndex: number,
	sendOne: (part: SendTextRequest, index: number) => Promise<IDataObject>,
): Promise<INodeExecutionData[]> {
	if (!request.split) return [{ json: await sendOne(request, 0) }];
	const parts = textPartRequests(request);
	if (parts.length === 0) {
		throw fieldError.call(this, itemIndex, 'Text has nothing to send once split into messages');
	}
	const sent: IDataObject[] = [];
	let last: IDataObject = {};
	for (const [index, part] of parts.entries()) {
		try {
			last = await sendOne(part, index);
		} catch (caught) {
			throw partFailure.call(this, caught, sent, parts.length, itemIndex);
		}
		sent.push({ text: part.text, messageId: last.messageId });
	}
	return [{ json: { ...last, parts: sent } }];
}

/** Send Text on the Messaging Gateway API: Evolution API v1's body (`textMessage`, `options`). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = readSendText.call(this, itemIndex);
	const number = await recipientOf.call(this, request, itemIndex);
	return await sendTextInParts.call(this, request, itemIndex, async (part) => {
		const sendOptions: IDataObject = {};
		if (part.delay !== undefined) sendOptions.delay = part.delay;
		if (part.presence !== undefined) sendOptions.presence = part.presence;
		if (part.linkPreview !== undefined) sendOptions.linkPreview = part.linkPreview;
		if (part.quoted) sendOptions.quoted = { key: part.quoted };
		const mentions: IDataObject = {};
		if (part.mentionEveryone) mentions.everyOne = true;
		if (part.mentioned.length > 0) mentions.mentioned = part.mentioned;
		if (Object.keys(mentions).length > 0) sendOptions.mentions = mentions;
		const body: IDataObject = { number };
		if (Object.keys(sendOptions).length > 0) body.options = sendOptions;
		body.textMessage = { text: part.text };
		const [output] = await postText.call(this, part, body, itemIndex);
		return output.json;
	});
}
