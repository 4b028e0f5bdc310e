import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import type { GatewayName } from '../shared/transport';
import { evolutionLidPair } from '../shared/gateways/evolution-v2/lids';
import { wahaLidPair } from '../shared/gateways/waha/lids';
import { selectedGateway } from '../shared/transport';
import type { DeliveryOutput } from './webhook/deliveries';

import type { PersonAddresses } from '../shared/people';
import { LOG_PREFIX } from './webhook/registration';

/** How long a phone number found for a LID is kept: the pair does not change. */
export const FOUND_FOR_MS = 24 * 60 * 60 * 1000;
/** How long "the gateway does not know" is kept: it may learn the number from the next message. */
export const UNKNOWN_FOR_MS = 10 * 60 * 1000;
/** A lookup's whole deadline: the delivery waits for it before its workflow starts. */
export const LOOKUP_DEADLINE_MS = 5000;
/** LIDs kept at most, across all triggers of this n8n process; the oldest goes first. */
export const MAX_KEPT = 5000;

interface Kept {
	phone: string | null;
	until: number;
}

/**
 * Phone numbers found for LIDs, keyed by the trigger node (workflow and node) as well as the
 * session and the LID: a pair one workflow's gateway gave is never handed to another's.
 */
const kept = new Map<string, Kept>();

/** Forgets every kept lookup (tests). */
export function forgetPhoneLookups(): void {
	kept.clear();
}

function keyOf(this: IWebhookFunctions, session: string, lid: string): string {
	return `${this.getWorkflow().id ?? ''}\n${this.getNode().id}\n${session}\n${lid}`;
}

/**
 * The phone number of `lid` as `lookup` asks the gateway, at most once a day per LID and trigger
 * (once per ten minutes while the gateway does not know it). A lookup that fails is logged and
 * counts as unknown: the delivery still starts its workflow, with `phone` null.
 */
export async function phoneOfLid(
	this: IWebhookFunctions,
	session: string,
	lid: string,
	lookup: (lid: string) => Promise<PersonAddresses>,
	now = Date.now(),
): Promise<string | null> {
	const key = keyOf.call(this, session, lid);
	const entry = kept.get(key);
	if (entry && entry.until > now) return entry.phone;
	let phone: string | null = null;
	try {
		phone = (await lookup(lid)).phone;
	} catch (error) {
		this.logger.warn(
			`${LOG_PREFIX} the phone number of ${lid} could not be looked up: ${(error as Error).message}`,
		);
	}
	kept.delete(key);
	if (kept.size >= MAX_KEPT) {
		const oldest = kept.keys().next();
		if (!oldest.done) kept.delete(oldest.value);
	}
	kept.set(key, { phone, until: now + (phone ? FOUND_FOR_MS : UNKNOWN_FOR_MS) });
	return phone;
}

/** The item fields of a person's two addresses: the chat's, then the sender's. */
const ADDRESS_FIELDS = [
	['phone', 'lid'],
	['senderPhone', 'senderLid'],
] as const;

/** Whether a simplified message item names a person by LID alone. */
export function lacksPhone(item: IDataObject): boolean {
	return ADDRESS_FIELDS.some(
		([phoneField, lidField]) => typeof item[lidField] === 'string' && item[phoneField] === null,
	);
}

/**
 * How a gateway looks up a person's phone number by their LID (`groupId`: the group the message
 * came from, for a gateway that reads its members).
 */
export type PhoneLookup = (
	this: IWebhookFunctions,
	session: string,
	lid: string,
	groupId: string | undefined,
) => Promise<PersonAddresses>;

/**
 * Fills in a simplified message item's `phone` and `senderPhone` where the delivery gave only the
 * LID, as `lookup` asks the gateway (see phoneOfLid); the item is changed in place.
 */
export async function lookUpMissingPhones(
	this: IWebhookFunctions,
	item: IDataObject,
	lookup: PhoneLookup,
): Promise<void> {
	const session = String(item.session);
	const groupId = item.isGroup === true ? String(item.chatId) : undefined;
	for (const [phoneField, lidField] of ADDRESS_FIELDS) {
		const lid = item[lidField];
		if (typeof lid === 'string' && item[phoneField] === null) {
			item[phoneField] = await phoneOfLid.call(this, session, lid, async (asked) =>
				lookup.call(this, session, asked, groupId),
			);
		}
	}
}

/**
 * How each gateway finds the phone number of a person a delivery names only by LID (Look Up Phone
 * Numbers); the Messaging Gateway API has no such thing.
 */
const PHONE_LOOKUPS: Partial<Record<GatewayName, PhoneLookup>> = {
	evolutionV2: async function (session, lid, groupId) {
		return await evolutionLidPair.call(this, session, { kind: 'lid', value: lid }, groupId, {
			timeoutMs: LOOKUP_DEADLINE_MS,
		});
	},
	waha: async function (session, lid) {
		return await wahaLidPair.call(
			this,
			session,
			{ kind: 'lid', value: lid },
			{
				timeoutMs: LOOKUP_DEADLINE_MS,
			},
		);
	},
};

/**
 * The item with the phone numbers the delivery lacked looked up, where the trigger is asked to
 * and the gateway can (a promise only then: most items need nothing asynchronous). The gateway
 * is the credential's, read only for an item that lacks a number (`gateway`, when known already).
 */
export function withPhonesLookedUp(
	this: IWebhookFunctions,
	item: INodeExecutionData | Promise<INodeExecutionData>,
	output: DeliveryOutput,
	gateway?: GatewayName,
): INodeExecutionData | Promise<INodeExecutionData> {
	if (!output.simplify || !output.lookUpPhoneNumbers) return item;
	const fill = async (ready: INodeExecutionData) => {
		if (!lacksPhone(ready.json)) return ready;
		const lookup = PHONE_LOOKUPS[gateway ?? (await selectedGateway.call(this))];
		if (lookup) await lookUpMissingPhones.call(this, ready.json, lookup);
		return ready;
	};
	if (item instanceof Promise) return item.then(fill);
	return lacksPhone(item.json) ? fill(item) : item;
}
