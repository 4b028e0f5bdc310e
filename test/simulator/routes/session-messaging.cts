// Session family (WAHA-style, /api/...): reading messages, chats and contacts; buttons, link previews, polls, reactions.
import { wahaEngineOf, type RequestContext, type Route } from '../core.cts';
import { nestError } from '../errors.cts';
import { emitMessage, storeOutgoingMessage } from '../events.cts';
import {
	contactJid,
	digitsOf,
	fullMessageId,
	isGroupId,
	isLid,
	normaliseChatId,
	withoutDevice,
	numberOfContactId,
} from '../ids.cts';
import { fileUrlOrNull, wahaMessage } from '../render.cts';
import {
	chatDisplayName,
	findMessage,
	messagesOfChat,
	ownerChatId,
	type ChatButton,
	type Instance,
	type MessageContent,
} from '../state.cts';
import { FieldChecks, bodyObject, isObject, type JsonObject } from '../validation.cts';
import { sessionKeyGuard, workingSession } from './guards.cts';
import {
	detectShape,
	fileInputUrl,
	readFileInput,
	resolveChat,
	sessionName,
	type BodyShape,
} from './session-common.cts';

const BUTTON_TYPES = ['reply', 'call', 'copy', 'url'] as const;
const BUTTON_EXTRA_FIELD: Record<string, keyof ChatButton | undefined> = {
	reply: undefined,
	call: 'phoneNumber',
	copy: 'copyCode',
	url: 'url',
};
const MAX_POLL_OPTIONS = 12;

function queryValue(context: RequestContext, name: string): string | undefined {
	const value = context.query[name];
	return Array.isArray(value) ? value[0] : value;
}

function queryInteger(
	checks: FieldChecks,
	value: string | undefined,
	name: string,
	fallback: number,
	min: number,
): number {
	if (value === undefined || value === '') return fallback;
	const number = Number(value);
	if (!Number.isInteger(number)) {
		checks.add(`${name} must be an integer number`);
		return fallback;
	}
	if (number < min) checks.add(`${name} must not be less than ${min}`);
	return number;
}

function getMessage(context: RequestContext) {
	sessionKeyGuard(context);
	const instance = workingSession(context, context.params.session);
	const checks = new FieldChecks({});
	const chatId = normaliseChatId(context.params.chatId);
	if (!chatId)
		checks.add('chatId must be a chat ID such as 5511999999999@c.us or 120363000000000000@g.us');
	const download = queryValue(context, 'downloadMedia');
	if (download !== undefined && !['true', 'false', '1', '0'].includes(download)) {
		checks.add('downloadMedia must be a boolean value');
	}
	checks.done();
	const message = findMessage(instance, context.params.messageId, chatId);
	if (!message) throw nestError.notFound('Message not found');
	const downloadMedia = download === undefined || download === 'true' || download === '1';
	const engine = wahaEngineOf(context.core);
	return {
		status: 200,
		body: wahaMessage(instance, message, context.core.baseUrl, downloadMedia, engine),
	};
}

function chatPicture(context: RequestContext, instance: Instance, chatId: string): string | null {
	const number = numberOfContactId(chatId);
	const file = isGroupId(chatId)
		? instance.groups.get(chatId)?.pictureFile
		: number && instance.contacts.get(number)?.pictureFile;
	return fileUrlOrNull(context.core.baseUrl, instance, file || null);
}

function chatsOverview(context: RequestContext) {
	sessionKeyGuard(context);
	const instance = workingSession(context, context.params.session);
	const checks = new FieldChecks({});
	const limit = queryInteger(checks, queryValue(context, 'limit'), 'limit', 20, 1);
	const offset = queryInteger(checks, queryValue(context, 'offset'), 'offset', 0, 0);
	checks.done();
	const rawIds = [context.query.ids, context.query['ids[]']]
		.flat()
		.filter((id): id is string => typeof id === 'string');
	const wanted = rawIds.flatMap((id) => id.split(',')).map((id) => normaliseChatId(id) ?? id);
	const items = [...instance.chats.values()]
		.filter((chat) => wanted.length === 0 || wanted.includes(chat.id))
		.map((chat) => ({ chat, last: messagesOfChat(instance, chat.id).at(-1) }))
		.sort((a, b) => (b.last?.timestamp ?? 0) - (a.last?.timestamp ?? 0))
		.slice(offset, offset + limit)
		.map(({ chat, last }) => ({
			id: chat.id,
			name: chatDisplayName(instance, chat.id),
			picture: chatPicture(context, instance, chat.id),
			lastMessage: last ? wahaMessage(instance, last, context.core.baseUrl, false) : null,
			_chat: {
				id: chat.id,
				name: chatDisplayName(instance, chat.id),
				conversationTimestamp: last?.timestamp ?? null,
				unreadCount: chat.unreadCount,
				archived: chat.archived,
				pinned: chat.pinned,
				isGroup: isGroupId(chat.id),
			},
		}));
	return { status: 200, body: items };
}

function listContacts(context: RequestContext) {
	sessionKeyGuard(context);
	const checks = new FieldChecks({});
	const session = queryValue(context, 'sessionId') ?? queryValue(context, 'session');
	if (!session) checks.add('sessionId should not be empty');
	const limit = queryInteger(checks, queryValue(context, 'limit'), 'limit', 100, 1);
	const offset = queryInteger(checks, queryValue(context, 'offset'), 'offset', 0, 0);
	checks.done();
	const instance = workingSession(context, session ?? '');
	// `jid` per the spec's text; `contactId` per its schema.
	const filter = queryValue(context, 'jid') ?? queryValue(context, 'contactId');
	// A LID names someone the address book does not hold: the gateway answers what it knows of them.
	const lid = filter === undefined ? undefined : withoutDevice(filter.trim());
	if (lid !== undefined && isLid(lid)) {
		const person = instance.lidPeople.get(lid);
		const contacts = person
			? [{ jid: lid, name: '', notify: person.pushName, verifiedName: '', businessName: '' }]
			: [];
		return { status: 200, body: { contacts: contacts.slice(offset, offset + limit) } };
	}
	const filterNumber =
		filter === undefined ? undefined : (numberOfContactId(filter) ?? digitsOf(filter));
	const contacts = [...instance.contacts.values()]
		.filter((contact) => filterNumber === undefined || contact.number === filterNumber)
		.sort((a, b) => a.number.localeCompare(b.number))
		.slice(offset, offset + limit)
		.map((contact) => ({
			jid: contactJid(contact.number),
			name: contact.name,
			notify: contact.pushName,
			verifiedName: contact.verifiedName || contact.name,
			businessName: contact.businessName,
		}));
	return { status: 200, body: { contacts } };
}

interface SendRequest {
	body: JsonObject;
	shape: BodyShape;
	checks: FieldChecks;
	session?: string;
	chat?: string;
}

/** Starts validating a send body in either shape (the session and chat fields). */
function beginSend(context: RequestContext): SendRequest {
	sessionKeyGuard(context);
	const body = bodyObject(context.body);
	const shape = detectShape(body);
	const checks = new FieldChecks(body);
	const session = sessionName(context, body, shape, checks);
	const chat = checks.string(shape.chatField, { notEmpty: true });
	return { body, shape, checks, session, chat };
}

/** Finishes validation, resolves session and chat, stores and announces the message. */
function completeSend(
	context: RequestContext,
	request: SendRequest,
	build: (instance: Instance) => MessageContent,
) {
	request.checks.done();
	const instance = workingSession(context, request.session ?? '');
	const chatId = resolveChat(instance, request.chat ?? '', request.shape.chatField);
	const replyTo =
		typeof request.body.reply_to === 'string'
			? findMessage(instance, request.body.reply_to)
			: undefined;
	const message = storeOutgoingMessage(instance, chatId, build(instance), {
		quotedId: replyTo?.shortId,
	});
	emitMessage(context.events, context.core.baseUrl, instance, message);
	return {
		status: 201,
		body: { success: true, messageId: fullMessageId(true, chatId, message.shortId) },
	};
}

function readButtons(checks: FieldChecks, value: unknown): ChatButton[] {
	if (!Array.isArray(value)) {
		checks.add(value === undefined ? 'buttons should not be empty' : 'buttons must be an array');
		return [];
	}
	if (value.length === 0) checks.add('buttons must contain at least 1 elements');
	return value.map((item, index) => {
		const field = `buttons.${index}`;
		if (!isObject(item)) {
			checks.add(`nested property ${field} must be either object or array`);
			return { type: 'reply', text: '' };
		}
		const type = (item.type ?? 'reply') as ChatButton['type'];
		if (!BUTTON_TYPES.includes(type))
			checks.add(`${field}.type must be one of the following values: ${BUTTON_TYPES.join(', ')}`);
		if (typeof item.text !== 'string' || item.text === '')
			checks.add(`${field}.text should not be empty`);
		const button: ChatButton = { type, text: String(item.text ?? '') };
		if (typeof item.id === 'string') button.id = item.id;
		const extra = BUTTON_EXTRA_FIELD[type];
		if (extra) {
			if (typeof item[extra] !== 'string' || item[extra] === '')
				checks.add(`${field}.${extra} should not be empty`);
			else (button as unknown as Record<string, string>)[extra] = item[extra] as string;
		}
		return button;
	});
}

function sendButtons(context: RequestContext) {
	const request = beginSend(context);
	const { checks, body } = request;
	const header = checks.string('header');
	const text = checks.string('body');
	const footer = checks.string('footer');
	const buttons = readButtons(checks, body.buttons);
	const headerImage = readFileInput(checks, 'headerImage', body.headerImage, {
		allowBase64String: false,
	});
	return completeSend(context, request, (instance) => ({
		type: 'buttons',
		header: header ?? '',
		body: text ?? '',
		footer: footer ?? '',
		buttons,
		headerImageUrl: headerImage
			? fileInputUrl(context.core.baseUrl, instance, headerImage, `header-${Date.now()}`)
			: undefined,
	}));
}

function sendLinkPreview(context: RequestContext) {
	const request = beginSend(context);
	const { checks, body, shape } = request;
	const formB = shape.chatField === 'jid';
	const text = checks.string('text', { notEmpty: true });
	const preview = checks.object('preview');
	const url = preview ? checks.string('preview.url', { notEmpty: true }) : undefined;
	const title = preview ? checks.string('preview.title', { optional: !formB }) : undefined;
	const description = preview
		? checks.string('preview.description', { optional: !formB })
		: undefined;
	const image = preview
		? readFileInput(checks, 'preview.image', preview.image, {
				allowBase64String: true,
				mimetypeOptional: true,
			})
		: undefined;
	if (formB && preview && preview.image !== undefined && typeof preview.image !== 'string') {
		checks.add('preview.image must be a base64 encoded string');
	}
	checks.boolean('linkPreviewHighQuality', { optional: true });
	checks.string('reply_to', { optional: true });
	if (text && url && !text.includes(url))
		checks.add('text must include the URL given in preview.url');
	return completeSend(context, request, (instance) => ({
		type: 'linkPreview',
		text: text ?? '',
		preview: {
			url: url ?? '',
			title: title ?? '',
			description: description ?? '',
			imageUrl: image
				? fileInputUrl(context.core.baseUrl, instance, image, `preview-${Date.now()}`)
				: undefined,
		},
		highQuality: body.linkPreviewHighQuality !== false,
	}));
}

function sendPoll(context: RequestContext) {
	const request = beginSend(context);
	const { checks } = request;
	const poll = checks.object('poll');
	const name = poll ? checks.string('poll.name', { notEmpty: true }) : undefined;
	const options = poll ? checks.stringArray('poll.options', { minItems: 2 }) : undefined;
	if (options && options.length > MAX_POLL_OPTIONS) {
		checks.add(`poll.options must contain no more than ${MAX_POLL_OPTIONS} elements`);
	}
	const multipleAnswers = poll
		? checks.boolean('poll.multipleAnswers', { optional: true })
		: undefined;
	checks.string('reply_to', { optional: true });
	return completeSend(context, request, () => ({
		type: 'poll',
		name: name ?? '',
		options: options ?? [],
		multipleAnswers: multipleAnswers ?? false,
	}));
}

function setReaction(context: RequestContext) {
	sessionKeyGuard(context);
	const body = bodyObject(context.body);
	const shape = detectShape(body);
	const checks = new FieldChecks(body);
	const session = sessionName(context, body, shape, checks);
	const formB = shape.chatField === 'jid';
	const jid = formB ? checks.string('jid', { notEmpty: true }) : undefined;
	const messageId = checks.string('messageId', { notEmpty: true });
	const sender = formB ? checks.string('sender', { notEmpty: true }) : undefined;
	if (sender && !normaliseChatId(sender))
		checks.add('sender must be a JID such as 5511999999999@s.messenger.net');
	// An empty string is valid: it removes the reaction.
	const reaction = checks.string('reaction');
	checks.done();
	const instance = workingSession(context, session ?? '');
	const chatId = jid === undefined ? undefined : resolveChat(instance, jid, 'jid');
	const message = findMessage(instance, messageId ?? '', chatId);
	if (!message) throw nestError.notFound('Message not found');
	const reactor = ownerChatId(instance);
	if (reaction) message.reactions[reactor] = reaction;
	else delete message.reactions[reactor];
	return { status: 200, body: { success: true } };
}

export const sessionMessagingRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/api/:session/chats/overview',
		family: 'session',
		handler: chatsOverview,
	},
	{
		method: 'GET',
		pattern: '/api/:session/chats/:chatId/messages/:messageId',
		family: 'session',
		handler: getMessage,
	},
	{ method: 'GET', pattern: '/api/contacts', family: 'session', handler: listContacts },
	{ method: 'POST', pattern: '/api/sendButtons', family: 'session', handler: sendButtons },
	{
		method: 'POST',
		pattern: '/api/send/link-custom-preview',
		family: 'session',
		handler: sendLinkPreview,
	},
	{ method: 'POST', pattern: '/api/sendPoll', family: 'session', handler: sendPoll },
	{ method: 'PUT', pattern: '/api/reaction', family: 'session', handler: setReaction },
];
