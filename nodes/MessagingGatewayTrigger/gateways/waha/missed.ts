/**
 * The messages a session received since a time, for the trigger's catch-up, on WAHA (2026.x):
 * `GET /api/{session}/chats/overview` (chats by their last message, newest first), then each chat
 * whose last message is recent enough, `GET /api/{session}/chats/{chatId}/messages` with
 * `filter.timestamp.gte` and `.lte`, without media. The NOWEB engine keeps messages only with its
 * store on (`config.noweb.store.enabled`).
 */
import type { IDataObject } from 'n8n-workflow';

import type { MissedMessages } from '../../webhook/missed-messages';
import { listOf, withinSpan } from '../../webhook/missed-messages';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { asObject, unixSeconds } from '../../../shared/values';

/** Chats a catch-up looks into at most (those with the newest messages). */
const CHATS_LIMIT = 100;

function wahaMessageTime(message: IDataObject): number | undefined {
	return unixSeconds(message.timestamp);
}

export const WAHA_MISSED: MissedMessages = {
	triesAgain: true,
	async read(session, since, until, limit, live) {
		const overview = listOf(
			await gatewayApiRequest.call(this, 'GET', gatewayPath`/api/${session}/chats/overview`, {
				qs: { limit: CHATS_LIMIT, offset: 0 },
				read: true,
			}),
			'chats/overview',
		);
		const recent = overview.filter((chat) => {
			const last = asObject(chat.lastMessage);
			const time = last ? wahaMessageTime(last) : undefined;
			return typeof chat.id === 'string' && time !== undefined && time >= since;
		});
		const messages: IDataObject[] = [];
		for (const chat of recent) {
			messages.push(
				...listOf(
					await gatewayApiRequest.call(
						this,
						'GET',
						gatewayPath`/api/${session}/chats/${chat.id as string}/messages`,
						{
							qs: {
								limit,
								offset: 0,
								downloadMedia: false,
								'filter.timestamp.gte': since,
								'filter.timestamp.lte': until,
							},
							read: true,
						},
					),
					'chats/{chatId}/messages',
				),
			);
		}
		return withinSpan(messages, since, until, limit, wahaMessageTime).map((message) => ({
			// Own messages come as `message.any` (the event the trigger subscribes to for them).
			event: message.fromMe === true ? 'message.any' : 'message',
			session,
			payload: message,
			timestamp: (wahaMessageTime(message) ?? 0) * 1000,
			...(asObject(live.me) ? { me: live.me } : {}),
			...(typeof live.engine === 'string' ? { engine: live.engine } : {}),
		}));
	},
};
