/**
 * Whether a delivery's body can be an event at all, checked before anything reads it: its
 * envelope's shape, and a depth no real delivery reaches (the walk that measures it also finds
 * the API keys the envelope carries, to keep them out of the item).
 */
import type { IDataObject } from 'n8n-workflow';

import { isNonEmptyText } from '../../shared/values';
import { isApiKeyField } from '../../shared/secrets';
import { messageKey, subscriptionName } from './deliveries';

/** Deeper than any real delivery (a quoted message inside a message is about 10 levels). */
export const MAX_DELIVERY_NESTING = 64;

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Whether JSON data nests deeper than `limit` levels (the value itself is level 1), putting the
 * value of every API key field it passes into `apiKeys` (the walk that checks the depth finds
 * them too; see apiKeyValues, which gives the same values). It recurses, but never deeper than
 * `limit` calls: it answers at the first level past the limit, so any depth of the data is safe.
 */
export function nestsDeeperThan(value: unknown, limit: number, apiKeys: string[]): boolean {
	// Objects and lists only: nothing else nests.
	if (typeof value !== 'object' || value === null) return false;
	if (limit === 0) return true;
	if (Array.isArray(value)) {
		for (let index = 0; index < value.length; index++) {
			if (nestsDeeperThan(value[index], limit - 1, apiKeys)) return true;
		}
		return false;
	}
	const fields = value as Record<string, unknown>;
	// Own fields, as Object.keys gives them, without a new list per object.
	for (const key in fields) {
		if (!hasOwn.call(fields, key)) continue;
		const entry = fields[key];
		if (typeof entry === 'string') {
			if (isApiKeyField(key)) apiKeys.push(entry);
		} else if (nestsDeeperThan(entry, limit - 1, apiKeys)) {
			return true;
		}
	}
	return false;
}

/**
 * Why a delivery body cannot be an event, or undefined when it is an envelope: a JSON object with
 * the event and instance names as text and `data` as an object or a list (sync events carry lists),
 * nested no deeper than any real delivery; message events also need the chat of the message.
 * `apiKeys` receives the values of the envelope's API key fields (its own secrets) on the way.
 */
export function envelopeProblem(body: unknown, apiKeys: string[] = []): string | undefined {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		return 'The body must be a JSON object (an event envelope)';
	}
	const { event, instance, data } = body as IDataObject;
	if (!isNonEmptyText(event) || !isNonEmptyText(instance)) {
		return 'The body must name the event and the instance as text';
	}
	if (typeof data !== 'object' || data === null) {
		return 'The "data" of the event must be an object or a list';
	}
	if (nestsDeeperThan(body, MAX_DELIVERY_NESTING, apiKeys)) {
		return `The body must not nest deeper than ${MAX_DELIVERY_NESTING} levels`;
	}
	const subscribed = subscriptionName(event);
	if ((subscribed === 'MESSAGES_UPSERT' || subscribed === 'SEND_MESSAGE') && !messageKey(data)) {
		return 'A message event must carry the message key (data.key.remoteJid)';
	}
	return undefined;
}
