// Evolution API 2.3.6: /chat/* — numbers, reading and editing messages, searches over its database
// (findMessages, findContacts, findChats, findStatusMessage), media and profiles. Where the answer
// comes from the WhatsApp socket, it is modelled on the Baileys service's code and named so below.
import type { RequestContext, Route } from '../core.cts';
import { evolutionError, HttpError } from '../errors.cts';
import { messageRecordId, reconnectV2, v2MessageRaw } from '../evolution-v2-events.cts';
import {
	cachedNumber,
	contactRowsV2,
	saveNumberCache,
	type ContactRow,
} from '../evolution-v2-store.cts';
import {
	chatIdToJid,
	CONTACT_JID_SUFFIX,
	createJid,
	isGroupId,
	isLid,
	personJid,
} from '../ids.cts';
import { decodeBase64Payload, extensionFor } from '../media.cts';
import { fileUrlOrNull } from '../render.cts';
import {
	chatDisplayName,
	findMessage,
	messagesOfChat,
	recordStatus,
	type Instance,
	type StoredMessage,
} from '../state.cts';
import type { EvolutionVersion } from '../types.cts';
import { isObject, type JsonObject } from '../validation.cts';
import {
	bodyOf,
	keptRoute,
	refuseInvalid,
	refuseUnlessOpen,
	v2Route,
	whatsappNumberV2,
} from './evolution-v2-common.cts';
import { instanceGuard } from './guards.cts';
import { sortNumbers } from './instance-contacts.cts';
import {
	protocolMessageResult,
	readMessages,
	revokeForEveryone,
} from './instance-message-extras.cts';
import { instanceMessagingRoutes, pictureFileOf, storedMedia } from './instance-messaging.cts';
import { storePicture } from './session-common.cts';

/** When the seed rows were written (createdAt of contacts and chats). */
const SEED_ROW_DATE = '2026-01-01T09:00:00.000Z';

/**
 * whatsappNumbers: its router catches every error, validation's included, and answers 400 with the
 * thrown object itself: `{status, error, message}` for Evolution's exceptions, the Boom error
 * Baileys throws (`Connection Closed`, 428) while the socket is not open.
 */
function whatsappNumbers(context: RequestContext) {
	const instance = instanceGuard(context);
	try {
		refuseInvalid(context);
		const numbers = bodyOf(context).numbers;
		// `data.numbers.forEach` on a body without numbers: a TypeError, which JSON writes as {}.
		if (!Array.isArray(numbers)) return { status: 400, body: {} };
		return { status: 200, body: whatsappNumbersV2(context, instance, numbers.map(String)) };
	} catch (error) {
		if (!(error instanceof HttpError) || !isObject(error.body)) throw error;
		const { status, error: reason, response } = error.body as JsonObject;
		const message = isObject(response) ? response.message : undefined;
		if (message === 'Connection Closed') return { status: 400, body: CONNECTION_CLOSED_BOOM };
		return { status: 400, body: { status, error: reason, message } };
	}
}

type OnWhatsApp = ReturnType<typeof whatsappNumberV2>[number];

/**
 * The route's own answer (sends and fetchProfile keep whatsappNumberV2's). From 2.3.6 on, each user
 * is looked up first in the IsOnWhatsapp cache (when it is on): a row that has the JID answers its
 * own `remoteJid` (a LID cached beside a phone answers the phone) with its `lid` flag; else a LID is
 * valid as it is (`lid: 'lid'`). `name` is the push name of the Contact row under the JID answered,
 * among the rows of the JIDs asked (a LID's row once the person has written). Users that exist and
 * were not cached are cached afterwards. 2.3.0 reads no LID from its cache: its answer stays.
 */
function whatsappNumbersV2(
	context: RequestContext,
	instance: Instance,
	numbers: string[],
): OnWhatsApp[] {
	const { evolutionVersion: version, evolutionNumberCache: cacheOn } = context.core.played;
	const answers = whatsappNumberV2(instance, numbers, version);
	if (version === '2.3.0') return answers;
	const asked = new Set(sortNumbers(numbers).users.map(({ jid }) => jid));
	const rows = new Map<string, ContactRow>(
		contactRowsV2(instance).map((row) => [row.remoteJid, row]),
	);
	const nameOf = (jid: string) =>
		asked.has(jid) ? rows.get(jid)?.pushName || undefined : undefined;
	const entry = (jid: string, number: string, name?: string, lid?: string): OnWhatsApp => ({
		jid,
		exists: true,
		number,
		...(name ? { name } : {}),
		...(lid ? { lid } : {}),
	});
	const users = answers.map((answer) => {
		if (answer.jid === 'status@broadcast' || isGroupId(answer.jid)) return { answer, user: false };
		const jid = createJid(answer.number);
		const cached = cacheOn ? cachedNumber(instance, jid) : undefined;
		if (cached) {
			// The network's answer, where it names the same JID, keeps its name.
			const name =
				(cached.remoteJid === answer.jid ? answer.name : undefined) ?? nameOf(cached.remoteJid);
			const lid = cached.lid ?? (isLid(cached.remoteJid) ? 'lid' : undefined);
			return { answer: entry(cached.remoteJid, answer.number, name, lid), user: false };
		}
		if (isLid(jid)) return { answer: entry(jid, answer.number, nameOf(jid), 'lid'), user: true };
		// The network's answer: its JID's row (2.3.7 writes a LID person's under the phone) names it.
		const name = answer.name ?? nameOf(answer.jid);
		return { answer: name ? { ...answer, name } : answer, user: true };
	});
	if (cacheOn) {
		for (const { answer, user } of users) {
			if (!user || !answer.exists) continue;
			saveNumberCache(instance, version, {
				remoteJid: answer.jid,
				lid: answer.lid === 'lid' ? 'lid' : undefined,
			});
		}
	}
	return users.map(({ answer }) => answer);
}

/** The Boom error Baileys throws on a closed socket, as JSON.stringify writes it. */
const CONNECTION_CLOSED_BOOM = {
	data: null,
	isBoom: true,
	isServer: false,
	output: {
		statusCode: 428,
		payload: { statusCode: 428, error: 'Precondition Required', message: 'Connection Closed' },
		headers: {},
	},
};

/**
 * markMessageAsRead: v2's `readMessages` keys; a closed socket is "Read messages fail" (500). 2.3.x
 * drop LID keys silently (users must be phone JIDs) and still answer success; 2.4.0 reads them.
 */
function markMessageAsRead(context: RequestContext, instance: Instance) {
	refuseUnlessOpen(instance, (reason) => evolutionError.of(500, ['Read messages fail', reason]));
	const keys = bodyOf(context).readMessages;
	const lids = context.core.played.evolutionVersion === '2.4.0';
	readMessages(instance, Array.isArray(keys) ? keys.filter(isObject) : [], { lids });
	return { status: 201, body: { message: 'Read messages', read: 'success' } };
}

/**
 * updateMessage: the stored message decides what an edit is (a text, or an image's or video's
 * caption; anything else, or no such message, is "Message not compatible"); its chat must be the
 * number's; only the account's own messages change. Answers Baileys' edit (200) and announces it
 * with SEND_MESSAGE_UPDATE.
 */
function updateMessage(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	const key = isObject(body.key) ? body.key : {};
	const jid = createJid(String(body.number ?? ''));
	const message = typeof key.id === 'string' ? findMessage(instance, key.id) : undefined;
	const content = message?.content;
	const editable =
		content?.type === 'text' ||
		(content?.type === 'media' && ['imageMessage', 'videoMessage'].includes(content.mediaType));
	if (!message || !editable) throw evolutionError.badRequest('Message not compatible');
	if (chatIdToJid(message.chatId) !== jid)
		throw evolutionError.badRequest('RemoteJid does not match');
	refuseUnlessOpen(instance, (reason) => evolutionError.badRequest(reason));
	const text = String(body.text ?? '');
	const edit = protocolMessageResult(jid, {
		key,
		type: 'MESSAGE_EDIT',
		editedMessage: { conversation: text },
	});
	context.events.emit(instance, 'SEND_MESSAGE_UPDATE', edit.message.protocolMessage);
	if (!message.fromMe) throw evolutionError.badRequest('You cannot edit others messages');
	if (message.content.type === 'text') message.content = { type: 'text', text };
	else if (message.content.type === 'media')
		message.content = { ...message.content, caption: text };
	recordStatus(message, 'EDITED');
	return { status: 200, body: edit };
}

/**
 * deleteMessage: Baileys' revoke is answered (201) whatever it names; a message of the account's,
 * or a member's in a group, disappears. Its database row is marked DELETED and announced whole with
 * MESSAGES_DELETE (DATABASE_DELETE_MESSAGE=true, 2.3.6's .env.example).
 */
function deleteMessageForEveryone(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	refuseUnlessOpen(instance, (reason) =>
		evolutionError.of(500, ['Error while deleting message for everyone', reason]),
	);
	const revoke = revokeForEveryone(instance, body, (message) => {
		const version = context.core.played.evolutionVersion;
		const row = v2MessageRaw(instance, message, context.core.baseUrl, undefined, version);
		context.events.emit(instance, 'MESSAGES_DELETE', {
			id: messageRecordId(instance, message),
			instanceId: instance.instanceId,
			key: { ...(row.key as JsonObject), deleted: true },
			messageType: row.messageType,
			status: 'DELETED',
			source: row.source,
			messageTimestamp: row.messageTimestamp,
			pushName: row.pushName,
			participant: null,
			message: row.message,
		});
	});
	return { status: 201, body: revoke };
}

/**
 * getBase64FromMediaMessage (201): the file name is the message's (only a document carries one),
 * else `<id>.<extension>`; the size carries the dimensions; `buffer` is null over HTTP.
 */
function getBase64FromMediaMessage(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	const { message, content, file } = storedMedia(instance, body.message);
	const convertAudio = body.convertToMp4 === true && content.mediaType === 'audioMessage';
	return {
		status: 201,
		body: {
			mediaType: content.mediaType,
			fileName:
				(content.mediaType === 'documentMessage' && content.fileName) ||
				`${message.shortId}.${extensionFor(content.mimetype)}`,
			caption: content.caption,
			size: { fileLength: String(file.data.length), height: file.height, width: file.width },
			mimetype: convertAudio ? 'audio/mp4' : content.mimetype,
			base64: file.data.toString('base64'),
			buffer: null,
		},
	};
}

/** profilePicture: Baileys' error (private picture, closed socket) is swallowed into null. */
function fetchProfilePictureUrl(context: RequestContext, instance: Instance) {
	const jid = createJid(String(bodyOf(context).number ?? ''));
	const file = instance.state === 'open' ? pictureFileOf(instance, jid) : undefined;
	return {
		status: 200,
		body: { wuid: jid, profilePictureUrl: fileUrlOrNull(context.core.baseUrl, instance, file) },
	};
}

/**
 * fetchProfile: the number must be on the network (400 with its check); then its name, picture,
 * about (`{status, setAt}`, the account's own only) and business fields. A closed socket fails the
 * check (500).
 */
function fetchProfile(context: RequestContext, instance: Instance) {
	const number = bodyOf(context).number;
	const jid = typeof number === 'string' && number ? createJid(number) : instance.wuid;
	const [check] = whatsappNumberV2(instance, [String(jid)], context.core.played.evolutionVersion);
	if (!check.exists) throw evolutionError.badRequest(check);
	const digits = check.jid.split('@')[0];
	const business = instance.contacts.get(digits)?.business;
	const own = digits === instance.ownerNumber;
	return {
		status: 200,
		body: {
			wuid: check.jid,
			name: check.name,
			numberExists: true,
			picture: fileUrlOrNull(context.core.baseUrl, instance, pictureFileOf(instance, check.jid)),
			status: own ? { status: instance.profileStatus, setAt: SEED_ROW_DATE } : undefined,
			isBusiness: Boolean(business),
			email: business?.email,
			description: business?.description,
			website: business?.website[0],
		},
	};
}

/**
 * updateProfilePicture: a URL (fetched by 2.3.6; a placeholder here) or base64, else the service's
 * own BadRequestException, caught and rethrown as a 500 of its toString(). The socket reconnects.
 */
function updateProfilePicture(context: RequestContext, instance: Instance) {
	const failure = (reason: string) =>
		evolutionError.of(500, ['Error updating profile picture', reason]);
	const picture = bodyOf(context).picture;
	const isUrl = typeof picture === 'string' && /^https?:\/\/\S+$/.test(picture);
	const decoded = typeof picture === 'string' && !isUrl ? decodeBase64Payload(picture) : undefined;
	if (!isUrl && !decoded) throw failure('[object Object]');
	refuseUnlessOpen(instance, failure);
	instance.profilePictureFile = storePicture(
		instance,
		{ mimetype: decoded?.mimetype ?? 'image/jpeg', data: decoded?.data },
		`profile-${Date.now()}`,
	);
	reconnectV2(context.events, context.core.baseUrl, instance);
	return { status: 200, body: { update: 'success' } };
}

function removeProfilePicture(context: RequestContext, instance: Instance) {
	refuseUnlessOpen(instance, (reason) =>
		evolutionError.of(500, ['Error removing profile picture', reason]),
	);
	if (instance.profilePictureFile) instance.files.delete(instance.profilePictureFile);
	instance.profilePictureFile = null;
	reconnectV2(context.events, context.core.baseUrl, instance);
	return { status: 200, body: { update: 'success' } };
}

/** Query<T>'s paging: `offset` rows a page (its default differs per search), `page` from 1. */
function paged<T>(rows: T[], body: JsonObject, defaultOffset: number | undefined) {
	const offset = typeof body.offset === 'number' && body.offset > 0 ? body.offset : defaultOffset;
	const page = typeof body.page === 'number' && body.page > 1 ? body.page : 1;
	if (offset === undefined) return { rows, offset: rows.length, page };
	return { rows: rows.slice(offset * (page - 1), offset * page), offset, page };
}

/** What no row of Evolution's database holds: a search by a JID the real server would not find compares with it. */
const NO_SUCH_JID = '@s.messenger.net (not a WhatsApp JID)';

function valueAt(body: unknown, path: string[]): unknown {
	let value = body;
	for (const name of path) value = isObject(value) ? value[name] : undefined;
	return value;
}

/**
 * A JID the searches (findMessages, findContacts, findChats, findStatusMessage) compare exactly with
 * their rows, as the client sent it at `path` in the body. Evolution's rows hold WhatsApp's JIDs
 * (`…@s.whatsapp.net`, `…@lid`, `…@g.us`), which this dialect reads as the simulator's own
 * (`…@s.messenger.net`); a value the client itself spelt `…@s.messenger.net` is no WhatsApp JID, so
 * it becomes one that finds nothing, as on the real server.
 */
function searchedJid(context: RequestContext, ...path: string[]): unknown {
	const sent = valueAt(context.sentBody, path);
	if (typeof sent === 'string' && sent.includes(CONTACT_JID_SUFFIX)) return NO_SUCH_JID;
	return valueAt(context.body, path);
}

/** `where.remoteJid` as fetchContacts and fetchChats read it: a JID as sent, or a number made one. */
function remoteJidFilter(context: RequestContext): string | undefined {
	const remoteJid = searchedJid(context, 'where', 'remoteJid');
	if (typeof remoteJid !== 'string' || !remoteJid) return undefined;
	return remoteJid.includes('@') ? remoteJid : createJid(remoteJid);
}

const whereOf = (body: JsonObject) => (isObject(body.where) ? body.where : {});

/**
 * fetchContacts: the Contact rows (the address book, then the rows messages from people addressed
 * by LID wrote: under the LID, under the phone on 2.3.7, none for Eli on 2.3.6 with the number cache
 * on), filtered by `where.remoteJid` only (`where.id`, which the schema allows, filters nothing),
 * paged only when `offset` is given. A person addressed by LID is also found by their LID before
 * they have written (exactly: a device suffix finds nothing); only a row lists them.
 */
function findContacts(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	const remoteJid = remoteJidFilter(context);
	const row = ({ remoteJid: jid, pushName, pictureFile }: ContactRow) => {
		const profilePicUrl = fileUrlOrNull(context.core.baseUrl, instance, pictureFile);
		const isSaved = Boolean(pushName) || Boolean(profilePicUrl);
		return {
			id: `cmc${jid.split('@')[0]}`,
			remoteJid: jid,
			pushName,
			profilePicUrl,
			createdAt: SEED_ROW_DATE,
			updatedAt: SEED_ROW_DATE,
			instanceId: instance.instanceId,
			isGroup: false,
			isSaved,
			type: isSaved ? 'contact' : 'group_member',
		};
	};
	const stored = contactRowsV2(instance).filter(
		(contactRow) => remoteJid === undefined || contactRow.remoteJid === remoteJid,
	);
	const lidPerson = remoteJid === undefined ? undefined : instance.lidPeople.get(remoteJid);
	const rows =
		stored.length === 0 && lidPerson
			? [{ remoteJid: lidPerson.lid, pushName: lidPerson.pushName }]
			: stored;
	return { status: 200, body: paged(rows.map(row), body, undefined).rows };
}

/** A Message row as the database searches select it (the key as the release stores it). */
function messageRecord(
	instance: Instance,
	message: StoredMessage,
	baseUrl: string,
	version: EvolutionVersion,
) {
	const raw = v2MessageRaw(instance, message, baseUrl, undefined, version);
	return {
		id: messageRecordId(instance, message),
		key: raw.key,
		pushName: raw.pushName,
		messageType: raw.messageType,
		message: raw.message,
		messageTimestamp: raw.messageTimestamp,
		instanceId: raw.instanceId,
		source: raw.source,
		contextInfo: raw.contextInfo ?? null,
		MessageUpdate: message.statusLog.map((record) => ({ status: record.status })),
	};
}

/** The span `where.messageTimestamp: {gte, lte}` (dates) asks for, in seconds; both or nothing. */
function timestampSpan(where: JsonObject): [number, number] | undefined {
	const span = isObject(where.messageTimestamp) ? where.messageTimestamp : {};
	if (!span.gte || !span.lte) return undefined;
	const seconds = (value: unknown) => Math.floor(new Date(String(value)).getTime() / 1000);
	return [seconds(span.gte), seconds(span.lte)];
}

/**
 * How a release's fetchMessages reads `where.key.remoteJid` and `where.key.remoteJidAlt` (Prisma
 * leaves out the members of AND/OR that are not given): 2.3.0 matches `remoteJid` only; 2.3.6 wants
 * `remoteJid` AND either of them; 2.3.7 and 2.4.0 want either.
 */
function chatFilter(version: EvolutionVersion, key: JsonObject) {
	const remoteJid = typeof key.remoteJid === 'string' && key.remoteJid ? key.remoteJid : undefined;
	const alt =
		typeof key.remoteJidAlt === 'string' && key.remoteJidAlt ? key.remoteJidAlt : undefined;
	return (recordKey: JsonObject): boolean => {
		if (version === '2.3.0') return !remoteJid || recordKey.remoteJid === remoteJid;
		const either =
			(!remoteJid && !alt) ||
			(remoteJid !== undefined && recordKey.remoteJid === remoteJid) ||
			(alt !== undefined && recordKey.remoteJidAlt === alt);
		if (version === '2.3.6') return (!remoteJid || recordKey.remoteJid === remoteJid) && either;
		return either;
	};
}

/**
 * fetchMessages: `where.key.{id, fromMe (only when true), remoteJid, remoteJidAlt, participant}`,
 * `where.id`, `where.messageType`, `where.source`, `where.messageTimestamp`; newest first, 50 a page.
 */
function findMessages(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	const where = whereOf(body);
	const given = isObject(where.key) ? where.key : {};
	// The JIDs as the database compares them (exactly as sent).
	const key: JsonObject = { ...given };
	for (const name of ['remoteJid', 'remoteJidAlt', 'participant'])
		if (name in given) key[name] = searchedJid(context, 'where', 'key', name);
	const span = timestampSpan(where);
	const version = context.core.played.evolutionVersion;
	const inChat = chatFilter(version, key);
	// Newest first; within one second, the later stored first (as a backward index scan gives them).
	const records = [...instance.messages.values()]
		.reverse()
		.filter((message) => !message.revoked)
		.map((message) => messageRecord(instance, message, context.core.baseUrl, version))
		.filter((record) => {
			const recordKey = record.key as JsonObject;
			return (
				(!key.id || recordKey.id === key.id) &&
				(!key.fromMe || recordKey.fromMe === key.fromMe) &&
				inChat(recordKey) &&
				(!key.participant || recordKey.participant === key.participant) &&
				(where.id === undefined || record.id === where.id) &&
				(where.messageType === undefined || record.messageType === where.messageType) &&
				(where.source === undefined || record.source === where.source) &&
				(!span ||
					((record.messageTimestamp as number) >= span[0] &&
						(record.messageTimestamp as number) <= span[1]))
			);
		})
		.sort((a, b) => (b.messageTimestamp as number) - (a.messageTimestamp as number));
	const { rows, offset, page } = paged(records, body, 50);
	return {
		status: 200,
		body: {
			messages: {
				total: records.length,
				pages: Math.ceil(records.length / offset),
				currentPage: page,
				records: rows,
			},
		},
	};
}

/** cleanMessageData: a chat's last message without media details (captions and names kept). */
function cleanedMessage(message: JsonObject): JsonObject {
	const cleaned: JsonObject = { ...message };
	const kept: Record<string, string[]> = {
		imageMessage: ['caption'],
		videoMessage: ['caption'],
		audioMessage: ['seconds'],
		stickerMessage: [],
		documentMessage: ['caption', 'name'],
	};
	delete cleaned.base64;
	for (const [type, fields] of Object.entries(kept)) {
		const inner = cleaned[type];
		if (!isObject(inner)) continue;
		cleaned[type] = Object.fromEntries(fields.map((field) => [field, inner[field]]));
	}
	return cleaned;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * fetchChats: one row per chat that has messages (its newest one as `lastMessage`), newest first;
 * the 24-hour window counts from the chat's first message. Paged only by `take` (LIMIT) and `skip`
 * (OFFSET), each when truthy: its raw query reads no `page` or `offset`.
 */
function findChats(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	const remoteJid = remoteJidFilter(context);
	const rows = [...instance.chats.values()]
		.map((chat) => ({ chat, messages: messagesOfChat(instance, chat.id) }))
		.filter(
			({ chat, messages }) =>
				messages.length > 0 && (!remoteJid || chatIdToJid(chat.id) === remoteJid),
		)
		.map(({ chat, messages }) => {
			const last = messages[messages.length - 1];
			const version = context.core.played.evolutionVersion;
			const record = messageRecord(instance, last, context.core.baseUrl, version);
			const contact = isGroupId(chat.id) ? undefined : instance.contacts.get(chat.id.split('@')[0]);
			const windowStart = new Date(messages[0].timestamp * 1000);
			const { MessageUpdate: _updates, ...lastMessage } = record;
			return {
				id: contact ? `cmc${contact.number}` : null,
				remoteJid: chatIdToJid(chat.id),
				pushName: chatDisplayName(instance, chat.id),
				profilePicUrl: fileUrlOrNull(context.core.baseUrl, instance, contact?.pictureFile),
				updatedAt: new Date(last.timestamp * 1000).toISOString(),
				windowStart: windowStart.toISOString(),
				windowExpires: new Date(windowStart.getTime() + DAY_MS).toISOString(),
				windowActive: windowStart.getTime() + DAY_MS > Date.now(),
				lastMessage: {
					...lastMessage,
					pushName: last.fromMe ? 'Você' : last.pushName,
					participant: null,
					message: cleanedMessage(lastMessage.message as JsonObject),
					sessionId: null,
					status: v2MessageRaw(instance, last, context.core.baseUrl, undefined, version).status,
				},
				unreadCount: chat.unreadCount,
				isSaved: Boolean(contact),
			};
		})
		.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
	const skip = typeof body.skip === 'number' && body.skip > 0 ? body.skip : 0;
	const take = typeof body.take === 'number' && body.take > 0 ? body.take : rows.length;
	return { status: 200, body: rows.slice(skip, skip + take) };
}

/**
 * fetchStatusMessage: MessageUpdate rows, `where.remoteJid` exactly as sent and `where.id` (the
 * message id) matched, 50 a page.
 */
function findStatusMessage(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	const where = whereOf(body);
	const rows = [...instance.messages.values()].flatMap((message) =>
		message.statusLog.map((record) => ({
			id: record._id,
			keyId: message.shortId,
			remoteJid: chatIdToJid(message.chatId),
			fromMe: message.fromMe,
			participant: isGroupId(message.chatId) && message.author ? personJid(message.author) : null,
			pollUpdates: null,
			status: record.status,
			messageId: messageRecordId(instance, message),
			instanceId: instance.instanceId,
		})),
	);
	const remoteJid = searchedJid(context, 'where', 'remoteJid');
	const matching = rows.filter(
		(row) =>
			(remoteJid === undefined || row.remoteJid === remoteJid) &&
			(where.id === undefined || row.keyId === where.id),
	);
	return { status: 200, body: paged(matching, body, 50).rows };
}

const chat = (method: string, name: string, handler: Parameters<typeof v2Route>[2]) =>
	v2Route(method, `/chat/${name}/:instance`, handler);

export const evolutionV2ChatRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/chat/whatsappNumbers/:instance',
		family: 'instance',
		handler: whatsappNumbers,
	},
	chat('POST', 'markMessageAsRead', markMessageAsRead),
	chat('POST', 'updateMessage', updateMessage),
	chat('DELETE', 'deleteMessageForEveryone', deleteMessageForEveryone),
	chat('POST', 'getBase64FromMediaMessage', getBase64FromMediaMessage),
	chat('POST', 'fetchProfilePictureUrl', fetchProfilePictureUrl),
	keptRoute(instanceMessagingRoutes, 'POST', '/chat/fetchBusinessProfile/:instance'),
	chat('POST', 'fetchProfile', fetchProfile),
	chat('POST', 'updateProfilePicture', updateProfilePicture),
	chat('DELETE', 'removeProfilePicture', removeProfilePicture),
	chat('POST', 'findContacts', findContacts),
	chat('POST', 'findMessages', findMessages),
	chat('POST', 'findChats', findChats),
	chat('POST', 'findStatusMessage', findStatusMessage),
];
