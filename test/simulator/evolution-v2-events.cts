// Evolution API 2.3.6's side of messages and webhooks: how its Baileys service stores, answers and
// announces a message (prepareMessage, sendDataWebhook), its connection and QR events, and how its
// WebhookController posts deliveries (the configured headers, `jwt_key` signed into Authorization).
import { createHash, createHmac } from 'node:crypto';

import { EVOLUTION_V2 } from '../compatibility/evolution-v2.cts';
import {
	enterConnectionState,
	webhookBase64,
	type GatewayEvents,
	type ParticipantsUpdate,
} from './events.cts';
import { recordUpsertV2 } from './evolution-v2-store.cts';
import { isGroupId, isLid, newPairingCode, newQrPayload } from './ids.cts';
import { qrCodeDataUri } from './png.cts';
import { evolutionContent, evolutionKey, fileUrlOrNull } from './render.cts';
import type { EvolutionVersion } from './types.cts';
import {
	ACK_STATUSES,
	lidAddressOf,
	type ChatButton,
	type ConnectionState,
	type Instance,
	type StoredMessage,
} from './state.cts';
import type { DeliveryFlavour, EventSink, RetrySchedule } from './webhooks.cts';

/**
 * EventController.events: what POST /webhook/set accepts, and what an empty list stands for — the
 * enum of 2.3.6's webhookSchema, as the compatibility reference restates it.
 */
export const EVOLUTION_V2_WEBHOOK_EVENTS: readonly string[] = webhookEventNames();

function webhookEventNames(): string[] {
	const webhook = EVOLUTION_V2.schemas.webhookSchema.properties?.webhook;
	const events = typeof webhook === 'object' ? webhook.properties?.events : undefined;
	const items = typeof events === 'object' ? events.items : undefined;
	const names =
		items && !Array.isArray(items) && typeof items === 'object' ? items.enum : undefined;
	if (!names) throw new Error("2.3.6's webhookSchema has no event list");
	return names.map(String);
}

/** Baileys' getDevice: the kind of device a message id was made by (the `source` of a message). */
export function deviceOf(id: string): string {
	if (/^3A.{18}$/.test(id)) return 'ios';
	if (/^3E.{20}$/.test(id)) return 'web';
	if (/^(.{21}|.{32})$/.test(id)) return 'android';
	return /^(3F|.{18}$)/.test(id) ? 'desktop' : 'unknown';
}

/** The id of a message's row in Evolution's database (a cuid there): stable for the same message. */
export function messageRecordId(instance: Instance, message: StoredMessage): string {
	const digest = createHash('sha1').update(`${instance.instanceId}:${message.shortId}`);
	return `cm${digest.digest('hex').slice(0, 23)}`;
}

/**
 * The status a message has in Evolution's database: an API send is stored PENDING and stays so (only
 * received messages take status updates); a received one is DELIVERY_ACK until read.
 */
function statusOf(message: StoredMessage): string {
	if (message.fromMe) return message.source === 'api' ? 'PENDING' : ACK_STATUSES[message.ack];
	return message.ack >= 3 ? 'READ' : 'DELIVERY_ACK';
}

/** The contextInfo sendMessageWithTyping attaches to every send to a person (not to groups). */
function directChatContext(message: StoredMessage): Record<string, unknown> {
	return {
		mentionedJid: [],
		groupMentions: [],
		ephemeralSettingTimestamp: { low: message.timestamp - 172800, high: 0, unsigned: false },
		disappearingMode: { initiator: 0 },
	};
}

type Json = Record<string, unknown>;

/** prepareMessage stores an extendedTextMessage as a plain `conversation`. */
function asConversation(content: Json): Json {
	const extended = content.extendedTextMessage as Json | undefined;
	if (!extended) return content;
	const { extendedTextMessage: _dropped, ...rest } = content;
	return { ...rest, conversation: extended.text };
}

/** The Baileys content, as 2.3.6 stores it: enums as numbers, no context inside the content. */
function storedContent(content: Json): Json {
	const [type, inner] = Object.entries(content)[0] ?? [];
	if (!type || typeof inner !== 'object' || inner === null) return content;
	const { contextInfo: _moved, ...rest } = inner as Json;
	// The list was sent with listType 2 (PRODUCT_LIST).
	if (type === 'listMessage') rest.listType = 2;
	return asConversation({ [type]: rest });
}

const BUTTON_NAMES: Record<string, string> = {
	reply: 'quick_reply',
	copy: 'cta_copy',
	url: 'cta_url',
	call: 'cta_call',
};

/** The buttonParamsJson of 2.3.6's toJSONString. */
function buttonParams(button: ChatButton): string {
	const text = { display_text: button.text };
	switch (button.type) {
		case 'reply':
			return JSON.stringify({ ...text, id: button.id });
		case 'copy':
			return JSON.stringify({ ...text, copy_code: button.copyCode });
		case 'url':
			return JSON.stringify({ ...text, url: button.url, merchant_url: button.url });
		case 'call':
			return JSON.stringify({ ...text, phone_number: button.phoneNumber });
	}
}

/** A UUID that stays the same for the same message (2.3.6 puts a random one in templateId). */
function templateIdOf(message: StoredMessage): string {
	const hex = createHash('sha1').update(message.shortId).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The Baileys content 2.3.6 sends, where it is not v1's: buttons go as a view-once interactive
 * message; a poll with one choice as pollCreationMessageV3.
 */
function v2Content(
	instance: Instance,
	message: StoredMessage,
	baseUrl: string,
): { messageType: string; message: Json } {
	const content = message.content;
	if (content.type === 'buttons') {
		const interactiveMessage = {
			body: { text: content.body },
			footer: { text: content.footer },
			nativeFlowMessage: {
				buttons: content.buttons.map((button) => ({
					name: BUTTON_NAMES[button.type],
					buttonParamsJson: buttonParams(button),
				})),
				messageParamsJson: JSON.stringify({ from: 'api', templateId: templateIdOf(message) }),
			},
		};
		return {
			messageType: 'viewOnceMessage',
			message: { viewOnceMessage: { message: { interactiveMessage } } },
		};
	}
	if (content.type === 'poll' && content.selectableCount !== undefined) {
		const type = content.selectableCount === 1 ? 'pollCreationMessageV3' : 'pollCreationMessage';
		const poll = {
			name: content.name,
			options: content.options.map((optionName) => ({ optionName })),
			selectableOptionsCount: content.selectableCount,
		};
		return { messageType: type, message: { [type]: poll } };
	}
	return evolutionContent(instance, message, baseUrl);
}

/**
 * The key a release stores for a message. 2.3.0's Baileys fork names a LID's phone `senderPn`
 * (direct chats only: it reads no phone for a LID group member); Baileys 7 (2.3.6 on) writes
 * `remoteJidAlt` / `participantAlt` and `addressingMode`.
 */
export function storedKeyOf(
	instance: Instance,
	message: StoredMessage,
	version: EvolutionVersion,
): Json {
	const key = evolutionKey(instance, message);
	if (version !== '2.3.0') return key;
	const { remoteJidAlt, participantAlt: _participantAlt, addressingMode: _mode, ...fork } = key;
	const address = lidAddressOf(instance, message);
	if (address && !address.inGroup && !message.fromMe && remoteJidAlt) fork.senderPn = remoteJidAlt;
	return fork;
}

/**
 * What a release's messages.upsert delivers of a stored key; nothing else is rewritten (send.message,
 * messages.update, messages.delete, findMessages keep the stored key). For a direct chat reached
 * through a LID whose phone is known: 2.3.7 overwrites `remoteJid` with the phone (both fields then
 * hold it and the LID is gone); 2.4.0 swaps the two and says `addressingMode: 'pn'`.
 */
export function upsertKeyOf(key: Json, version: EvolutionVersion): Json {
	const remoteJid = String(key.remoteJid);
	if (!isLid(remoteJid) || typeof key.remoteJidAlt !== 'string') return key;
	if (version === '2.3.7') return { ...key, remoteJid: key.remoteJidAlt };
	if (version === '2.4.0')
		return { ...key, remoteJid: key.remoteJidAlt, remoteJidAlt: remoteJid, addressingMode: 'pn' };
	return key;
}

/**
 * A stored message as prepareMessage makes it: what sends answer, what SEND_MESSAGE and
 * MESSAGES_UPSERT deliver and findMessages returns, with the key the release stores. API sends have
 * no push name ("Você").
 */
export function v2MessageRaw(
	instance: Instance,
	message: StoredMessage,
	baseUrl: string,
	base64?: string,
	version: EvolutionVersion = '2.3.6',
): Json {
	const { messageType, message: content } = v2Content(instance, message, baseUrl);
	const inner = Object.values(content)[0] as Json | undefined;
	const quoted = (inner?.contextInfo as Json | undefined)?.quotedMessage as Json | undefined;
	let contextInfo = inner?.contextInfo as Json | undefined;
	if (quoted) contextInfo = { ...contextInfo, quotedMessage: asConversation(quoted) };
	if (message.source === 'api' && !isGroupId(message.chatId))
		contextInfo = { ...directChatContext(message), ...contextInfo };
	const stored = storedContent(content);
	return {
		key: storedKeyOf(instance, message, version),
		pushName: message.source === 'api' ? 'Você' : message.pushName,
		status: statusOf(message),
		message: base64 === undefined ? stored : { ...stored, base64 },
		contextInfo,
		messageType: 'conversation' in stored ? 'conversation' : messageType,
		messageTimestamp: message.timestamp,
		instanceId: instance.instanceId,
		source: deviceOf(message.shortId),
	};
}

/** The `data` of a release's messages.upsert: the stored message with the key as upsert rewrites it. */
export function v2UpsertData(
	instance: Instance,
	message: StoredMessage,
	baseUrl: string,
	version: EvolutionVersion,
	base64?: string,
): Json {
	const raw = v2MessageRaw(instance, message, baseUrl, base64, version);
	return { ...raw, key: upsertKeyOf(raw.key as Json, version) };
}

/**
 * Evolution runs Baileys with emitOwnEvents off: a send through the API raises SEND_MESSAGE only
 * (its key as sent); a message from the network or typed on the phone raises MESSAGES_UPSERT.
 * `base64` with the webhook's base64 on, for media.
 */
function messageEmitter(version: EvolutionVersion, numberCache: boolean): GatewayEvents['message'] {
	return (sink, baseUrl, instance, message) => {
		const base64 = webhookBase64(instance, message);
		if (message.source === 'api') {
			const sent = v2MessageRaw(instance, message, baseUrl, base64, version);
			sink.emit(instance, 'SEND_MESSAGE', sent);
		} else {
			const upsert = v2UpsertData(instance, message, baseUrl, version, base64);
			sink.emit(instance, 'MESSAGES_UPSERT', upsert);
			const storedKey = storedKeyOf(instance, message, version);
			recordUpsertV2(instance, message, storedKey, upsert.key as Json, version, numberCache);
		}
	};
}

/** A new socket for an open instance (restart, a profile picture change): connecting, then open. */
export function reconnectV2(sink: EventSink, baseUrl: string, instance: Instance): void {
	changeConnectionStateV2(sink, baseUrl, instance, 'connecting');
	changeConnectionStateV2(sink, baseUrl, instance, 'open');
}

export interface QrCode {
	pairingCode: string | null;
	code: string;
	base64: string;
	count: number;
}

/** The socket's current QR code (the `qrCode` getter of 2.3.6's service), per instance. */
const currentQr = new WeakMap<Instance, QrCode>();

/** Why a connection closed when 2.3.6 announces it: it reconnects after any other reason, silently. */
const LOGGED_OUT = 401;

/**
 * CONNECTION_UPDATE as 2.3.6 sends it: an open connection names the account; a close is announced
 * only when 2.3.6 does not reconnect (logged out), after STATUS_INSTANCE.
 */
export function changeConnectionStateV2(
	sink: EventSink,
	baseUrl: string,
	instance: Instance,
	state: ConnectionState,
): void {
	enterConnectionState(instance, state);
	if (state !== 'connecting') currentQr.delete(instance);
	if (state === 'close') {
		sink.emit(instance, 'STATUS_INSTANCE', {
			instance: instance.name,
			status: 'closed',
			disconnectionAt: new Date().toISOString(),
			disconnectionReasonCode: LOGGED_OUT,
			disconnectionObject: JSON.stringify({ error: { output: { statusCode: LOGGED_OUT } } }),
		});
	}
	const account =
		state === 'open'
			? {
					wuid: instance.wuid,
					profileName: instance.profileName,
					profilePictureUrl: fileUrlOrNull(baseUrl, instance, instance.profilePictureFile),
				}
			: {};
	sink.emit(instance, 'CONNECTION_UPDATE', {
		instance: instance.name,
		...account,
		state,
		statusReason: state === 'close' ? LOGGED_OUT : 200,
	});
}

/**
 * A new QR code, announced with QRCODE_UPDATED: a pairing code only when the connection was started
 * with a phone number (`GET /instance/connect/{instance}?number=`).
 */
export function newQrCodeV2(sink: EventSink, instance: Instance, withPairingCode: boolean): QrCode {
	const code = newQrPayload();
	const qr: QrCode = {
		pairingCode: withPairingCode ? newPairingCode().replace('-', '') : null,
		code,
		base64: qrCodeDataUri(code),
		count: (currentQr.get(instance)?.count ?? 0) + 1,
	};
	currentQr.set(instance, qr);
	instance.qrCount = qr.count;
	sink.emit(instance, 'QRCODE_UPDATED', {
		qrcode: { instance: instance.name, pairingCode: qr.pairingCode, code, base64: qr.base64 },
	});
	return qr;
}

/** The QR code an instance that is pairing shows; one is made when it has shown none yet. */
export function qrCodeOf(sink: EventSink, instance: Instance): QrCode {
	return currentQr.get(instance) ?? newQrCodeV2(sink, instance, false);
}

/**
 * 2.3.6 adds `participantsData` to GROUP_PARTICIPANTS_UPDATE: each member's number, and the name
 * and picture its /group/participants knows (none for one who left).
 */
function participantsV2(
	sink: EventSink,
	baseUrl: string,
	instance: Instance,
	update: ParticipantsUpdate,
): void {
	const participantsData = update.participants.map((jid) => {
		const person = isLid(jid) ? jid : jid.split('@')[0];
		const member = instance.groups.get(update.id)?.participants.some((p) => p.number === person);
		const contact = member ? instance.contacts.get(person) : undefined;
		// A LID member's number is the phone the group's metadata gives for it, else the LID's digits.
		const phone = isLid(jid) ? instance.lidPeople.get(jid)?.phone : undefined;
		return {
			jid,
			phoneNumber: phone ?? jid.split('@')[0],
			name: contact ? contact.pushName || contact.name || undefined : undefined,
			imgUrl: contact ? fileUrlOrNull(baseUrl, instance, contact.pictureFile) : undefined,
		};
	});
	sink.emit(instance, 'GROUP_PARTICIPANTS_UPDATE', { ...update, participantsData });
}

/**
 * What the control API's happenings raise in a release; `numberCache`: whether its IsOnWhatsapp
 * cache is on (messages write it).
 */
export function evolutionV2Events(version: EvolutionVersion, numberCache = true): GatewayEvents {
	return {
		message: messageEmitter(version, numberCache),
		// A revoke from the network: MESSAGES_DELETE carries the revoked message's stored key,
		// with `status: 'DELETED'` from 2.3.7 on.
		deletion: (sink, instance, message) => {
			const key = storedKeyOf(instance, message, version);
			const status = version === '2.3.7' || version === '2.4.0' ? { status: 'DELETED' } : {};
			sink.emit(instance, 'MESSAGES_DELETE', { ...key, ...status });
		},
		connection: changeConnectionStateV2,
		participants: participantsV2,
		upsertData: (instance, message, baseUrl) => v2UpsertData(instance, message, baseUrl, version),
	};
}

/** The token jsonwebtoken's sign() makes for `jwt_key` (HS256, ten minutes). */
function webhookJwt(secret: string): string {
	const now = Math.floor(Date.now() / 1000);
	const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
	const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({
		iat: now,
		exp: now + 600,
		app: 'evolution',
		action: 'webhook',
	})}`;
	return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/**
 * WebhookController.retryWebhookRequest with env.config.ts's defaults (the same from 2.3.0 to
 * 2.4.0): up to 10 attempts; a status of 400, 401, 403, 404 or 422 ends it at once; any other
 * failure (another status, a timeout, no connection) waits min(5·2^(n-1), 300) s after attempt n,
 * ±20 % jitter, never under 5 s.
 */
const EVOLUTION_RETRY = {
	maxAttempts: 10,
	initialDelaySeconds: 5,
	maxDelaySeconds: 300,
	jitterFactor: 0.2,
	nonRetryableStatuses: [400, 401, 403, 404, 422],
};

export const evolutionV2Retries: RetrySchedule = (attempt, outcome) => {
	const { maxAttempts, initialDelaySeconds, maxDelaySeconds, jitterFactor } = EVOLUTION_RETRY;
	if (outcome.status !== undefined && EVOLUTION_RETRY.nonRetryableStatuses.includes(outcome.status))
		return undefined;
	if (attempt >= maxAttempts) return undefined;
	const delay = Math.min(initialDelaySeconds * 2 ** (attempt - 1), maxDelaySeconds);
	const jitter = delay * jitterFactor * (Math.random() * 2 - 1);
	return Math.max(initialDelaySeconds, delay + jitter) * 1000;
};

/**
 * WebhookController.emit: http(s) URLs only; the configured headers on every delivery; axios with
 * WEBHOOK_REQUEST_TIMEOUT_MS (30 000 by default) and the retries above.
 */
export const EVOLUTION_V2_DELIVERY: DeliveryFlavour = {
	timeoutMs: 30_000,
	retries: evolutionV2Retries,
	postsTo: (url) => /^(https?:\/\/)/.test(url),
	headers: (config) => {
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(config.headers ?? {}))
			headers[name] = typeof value === 'string' ? value : JSON.stringify(value);
		if ('jwt_key' in headers) {
			headers.Authorization = `Bearer ${webhookJwt(headers.jwt_key)}`;
			delete headers.jwt_key;
		}
		return headers;
	},
};
