import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { BurstMessage, ChatHistory } from '../../../shared/gateways';
import { parseFullMessageId } from '../../../shared/identifiers';
import type { FullMessageId } from '../../../shared/identifiers';
import { burstTexts, decideBurst, pauseBefore } from '../../helpers/bursts';
import { instanceApiHistory } from '../../helpers/chat-history';
import type { BurstRule } from '../../helpers/bursts';
import {
	integerFrom,
	optionBoolean,
	optionFrom,
	readOptions,
	fieldError,
} from '../../helpers/fields';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';

/** n8n keeps a wait under 65 s in memory (its Wait node's limit); longer ones are not offered. */
export const MAX_SILENCE_SECONDS = 60;
const DEFAULT_SILENCE_SECONDS = 3;
const DEFAULT_MAX_MESSAGES = 10;
const DEFAULT_MAX_WAIT_SECONDS = 30;
/** Messages a history page asks for, and the pages read at most to find where a burst began. */
export const HISTORY_PAGE = 50;
export const MAX_HISTORY_PAGES = 5;
/** How often and how long apart the history is read again while it lacks this message. */
const MISSING_MESSAGE_RETRIES = 3;
const MISSING_MESSAGE_PAUSE_MS = 500;

const properties: INodeProperties[] = [
	...sessionFields,
	{
		displayName: 'Message ID',
		name: 'messageId',
		type: 'string',
		required: true,
		default: '={{ $json.messageId }}',
		placeholder: 'e.g. false_5511999999999@c.us_3EB0C767D26A1D3BB2F1',
		description:
			'Full ID of the message the trigger received (its Message ID field). Put this node right after the trigger, before any filter, so every message of a chat reaches it.',
	},
	{
		displayName: 'Silence Time (Seconds)',
		name: 'silenceSeconds',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_SILENCE_SECONDS },
		default: DEFAULT_SILENCE_SECONDS,
		description:
			'How long the person must stay silent before the workflow goes on with everything they wrote. WhatsApp stamps messages to the second, so a pause this long or longer always starts a new turn, and a pause over a second shorter never does.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Include Media',
				name: 'includeMedia',
				type: 'boolean',
				default: true,
				description:
					'Whether to download the file of every message with media (voice notes, images, documents…) into the binary data of the output',
			},
			{
				displayName: 'Join Texts With',
				name: 'joinWith',
				type: 'string',
				default: '\n',
				description: 'What goes between the texts of the messages in the joined "text" field',
			},
			{
				displayName: 'Maximum Messages',
				name: 'maxMessages',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_MAX_MESSAGES,
				description:
					'The most messages one turn takes; the next message starts a new turn, even if the person has not paused',
			},
			{
				displayName: 'Maximum Wait (Seconds)',
				name: 'maxWaitSeconds',
				type: 'number',
				typeOptions: { minValue: 2 },
				default: DEFAULT_MAX_WAIT_SECONDS,
				description:
					"The longest a turn waits from the person's first message: if they keep writing, the turn goes on with what arrived by then and later messages start a new turn. Must be longer than the Silence Time.",
			},
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				default: 'oneItem',
				options: [
					{
						name: 'One Item for the Turn',
						value: 'oneItem',
						description:
							'One item with the joined text, the list of texts and every message; each file in its own binary field (media_1, media_2…)',
					},
					{
						name: 'One Item per Message',
						value: 'itemPerMessage',
						description:
							'One item per message of the turn, in order, each with its file in the binary field "data" and the turn\'s joined text under "turn"',
					},
				],
				description: 'How the turn comes out of the node',
			},
		],
	},
];

export const description = showOnlyFor('message', 'combineRapid', properties);

const OUTPUTS = ['oneItem', 'itemPerMessage'] as const;

export interface CombineRapidRequest {
	session: string;
	messageId: FullMessageId;
	rule: BurstRule;
	joinWith: string;
	includeMedia: boolean;
	output: (typeof OUTPUTS)[number];
}

/** What Combine Rapid Messages was asked for one item, checked before any request. */
export function readCombineRapid(this: IExecuteFunctions, itemIndex: number): CombineRapidRequest {
	const session = readSession.call(this, itemIndex);
	const messageId = parseFullMessageId.call(
		this,
		this.getNodeParameter('messageId', itemIndex, ''),
		'Message ID',
		itemIndex,
	);
	const silenceSeconds = integerFrom.call(
		this,
		this.getNodeParameter('silenceSeconds', itemIndex, DEFAULT_SILENCE_SECONDS),
		'Silence Time (Seconds)',
		itemIndex,
		1,
	);
	if (silenceSeconds > MAX_SILENCE_SECONDS) {
		throw fieldError.call(
			this,
			itemIndex,
			`Silence Time (Seconds) must be at most ${MAX_SILENCE_SECONDS} (got ${silenceSeconds})`,
			'n8n keeps waits under a minute in memory; a pause over a minute ends a chat turn anyway.',
		);
	}
	const options = readOptions.call(this, itemIndex);
	const maxMessages = integerFrom.call(
		this,
		options.maxMessages ?? DEFAULT_MAX_MESSAGES,
		'Maximum Messages',
		itemIndex,
		1,
	);
	const maxWaitSeconds = integerFrom.call(
		this,
		options.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS,
		'Maximum Wait (Seconds)',
		itemIndex,
		1,
	);
	if (maxWaitSeconds <= silenceSeconds) {
		throw fieldError.call(
			this,
			itemIndex,
			`Maximum Wait (Seconds) must be longer than the Silence Time (got ${maxWaitSeconds}, Silence Time ${silenceSeconds})`,
			'A turn waits at least the Silence Time after the last message; make Maximum Wait longer.',
		);
	}
	const joinWith = options.joinWith ?? '\n';
	if (typeof joinWith !== 'string' && typeof joinWith !== 'number') {
		throw fieldError.call(
			this,
			itemIndex,
			'Join Texts With must be text',
			'Enter the text to put between the messages, e.g. a space or a new line.',
		);
	}
	return {
		session,
		messageId,
		// The last message of a turn comes less than (Maximum Wait − Silence Time) after its first,
		// so the turn goes on within Maximum Wait of the first message.
		rule: { silenceSeconds, maxMessages, maxSpanSeconds: maxWaitSeconds - silenceSeconds },
		joinWith: String(joinWith),
		includeMedia: optionBoolean.call(
			this,
			options,
			'includeMedia',
			'Include Media',
			itemIndex,
			true,
		),
		output: optionFrom.call(
			this,
			options.output ?? 'oneItem',
			'Output',
			itemIndex,
			OUTPUTS,
		) as CombineRapidRequest['output'],
	};
}

/**
 * When this run of the node started, per run. The silence is counted from then: right after the
 * message arrived, or later if the execution waited for a worker. Never earlier, so a later
 * message of the burst is always stored by the time the history is read (clocks play no part).
 */
const runStarts = new WeakMap<object, number>();

function runStart(this: IExecuteFunctions): number {
	const key = this.getInputData();
	const known = runStarts.get(key);
	if (known !== undefined) return known;
	const now = Date.now();
	runStarts.set(key, now);
	return now;
}

/**
 * The chat's messages the person sent, oldest first, from the newest back to the last pause of at
 * least the silence time before `ownId` (or as far as the page bound reaches), and whether they
 * reach back to the chat's first message. Stops on a short or repeated page.
 */
async function readRecentHistory(
	this: IExecuteFunctions,
	history: ChatHistory,
	request: CombineRapidRequest,
	itemIndex: number,
): Promise<{ messages: BurstMessage[]; complete: boolean }> {
	const newestFirst: BurstMessage[] = [];
	const seen = new Set<string>();
	for (let page = 0; page < MAX_HISTORY_PAGES; page++) {
		const rows = await history.page.call(
			this,
			request.session,
			request.messageId.chatId,
			page * HISTORY_PAGE,
			HISTORY_PAGE,
			itemIndex,
		);
		const fresh = rows.filter((row) => !seen.has(row.shortId));
		for (const row of fresh) seen.add(row.shortId);
		// A gateway may answer messages of other chats too (Evolution v1's file store does).
		newestFirst.push(
			...fresh.filter((row) => !row.fromMe && row.chatId === request.messageId.chatId),
		);
		if (rows.length < HISTORY_PAGE) return { messages: newestFirst.reverse(), complete: true };
		if (fresh.length === 0) break;
		// Enough once a pause before this message has been read: older ones cannot move the cut.
		const oldestFirst = [...newestFirst].reverse();
		const own = oldestFirst.findIndex((row) => row.shortId === request.messageId.id);
		if (own !== -1 && pauseBefore(oldestFirst, own, request.rule.silenceSeconds) > 0) break;
	}
	return { messages: newestFirst.reverse(), complete: false };
}

/** The trigger's fields of a message (without the gateway's record). */
function messageFields(message: BurstMessage, session: string): IDataObject {
	return {
		session,
		chatId: message.chatId,
		messageId: message.messageId,
		fromMe: message.fromMe,
		sender: message.sender,
		pushName: message.pushName,
		text: message.text,
		messageType: message.messageType,
		timestamp: message.timestamp,
		hasMedia: message.hasMedia,
		mimetype: message.mimetype,
	};
}

/** The turn as the node's output: one item, or one per message, with the files as binary data. */
async function turnOutput(
	this: IExecuteFunctions,
	history: ChatHistory,
	request: CombineRapidRequest,
	burst: BurstMessage[],
	boundaryKnown: boolean,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { texts, text } = burstTexts(burst, request.joinWith);
	const files: Array<IBinaryData | undefined> = [];
	for (const message of burst) {
		files.push(
			request.includeMedia && message.hasMedia
				? await history.mediaFile.call(this, request.session, message, itemIndex)
				: undefined,
		);
	}
	const turn: IDataObject = {
		session: request.session,
		chatId: request.messageId.chatId,
		text,
		texts,
		count: burst.length,
		messageIds: burst.map((message) => message.messageId),
		firstTimestamp: burst[0].timestamp,
		lastTimestamp: burst[burst.length - 1].timestamp,
	};
	// Only when the history ran out of pages before the pause that began this turn.
	if (!boundaryKnown) turn.startMayBeEarlier = true;
	if (request.output === 'itemPerMessage') {
		return burst.map((message, index) => {
			const file = files[index];
			return {
				json: { ...messageFields(message, request.session), turn: { ...turn, index } },
				...(file ? { binary: { data: file } } : {}),
			};
		});
	}
	const binary: Record<string, IBinaryData> = {};
	const messages = burst.map((message, index) => {
		const fields = messageFields(message, request.session);
		const file = files[index];
		if (file) {
			const field = `media_${index + 1}`;
			binary[field] = file;
			fields.binaryField = field;
		}
		return fields;
	});
	return [
		{
			json: { ...turn, messages },
			...(Object.keys(binary).length > 0 ? { binary } : {}),
		},
	];
}

/**
 * Combine Rapid Messages on a gateway with a message history: wait out the silence time from
 * this message's arrival, read the chat's history, and go on with the turn only from the
 * execution of its last message; every other execution outputs nothing.
 */
export function combineRapidWith(history: ChatHistory) {
	return async function combineRapid(
		this: IExecuteFunctions,
		itemIndex: number,
	): Promise<INodeExecutionData[]> {
		const request = readCombineRapid.call(this, itemIndex);
		// The session's own messages (the bot's replies) are in no person's turn.
		if (request.messageId.fromMe) return [];
		const waitUntil = runStart.call(this) + request.rule.silenceSeconds * 1000;
		const remaining = waitUntil - Date.now();
		if (remaining > 0) await sleep(remaining);
		for (let attempt = 0; ; attempt++) {
			const { messages, complete } = await readRecentHistory.call(
				this,
				history,
				request,
				itemIndex,
			);
			const decision = decideBurst(messages, request.messageId.id, request.rule, complete);
			if (decision) {
				if (!decision.goOn) return [];
				return await turnOutput.call(
					this,
					history,
					request,
					decision.burst,
					decision.boundaryKnown,
					itemIndex,
				);
			}
			if (attempt >= MISSING_MESSAGE_RETRIES) break;
			await sleep(MISSING_MESSAGE_PAUSE_MS);
		}
		throw new NodeOperationError(
			this.getNode(),
			`Message ${request.messageId.serialized} is not in the gateway's history of chat ${request.messageId.chatId}`,
			{ itemIndex, description: history.missingHint },
		);
	};
}

/**
 * On the Messaging Gateway API, the history comes from Evolution API v1's findMessages (its
 * instance API); a gateway without it answers 404, which says so.
 */
export const execute = combineRapidWith(instanceApiHistory);
