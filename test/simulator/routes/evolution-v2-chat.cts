// Evolution API 2.3.6: /chat/* — numbers, reading and editing messages, media and profiles; the
// searches over its database are in evolution-v2-searches.cts. Where the answer
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
import { chatIdToJid, createJid, isGroupId, isLid } from '../ids.cts';
import { decodeBase64Payload, extensionFor } from '../media.cts';
import { fileUrlOrNull } from '../render.cts';
import { findMessage, recordStatus, type Instance } from '../state.cts';
import type {} from '../types.cts';
import { isObject, type JsonObject } from '../validation.cts';
import {
	bodyOf,
	keptRoute,
	refuseInvalid,
	refuseUnlessOpen,
	SEED_ROW_DATE,
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
import { evolutionV2SearchRoutes } from './evolution-v2-searches.cts';

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
	...evolutionV2SearchRoutes,
];
