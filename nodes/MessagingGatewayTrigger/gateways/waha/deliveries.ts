/**
 * WAHA's deliveries: the HMAC that proves one came from WAHA, the envelope check, the filters and
 * the items, which have the same simplified fields as on the other gateways (see webhook/deliveries.ts),
 * so a workflow runs unchanged whichever gateway the credential names. WAHA's envelope:
 * `{id, timestamp, event, session, metadata, me, payload, engine, environment}`; a message's
 * payload is WAHA's WAMessage (`id` `false_<chatId>_<id>[_<participant>]`, `from`, `to`,
 * `fromMe`, `source`, `body`, `hasMedia`, `media: {url, mimetype, filename}`, `_data`).
 */
import { createHmac, timingSafeEqual } from 'crypto';
import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { eventLabel } from '../../../shared/events';
import { TRIGGER_EVENTS_OF_WAHA } from '../../../shared/gateways/waha/events';
import {
	messageOf,
	simplifiedMessage,
	viewOf,
	wahaPeople,
} from '../../../shared/gateways/waha/message-fields';
import type { MessageView, WahaEnvelope } from '../../../shared/gateways/waha/message-fields';
import { textOf } from '../../../shared/message-text';
import { gatewayApiRequest, gatewayDownloadFile, gatewayPath } from '../../../shared/transport';
import { asObject, isNonEmptyText, unixSeconds } from '../../../shared/values';
import type { DeliveryFilters, DeliveryOutput } from '../../webhook/deliveries';
import { chatIsListed, EXTENSION_BY_MIME, withBinary } from '../../webhook/deliveries';
import { MAX_DELIVERY_NESTING, nestsDeeperThan } from '../../webhook/envelope';
import { chatLabelFields, editedLabelFields } from '../../webhook/label-events';
import { LOG_PREFIX } from '../../webhook/registration';
import { Redactor } from '../../../shared/secrets';

/** The headers WAHA signs a delivery with (n8n gives header names in lower case). */
export const HMAC_HEADER = 'x-webhook-hmac';
export const HMAC_ALGORITHM_HEADER = 'x-webhook-hmac-algorithm';

/** SHA-512 in hex: 128 hex digits. */
const SHA512_HEX = /^[0-9a-f]{128}$/i;

/**
 * Whether `signature` is the HMAC-SHA512 of exactly `rawBody` with `key`, compared in constant
 * time; the algorithm WAHA names must be sha512 (anything else is refused, never tried).
 */
export function hmacMatches(
	rawBody: Buffer,
	signature: unknown,
	algorithm: unknown,
	key: string,
): boolean {
	if (typeof signature !== 'string' || !SHA512_HEX.test(signature)) return false;
	if (typeof algorithm !== 'string' || algorithm.toLowerCase() !== 'sha512') return false;
	const expected = createHmac('sha512', key).update(rawBody).digest();
	return timingSafeEqual(Buffer.from(signature, 'hex'), expected);
}

/** WAHA events whose payload is a message (WAMessage, or a reaction or ack naming one). */
const MESSAGE_EVENTS = new Set([
	'message',
	'message.any',
	'message.reaction',
	'message.ack',
	'message.ack.group',
	'message.edited',
	'message.revoked',
]);

/**
 * The trigger's event a delivery is, among the chosen ones: a QR code is also a connection change
 * (only the first chosen counts), and an own message sent through the API is also a message.
 */
export function wahaDeliveryEvent(
	envelope: WahaEnvelope,
	chosen: readonly string[],
): string | undefined {
	const event = envelope.event as string;
	const payload = asObject(envelope.payload);
	let candidates = TRIGGER_EVENTS_OF_WAHA.get(event) ?? [];
	if (event === 'session.status') {
		candidates =
			payload?.status === 'SCAN_QR_CODE'
				? ['QRCODE_UPDATED', 'CONNECTION_UPDATE']
				: ['CONNECTION_UPDATE'];
	} else if (event === 'message.any' && !(payload?.fromMe === true && payload.source === 'api')) {
		candidates = ['MESSAGES_UPSERT'];
	}
	return candidates.find((candidate) => chosen.includes(candidate));
}

/**
 * Why a body cannot be a WAHA delivery, or undefined: a JSON object naming the event and the
 * session as text, its payload an object, nested no deeper than any real delivery; a message
 * event must say which chat. `apiKeys` receives the values of API key fields on the way.
 */
export function wahaEnvelopeProblem(body: unknown, apiKeys: string[] = []): string | undefined {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		return 'The body must be a JSON object (a WAHA event)';
	}
	const envelope = body as WahaEnvelope;
	if (!isNonEmptyText(envelope.event) || !isNonEmptyText(envelope.session)) {
		return 'The body must name the event and the session as text';
	}
	if (!asObject(envelope.payload)) return 'The "payload" of the event must be an object';
	if (nestsDeeperThan(body, MAX_DELIVERY_NESTING, apiKeys)) {
		return `The body must not nest deeper than ${MAX_DELIVERY_NESTING} levels`;
	}
	if (MESSAGE_EVENTS.has(envelope.event) && !viewOf(messageOf(envelope))) {
		return 'A message event must say its chat (payload.id, or payload.from and payload.to)';
	}
	return undefined;
}

/** WAHA events whose delivery is one new message (or reaction), by the message's ID. */
const ONE_MESSAGE_EVENTS: ReadonlySet<string> = new Set([
	'message',
	'message.any',
	'message.reaction',
]);

/**
 * What makes two deliveries one event (see deliveryIdentity): a new message by its ID, anything
 * else by WAHA's event ID (the same in its retries), or its whole body.
 */
export function wahaDeliveryIdentity(envelope: WahaEnvelope, event: string): string {
	const id = ONE_MESSAGE_EVENTS.has(envelope.event as string)
		? textOf(asObject(envelope.payload)?.id)
		: undefined;
	if (id) return `${envelope.session}|${event}|${id}`;
	return isNonEmptyText(envelope.id) ? `event|${envelope.id}` : `body|${JSON.stringify(envelope)}`;
}

/** A new message's time at WAHA (Unix seconds); undefined for other events. */
export function wahaMessageTime(envelope: WahaEnvelope): number | undefined {
	if (!ONE_MESSAGE_EVENTS.has(envelope.event as string)) return undefined;
	return unixSeconds(asObject(envelope.payload)?.timestamp);
}

/** A new message's chat as WAHA names it; undefined for other events. */
export function wahaMessageChat(envelope: WahaEnvelope): string | undefined {
	if (!ONE_MESSAGE_EVENTS.has(envelope.event as string)) return undefined;
	return viewOf(messageOf(envelope))?.chat;
}

/** Why a checked delivery starts no execution, or undefined when it should (as reasonToIgnore). */
export function wahaReasonToIgnore(
	envelope: WahaEnvelope,
	filters: DeliveryFilters,
): string | undefined {
	if (envelope.session !== filters.session) return 'other session';
	if (!wahaDeliveryEvent(envelope, filters.events)) return 'event not selected';
	if (!MESSAGE_EVENTS.has(envelope.event as string)) return undefined;
	const message = messageOf(envelope) as IDataObject;
	const view = viewOf(message) as MessageView;
	if (filters.ignoreOwnMessages && view.fromMe) return 'own message';
	const isGroup = view.chat.endsWith('@g.us');
	if (filters.chatType === 'direct' && isGroup) return 'group chat';
	if (filters.chatType === 'groups' && !isGroup) return 'direct chat';
	if (
		filters.onlyChats.length > 0 &&
		!chatIsListed(filters.onlyChats, view.chat, wahaPeople(envelope, message, view).chat)
	) {
		return 'chat not listed';
	}
	return undefined;
}

/** Evolution's connection states for WAHA's session statuses. */
function connectionState(status: unknown): string | null {
	if (status === 'WORKING') return 'open';
	if (status === 'STOPPED' || status === 'FAILED') return 'close';
	return typeof status === 'string' ? 'connecting' : null;
}

function simplified(event: string, envelope: WahaEnvelope): IDataObject {
	const session = envelope.session;
	const payload = asObject(envelope.payload) ?? {};
	if (MESSAGE_EVENTS.has(envelope.event as string)) return simplifiedMessage(event, envelope);
	if (event === 'QRCODE_UPDATED') {
		// WAHA's event says only that a QR code waits; its picture is fetched (see wahaDeliveryToItem).
		return {
			event,
			eventName: eventLabel(event),
			session,
			pairingCode: null,
			qrCode: null,
			raw: envelope,
		};
	}
	if (event === 'CONNECTION_UPDATE') {
		return {
			event,
			eventName: eventLabel(event),
			session,
			state: connectionState(payload.status),
			statusReason: null,
			raw: envelope,
		};
	}
	const named = { event, eventName: eventLabel(event), session };
	if (event === 'LABELS_ASSOCIATION') {
		const action = envelope.event === 'label.chat.deleted' ? 'removed' : 'added';
		const fields = chatLabelFields(payload.labelId, payload.chatId, action, payload.label);
		return { ...named, ...fields, raw: envelope };
	}
	if (event === 'LABELS_EDIT') {
		const deleted = envelope.event === 'label.deleted';
		return { ...named, ...editedLabelFields(payload, deleted), raw: envelope };
	}
	const fields: IDataObject = { ...payload, ...named };
	fields.raw = envelope;
	return fields;
}

/** The QR code WAHA shows now, as `GET /api/{session}/auth/qr` gives it for Accept: application/json. */
async function qrCodePicture(
	this: IWebhookFunctions,
	session: string,
): Promise<Buffer | undefined> {
	try {
		const answer = asObject(
			await gatewayApiRequest.call(this, 'GET', gatewayPath`/api/${session}/auth/qr`, {
				qs: { format: 'image' },
			}),
		);
		return typeof answer?.data === 'string' ? Buffer.from(answer.data, 'base64') : undefined;
	} catch (error) {
		// Pairing moves on (a newer code, or the session is working): this code is gone, not broken.
		this.logger.warn(
			`${LOG_PREFIX} the QR code of session "${session}" could not be fetched: ${(error as Error).message}`,
		);
		return undefined;
	}
}

/** A message's media as WAHA stored it (`media.url`), fetched by the package's rules for media. */
async function mediaFile(
	this: IWebhookFunctions,
	message: IDataObject,
	shortId: string,
): Promise<{ content: Buffer; fileName: string; mimeType: string } | undefined> {
	const media = asObject(message.media);
	const url = textOf(media?.url);
	if (message.hasMedia !== true || !isNonEmptyText(url)) return undefined;
	const file = await gatewayDownloadFile.call(this, url);
	const mimeType = (textOf(media?.mimetype) ?? file.mimeType ?? 'application/octet-stream')
		.split(';')[0]
		.trim();
	const fileName =
		textOf(media?.filename) || `${shortId || 'media'}.${EXTENSION_BY_MIME[mimeType] ?? 'bin'}`;
	return { content: file.data, fileName, mimeType };
}

/**
 * One output item for a checked WAHA delivery that passed the filters; `secrets` and the values
 * of the envelope's API key fields are kept out of it. The QR code of a QR event and the media of
 * a message (with Include Media) are fetched from WAHA and become the binary "data".
 */
export async function wahaDeliveryToItem(
	this: IWebhookFunctions,
	envelope: WahaEnvelope,
	output: DeliveryOutput,
	secrets: string[],
	envelopeKeys: readonly string[],
	event: string,
): Promise<INodeExecutionData> {
	const redactor = new Redactor(envelopeKeys.length > 0 ? secrets.concat(envelopeKeys) : secrets);
	const cleaned = redactor.cleaned(envelope);
	const json = output.simplify ? simplified(event, cleaned) : cleaned;
	if (event === 'QRCODE_UPDATED' && output.qrCodeAsBinary) {
		const picture = await qrCodePicture.call(this, envelope.session as string);
		if (!picture) return { json };
		return await withBinary.call(
			this,
			json,
			{ fileName: 'qrcode.png', mimeType: 'image/png' },
			picture,
		);
	}
	const message = messageOf(envelope);
	if (output.includeMedia && message && MESSAGE_EVENTS.has(envelope.event as string)) {
		const file = await mediaFile.call(this, message, (viewOf(message) as MessageView).shortId);
		if (file) {
			return await withBinary.call(this, json, file, file.content);
		}
	}
	return { json };
}
