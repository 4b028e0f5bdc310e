/**
 * Timing the trigger's webhook() per event, for the bench part "trigger" and its figures: a
 * response that sends nothing, and µs per event over many calls in one context, each event a new
 * message (its ID changed), so that none is a redelivery of another.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { JsonResponse } from '../../test/support/trigger-harness.cts';
import { elapsedMs } from './measure.cts';

export type Webhook = (this: IWebhookFunctions) => Promise<IWebhookResponseData>;

/**
 * A response that takes the trigger's answer and sends nothing (the bench has no client), and
 * says at once that it finished with 200, as n8n's does once it stored the execution.
 */
export function silentResponse(): JsonResponse {
	const response: JsonResponse = {
		once: (event, listener) => {
			if (event === 'finish') listener();
			return response;
		},
		statusCode: 200,
		headersSent: false,
		status: () => response,
		json: () => undefined,
		send: () => undefined,
		end: () => undefined,
		setHeader: () => undefined,
	};
	return response;
}

/** Message IDs no event of the run has had: each event is a new message, as the gateway sends them. */
let messagesSent = 0;

export function newMessageId(): string {
	return `BENCH${(messagesSent++).toString(16)}`;
}

/**
 * µs per event of `events` calls of `webhook` in one context (built outside the timing), each with
 * the message ID in `key` changed, so that no event is a redelivery of another.
 */
export async function microsecondsPerEvent(
	webhook: Webhook,
	context: IWebhookFunctions,
	events: number,
	key: IDataObject,
): Promise<number> {
	const ids = Array.from({ length: events }, newMessageId);
	const start = process.hrtime.bigint();
	for (let event = 0; event < events; event++) {
		key.id = ids[event];
		await webhook.call(context);
	}
	return (elapsedMs(start) * 1000) / events;
}
