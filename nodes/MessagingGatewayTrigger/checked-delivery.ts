/**
 * A delivery as it arrives, checked: whether it comes from the gateway (WAHA's signature, or the
 * token the other gateways send along), and its body as a delivery of the registration's gateway
 * (its filters, its identity, its item), or why it is none.
 */
import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import type { WahaEnvelope } from '../shared/gateways/waha/message-fields';
import {
	HMAC_ALGORITHM_HEADER,
	HMAC_HEADER,
	hmacMatches,
	wahaDeliveryEvent,
	wahaDeliveryIdentity,
	wahaDeliveryToItem,
	wahaEnvelopeProblem,
	wahaMessageChat,
	wahaMessageTime,
	wahaReasonToIgnore,
} from './gateways/waha/deliveries';
import type { Delivery, DeliveryFilters, DeliveryOutput } from './webhook/deliveries';
import { envelopeProblem } from './webhook/envelope';
import {
	deliveryIdentity,
	deliveryToItem,
	messageChat,
	messageTime,
	reasonToIgnore,
	tokensMatch,
} from './webhook/deliveries';
import { withPhonesLookedUp } from './phone-lookups';
import type { OurRegistration } from './webhook/registration';

/**
 * The request body exactly as it arrived: n8n keeps it as `rawBody` (n8n 1.x and 2.x read it
 * before parsing JSON; `readRawBody` reads it when n8n parsed nothing, e.g. another content type).
 */
async function rawBodyOf(this: IWebhookFunctions): Promise<Buffer | undefined> {
	const request = this.getRequestObject();
	if (!Buffer.isBuffer(request.rawBody) && typeof request.readRawBody === 'function') {
		await request.readRawBody();
	}
	return Buffer.isBuffer(request.rawBody) ? request.rawBody : undefined;
}

/**
 * Whether the delivery comes from the gateway: WAHA's HMAC of the exact body bytes with our key,
 * or the token the other gateways send along (a header on Evolution API v2, else the URL's query).
 */
export function isAuthentic(
	this: IWebhookFunctions,
	registration: OurRegistration | undefined,
): boolean | Promise<boolean> {
	const expected = registration?.token;
	if (typeof expected !== 'string' || expected === '') return false;
	const headers = this.getHeaderData() as IDataObject;
	if (registration?.gateway === 'waha') {
		// Only WAHA's signature waits (for the body's bytes); a token is checked at once.
		return rawBodyOf
			.call(this)
			.then(
				(rawBody) =>
					rawBody !== undefined &&
					hmacMatches(rawBody, headers[HMAC_HEADER], headers[HMAC_ALGORITHM_HEADER], expected),
			);
	}
	const tokenHeader = registration?.tokenHeader;
	const token = tokenHeader ? headers[tokenHeader] : (this.getQueryData() as IDataObject).token;
	return typeof token === 'string' && tokensMatch(token, expected);
}

/** A delivery that passed the envelope check, in its gateway's format. */
export interface CheckedDelivery {
	/** Why it starts no execution, or undefined when it should. */
	reasonToIgnore(filters: DeliveryFilters): string | undefined;
	/** What makes it the same event as another delivery (a redelivery of it). */
	identity(filters: DeliveryFilters): string;
	/** A new message's time at the gateway (Unix seconds); undefined for other events. */
	messageTime(): number | undefined;
	/** A new message's chat as the gateway names it; undefined for other events. */
	messageChat(): string | undefined;
	toItem(
		this: IWebhookFunctions,
		output: DeliveryOutput,
		filters: DeliveryFilters,
		secrets: string[],
	): INodeExecutionData | Promise<INodeExecutionData>;
}

/** The body as a delivery of the registration's gateway, or why it is none. */
export function checkedDelivery(
	this: IWebhookFunctions,
	registration: OurRegistration,
	body: unknown,
): CheckedDelivery | { problem: string } {
	// The envelope's own API keys, found by the same walk that checks its depth.
	const envelopeKeys: string[] = [];
	if (registration.gateway === 'waha') {
		// The body n8n parsed from the bytes whose signature was just checked (or one read back).
		const envelope = body as WahaEnvelope;
		const problem = wahaEnvelopeProblem(envelope, envelopeKeys);
		if (problem) return { problem };
		return {
			reasonToIgnore: (filters) => wahaReasonToIgnore(envelope, filters),
			identity: (filters) =>
				wahaDeliveryIdentity(envelope, wahaDeliveryEvent(envelope, filters.events) as string),
			messageTime: () => wahaMessageTime(envelope),
			messageChat: () => wahaMessageChat(envelope),
			async toItem(output, filters, secrets) {
				const event = wahaDeliveryEvent(envelope, filters.events) as string;
				return await withPhonesLookedUp.call(
					this,
					wahaDeliveryToItem.call(this, envelope, output, secrets, envelopeKeys, event),
					output,
					'waha',
				);
			},
		};
	}
	const problem = envelopeProblem(body, envelopeKeys);
	if (problem) return { problem };
	const delivery = body as Delivery;
	return {
		reasonToIgnore: (filters) => reasonToIgnore(delivery, filters),
		identity: () => deliveryIdentity(delivery),
		messageTime: () => messageTime(delivery),
		messageChat: () => messageChat(delivery),
		toItem(output, _filters, secrets) {
			return withPhonesLookedUp.call(
				this,
				deliveryToItem.call(this, delivery, output, secrets, envelopeKeys),
				output,
			);
		},
	};
}

export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : 'unknown error';
}
