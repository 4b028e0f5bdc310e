// Evolution API 2.3.6 (and the releases around it): the searches over its database, /chat/findContacts,
// /chat/findMessages, /chat/findChats and /chat/findStatusMessage. A JID is compared exactly as stored
// (WhatsApp's, never the spec's @s.messenger.net), and each release's filters are its own.
import type { RequestContext, Route } from '../core.cts';
import { messageRecordId, v2MessageRaw } from '../evolution-v2-events.cts';
import { contactRowsV2, type ContactRow } from '../evolution-v2-store.cts';
import { chatIdToJid, CONTACT_JID_SUFFIX, createJid, isGroupId, personJid } from '../ids.cts';
import { fileUrlOrNull } from '../render.cts';
import { chatDisplayName, messagesOfChat, type Instance, type StoredMessage } from '../state.cts';
import type { EvolutionVersion } from '../types.cts';
import { isObject, type JsonObject } from '../validation.cts';
import { bodyOf, SEED_ROW_DATE, v2Route } from './evolution-v2-common.cts';

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

const search = (name: string, handler: Parameters<typeof v2Route>[2]) =>
	v2Route('POST', `/chat/${name}/:instance`, handler);

export const evolutionV2SearchRoutes: Route[] = [
	search('findContacts', findContacts),
	search('findMessages', findMessages),
	search('findChats', findChats),
	search('findStatusMessage', findStatusMessage),
];
