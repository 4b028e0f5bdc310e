// Instance family (Evolution v1): the sends and message actions beyond the spec — media, voice notes,
// stickers, contact cards, lists, read receipts, delete for everyone and edits (issue 12); statuses
// (stories) are in status.cts, which takes mediaContent from here.
import type { RequestContext, Route } from '../core.cts';
import { evolutionError } from '../errors.cts';
import { emitDeletion } from '../events.cts';
import {
	chatIdToJid,
	createJid,
	isGroupId,
	isLid,
	newShortMessageId,
	withoutDevice,
} from '../ids.cts';
import { extensionFor, fileFromBuffer, samplePhoto, type MediaType } from '../media.cts';
import {
	ensureChat,
	findMessage,
	recordStatus,
	type Instance,
	type ListSection,
	type MessageContent,
	type StoredMessage,
} from '../state.cts';
import { assertEvolutionBody, isObject, type JsonObject, type Schema } from '../validation.cts';
import { instanceGuard, requireConnected } from './guards.cts';
import { numberSchema, sendOptionsSchema } from './instance-common.cts';
import { sendMessage } from './instance-messaging.cts';

/** Evolution's isNotEmpty(): a present string must not be empty, in its own words. */
const notEmpty = (name: string, extra: Schema = {}): Schema => ({
	type: 'string',
	minLength: 1,
	description: `The "${name}" cannot be empty`,
	...extra,
});

/** `{number, options, <field>: content}` as every /message/send* body. */
const sendSchema = (field: string, content: Schema): Schema => ({
	type: 'object',
	properties: { number: numberSchema, options: sendOptionsSchema, [field]: content },
	required: [field, 'number'],
});

const mediaMessageSchema = sendSchema('mediaMessage', {
	type: 'object',
	properties: {
		mediatype: { type: 'string', enum: ['image', 'document', 'video', 'audio'] },
		media: notEmpty('media'),
		fileName: notEmpty('fileName'),
		caption: notEmpty('caption'),
	},
	required: ['mediatype', 'media'],
});

const audioMessageSchema = sendSchema('audioMessage', {
	type: 'object',
	properties: { audio: notEmpty('audio') },
	required: ['audio'],
});

const stickerMessageSchema = sendSchema('stickerMessage', {
	type: 'object',
	properties: { image: notEmpty('image') },
	required: ['image'],
});

const contactMessageSchema = sendSchema('contactMessage', {
	type: 'array',
	minItems: 1,
	uniqueItems: true,
	items: {
		type: 'object',
		properties: {
			fullName: notEmpty('fullName'),
			wuid: {
				type: 'string',
				minLength: 10,
				pattern: '\\d+',
				description: '"wuid" must be a numeric string',
			},
			phoneNumber: { type: 'string', minLength: 10 },
			organization: { type: 'string' },
			email: { type: 'string' },
			url: { type: 'string' },
		},
		required: ['fullName', 'phoneNumber'],
	},
});

const listMessageSchema = sendSchema('listMessage', {
	type: 'object',
	properties: {
		title: notEmpty('title'),
		description: notEmpty('description'),
		footerText: notEmpty('footerText'),
		buttonText: notEmpty('buttonText'),
		sections: {
			type: 'array',
			minItems: 1,
			uniqueItems: true,
			items: {
				type: 'object',
				properties: {
					title: notEmpty('title'),
					rows: {
						type: 'array',
						minItems: 1,
						uniqueItems: true,
						items: {
							type: 'object',
							properties: {
								title: notEmpty('title'),
								description: notEmpty('description'),
								rowId: notEmpty('rowId'),
							},
							required: ['title', 'rowId'],
						},
					},
				},
				required: ['title', 'rows'],
			},
		},
	},
	required: ['title', 'description', 'buttonText', 'sections'],
});

const keySchema: Schema = {
	type: 'object',
	properties: {
		id: notEmpty('id'),
		fromMe: { type: 'boolean' },
		remoteJid: notEmpty('remoteJid'),
	},
	required: ['id', 'fromMe', 'remoteJid'],
};

const readMessageSchema: Schema = {
	type: 'object',
	properties: {
		read_messages: { type: 'array', minItems: 1, uniqueItems: true, items: keySchema },
	},
	required: ['read_messages'],
};

const deleteMessageSchema: Schema = {
	...keySchema,
	properties: { ...keySchema.properties, participant: notEmpty('participant') },
};

const updateMessageSchema: Schema = {
	type: 'object',
	properties: { number: notEmpty('number'), text: notEmpty('text'), key: keySchema },
};

/** The MIME types Evolution's getMIMEType() tells from a file name. */
export function mimeTypeOfName(fileName: string): string | undefined {
	const extension = fileName.split('.').pop()?.toLowerCase();
	const known: Record<string, string> = {
		png: 'image/png',
		jpg: 'image/jpeg',
		jpeg: 'image/jpeg',
		webp: 'image/webp',
		gif: 'image/gif',
		mp4: 'video/mp4',
		mp3: 'audio/mpeg',
		ogg: 'audio/ogg',
		m4a: 'audio/mp4',
		pdf: 'application/pdf',
		txt: 'text/plain',
	};
	return extension ? known[extension] : undefined;
}

export const isUrl = (value: string) => /^https?:\/\/\S+$/.test(value);

/**
 * Stores the bytes of a sent file and returns its key. Base64 is decoded; a URL cannot be fetched
 * (the simulator has no internet), so a sample file of the same kind stands in for it.
 */
function storeSentFile(instance: Instance, media: string, mimetype: string): string {
	const data = isUrl(media)
		? mimetype.startsWith('image/')
			? samplePhoto().data
			: Buffer.from(`Downloaded from ${media}\n`)
		: Buffer.from(media, 'base64');
	const key = `sent-${newShortMessageId().toLowerCase()}.${extensionFor(mimetype)}`;
	instance.files.set(key, fileFromBuffer(mimetype, data));
	return key;
}

export function mediaContent(
	instance: Instance,
	mediaType: MediaType,
	media: string,
	details: { mimetype: string; fileName: string; caption?: string; ptt?: boolean },
): MessageContent {
	return {
		type: 'media',
		mediaType,
		file: storeSentFile(instance, media, details.mimetype),
		fileName: details.fileName,
		mimetype: details.mimetype,
		caption: details.caption ?? '',
		...(details.ptt ? { ptt: true } : {}),
	};
}

/** prepareMediaMessage: default file names, and the MIME type from the name when none is given. */
function sendMedia(context: RequestContext) {
	return sendMessage(context, mediaMessageSchema, (body, instance) => {
		const message = body.mediaMessage as JsonObject;
		const mediatype = String(message.mediatype);
		const media = String(message.media);
		let fileName = typeof message.fileName === 'string' ? message.fileName : undefined;
		if (mediatype === 'document' && !fileName) {
			// Evolution names the document after the URL; base64 has no match and the send fails.
			const match = /.*\/(.+?)\./.exec(media);
			if (!match)
				throw evolutionError.of(500, ["TypeError: Cannot read properties of null (reading '1')"]);
			fileName = match[1];
		}
		fileName ??= mediatype === 'image' ? 'image.png' : mediatype === 'video' ? 'video.mp4' : '';
		const mimetype =
			(typeof message.mimetype === 'string' && message.mimetype) ||
			mimeTypeOfName(fileName) ||
			'application/octet-stream';
		return mediaContent(instance, `${mediatype}Message` as MediaType, media, {
			mimetype,
			fileName,
			caption: typeof message.caption === 'string' ? message.caption : undefined,
		});
	});
}

/** audioWhatsapp: a voice note, converted to MP4 audio unless options.encoding is false. */
function sendWhatsAppAudio(context: RequestContext) {
	const body = isObject(context.body) ? context.body : {};
	if (!isObject(body.options)) {
		// `data.options.encoding = true` on a body without options: an unhandled TypeError.
		assertEvolutionBody(context.body, audioMessageSchema);
		throw evolutionError.of(500, "Cannot set properties of undefined (setting 'encoding')");
	}
	return sendMessage(context, audioMessageSchema, (valid, instance) => {
		const options = valid.options as JsonObject;
		const encoding = options.encoding !== false;
		return mediaContent(
			instance,
			'audioMessage',
			String((valid.audioMessage as JsonObject).audio),
			{
				mimetype: encoding ? 'audio/mp4' : 'audio/ogg; codecs=opus',
				fileName: '',
				ptt: true,
			},
		);
	});
}

function sendSticker(context: RequestContext) {
	return sendMessage(context, stickerMessageSchema, (body, instance) =>
		mediaContent(instance, 'stickerMessage', String((body.stickerMessage as JsonObject).image), {
			mimetype: 'image/webp',
			fileName: '',
		}),
	);
}

/** contactMessage: Evolution's vCard (the same in 1.8.2 and 2.3.6), one card or a contactsArrayMessage. */
export function contactContent(contacts: JsonObject[]): MessageContent {
	const cards = contacts.map((contact) => {
		const fullName = String(contact.fullName);
		const lines = ['BEGIN:VCARD', 'VERSION:3.0', `N:${fullName}`, `FN:${fullName}`];
		if (contact.organization) lines.push(`ORG:${String(contact.organization)};`);
		if (contact.email) lines.push(`EMAIL:${String(contact.email)}`);
		if (contact.url) lines.push(`URL:${String(contact.url)}`);
		const wuid = contact.wuid ? String(contact.wuid) : createJid(String(contact.phoneNumber));
		lines.push(`item1.TEL;waid=${wuid}:${String(contact.phoneNumber)}`, 'item1.X-ABLabel:Celular');
		lines.push('END:VCARD');
		return { displayName: fullName, vcard: lines.join('\n') };
	});
	return cards.length === 1
		? { type: 'vcard', ...cards[0] }
		: { type: 'vcard', displayName: `${cards.length} contacts`, vcard: cards[0].vcard, cards };
}

function sendContact(context: RequestContext) {
	return sendMessage(context, contactMessageSchema, (body) =>
		contactContent(body.contactMessage as JsonObject[]),
	);
}

function sendList(context: RequestContext) {
	return sendMessage(context, listMessageSchema, (body) => {
		const list = body.listMessage as JsonObject;
		return {
			type: 'list',
			title: String(list.title),
			description: String(list.description),
			buttonText: String(list.buttonText),
			footerText: typeof list.footerText === 'string' ? list.footerText : undefined,
			sections: list.sections as ListSection[],
		};
	});
}

/** readMessages: keys of users, groups and (the spec reads them too) LIDs; the chats' unread counts drop to zero. */
function markMessageAsRead(context: RequestContext) {
	const instance = instanceGuard(context);
	const body = assertEvolutionBody(context.body, readMessageSchema);
	requireConnected(instance);
	readMessages(instance, body.read_messages as JsonObject[], { lids: true });
	return { status: 201, body: { message: 'Read messages', read: 'success' } };
}

/**
 * Baileys readMessages (called the same way by 1.8.2 and 2.3.x): users' and groups' keys only;
 * LID keys are dropped silently unless `lids` (Evolution 2.4.0 reads every key but broadcasts and
 * channels).
 */
export function readMessages(
	instance: Instance,
	keys: JsonObject[],
	accepts: { lids: boolean } = { lids: false },
): void {
	for (const key of keys) {
		const jid = withoutDevice(String(key.remoteJid));
		const lid = isLid(jid);
		if (lid && !accepts.lids) continue;
		if (!lid && !jid.endsWith('@g.us') && !jid.endsWith('@s.whatsapp.net')) continue;
		const message = findMessage(instance, String(key.id));
		if (message && !message.fromMe && chatIdToJid(message.chatId) === jid)
			ensureChat(instance, message.chatId).unreadCount = 0;
	}
}

/** What Baileys answers for a protocol message (revoke, edit) it sent: a WebMessageInfo. */
export function protocolMessageResult(remoteJid: string, protocolMessage: JsonObject) {
	return {
		key: { remoteJid, fromMe: true, id: newShortMessageId() },
		message: { protocolMessage },
		messageTimestamp: String(Math.floor(Date.now() / 1000)),
		status: 'PENDING',
	};
}

/**
 * sendMessage(remoteJid, {delete: key}). The network takes the revoke whatever it names; the
 * message disappears when it is the account's own, or a member's in a group.
 */
function deleteMessageForEveryone(context: RequestContext) {
	const instance = instanceGuard(context);
	const body = assertEvolutionBody(context.body, deleteMessageSchema);
	requireConnected(instance);
	const revoke = revokeForEveryone(instance, body, (message) =>
		emitDeletion(context.events, instance, message),
	);
	return { status: 201, body: revoke };
}

/**
 * The revoke both versions send: the message named disappears when it is the account's own or a
 * member's in a group (`announce` then tells of it); Baileys' revoke message is returned.
 */
export function revokeForEveryone(
	instance: Instance,
	body: JsonObject,
	announce: (message: StoredMessage) => void,
) {
	const remoteJid = String(body.remoteJid);
	const message = findMessage(instance, String(body.id));
	if (
		message &&
		chatIdToJid(message.chatId) === remoteJid &&
		message.fromMe === body.fromMe &&
		(message.fromMe || isGroupId(message.chatId))
	) {
		message.revoked = true;
		recordStatus(message, 'DELETED');
		announce(message);
	}
	const key: JsonObject = { remoteJid, fromMe: body.fromMe, id: body.id };
	if (body.participant) key.participant = body.participant;
	return protocolMessageResult(remoteJid, { key, type: 'REVOKE' });
}

/** sendMessage(jid, {text, edit: key}): the account's own text messages change; 200. */
function updateMessage(context: RequestContext) {
	const instance = instanceGuard(context);
	const body = assertEvolutionBody(context.body, updateMessageSchema);
	requireConnected(instance);
	if (typeof body.number !== 'string' || !isObject(body.key) || typeof body.text !== 'string') {
		// The service reads them unguarded; Baileys fails and the controller answers 400.
		throw evolutionError.badRequest(
			"TypeError: Cannot read properties of undefined (reading 'id')",
		);
	}
	const jid = createJid(body.number);
	const message = findMessage(instance, String(body.key.id));
	if (message?.fromMe && message.content.type === 'text' && chatIdToJid(message.chatId) === jid)
		message.content = { type: 'text', text: body.text };
	return {
		status: 200,
		body: protocolMessageResult(jid, {
			key: body.key,
			type: 'MESSAGE_EDIT',
			editedMessage: { conversation: body.text },
		}),
	};
}

const route = (method: string, pattern: string, handler: Route['handler']): Route => ({
	method,
	pattern,
	family: 'instance',
	handler,
});

export const instanceMessageExtraRoutes: Route[] = [
	route('POST', '/message/sendMedia/:instance', sendMedia),
	route('POST', '/message/sendWhatsAppAudio/:instance', sendWhatsAppAudio),
	route('POST', '/message/sendSticker/:instance', sendSticker),
	route('POST', '/message/sendContact/:instance', sendContact),
	route('POST', '/message/sendList/:instance', sendList),
	route('PUT', '/chat/markMessageAsRead/:instance', markMessageAsRead),
	route('DELETE', '/chat/deleteMessageForEveryone/:instance', deleteMessageForEveryone),
	route('PUT', '/chat/updateMessage/:instance', updateMessage),
];
