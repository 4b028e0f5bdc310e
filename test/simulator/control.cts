// What tests and the sandbox can make happen: inbound messages, deletions, connection changes, faults.
// Shared by the programmatic API (index.cts) and the /__sim/ HTTP routes.
import { wahaEngineOf, type Core } from './core.cts';
import { SimulatorInputError } from './errors.cts';
import {
	chatIdToJid,
	contactChatId,
	fullMessageId,
	isGroupId,
	isLid,
	newPhoneMessageId,
	newShortMessageId,
	normaliseChatId,
	numberOfContactId,
} from './ids.cts';
import {
	decodeBase64Payload,
	extensionFor,
	fileFromBuffer,
	mediaTypeFor,
	samplePdf,
	samplePhoto,
} from './media.cts';
import { wahaMessage } from './render.cts';
import { SEED } from './seed.cts';
import {
	addMessage,
	ensureContact,
	ensureLidPerson,
	findMessage,
	recordStatus,
	type ConnectionState,
	type Instance,
	type MessageContent,
	type StoredMessage,
} from './state.cts';
import type { DeletionInput, FaultRule, InboundMessageInput, MessageSnapshot } from './types.cts';
import { isObject } from './validation.cts';
import type { EventSink } from './webhooks.cts';

const CONNECTION_STATES: ConnectionState[] = ['open', 'close', 'connecting'];

function requireInstance(core: Core, name: string): Instance {
	const instance = core.instance(name);
	if (!instance) throw new SimulatorInputError(404, `No instance named "${name}"`);
	return instance;
}

export function snapshotOf(
	core: Core,
	instance: Instance,
	message: StoredMessage,
): MessageSnapshot {
	return {
		id: fullMessageId(message.fromMe, message.chatId, message.shortId),
		shortId: message.shortId,
		chatId: message.chatId,
		remoteJid: chatIdToJid(message.chatId),
		fromMe: message.fromMe,
		timestamp: message.timestamp,
		waha: wahaMessage(instance, message, core.baseUrl, true, wahaEngineOf(core)),
		evolution: core.gatewayEvents.upsertData(instance, message, core.baseUrl),
	};
}

function inboundContent(
	instance: Instance,
	input: InboundMessageInput,
	shortId: string,
): MessageContent {
	const given = [input.text, input.media, input.location, input.vcard].filter(
		(part) => part !== undefined,
	);
	if (given.length !== 1)
		throw new SimulatorInputError(400, 'Give exactly one of text, media, location or vcard');
	if (input.text !== undefined) return { type: 'text', text: String(input.text) };
	if (input.location) {
		const { latitude, longitude, name, address } = input.location;
		if (typeof latitude !== 'number' || typeof longitude !== 'number') {
			throw new SimulatorInputError(400, 'location needs numeric latitude and longitude');
		}
		return { type: 'location', latitude, longitude, name, address };
	}
	if (input.vcard) {
		if (typeof input.vcard.vcard !== 'string')
			throw new SimulatorInputError(400, 'vcard needs a vcard string');
		return {
			type: 'vcard',
			displayName: String(input.vcard.displayName ?? ''),
			vcard: input.vcard.vcard,
		};
	}
	const media = input.media ?? {};
	const decoded = media.base64 === undefined ? undefined : decodeBase64Payload(media.base64);
	if (media.base64 !== undefined && !decoded)
		throw new SimulatorInputError(400, 'media.base64 is not valid base64');
	const mimetype = media.mimetype ?? decoded?.mimetype ?? 'image/png';
	// Without data, a PDF was asked for or the sample photo stands in.
	const file = decoded
		? fileFromBuffer(mimetype, decoded.data)
		: mimetype === 'application/pdf'
			? samplePdf('Simulated document')
			: samplePhoto();
	const key = `${shortId}.${extensionFor(file.mimetype)}`;
	instance.files.set(key, file);
	return {
		type: 'media',
		mediaType: mediaTypeFor(file.mimetype),
		file: key,
		fileName: media.fileName ?? key,
		mimetype: file.mimetype,
		caption: media.caption ?? '',
	};
}

/** A message arriving from the network (or typed on the owner's phone with `fromMe`). */
export function injectInbound(
	core: Core,
	sink: EventSink,
	input: InboundMessageInput,
): MessageSnapshot {
	if (!isObject(input)) throw new SimulatorInputError(400, 'Body must be an object');
	const instance = requireInstance(core, input.instance ?? SEED.instances.connected.name);
	if (instance.state !== 'open') {
		throw new SimulatorInputError(
			409,
			`Instance "${instance.name}" is ${instance.state}; set it to open first`,
		);
	}
	const from = typeof input.from === 'string' ? (normaliseChatId(input.from) ?? '') : '';
	// A person: a phone number, or a LID (whose direct chat is the LID chat).
	const person = isLid(from) ? from : numberOfContactId(from);
	if (!person)
		throw new SimulatorInputError(
			400,
			'from must be a contact: digits, <digits>@c.us or <digits>@s.messenger.net',
		);
	if (
		input.groupId !== undefined &&
		(!isGroupId(input.groupId) || !instance.groups.has(input.groupId))
	) {
		throw new SimulatorInputError(404, `The instance is not in a group "${input.groupId}"`);
	}
	// What the owner types on the phone has a phone's id (the gateway's own sends a web client's).
	const shortId = input.id ?? (input.fromMe === true ? newPhoneMessageId() : newShortMessageId());
	if (!/^[A-Za-z0-9]{20}$/.test(shortId))
		throw new SimulatorInputError(400, 'id must be 20 letters or digits');
	if (instance.messages.has(shortId))
		throw new SimulatorInputError(409, `A message with id ${shortId} already exists`);
	const quoted = input.replyTo === undefined ? undefined : findMessage(instance, input.replyTo);
	if (input.replyTo !== undefined && !quoted)
		throw new SimulatorInputError(404, `No message ${input.replyTo} to reply to`);

	const fromMe = input.fromMe === true;
	// LID people stay out of the address book: the gateway knows them by their LID only.
	const contact = fromMe
		? undefined
		: isLid(person)
			? ensureLidPerson(instance, person, input.pushName ?? '')
			: ensureContact(instance, person, input.pushName ?? '');
	const message: StoredMessage = {
		shortId,
		chatId: input.groupId ?? (isLid(person) ? person : contactChatId(person)),
		fromMe,
		author: input.groupId && !fromMe ? person : undefined,
		timestamp: input.timestamp ?? Math.floor(Date.now() / 1000),
		content: inboundContent(instance, input, shortId),
		source: 'app',
		pushName: fromMe ? instance.profileName : (input.pushName ?? contact?.pushName ?? ''),
		quotedId: quoted?.shortId,
		ack: fromMe ? 2 : 1,
		statusLog: [],
		reactions: {},
	};
	addMessage(instance, message);
	core.gatewayEvents.message(sink, core.baseUrl, instance, message);
	return snapshotOf(core, instance, message);
}

/** The sender deleted a message for everyone: MESSAGES_DELETE, and reads no longer find it. */
export function injectDeletion(core: Core, sink: EventSink, input: DeletionInput): MessageSnapshot {
	if (!isObject(input)) throw new SimulatorInputError(400, 'Body must be an object');
	const instance = requireInstance(core, String(input.instance));
	const chatId = normaliseChatId(String(input.chatId ?? ''));
	if (!chatId) throw new SimulatorInputError(400, 'chatId must be a contact or group id');
	const message = findMessage(instance, String(input.messageId ?? ''), chatId);
	if (!message) throw new SimulatorInputError(404, `No message ${input.messageId} in ${chatId}`);
	const snapshot = snapshotOf(core, instance, message);
	message.revoked = true;
	recordStatus(message, 'DELETED');
	core.gatewayEvents.deletion(sink, instance, message, core.baseUrl);
	return snapshot;
}

export function setConnectionState(
	core: Core,
	sink: EventSink,
	name: string,
	state: unknown,
): void {
	const instance = requireInstance(core, name);
	if (!CONNECTION_STATES.includes(state as ConnectionState)) {
		throw new SimulatorInputError(400, `state must be one of ${CONNECTION_STATES.join(', ')}`);
	}
	core.gatewayEvents.connection(sink, core.baseUrl, instance, state as ConnectionState);
}

/** Evolution 2.4.0's licence, activated or not (`setLicensed`, POST /__sim/license). */
export function setLicence(core: Core, active: unknown): void {
	if (typeof active !== 'boolean')
		throw new SimulatorInputError(400, 'active must be true or false');
	if (core.played.gateway !== 'evolution-v2' || core.played.evolutionVersion !== '2.4.0') {
		throw new SimulatorInputError(
			409,
			'Only Evolution API 2.4.0 has a licence: start the evolution-v2 gateway with evolutionVersion 2.4.0',
		);
	}
	core.licensed = active;
}

/** Checks a fault rule given over HTTP (or by a test) before it is queued. */
export function validFaultRule(input: unknown): FaultRule {
	if (!isObject(input)) throw new SimulatorInputError(400, 'A fault rule must be an object');
	const rule = input as FaultRule;
	const positive = (value: unknown) =>
		value === undefined || (typeof value === 'number' && value >= 0);
	if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times > 0)) {
		throw new SimulatorInputError(400, 'times must be a positive integer');
	}
	if (
		rule.status !== undefined &&
		!(Number.isInteger(rule.status) && rule.status >= 100 && rule.status <= 599)
	) {
		throw new SimulatorInputError(400, 'status must be an HTTP status code');
	}
	if (!positive(rule.latencyMs))
		throw new SimulatorInputError(400, 'latencyMs must be a number of milliseconds');
	if (rule.match !== undefined && !isObject(rule.match))
		throw new SimulatorInputError(400, 'match must be an object');
	for (const field of ['method', 'path', 'body'] as const) {
		if (rule.match?.[field] !== undefined && typeof rule.match[field] !== 'string')
			throw new SimulatorInputError(400, `match.${field} must be a string`);
	}
	return {
		...rule,
		match: rule.match && { ...rule.match },
		headers: rule.headers && { ...rule.headers },
	};
}
