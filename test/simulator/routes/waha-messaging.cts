// WAHA 2026.x: sending (sendText, media, location, vCards, polls, buttons, lists, link previews, seen,
// reactions), reading, editing and deleting messages, and chats. Sends answer the sent message as
// WAMessage (sendText's declared response) and raise `message.any`. The status (story) routes are in
// status.cts, registered last here as before.
import type { RequestContext, Route } from '../core.cts';
import { nestError } from '../errors.cts';
import { storeOutgoingMessage } from '../events.cts';
import { digitsOf, isGroupId, newShortMessageId } from '../ids.cts';
import {
	chatDisplayName,
	findMessage,
	messagesOfChat,
	ownerChatId,
	recordStatus,
	type ChatButton,
	type Instance,
	type MessageContent,
	type StoredMessage,
} from '../state.cts';
import { isObject, type JsonObject } from '../validation.cts';
import { emitReaction, emitRevoked, wahaEventMessage } from '../waha-events.cts';
import { sessionMessagingRoutes } from './session-messaging.cts';
import { wahaStatusRoutes } from './waha-status.cts';
import {
	keptWahaRoute,
	mediaContent,
	storeWahaFile,
	wahaChat,
	wahaRoute,
	type WahaRequest,
} from './waha-common.cts';

const WORKING_BODY = { session: 'body', status: 'WORKING' } as const;
const WORKING_PATH = { session: 'path', status: 'WORKING' } as const;

function text(value: unknown): string {
	return typeof value === 'string' ? value : '';
}

/** Stores the message, raises its events and answers it as WAMessage (201). */
function send(
	context: RequestContext,
	request: WahaRequest,
	instance: Instance,
	build: (chatId: string) => MessageContent,
) {
	const body = request.body;
	const chatId = wahaChat(instance, body.chatId);
	const quoted =
		typeof body.reply_to === 'string' ? findMessage(instance, body.reply_to) : undefined;
	const mentions =
		isGroupId(chatId) && Array.isArray(body.mentions)
			? body.mentions.map((mention) => digitsOf(String(mention)))
			: undefined;
	const message = storeOutgoingMessage(instance, chatId, build(chatId), {
		quotedId: quoted?.shortId,
		mentions,
	});
	const baseUrl = context.core.baseUrl;
	context.core.gatewayEvents.message(context.events, baseUrl, instance, message);
	return {
		status: 201,
		body: wahaEventMessage(instance, message, baseUrl, context.core.played.wahaEngine),
	};
}

function fileOf(body: JsonObject): JsonObject {
	return isObject(body.file) ? body.file : {};
}

/** A file's name in the session's storage: unique per send. */
function baseName(kind: string): string {
	return `${kind}-${newShortMessageId()}`;
}

function vcardOf(contact: JsonObject): { displayName: string; vcard: string } {
	const fullName = text(contact.fullName);
	if (typeof contact.vcard === 'string' && contact.vcard !== '')
		return { displayName: fullName, vcard: contact.vcard };
	const phone = text(contact.phoneNumber);
	const waid = text(contact.whatsappId) || digitsOf(phone);
	const lines = [
		'BEGIN:VCARD',
		'VERSION:3.0',
		`FN:${fullName}`,
		contact.organization ? `ORG:${text(contact.organization)};` : undefined,
		`TEL;type=CELL;type=VOICE;waid=${waid}:${phone}`,
		'END:VCARD',
	];
	return { displayName: fullName, vcard: lines.filter(Boolean).join('\n') };
}

function buttonsOf(value: unknown): ChatButton[] {
	return (Array.isArray(value) ? value : []).filter(isObject).map((item) => {
		const button: ChatButton = {
			type: (item.type as ChatButton['type']) ?? 'reply',
			text: text(item.text),
		};
		if (typeof item.id === 'string') button.id = item.id;
		if (typeof item.phoneNumber === 'string') button.phoneNumber = item.phoneNumber;
		if (typeof item.copyCode === 'string') button.copyCode = item.copyCode;
		if (typeof item.url === 'string') button.url = item.url;
		return button;
	});
}

const sendRoutes: Route[] = [
	wahaRoute(
		'POST',
		'/api/sendText',
		(context, request, instance) =>
			send(context, request, instance, () => ({ type: 'text', text: text(request.body.text) })),
		WORKING_BODY,
	),
	wahaRoute(
		'POST',
		'/api/sendImage',
		(context, request, instance) =>
			send(context, request, instance, () =>
				mediaContent(instance, fileOf(request.body), baseName('image'), {
					caption: request.body.caption,
					fallbackMimetype: 'image/jpeg',
				}),
			),
		WORKING_BODY,
	),
	wahaRoute(
		'POST',
		'/api/sendFile',
		(context, request, instance) =>
			send(context, request, instance, () =>
				mediaContent(instance, fileOf(request.body), baseName('file'), {
					caption: request.body.caption,
					fallbackMimetype: 'application/octet-stream',
					document: true,
				}),
			),
		WORKING_BODY,
	),
	wahaRoute(
		'POST',
		'/api/sendVideo',
		(context, request, instance) =>
			send(context, request, instance, () =>
				mediaContent(instance, fileOf(request.body), baseName('video'), {
					caption: request.body.caption,
					fallbackMimetype: 'video/mp4',
				}),
			),
		WORKING_BODY,
	),
	wahaRoute(
		'POST',
		'/api/sendVoice',
		(context, request, instance) =>
			send(context, request, instance, () =>
				mediaContent(instance, fileOf(request.body), baseName('voice'), {
					fallbackMimetype: 'audio/ogg',
					ptt: true,
				}),
			),
		WORKING_BODY,
	),
	wahaRoute(
		'POST',
		'/api/sendLocation',
		(context, request, instance) =>
			send(context, request, instance, () => ({
				type: 'location',
				latitude: Number(request.body.latitude),
				longitude: Number(request.body.longitude),
				name: text(request.body.title) || undefined,
			})),
		WORKING_BODY,
	),
	wahaRoute(
		'POST',
		'/api/sendContactVcard',
		(context, request, instance) =>
			send(context, request, instance, () => {
				const cards = (request.body.contacts as unknown[]).filter(isObject).map(vcardOf);
				return {
					type: 'vcard',
					displayName: cards[0]?.displayName ?? '',
					vcard: cards[0]?.vcard ?? '',
					cards: cards.length > 1 ? cards : undefined,
				};
			}),
		WORKING_BODY,
	),
	wahaRoute(
		'POST',
		'/api/sendPoll',
		(context, request, instance) =>
			send(context, request, instance, () => {
				const poll = request.body.poll as JsonObject;
				return {
					type: 'poll',
					name: text(poll.name),
					options: (poll.options as unknown[]).map(String),
					multipleAnswers: poll.multipleAnswers === true,
				};
			}),
		WORKING_BODY,
	),
	wahaRoute(
		'POST',
		'/api/sendButtons',
		(context, request, instance) =>
			send(context, request, instance, () => {
				const header = request.body.headerImage;
				const image = isObject(header)
					? storeWahaFile(instance, header, baseName('header'), 'image/jpeg')
					: undefined;
				return {
					type: 'buttons',
					header: text(request.body.header),
					body: text(request.body.body),
					footer: text(request.body.footer),
					buttons: buttonsOf(request.body.buttons),
					headerImageUrl: image
						? `${context.core.baseUrl}/api/files/${encodeURIComponent(instance.name)}/${image.key}`
						: undefined,
				};
			}),
		WORKING_BODY,
	),
	wahaRoute(
		'POST',
		'/api/sendList',
		(context, request, instance) =>
			send(context, request, instance, () => {
				const list = request.body.message as JsonObject;
				const sections = (Array.isArray(list.sections) ? list.sections : [])
					.filter(isObject)
					.map((section) => ({
						title: text(section.title),
						rows: (Array.isArray(section.rows) ? section.rows : []).filter(isObject).map((row) => ({
							title: text(row.title),
							description: typeof row.description === 'string' ? row.description : undefined,
							rowId: text(row.rowId),
						})),
					}));
				return {
					type: 'list',
					title: text(list.title),
					description: text(list.description),
					buttonText: text(list.button),
					footerText: typeof list.footer === 'string' ? list.footer : undefined,
					sections,
				};
			}),
		WORKING_BODY,
	),
	wahaRoute(
		'POST',
		'/api/send/link-custom-preview',
		(context, request, instance) => {
			const preview = request.body.preview as JsonObject;
			const url = text(preview.url);
			if (!text(request.body.text).includes(url))
				throw nestError.validation(['text must include the URL given in preview.url']);
			return send(context, request, instance, () => {
				const image = isObject(preview.image)
					? storeWahaFile(instance, preview.image, baseName('preview'), 'image/jpeg')
					: undefined;
				return {
					type: 'linkPreview',
					text: text(request.body.text),
					preview: {
						url,
						title: text(preview.title),
						description: text(preview.description),
						imageUrl: image
							? `${context.core.baseUrl}/api/files/${encodeURIComponent(instance.name)}/${image.key}`
							: undefined,
					},
					highQuality: request.body.linkPreviewHighQuality === true,
				};
			});
		},
		WORKING_BODY,
	),
	wahaRoute(
		'POST',
		'/api/sendSeen',
		(_context, request, instance) => {
			const chatId = wahaChat(instance, request.body.chatId);
			const chat = instance.chats.get(chatId);
			if (chat) chat.unreadCount = 0;
			for (const message of messagesOfChat(instance, chatId)) {
				if (!message.fromMe && message.ack < 3) {
					message.ack = 3;
					recordStatus(message, 'READ');
				}
			}
			return { status: 201, body: {} };
		},
		WORKING_BODY,
	),
	wahaRoute(
		'PUT',
		'/api/reaction',
		(context, request, instance) => {
			const message = findMessage(instance, text(request.body.messageId));
			if (!message) throw nestError.notFound('Message not found');
			const reaction = text(request.body.reaction);
			const me = ownerChatId(instance);
			if (reaction) message.reactions[me] = reaction;
			else delete message.reactions[me];
			emitReaction(context.events, instance, message, reaction);
			return { status: 200, body: {} };
		},
		WORKING_BODY,
	),
];

function messageIn(instance: Instance, context: RequestContext): StoredMessage {
	const chatId = wahaChat(instance, context.params.chatId);
	const message = findMessage(instance, context.params.messageId, chatId);
	if (!message) throw nestError.notFound('Message not found');
	return message;
}

function queryNumber(request: WahaRequest, name: string, fallback: number): number {
	const value = request.query[name];
	const number = Number(Array.isArray(value) ? value[0] : value);
	return Number.isFinite(number) ? number : fallback;
}

function queryFlag(request: WahaRequest, name: string): boolean | undefined {
	const value = request.query[name];
	const first = Array.isArray(value) ? value[0] : value;
	if (first === undefined) return undefined;
	return first === 'true' || first === '1';
}

/** GET /api/{session}/chats/{chatId}/messages: newest first, `limit` (10) from `offset`. */
function listMessages(context: RequestContext, request: WahaRequest, instance: Instance) {
	const chatId = wahaChat(instance, context.params.chatId);
	const limit = queryNumber(request, 'limit', 10);
	const offset = queryNumber(request, 'offset', 0);
	const downloadMedia = queryFlag(request, 'downloadMedia') ?? true;
	const fromMe = queryFlag(request, 'filter.fromMe');
	const after = queryNumber(request, 'filter.timestamp.gte', -Infinity);
	const before = queryNumber(request, 'filter.timestamp.lte', Infinity);
	const messages = messagesOfChat(instance, chatId)
		.filter((message) => fromMe === undefined || message.fromMe === fromMe)
		.filter((message) => message.timestamp >= after && message.timestamp <= before)
		.reverse()
		.slice(offset, offset + limit);
	const baseUrl = context.core.baseUrl;
	return {
		status: 200,
		body: messages.map((message) => {
			const rendered = wahaEventMessage(instance, message, baseUrl, context.core.played.wahaEngine);
			return downloadMedia || !message.content || message.content.type !== 'media'
				? rendered
				: { ...rendered, media: null, mediaUrl: null };
		}),
	};
}

/** PUT .../messages/{messageId}: a text the account sent gets a new text; `message.edited`. */
function editMessage(context: RequestContext, request: WahaRequest, instance: Instance) {
	const message = messageIn(instance, context);
	const content = message.content;
	if (!message.fromMe || (content.type !== 'text' && content.type !== 'linkPreview'))
		throw nestError.of(400, 'Only text messages sent by this account can be edited');
	content.text = text(request.body.text);
	const baseUrl = context.core.baseUrl;
	const edited = wahaEventMessage(instance, message, baseUrl, context.core.played.wahaEngine);
	context.events.emit(instance, 'message.edited', { ...edited, editedMessageId: message.shortId });
	return { status: 200, body: edited };
}

/** DELETE .../messages/{messageId}: revoked for everyone; `message.revoked`. */
function deleteMessage(context: RequestContext, _request: WahaRequest, instance: Instance) {
	const message = messageIn(instance, context);
	const engine = context.core.played.wahaEngine;
	const before = wahaEventMessage(instance, message, context.core.baseUrl, engine);
	message.revoked = true;
	recordStatus(message, 'DELETED');
	emitRevoked(context.events, instance, message, before);
	return { status: 200, body: {} };
}

/** GET /api/{session}/chats: the chats the session knows, newest activity first. */
function listChats(_context: RequestContext, request: WahaRequest, instance: Instance) {
	const limit = queryNumber(request, 'limit', Infinity);
	const offset = queryNumber(request, 'offset', 0);
	const chats = [...instance.chats.values()]
		.map((chat) => {
			const last = messagesOfChat(instance, chat.id).at(-1);
			return {
				id: chat.id,
				name: chatDisplayName(instance, chat.id),
				conversationTimestamp: last?.timestamp ?? null,
				unreadCount: chat.unreadCount,
				archived: chat.archived,
				pinned: chat.pinned,
			};
		})
		.sort((a, b) => (b.conversationTimestamp ?? 0) - (a.conversationTimestamp ?? 0))
		.slice(offset, offset + limit);
	return { status: 200, body: chats };
}

const MESSAGE_PATH = '/api/:session/chats/:chatId/messages/:messageId';

const readRoutes: Route[] = [
	keptWahaRoute(sessionMessagingRoutes, 'GET', '/api/:session/chats/overview', WORKING_PATH),
	keptWahaRoute(sessionMessagingRoutes, 'GET', MESSAGE_PATH, {
		...WORKING_PATH,
		reshape: (body) => {
			const message = body as Record<string, unknown>;
			const media = message.media as { url?: string } | null | undefined;
			return { ...message, mediaUrl: media?.url ?? null };
		},
	}),
	wahaRoute('PUT', MESSAGE_PATH, editMessage, WORKING_PATH),
	wahaRoute('DELETE', MESSAGE_PATH, deleteMessage, WORKING_PATH),
	wahaRoute('GET', '/api/:session/chats/:chatId/messages', listMessages, WORKING_PATH),
	wahaRoute('GET', '/api/:session/chats', listChats, WORKING_PATH),
];

export const wahaMessagingRoutes: Route[] = [...sendRoutes, ...readRoutes, ...wahaStatusRoutes];
