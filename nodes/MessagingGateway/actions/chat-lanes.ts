import type { IExecuteFunctions } from 'n8n-workflow';

import { classifyChat, parseFullMessageId } from '../../shared/identifiers';
import { itemParameter, readAheadParameter } from '../../shared/parameters';

/** Items without a chat of their own share this lane, so they go one after another. */
const SHARED_LANE = 'shared';

/**
 * The lane of an item: which session and chat it goes to. Items of one lane are sent one after
 * another in input order; lanes run side by side. A phone number and the chat ID it stands for
 * share a lane. An item whose fields cannot be read gets a lane of its own: its operation names
 * the problem when it runs.
 */
export function chatLaneOf(this: IExecuteFunctions, itemIndex: number): string {
	try {
		const session = String(itemParameter.call(this, 'session', itemIndex, '')).trim();
		for (const name of ['chatId', 'groupId'] as const) {
			const raw = readAheadParameter.call(this, name, itemIndex, '');
			if (raw === '' || raw === undefined || raw === null) continue;
			const chat = classifyChat(raw);
			// A chat of another shape (a typo) is keyed by its text: the same text, the same lane.
			const key = chat ? `${chat.kind}:${chat.value}` : `text:${JSON.stringify(raw)}`;
			return `${session}\n${key}`;
		}
		const messageId = readAheadParameter.call(this, 'messageId', itemIndex, '');
		if (messageId !== '') {
			const { chatId } = parseFullMessageId.call(this, messageId, 'Message ID', itemIndex);
			return `${session}\n${chatId}`;
		}
		return SHARED_LANE;
	} catch {
		return `item:${itemIndex}`;
	}
}

/**
 * Item indexes grouped by lane, lanes in the order of their first item: what Simultaneous Chats
 * runs side by side.
 */
export function chatLanes(this: IExecuteFunctions, itemCount: number): number[][] {
	const lanes = new Map<string, number[]>();
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const key = chatLaneOf.call(this, itemIndex);
		const lane = lanes.get(key);
		if (lane) lane.push(itemIndex);
		else lanes.set(key, [itemIndex]);
	}
	return [...lanes.values()];
}
