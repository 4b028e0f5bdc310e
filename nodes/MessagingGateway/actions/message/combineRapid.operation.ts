import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { BurstMessage, ChatHistory } from '../../../shared/gateways';
import { decideBurst, pauseBefore } from '../../helpers/bursts';
import { instanceApiHistory } from '../../helpers/chat-history';
import { showOnlyFor } from '../common/descriptions';
import { combineRapidFields } from './combineRapid.fields';
import { readCombineRapid } from './combineRapid.request';
import type { CombineRapidRequest } from './combineRapid.request';
import { turnOutput } from './combineRapid.output';

export const description = showOnlyFor('message', 'combineRapid', combineRapidFields);

/** Messages a history page asks for, and the pages read at most to find where a burst began. */
export const HISTORY_PAGE = 50;
export const MAX_HISTORY_PAGES = 5;
/** How often and how long apart the history is read again while it lacks this message. */
const MISSING_MESSAGE_RETRIES = 3;
const MISSING_MESSAGE_PAUSE_MS = 500;

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
