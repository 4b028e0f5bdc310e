/**
 * The messages an instance received since a time, for the trigger's catch-up, on Evolution API v2:
 * `POST /chat/findMessages/{instance}` with `where.messageTimestamp` (2.3.x reads it only when
 * both `gte` and `lte` are given, as dates; without either it drops the filter), newest first,
 * `offset` a page's size and `page` from 1.
 */
import type { IDataObject } from 'n8n-workflow';

import type { MissedMessages } from '../../webhook/missed-messages';
import {
	evolutionMessageTime,
	evolutionUpsertDelivery,
	listOf,
	withinSpan,
} from '../../webhook/missed-messages';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { asObject } from '../../../shared/values';

/** Rows a page holds (v2's own default). */
const PAGE_SIZE = 50;

export const EVOLUTION_V2_MISSED: MissedMessages = {
	triesAgain: true,
	async read(session, since, until, limit, live) {
		const records: IDataObject[] = [];
		const seen = new Set<string>();
		// Newest first, as many pages as `limit` needs; a short or repeated page ends them.
		for (let page = 1; page <= Math.ceil(limit / PAGE_SIZE) + 1; page++) {
			const answer = asObject(
				await gatewayApiRequest.call(this, 'POST', gatewayPath`/chat/findMessages/${session}`, {
					body: {
						where: {
							messageTimestamp: {
								gte: new Date(since * 1000).toISOString(),
								lte: new Date(until * 1000).toISOString(),
							},
						},
						page,
						offset: PAGE_SIZE,
					},
					read: true,
				}),
			);
			const rows = listOf(asObject(answer?.messages)?.records, 'findMessages');
			const fresh = rows.filter((row) => {
				const id = JSON.stringify(asObject(row.key)?.id ?? row.id);
				if (seen.has(id)) return false;
				seen.add(id);
				return true;
			});
			records.push(...fresh);
			if (rows.length < PAGE_SIZE || fresh.length === 0) break;
		}
		return withinSpan(records, since, until, limit, evolutionMessageTime).map((record) =>
			evolutionUpsertDelivery(record, session, live),
		);
	},
};
