/**
 * Message → Pause While a Person Answers: the bot goes quiet in a chat while a person answers
 * there from the account's phone, and comes back by itself once they have been silent for the
 * pause. Decided from the chat's history the gateway keeps (as Combine Rapid Messages decides), so
 * every execution and every n8n process agrees, and nothing is kept in n8n.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { ChatHistory } from '../../../shared/gateways';
import { isoTime } from '../../../shared/values';
import { instanceApiHistory } from '../../helpers/chat-history';
import { fieldError, integerFrom, optionBoolean, readOptions } from '../../helpers/fields';
import { showOnlyFor } from '../common/descriptions';
import { readReceivedMessage, receivedMessageFields } from './receivedMessage';
import { HISTORY_PAGE, MAX_HISTORY_PAGES } from './combineRapid.operation';

export const DEFAULT_PAUSE_MINUTES = 30;
/** A week: a longer pause is a bot switched off, which the workflow's own switch does better. */
export const MAX_PAUSE_MINUTES = 7 * 24 * 60;

const fields: INodeProperties[] = [
	...receivedMessageFields('The chat it names is the one checked'),
	{
		displayName: 'Pause For (Minutes)',
		name: 'pauseMinutes',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PAUSE_MINUTES },
		default: DEFAULT_PAUSE_MINUTES,
		description:
			"How long the bot stays quiet in a chat after a person last wrote there from the account's phone; it answers again by itself after that",
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Output Paused Messages',
				name: 'outputPaused',
				type: 'boolean',
				default: false,
				description:
					'Whether a message that arrives during the pause comes out too, marked paused (to log it or notify the person answering); by default it stops here',
			},
		],
	},
];

export const description = showOnlyFor('message', 'pauseWhilePersonAnswers', fields);

interface PauseRequest {
	session: string;
	chatId: string;
	/** The incoming message is the account's own: the bot never answers it. */
	fromMe: boolean;
	pauseSeconds: number;
	outputPaused: boolean;
}

function readPause(this: IExecuteFunctions, itemIndex: number): PauseRequest {
	const { session, messageId } = readReceivedMessage.call(this, itemIndex);
	const minutes = integerFrom.call(
		this,
		this.getNodeParameter('pauseMinutes', itemIndex, DEFAULT_PAUSE_MINUTES),
		'Pause For (Minutes)',
		itemIndex,
		1,
	);
	if (minutes > MAX_PAUSE_MINUTES) {
		throw fieldError.call(
			this,
			itemIndex,
			`Pause For (Minutes) must be at most ${MAX_PAUSE_MINUTES} (a week; got ${minutes})`,
			'To keep the bot quiet longer, switch its workflow off or filter the chat out before it answers.',
		);
	}
	const options = readOptions.call(this, itemIndex);
	return {
		session,
		chatId: messageId.chatId,
		fromMe: messageId.fromMe,
		pauseSeconds: minutes * 60,
		outputPaused: optionBoolean.call(
			this,
			options,
			'outputPaused',
			'Output Paused Messages',
			itemIndex,
			false,
		),
	};
}

/**
 * When a person last wrote in the chat from the account's phone (Unix seconds), reading the
 * history newest first back to `since`, or as far as the page bound reaches; 0 for never. Stops
 * on a short or repeated page.
 */
async function lastWrittenByPerson(
	this: IExecuteFunctions,
	history: ChatHistory,
	request: PauseRequest,
	since: number,
	itemIndex: number,
): Promise<number> {
	let last = 0;
	const seen = new Set<string>();
	for (let page = 0; page < MAX_HISTORY_PAGES; page++) {
		const rows = await history.page.call(
			this,
			request.session,
			request.chatId,
			page * HISTORY_PAGE,
			HISTORY_PAGE,
			itemIndex,
		);
		const fresh = rows.filter((row) => !seen.has(row.shortId));
		for (const row of fresh) {
			seen.add(row.shortId);
			// A gateway may answer messages of other chats too (Evolution v1's file store does).
			if (row.typedByPerson && row.chatId === request.chatId) last = Math.max(last, row.timestamp);
		}
		if (rows.length < HISTORY_PAGE || fresh.length === 0) break;
		// Newest first: once a page reaches back past the pause, older pages cannot change it.
		if (Math.min(...fresh.map((row) => row.timestamp)) < since) break;
	}
	return last;
}

export function pauseWhilePersonAnswersWith(history: ChatHistory) {
	return async function pauseWhilePersonAnswers(
		this: IExecuteFunctions,
		itemIndex: number,
	): Promise<INodeExecutionData[]> {
		const request = readPause.call(this, itemIndex);
		// The account's own message (a person's from the phone, or the bot's) is no one's to answer.
		if (request.fromMe) return [];
		const now = Math.floor(Date.now() / 1000);
		const personWrote = await lastWrittenByPerson.call(
			this,
			history,
			request,
			now - request.pauseSeconds,
			itemIndex,
		);
		const pausedUntil = personWrote > 0 ? personWrote + request.pauseSeconds : 0;
		const paused = pausedUntil > now;
		if (paused && !request.outputPaused) return [];
		const json: IDataObject = {
			...this.getInputData()[itemIndex].json,
			paused,
			personAnsweredAt: personWrote > 0 ? isoTime(personWrote) : null,
			pausedUntil: paused ? isoTime(pausedUntil) : null,
		};
		return [{ json }];
	};
}

/**
 * On the Messaging Gateway API, the history comes from Evolution API v1's findMessages (its
 * instance API); a gateway without it answers 404, which says so.
 */
export const execute = pauseWhilePersonAnswersWith(instanceApiHistory);
