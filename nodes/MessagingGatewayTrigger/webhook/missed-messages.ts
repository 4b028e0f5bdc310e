/**
 * The messages a session received while the trigger could not take them (n8n stopped, restarting,
 * or unreachable longer than the gateway tries again), read back from the gateway for the
 * trigger's catch-up (catch-up.ts). Each gateway's reader is in its folder under the trigger's
 * gateways/; this one is the Messaging Gateway API's, which speaks Evolution API
 * v1's findMessages (beyond the spec): the newest messages of the instance, `limit` of them,
 * filtered by time here (v1 filters nothing by time).
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../shared/transport';
import { asObject, unixSeconds } from '../../shared/values';

/** Messages a catch-up reads at most from the gateway (the rest wait for the next one). */
export const CATCH_UP_LIMIT = 500;

export interface MissedMessages {
	/**
	 * The gateway posts a delivery answered 503 again (Evolution API v2 within its retries, WAHA
	 * with those the trigger registers); the Messaging Gateway API and Evolution API 1.x never do.
	 */
	triesAgain: boolean;
	/**
	 * The session's messages stored with a timestamp from `since` to `until` (Unix seconds), the
	 * newest `limit` of them, oldest first, each as the body the gateway delivers it in; `live` is
	 * the delivery that started the catch-up (its envelope's fields).
	 */
	read(
		this: IWebhookFunctions,
		session: string,
		since: number,
		until: number,
		limit: number,
		live: IDataObject,
	): Promise<IDataObject[]>;
}

/** The records of a list answer; anything else is no answer the catch-up can read. */
export function listOf(answer: unknown, route: string): IDataObject[] {
	if (!Array.isArray(answer)) {
		throw new Error(`the gateway's ${route} answered no list of messages`);
	}
	return answer.map((record) => asObject(record)).filter((record) => record !== undefined);
}

/** A stored message's time in Unix seconds (Evolution gives a number, or its digits in some answers). */
export function evolutionMessageTime(record: IDataObject): number | undefined {
	return unixSeconds(record.messageTimestamp);
}

/** A stored Evolution message as the body of its `messages.upsert` delivery. */
export function evolutionUpsertDelivery(
	record: IDataObject,
	session: string,
	live: IDataObject,
): IDataObject {
	const time = evolutionMessageTime(record) ?? 0;
	return {
		event: 'messages.upsert',
		instance: session,
		data: record,
		date_time: new Date(time * 1000).toISOString(),
		...(typeof live.sender === 'string' ? { sender: live.sender } : {}),
		...(typeof live.server_url === 'string' ? { server_url: live.server_url } : {}),
	};
}

/** Those within the span, the newest `limit` of them, oldest first. */
export function withinSpan(
	records: IDataObject[],
	since: number,
	until: number,
	limit: number,
	timeOf: (record: IDataObject) => number | undefined,
): IDataObject[] {
	return records
		.map((record) => ({ record, time: timeOf(record) }))
		.filter(({ time }) => time !== undefined && time >= since && time <= until)
		.sort((left, right) => (left.time as number) - (right.time as number))
		.slice(-limit)
		.map(({ record }) => record);
}

export const MESSAGING_GATEWAY_MISSED: MissedMessages = {
	triesAgain: false,
	async read(session, since, until, limit, live) {
		const answer = await gatewayApiRequest.call(
			this,
			'POST',
			gatewayPath`/chat/findMessages/${session}`,
			{ body: { where: {}, limit: CATCH_UP_LIMIT }, read: true },
		);
		const records = listOf(answer, 'findMessages');
		return withinSpan(records, since, until, limit, evolutionMessageTime).map((record) =>
			evolutionUpsertDelivery(record, session, live),
		);
	},
};
