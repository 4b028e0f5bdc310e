// Instance family (Evolution v1): sending text and locations, reading statuses, media, pictures, business profiles.
import type { RequestContext, Route } from '../core.cts';
import { evolutionError } from '../errors.cts';
import { emitMessage, storeOutgoingMessage } from '../events.cts';
import {
	chatIdToJid,
	contactJid,
	createJid,
	digitsOf,
	isGroupId,
	personJid,
	personOf,
} from '../ids.cts';
import { evolutionSendResult, evolutionUpsertData, fileUrlOrNull } from '../render.cts';
import { findMessage, isRegistered, type Instance, type MessageContent } from '../state.cts';
import { assertEvolutionBody, isObject, type JsonObject, type Schema } from '../validation.cts';
import { instanceGuard, requireConnected } from './guards.cts';
import {
	applySendDelay,
	numberSchema,
	resolveRecipient,
	sendOptionsSchema,
} from './instance-common.cts';

const textMessageSchema: Schema = {
	type: 'object',
	properties: {
		number: numberSchema,
		options: sendOptionsSchema,
		textMessage: {
			type: 'object',
			properties: {
				text: { type: 'string', minLength: 1, description: 'The "text" cannot be empty' },
			},
			required: ['text'],
		},
	},
	required: ['textMessage', 'number'],
};

const locationMessageSchema: Schema = {
	type: 'object',
	properties: {
		number: numberSchema,
		options: sendOptionsSchema,
		locationMessage: {
			type: 'object',
			properties: {
				name: { type: 'string' },
				address: { type: 'string' },
				latitude: { type: 'number' },
				longitude: { type: 'number' },
			},
			required: ['latitude', 'longitude'],
		},
	},
	required: ['locationMessage', 'number'],
};

/** The schema's enum; DELETED records exist but cannot be asked for, as in Evolution. */
const STATUS_NAMES = ['ERROR', 'PENDING', 'SERVER_ACK', 'DELIVERY_ACK', 'READ', 'PLAYED'];

const findStatusSchema: Schema = {
	type: 'object',
	properties: {
		where: {
			type: 'object',
			properties: {
				_id: { type: 'string' },
				id: { type: 'string' },
				remoteJid: { type: 'string' },
				fromMe: { type: 'boolean' },
				participant: { type: 'string' },
				status: { type: 'string', enum: STATUS_NAMES },
			},
		},
		limit: { type: 'integer' },
	},
};

const mediaMessageSchema: Schema = {
	type: 'object',
	properties: { message: { type: 'object' }, convertToMp4: { type: 'boolean' } },
	required: ['message'],
};

const numberOnlySchema = (required: boolean): Schema => ({
	type: 'object',
	properties: { number: numberSchema },
	required: required ? ['number'] : [],
});

/** The shared path of every /message/send*: validate, check connection and recipient, wait, store, announce. */
export async function sendMessage(
	context: RequestContext,
	schema: Schema,
	buildContent: (body: JsonObject, instance: Instance) => MessageContent,
) {
	const instance = instanceGuard(context);
	const body = assertEvolutionBody(context.body, schema);
	requireConnected(instance);
	const chatId = resolveRecipient(instance, String(body.number));
	const options = isObject(body.options) ? body.options : {};
	const quotedKey =
		isObject(options.quoted) && isObject(options.quoted.key) ? options.quoted.key : undefined;
	const quoted =
		typeof quotedKey?.id === 'string' ? findMessage(instance, quotedKey.id) : undefined;
	const mentions = isObject(options.mentions)
		? mentionedNumbers(instance, chatId, options.mentions)
		: undefined;
	await applySendDelay(context, options.delay);
	const message = storeOutgoingMessage(instance, chatId, buildContent(body, instance), {
		quotedId: quoted?.shortId,
		mentions,
	});
	emitMessage(context.events, context.core.baseUrl, instance, message);
	return { status: 201, body: evolutionSendResult(instance, message, context.core.baseUrl) };
}

/** `everyOne` mentions every member of a group; `mentioned` lists numbers. */
function mentionedNumbers(instance: Instance, chatId: string, mentions: JsonObject): string[] {
	if (mentions.everyOne === true && isGroupId(chatId)) {
		return (instance.groups.get(chatId)?.participants ?? []).map(
			(participant) => participant.number,
		);
	}
	return Array.isArray(mentions.mentioned)
		? mentions.mentioned.map((number) => digitsOf(String(number)))
		: [];
}

function sendText(context: RequestContext) {
	return sendMessage(context, textMessageSchema, (body) => ({
		type: 'text',
		text: String((body.textMessage as JsonObject).text),
	}));
}

function sendLocation(context: RequestContext) {
	return sendMessage(context, locationMessageSchema, (body) => {
		const location = body.locationMessage as JsonObject;
		return {
			type: 'location',
			latitude: Number(location.latitude),
			longitude: Number(location.longitude),
			name: typeof location.name === 'string' ? location.name : undefined,
			address: typeof location.address === 'string' ? location.address : undefined,
		};
	});
}

function findStatusMessage(context: RequestContext) {
	const instance = instanceGuard(context);
	const body = assertEvolutionBody(context.body, findStatusSchema);
	const where = isObject(body.where) ? body.where : {};
	const remoteJid = typeof where.remoteJid === 'string' ? createJid(where.remoteJid) : undefined;
	const records = [...instance.messages.values()].flatMap((message) =>
		message.statusLog.map((record) => ({
			_id: record._id,
			remoteJid: chatIdToJid(message.chatId),
			id: message.shortId,
			fromMe: message.fromMe,
			participant: isGroupId(message.chatId) && message.author ? personJid(message.author) : null,
			status: record.status,
			datetime: record.datetime,
			owner: instance.name,
		})),
	);
	const matching = records
		.filter((record) => where._id === undefined || record._id === where._id)
		.filter((record) => where.id === undefined || record.id === where.id)
		.filter((record) => remoteJid === undefined || record.remoteJid === remoteJid)
		.filter((record) => where.fromMe === undefined || record.fromMe === where.fromMe)
		.filter((record) => where.participant === undefined || record.participant === where.participant)
		.filter((record) => where.status === undefined || record.status === where.status)
		.sort((a, b) => b.datetime - a.datetime);
	const limit = typeof body.limit === 'number' && body.limit > 0 ? body.limit : matching.length;
	return { status: 200, body: matching.slice(0, limit) };
}

const findMessagesSchema: Schema = {
	type: 'object',
	properties: {
		where: {
			type: 'object',
			properties: {
				_id: { type: 'string' },
				key: {
					type: 'object',
					properties: {
						remoteJid: { type: 'string' },
						id: { type: 'string' },
						fromMe: { type: 'boolean' },
					},
				},
			},
		},
		limit: { type: 'integer' },
	},
};

/**
 * Evolution v1's findMessages (its instance API, beyond the spec): the stored messages as
 * `messages.upsert` data, filtered by `where.key.{remoteJid (number or JID), id, fromMe}`, newest
 * first (within one second, the later stored first), at most `limit`.
 */
function findMessages(context: RequestContext) {
	const instance = instanceGuard(context);
	const body = assertEvolutionBody(context.body, findMessagesSchema);
	const where = isObject(body.where) ? body.where : {};
	const key = isObject(where.key) ? where.key : {};
	const remoteJid = typeof key.remoteJid === 'string' ? createJid(key.remoteJid) : undefined;
	const matching = [...instance.messages.values()]
		.reverse()
		.filter((message) => !message.revoked)
		.filter((message) => remoteJid === undefined || chatIdToJid(message.chatId) === remoteJid)
		.filter((message) => key.id === undefined || message.shortId === key.id)
		.filter((message) => key.fromMe === undefined || message.fromMe === key.fromMe)
		.sort((a, b) => b.timestamp - a.timestamp);
	const limit = typeof body.limit === 'number' && body.limit > 0 ? body.limit : matching.length;
	return {
		status: 200,
		body: matching
			.slice(0, limit)
			.map((message) => evolutionUpsertData(instance, message, context.core.baseUrl)),
	};
}

/** The media message `{key: {id}}` names and its file, or the 400 getBase64FromMediaMessage answers. */
export function storedMedia(instance: Instance, named: unknown) {
	const key = isObject(named) && isObject(named.key) ? named.key : undefined;
	const message = typeof key?.id === 'string' ? findMessage(instance, key.id) : undefined;
	if (!message) throw evolutionError.badRequest('Message not found');
	const content = message.content;
	if (content.type !== 'media')
		throw evolutionError.badRequest('The message is not of the media type');
	const file = instance.files.get(content.file);
	if (!file) throw evolutionError.badRequest('Message not found');
	return { message, content, file };
}

function getBase64FromMediaMessage(context: RequestContext) {
	const instance = instanceGuard(context);
	const body = assertEvolutionBody(context.body, mediaMessageSchema);
	requireConnected(instance);
	const { content, file } = storedMedia(instance, body.message);
	const convertAudio = body.convertToMp4 === true && content.mediaType === 'audioMessage';
	const size: Record<string, unknown> = { fileLength: String(file.data.length) };
	if (file.width !== undefined) Object.assign(size, { height: file.height, width: file.width });
	return {
		status: 201,
		body: {
			mediaType: content.mediaType,
			fileName: content.mediaType === 'documentMessage' ? content.fileName : null,
			caption: content.caption,
			size,
			mimetype: convertAudio ? 'audio/mp4' : content.mimetype,
			base64: file.data.toString('base64'),
		},
	};
}

export function pictureFileOf(instance: Instance, jid: string): string | null | undefined {
	if (isGroupId(jid)) return instance.groups.get(jid)?.pictureFile;
	const number = personOf(jid);
	if (number === instance.ownerNumber) return instance.profilePictureFile;
	return instance.contacts.get(number)?.pictureFile;
}

function fetchProfilePictureUrl(context: RequestContext) {
	const instance = instanceGuard(context);
	const body = assertEvolutionBody(context.body, numberOnlySchema(true));
	requireConnected(instance);
	const jid = createJid(String(body.number));
	// Unknown or private pictures come back as null, never as an error.
	return {
		status: 200,
		body: {
			wuid: jid,
			profilePictureUrl: fileUrlOrNull(
				context.core.baseUrl,
				instance,
				pictureFileOf(instance, jid),
			),
		},
	};
}

function fetchBusinessProfile(context: RequestContext) {
	const instance = instanceGuard(context);
	const body = assertEvolutionBody(context.body, numberOnlySchema(false));
	requireConnected(instance);
	const jid =
		typeof body.number === 'string' ? createJid(body.number) : contactJid(instance.ownerNumber);
	const number = personOf(jid);
	const contact = instance.contacts.get(number);
	if (contact?.business)
		return { status: 200, body: { isBusiness: true, wid: jid, ...contact.business } };
	const result: Record<string, unknown> = {
		isBusiness: false,
		message: 'Not is business profile',
		exists: isRegistered(instance, number),
		jid,
		number,
	};
	if (contact?.name) result.name = contact.name;
	return { status: 200, body: result };
}

export const instanceMessagingRoutes: Route[] = [
	{ method: 'POST', pattern: '/message/sendText/:instance', family: 'instance', handler: sendText },
	{
		method: 'POST',
		pattern: '/message/sendLocation/:instance',
		family: 'instance',
		handler: sendLocation,
	},
	{
		method: 'POST',
		pattern: '/chat/findMessages/:instance',
		family: 'instance',
		handler: findMessages,
	},
	{
		method: 'POST',
		pattern: '/chat/findStatusMessage/:instance',
		family: 'instance',
		handler: findStatusMessage,
	},
	{
		method: 'POST',
		pattern: '/chat/getBase64FromMediaMessage/:instance',
		family: 'instance',
		handler: getBase64FromMediaMessage,
	},
	{
		method: 'POST',
		pattern: '/chat/fetchProfilePictureUrl/:instance',
		family: 'instance',
		handler: fetchProfilePictureUrl,
	},
	{
		method: 'POST',
		pattern: '/chat/fetchBusinessProfile/:instance',
		family: 'instance',
		handler: fetchBusinessProfile,
	},
];
