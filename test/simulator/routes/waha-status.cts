// WhatsApp statuses (stories) on WAHA 2026.x (NOWEB): POST /api/{session}/status/{text,image,video,
// voice} and /status/delete, answered as NOWEB's Baileys returns; what they share with Evolution
// API's (the record the simulator keeps, Baileys' status message) is in status.cts.
import type { RequestContext, Route } from '../core.cts';
import { HttpError, nestError } from '../errors.cts';
import { chatIdToJid, contactJid, newShortMessageId, normaliseChatId } from '../ids.cts';
import { ownerJid, postedStatuses, type Instance, type PostedStatus } from '../state.cts';
import { isObject } from '../validation.cts';
import { wahaEnvironment } from '../waha-events.cts';
import {
	baileysStatusContent,
	recordPostedStatus,
	STATUS_BROADCAST,
	statusWebMessageInfo,
} from './status.cts';
import { requireNowebStore, storeWahaFile, wahaRoute, type WahaRequest } from './waha-common.cts';

const WORKING_PATH = { session: 'path', status: 'WORKING' } as const;

/** A text field as WAHA reads it: '' when not given. */
const textOrEmpty = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * What AllExceptionsFilter answers for an error that is no HttpException: 500 with the error
 * (serializeError: stack, message, name; the stack cut to its first frame here), the request and
 * WAHA's environment.
 */
function unhandledError(context: RequestContext, name: string, message: string, at: string) {
	return new HttpError(500, {
		statusCode: 500,
		timestamp: new Date().toISOString(),
		exception: { stack: `${name}: ${message}\n    at ${at}`, message, name },
		request: {
			path: context.url,
			method: context.method,
			body: context.body,
			query: context.query,
		},
		version: wahaEnvironment(context.core.played.wahaEngine),
	});
}

/**
 * prepareJidsForStatus: the contacts given, as JIDs (`…@c.us` → `…@s.whatsapp.net`; a LID or group
 * as it is); none (or `[]`): every contact in NOWEB's store with a phone JID, which needs the store
 * (400 without it).
 */
function statusJids(context: RequestContext, instance: Instance, contacts: unknown): string[] {
	if (Array.isArray(contacts) && contacts.length > 0) {
		return contacts.map(String).map((contact) => {
			const chatId = normaliseChatId(contact);
			return chatId ? chatIdToJid(chatId) : contact;
		});
	}
	requireNowebStore(context);
	return [...instance.contacts.values()].map((contact) => contactJid(contact.number));
}

/** upsertMeInJIDs: the account first, so its own phone shows the status (and acks it). */
function withMe(instance: Instance, jids: string[]): string[] {
	const me = ownerJid(instance);
	return jids.includes(me) ? jids : [me, ...jids];
}

type StatusFields = Pick<
	PostedStatus,
	'type' | 'text' | 'media' | 'caption' | 'backgroundColor' | 'font'
>;

/**
 * NOWEB's status sends: who it goes to (the account added unless the request gives the `id`,
 * which is then the message's id), in chunks of `contacts.length` or 5 000 under that one id (none
 * at all → 422 `No participants to send status`); the first chunk's WebMessageInfo is the answer
 * (201). A text's link preview is not fetched (no internet).
 */
function postWahaStatus(
	context: RequestContext,
	request: WahaRequest,
	instance: Instance,
	fields: StatusFields,
) {
	const body = request.body;
	const id = typeof body.id === 'string' && body.id !== '' ? body.id : undefined;
	const jids = statusJids(context, instance, body.contacts);
	const recipients = id ? jids : withMe(instance, jids);
	if (recipients.length === 0) throw nestError.unprocessable('No participants to send status');
	const given = Array.isArray(body.contacts) && body.contacts.length > 0;
	const posted = recordPostedStatus(context.core.state, {
		instance: instance.name,
		...fields,
		audience: given ? (body.contacts as unknown[]).map(String) : 'all',
		recipients,
		id,
	});
	const { message } = baileysStatusContent(instance, context.core.baseUrl, posted);
	return {
		status: 201,
		body: statusWebMessageInfo(instance, posted.id, message, posted.timestamp),
	};
}

/**
 * fileToMessage: the file's bytes (a URL is not fetched: a sample stands in; `data` must be
 * base64), with the MIME type it was given, or the one the conversion makes, or the status
 * kind's own.
 */
function statusMedia(
	instance: Instance,
	request: WahaRequest,
	kind: 'image' | 'voice' | 'video',
	mimetype: string,
): NonNullable<PostedStatus['media']> {
	const file = isObject(request.body.file) ? request.body.file : {};
	const converted = request.body.convert === true;
	const { key } = storeWahaFile(instance, file, `status-${kind}-${newShortMessageId()}`, mimetype);
	return {
		url: typeof file.url === 'string' ? file.url : null,
		mimetype: converted || typeof file.mimetype !== 'string' ? mimetype : file.mimetype,
		file: key,
	};
}

/** fileToMessage's caption: `''` when none is given. */
const captionOf = (request: WahaRequest) => textOrEmpty(request.body.caption);

/**
 * deleteStatus: the id (a short id, or a full one whose middle part names the message) revoked on
 * status@broadcast, to the contacts given or the store's, the account first, under a new id. WAHA
 * sends the revoke whatever the id names; a status of this session with that id is marked deleted.
 * Without an id, parseMessageIdSerialized fails: 500.
 */
function deleteWahaStatus(context: RequestContext, request: WahaRequest, instance: Instance) {
	const given = request.body.id;
	if (typeof given !== 'string') {
		throw unhandledError(
			context,
			'TypeError',
			"Cannot read properties of undefined (reading 'includes')",
			'parseMessageIdSerialized',
		);
	}
	const parts = given.split('_');
	if (given.includes('_') && parts.length !== 3 && parts.length !== 4) {
		throw unhandledError(
			context,
			'Error',
			'Message id be in format false_11111111111@c.us_AAAAAAAAAAAAAAAAAAAA[_participant]',
			'parseMessageIdSerialized',
		);
	}
	const id = given.includes('_') ? parts[2] : given;
	// The revoke goes to the same people as a status would (the store asked when none are given).
	statusJids(context, instance, request.body.contacts);
	for (const status of postedStatuses(context.core.state)) {
		if (status.instance === instance.name && status.id === id) status.deleted = true;
	}
	const revoke = {
		protocolMessage: { key: { remoteJid: STATUS_BROADCAST, fromMe: true, id }, type: 'REVOKE' },
	};
	const sentAt = Math.floor(Date.now() / 1000);
	return {
		status: 201,
		body: statusWebMessageInfo(instance, newShortMessageId(), revoke, sentAt),
	};
}

/** What each kind of WAHA status takes from its body, beside the people it goes to. */
const STATUS_KINDS: Record<string, (request: WahaRequest, instance: Instance) => StatusFields> = {
	text: (request) => ({
		type: 'text',
		text: textOrEmpty(request.body.text),
		backgroundColor: textOrEmpty(request.body.backgroundColor),
		font: Number(request.body.font),
	}),
	image: (request, instance) => ({
		type: 'image',
		media: statusMedia(instance, request, 'image', 'image/jpeg'),
		caption: captionOf(request),
	}),
	voice: (request, instance) => ({
		type: 'audio',
		media: statusMedia(instance, request, 'voice', 'audio/ogg; codecs=opus'),
		backgroundColor: textOrEmpty(request.body.backgroundColor),
	}),
	video: (request, instance) => ({
		type: 'video',
		media: statusMedia(instance, request, 'video', 'video/mp4'),
		caption: captionOf(request),
	}),
};

export const wahaStatusRoutes: Route[] = [
	...Object.entries(STATUS_KINDS).map(([kind, fields]) =>
		wahaRoute(
			'POST',
			`/api/:session/status/${kind}`,
			(context, request, instance) =>
				postWahaStatus(context, request, instance, fields(request, instance)),
			WORKING_PATH,
		),
	),
	wahaRoute('POST', '/api/:session/status/delete', deleteWahaStatus, WORKING_PATH),
];
