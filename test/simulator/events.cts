// Gateway-side happenings that produce webhook events: messages, deletions, connection changes, QR codes.
import { contactJid, newPairingCode, newQrPayload, newShortMessageId } from './ids.cts';
import { qrCodeDataUri } from './png.cts';
import { evolutionKey, evolutionUpsertData } from './render.cts';
import {
	addMessage,
	recordStatus,
	type ConnectionState,
	type Instance,
	type MessageContent,
	type StoredMessage,
} from './state.cts';
import type { EventSink } from './webhooks.cts';

/** A media message's bytes, for deliveries of an instance whose webhook asks for base64. */
export function webhookBase64(instance: Instance, message: StoredMessage): string | undefined {
	const content = message.content;
	if (instance.webhook?.webhook_base64 !== true || content.type !== 'media') return undefined;
	return instance.files.get(content.file)?.data.toString('base64');
}

/** MESSAGES_UPSERT for every message; API sends also produce SEND_MESSAGE, as Evolution does. */
export function emitMessage(
	sink: EventSink,
	baseUrl: string,
	instance: Instance,
	message: StoredMessage,
): void {
	const data = evolutionUpsertData(instance, message, baseUrl, webhookBase64(instance, message));
	sink.emit(instance, 'MESSAGES_UPSERT', data);
	if (message.fromMe && message.source === 'api') sink.emit(instance, 'SEND_MESSAGE', data);
}

/** MESSAGES_DELETE carries just the Baileys key of the revoked message. */
export function emitDeletion(sink: EventSink, instance: Instance, message: StoredMessage): void {
	sink.emit(instance, 'MESSAGES_DELETE', evolutionKey(instance, message));
}

export interface OutgoingOptions {
	quotedId?: string;
	mentions?: string[];
}

/** A message the account sends through the API: stored (so reads find it) with ack SERVER. */
export function storeOutgoingMessage(
	instance: Instance,
	chatId: string,
	content: MessageContent,
	options: OutgoingOptions = {},
): StoredMessage {
	const message: StoredMessage = {
		shortId: newShortMessageId(),
		chatId,
		fromMe: true,
		timestamp: Math.floor(Date.now() / 1000),
		content,
		source: 'api',
		pushName: instance.profileName,
		quotedId: options.quotedId,
		mentions: options.mentions?.length ? options.mentions : undefined,
		ack: 1,
		statusLog: [],
		reactions: {},
	};
	recordStatus(message, 'SERVER_ACK');
	return addMessage(instance, message);
}

const CLOSE_REASON = 428;

/** Moves an instance to a connection state, without announcing it. */
export function enterConnectionState(instance: Instance, state: ConnectionState): void {
	instance.state = state;
	if (state !== 'connecting') instance.qrCount = 0;
	if (state === 'open') instance.wuid = contactJid(instance.ownerNumber);
}

/** Moves an instance to a connection state and announces it with CONNECTION_UPDATE. */
export function changeConnectionState(
	sink: EventSink,
	instance: Instance,
	state: ConnectionState,
): void {
	enterConnectionState(instance, state);
	sink.emit(instance, 'CONNECTION_UPDATE', {
		instance: instance.name,
		state,
		statusReason: state === 'close' ? CLOSE_REASON : 200,
	});
}

/**
 * What the control API's happenings raise, in the words of the gateway the simulator plays: a
 * message stored (inbound, typed on the phone), a deletion by the sender, a connection change.
 */
export interface GatewayEvents {
	message(sink: EventSink, baseUrl: string, instance: Instance, message: StoredMessage): void;
	/** `baseUrl` for gateways whose deletion event carries the whole message (WAHA). */
	deletion(sink: EventSink, instance: Instance, message: StoredMessage, baseUrl?: string): void;
	connection(sink: EventSink, baseUrl: string, instance: Instance, state: ConnectionState): void;
	/** Members of a group changed (GROUP_PARTICIPANTS_UPDATE). */
	participants(
		sink: EventSink,
		baseUrl: string,
		instance: Instance,
		update: ParticipantsUpdate,
	): void;
	/** A message's acknowledgement changed (only WAHA announces it here). */
	ack?(sink: EventSink, instance: Instance, message: StoredMessage): void;
	/** A message as the `data` of its upsert delivery (without base64): MessageSnapshot.evolution. */
	upsertData(instance: Instance, message: StoredMessage, baseUrl: string): Record<string, unknown>;
}

/** Baileys' group-participants.update: the group, the members' JIDs, what happened to them. */
export interface ParticipantsUpdate {
	id: string;
	participants: string[];
	action: string;
}

export const EVOLUTION_V1_EVENTS: GatewayEvents = {
	message: emitMessage,
	deletion: emitDeletion,
	connection: (sink, _baseUrl, instance, state) => changeConnectionState(sink, instance, state),
	participants: (sink, _baseUrl, instance, update) =>
		sink.emit(instance, 'GROUP_PARTICIPANTS_UPDATE', update),
	upsertData: (instance, message, baseUrl) => evolutionUpsertData(instance, message, baseUrl),
};

/** A fresh QR code (a real PNG) plus a pairing code, as QRCODE_UPDATED delivers them. */
export function emitQrCode(
	sink: EventSink,
	instance: Instance,
): { pairingCode: string; code: string; base64: string } {
	instance.pairingCode ??= newPairingCode().replace('-', '');
	const code = newQrPayload();
	const qrcode = { pairingCode: instance.pairingCode, code, base64: qrCodeDataUri(code) };
	sink.emit(instance, 'QRCODE_UPDATED', { qrcode: { instance: instance.name, ...qrcode } });
	return qrcode;
}
