/**
 * The trigger's settings as activation and every delivery read them: the filters (Events, Chat
 * Type, Only These Chats…) and the output options, each checked by name when unusable.
 */
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { classifyChat } from '../shared/identifiers';
import type { ChatReference } from '../shared/identifiers';
import { splitList } from '../shared/lists';
import { describeValue, wholeNumberIn } from '../shared/values';
import type { DeliveryFilters, DeliveryOutput } from './webhook/deliveries';
import { checkedEvents } from './webhook/registration';
import { TextKeyedCache } from '../shared/text-keyed-cache';

function chatsOf(this: IHookFunctions | IWebhookFunctions, raw: unknown): ChatReference[] {
	return splitList(raw).map((entry) => {
		const reference = classifyChat(entry);
		if (!reference) {
			const shown = typeof entry === 'string' ? `"${entry}"` : describeValue(entry);
			throw new NodeOperationError(
				this.getNode(),
				`Only These Chats must list phone numbers, chat IDs (…@c.us), JIDs (…@s.messenger.net), LIDs (…@lid) or group IDs (…@g.us) (got ${shown})`,
			);
		}
		return reference;
	});
}

/** Only These Chats as typed: parsed (a few regular expressions per entry) once, not per event. */
const chatLists = new TextKeyedCache<readonly ChatReference[]>(64);

/** No chats listed (the default): every chat. */
const ALL_CHATS: readonly ChatReference[] = [];

function parseOnlyChats(
	this: IHookFunctions | IWebhookFunctions,
	raw: unknown,
): readonly ChatReference[] {
	if (raw === '') return ALL_CHATS;
	return typeof raw === 'string'
		? chatLists.get(raw, () => chatsOf.call(this, raw))
		: chatsOf.call(this, raw);
}

const CHAT_TYPES: Array<DeliveryFilters['chatType']> = ['all', 'direct', 'groups'];

/** A collection parameter (Filters, Options) read once, as one object: each event reads each once. */
export function collection(this: IHookFunctions | IWebhookFunctions, name: string): IDataObject {
	const value = this.getNodeParameter(name, {});
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as IDataObject)
		: {};
}

/**
 * The filters as the parameters give them, but the session (each delivery's is its registration's);
 * throws, naming the field, when one is unusable.
 */
export function readFilters(
	this: IHookFunctions | IWebhookFunctions,
): Omit<DeliveryFilters, 'session'> {
	const filters = collection.call(this, 'filters');
	const chatType = (filters.chatType ?? 'all') as DeliveryFilters['chatType'];
	if (!CHAT_TYPES.includes(chatType)) {
		throw new NodeOperationError(
			this.getNode(),
			`Chat Type must be one of ${CHAT_TYPES.join(', ')} (got ${describeValue(chatType)})`,
		);
	}
	return {
		events: checkedEvents.call(this, this.getNodeParameter('events', [])),
		ignoreOwnMessages: fromVersion3(this, 'ignoreOwnMessages', filters) !== false,
		chatType,
		onlyChats: parseOnlyChats.call(this, filters.onlyChats ?? ''),
	};
}

/**
 * A setting that version 3 shows as a field of its own and versions 1 and 2 keep in a collection
 * (Filters or Options), read from where the node's version has it.
 */
export function fromVersion3(
	context: IHookFunctions | IWebhookFunctions,
	name: 'ignoreOwnMessages' | 'simplify' | 'qrCodeAsBinary',
	collectionValues: IDataObject,
): unknown {
	return context.getNode().typeVersion >= 3
		? context.getNodeParameter(name, true)
		: collectionValues[name];
}

/** How deliveries become items; `simplify` and `qrCodeAsBinary` as fromVersion3 read them. */
export function readOutput(
	options: IDataObject,
	simplify: unknown,
	qrCodeAsBinary: unknown,
): DeliveryOutput {
	return {
		simplify: simplify !== false,
		qrCodeAsBinary: qrCodeAsBinary !== false,
		includeMedia: options.includeMedia === true,
		lookUpPhoneNumbers: options.lookUpPhoneNumbers === true,
	};
}

/** Options > Catch Up Missed Messages (Hours): how far back a catch-up reads; 0 turns it off. */
export const CATCH_UP_HOURS = { default: 24, max: 720 };

/**
 * Catch Up Missed Messages (Hours) as typed or from an expression (a whole number, or its digits),
 * the default when not set; undefined when unusable. Activation refuses that; a delivery reads the default.
 */
export function parseCatchUpHours(raw: unknown): number | undefined {
	return wholeNumberIn(raw ?? CATCH_UP_HOURS.default, 0, CATCH_UP_HOURS.max);
}

/** Catch Up Missed Messages (Hours) as a delivery reads it: never an error (see parseCatchUpHours). */
export function catchUpHours(options: IDataObject): number {
	return parseCatchUpHours(options.catchUpHours) ?? CATCH_UP_HOURS.default;
}
