import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { gatewayStyledRequest } from '../../../shared/transport';
import type { RequestBodyStyle } from '../../../shared/transport';
import { sessionAndChat } from '../../../shared/identifiers';
import type { ChatReference } from '../../../shared/identifiers';
import {
	fieldError,
	readChat,
	responseObject,
	replyToShapeAOption,
	readShapeAReplyTo,
} from '../../helpers/message';
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
	isBlank,
	readBoolean,
	readOptions,
	readRequiredText,
	textFrom,
} from '../../helpers/fields';

const properties: INodeProperties[] = [
	...sessionFields,
	sendTargetField('send the poll to'),
	{
		displayName: 'Question',
		name: 'question',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Which trail on Saturday?',
		description: 'The poll question',
	},
	{
		displayName: 'Poll Options',
		name: 'pollOptions',
		type: 'string',
		typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Poll Option' },
		required: true,
		default: [],
		placeholder: 'e.g. North Ridge',
		description:
			'The answers people can choose from: 2 to 12 different ones, in the order shown (an expression may also return a list)',
	},
	{
		displayName: 'Allow Multiple Answers',
		name: 'multipleAnswers',
		type: 'boolean',
		default: false,
		description: 'Whether people can choose more than one answer',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			...paceSendsOptions,
			replyToShapeAOption,
			simultaneousChatsOption,
			waitBetweenItemsOption,
		],
	},
];

export const description = showOnlyFor('message', 'sendPoll', properties);

/** The messaging network's limit of answers in one poll. */
const MAX_POLL_OPTIONS = 12;

/** The answers, trimmed, empty rows left out; fewer than two, more than 12 or a repeated answer is refused. */
function readPollOptions(this: IExecuteFunctions, itemIndex: number): string[] {
	const raw = this.getNodeParameter('pollOptions', itemIndex, []) as unknown;
	// Rows may each hold a value or a list (an expression in one row returning an array).
	const rows = Array.isArray(raw) ? raw.flat() : [raw];
	const entries = rows
		.map((row, index) =>
			textFrom
				.call(
					this,
					row,
					rows.length > 1 ? `Poll Options (answer ${index + 1})` : 'Poll Options',
					itemIndex,
				)
				.trim(),
		)
		.filter((entry) => !isBlank(entry));
	const seen = new Set<string>();
	for (const entry of entries) {
		if (seen.has(entry)) {
			throw fieldError.call(
				this,
				itemIndex,
				`Poll Options must be different from each other ("${entry}" appears twice)`,
			);
		}
		seen.add(entry);
	}
	if (entries.length > MAX_POLL_OPTIONS) {
		throw fieldError.call(
			this,
			itemIndex,
			`Poll Options must have at most ${MAX_POLL_OPTIONS} answers (got ${entries.length})`,
			'The messaging network shows at most 12 answers in a poll.',
		);
	}
	if (entries.length < 2) {
		throw fieldError.call(
			this,
			itemIndex,
			`Poll Options must have at least 2 answers (got ${entries.length})`,
			'Add another poll option.',
		);
	}
	return entries;
}

/** What the user asked Send Poll to do; each gateway sends it its own way. */
export interface SendPollRequest {
	session: string;
	chat: ChatReference;
	name: string;
	pollOptions: string[];
	multipleAnswers: boolean;
	options: IDataObject;
}

export function readSendPoll(this: IExecuteFunctions, itemIndex: number): SendPollRequest {
	return {
		session: readSession.call(this, itemIndex),
		chat: readChat.call(this, itemIndex),
		name: readRequiredText.call(this, 'question', 'Question', itemIndex, {
			hint: 'Enter the poll question.',
		}),
		pollOptions: readPollOptions.call(this, itemIndex),
		multipleAnswers: readBoolean.call(
			this,
			'multipleAnswers',
			'Allow Multiple Answers',
			itemIndex,
			false,
		),
		options: readOptions.call(this, itemIndex),
	};
}

/** Send Poll on the Messaging Gateway API: `POST /api/sendPoll` in the credential's body style. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, chat, name, pollOptions, multipleAnswers, options } = readSendPoll.call(
		this,
		itemIndex,
	);
	const build = (style: RequestBodyStyle): IDataObject => {
		const replyToId = readShapeAReplyTo.call(this, itemIndex, options, style, 'polls');
		const body: IDataObject = {
			...sessionAndChat(style, session, chat),
			poll: { name, options: pollOptions, multipleAnswers },
		};
		if (replyToId !== undefined) body.reply_to = replyToId;
		return body;
	};

	const { response } = await gatewayStyledRequest.call(this, 'POST', '/api/sendPoll', build, {
		itemIndex,
	});
	return [{ json: responseObject.call(this, response, itemIndex) }];
}
