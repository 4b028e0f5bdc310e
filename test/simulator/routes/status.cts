// WhatsApp statuses (stories), for the three gateways that post them: Evolution API's
// formatStatusMessage (1.8.2 and 2.3.6 check a status alike), what Baileys makes of a status (the
// WebMessageInfo Evolution API 1.8.2 and WAHA's NOWEB answer), the record the simulator keeps of
// each one (`Simulator.statuses()`), and Evolution API 1.8.2's sendStatus route. WAHA's routes are
// in waha-status; 2.3.6's sendStatus stays with its family's sends in evolution-v2-messages.
import type { RequestContext, Route } from '../core.cts';
import { evolutionError } from '../errors.cts';
import { contactJid, newShortMessageId } from '../ids.cts';
import { fileUrl } from '../render.cts';
import { postedStatuses, type Instance, type PostedStatus, type SimState } from '../state.cts';
import { type JsonObject } from '../validation.cts';
import { instanceGuard } from './guards.cts';
import { assertEvolutionV1Validation } from './instance-common.cts';
import { storedPushName, whatsappNumber } from './instance-contacts.cts';
import { mediaContent } from './instance-message-extras.cts';

/** The chat every status is sent to. */
export const STATUS_BROADCAST = 'status@broadcast';

/**
 * The device the gateway's session is on the account (a linked device): Baileys' `creds.me.id`,
 * which it writes as the `participant` of what it sends to a broadcast.
 */
const OWN_DEVICE = 17;

export function ownDeviceJid(instance: Instance): string {
	return contactJid(instance.ownerNumber).replace('@', `:${OWN_DEVICE}@`);
}

/**
 * Baileys' assertColor for a colour given as text: `#` dropped, six digits or fewer get an opaque
 * alpha (`FF`), parsed as hex; protobuf's fixed32 keeps it as an unsigned 32-bit number (0 when
 * it is no hex at all).
 */
export function backgroundArgb(color: string): number {
	let hex = color.trim().replace('#', '');
	if (hex.length <= 6) hex = `FF${hex.padStart(6, '0')}`;
	return parseInt(hex, 16) >>> 0;
}

/** ExtendedTextMessage.FontType, as protobufjs writes an enum in JSON (a value it has no name for stays a number). */
const FONT_NAMES: Record<number, string> = {
	0: 'SYSTEM',
	1: 'SYSTEM_TEXT',
	2: 'FB_SCRIPT',
	6: 'SYSTEM_BOLD',
	7: 'MORNINGBREEZE_REGULAR',
	8: 'CALISTOGA_REGULAR',
	9: 'EXO2_EXTRABOLD',
	10: 'COURIERPRIME_BOLD',
};

export function fontJson(font: number): string | number {
	return FONT_NAMES[font] ?? font;
}

/** A contact as Evolution's database holds it, for `allContacts`. */
export interface StatusContact {
	jid: string;
	pushName: string;
}

/** What formatStatusMessage leaves of a valid status: its type and content, who it goes to. */
export interface FormattedStatus {
	type: PostedStatus['type'];
	content: string;
	audience: PostedStatus['audience'];
	recipients: string[];
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * Evolution's formatStatusMessage (1.8.2's and 2.3.6's read alike), its checks in its order:
 * type, content, then `allContacts` (every contact of the instance's database with a push name;
 * none stored → `Contacts not found`) or a non-empty statusJidList, then a text's background colour
 * and (truthy: 0 is refused) font. Another type is `Type not found`.
 */
export function formatStatusMessage(
	status: JsonObject,
	contacts: StatusContact[],
): FormattedStatus {
	if (!status.type) throw evolutionError.badRequest('Type is required');
	if (!status.content) throw evolutionError.badRequest('Content is required');
	const given = Array.isArray(status.statusJidList) ? status.statusJidList.map(String) : undefined;
	let recipients = given;
	if (status.allContacts) {
		if (contacts.length === 0) throw evolutionError.badRequest('Contacts not found');
		recipients = contacts.filter((contact) => contact.pushName).map((contact) => contact.jid);
	}
	if (!recipients?.length && !status.allContacts)
		throw evolutionError.badRequest('StatusJidList is required');
	const type = String(status.type);
	if (type === 'text') {
		if (!status.backgroundColor) throw evolutionError.badRequest('Background color is required');
		if (!status.font) throw evolutionError.badRequest('Font is required');
	}
	if (type !== 'text' && type !== 'image' && type !== 'video' && type !== 'audio')
		throw evolutionError.badRequest('Type not found');
	return {
		type,
		content: String(status.content),
		audience: status.allContacts ? 'all' : (given ?? []),
		recipients: recipients ?? [],
	};
}

/**
 * What Evolution's send of a text or media status keeps: a text's background colour and font,
 * an image's or video's caption when given (an audio status has neither).
 */
export function evolutionStatusFields(
	status: JsonObject,
	type: PostedStatus['type'],
): Pick<PostedStatus, 'backgroundColor' | 'font' | 'caption'> {
	if (type === 'text')
		return { backgroundColor: String(status.backgroundColor), font: Number(status.font) };
	const caption = text(status.caption);
	return type !== 'audio' && caption !== undefined ? { caption } : {};
}

/** Baileys reads a media status's content as `{url}`: a local path unless it is http(s) (or, from Baileys 7, a data: URL). */
export function refuseLocalPath(content: string, dataUrls: boolean): void {
	if (/^https?:\/\//.test(content) || (dataUrls && content.startsWith('data:'))) return;
	// The read stream fails, the send throws, and Evolution answers the error's text.
	throw evolutionError.badRequest(`Error: ENOENT: no such file or directory, open '${content}'`);
}

/**
 * Records a posted status. A status sent again under the id of one not deleted (WAHA's manual
 * chunks, `id` in each request) is the same status reaching more people: its recipients grow.
 */
export function recordPostedStatus(
	state: SimState,
	fields: Omit<PostedStatus, 'id' | 'timestamp' | 'deleted'> & { id?: string },
): PostedStatus {
	const statuses = postedStatuses(state);
	const same = fields.id
		? statuses.find(
				(status) =>
					status.instance === fields.instance && status.id === fields.id && !status.deleted,
			)
		: undefined;
	if (same) {
		same.recipients = [...new Set([...same.recipients, ...fields.recipients])];
		return same;
	}
	const status: PostedStatus = {
		...fields,
		id: fields.id ?? newShortMessageId(),
		timestamp: Math.floor(Date.now() / 1000),
		deleted: false,
	};
	statuses.push(status);
	return status;
}

/**
 * The message Baileys builds for a status and its type: an extendedTextMessage with the colour
 * (`backgroundArgb`) and font when given (a font 0 is not), or the uploaded media with its caption
 * when given; audio goes as a voice note (`ptt`), with the colour when given.
 */
export function baileysStatusContent(
	instance: Instance,
	baseUrl: string,
	status: PostedStatus,
): { messageType: string; message: JsonObject } {
	if (status.type === 'text') {
		const extended: JsonObject = { text: status.text ?? '' };
		if (status.backgroundColor) extended.backgroundArgb = backgroundArgb(status.backgroundColor);
		if (status.font) extended.font = fontJson(status.font);
		return { messageType: 'extendedTextMessage', message: { extendedTextMessage: extended } };
	}
	const file = status.media ? instance.files.get(status.media.file) : undefined;
	const media: JsonObject = {
		url: status.media ? fileUrl(baseUrl, instance, status.media.file) : '',
		mimetype: status.media?.mimetype,
	};
	if (status.caption !== undefined) media.caption = status.caption;
	media.fileLength = String(file?.data.length ?? 0);
	if (file?.width !== undefined) Object.assign(media, { height: file.height, width: file.width });
	if (status.type === 'audio') {
		media.ptt = true;
		if (status.backgroundColor) media.backgroundArgb = backgroundArgb(status.backgroundColor);
	}
	const messageType = `${status.type}Message`;
	return { messageType, message: { [messageType]: media } };
}

/**
 * The WebMessageInfo Baileys' sendMessage returns for a message to status@broadcast, as JSON
 * (protobufjs' toJSON: the timestamp a string, enums by name): pending, from the account's device.
 */
export function statusWebMessageInfo(
	instance: Instance,
	id: string,
	message: JsonObject,
	timestamp: number,
): JsonObject {
	return {
		key: { remoteJid: STATUS_BROADCAST, fromMe: true, id },
		message,
		messageTimestamp: String(timestamp),
		status: 'PENDING',
		participant: ownDeviceJid(instance),
	};
}

// Evolution API 1.8.2 (the instance family): /message/sendStatus.

/** The MIME type Baileys gives a status's media (its MIMETYPE_MAP; 1.8.2 converts audio to MP4). */
const STATUS_MIMETYPES = { image: 'image/jpeg', video: 'video/mp4', audio: 'audio/mp4' } as const;

/**
 * sendStatus: statusMessageSchema (the restatement of 1.8.2's in the compatibility reference, judged
 * by jsonschema as Evolution does), formatStatusMessage's checks (`allContacts`: the address book),
 * then sendMessageWithTyping to status@broadcast, whose whatsappNumber asks the socket first (500
 * `Connection Closed` when not open). Baileys reads an image or video from its URL (a local path
 * otherwise: 400 ENOENT). Answers Baileys' WebMessageInfo and announces SEND_MESSAGE (1.8.2 runs
 * Baileys with emitOwnEvents off: no MESSAGES_UPSERT).
 */
export function sendStatus(context: RequestContext) {
	const instance = instanceGuard(context);
	assertEvolutionV1Validation(context);
	const status = (context.body as JsonObject).statusMessage as JsonObject;
	const contacts = [...instance.contacts.values()].map((contact) => ({
		jid: contactJid(contact.number),
		pushName: storedPushName(contact),
	}));
	const { type, content, audience, recipients } = formatStatusMessage(status, contacts);
	whatsappNumber(instance, [STATUS_BROADCAST]);
	if (type === 'image' || type === 'video') refuseLocalPath(content, false);
	const posted = recordEvolutionStatus(
		context.core.state,
		instance,
		{ type, content, audience, recipients },
		status,
		STATUS_MIMETYPES,
	);
	const baseUrl = context.core.baseUrl;
	const { messageType, message } = baileysStatusContent(instance, baseUrl, posted);
	const answer = statusWebMessageInfo(instance, posted.id, message, posted.timestamp);
	const file = posted.media && instance.files.get(posted.media.file);
	const base64 =
		instance.webhook?.webhook_base64 === true ? file?.data.toString('base64') : undefined;
	context.events.emit(instance, 'SEND_MESSAGE', {
		key: answer.key,
		pushName: instance.profileName,
		message: base64 === undefined ? message : { ...message, base64 },
		messageType,
		messageTimestamp: posted.timestamp,
		owner: instance.name,
		source: 'api',
	});
	return { status: 201, body: answer };
}

/**
 * Records a status Evolution API posted (1.8.2 and 2.3.6 alike): a text as it is, a media status's
 * file stored as other sends store theirs, with the MIME type each version gives it.
 */
export function recordEvolutionStatus(
	state: SimState,
	instance: Instance,
	{ type, content, audience, recipients }: FormattedStatus,
	status: JsonObject,
	mimetypes: Record<'image' | 'video' | 'audio', string>,
): PostedStatus {
	const media =
		type === 'text'
			? undefined
			: {
					url: /^https?:\/\//.test(content) ? content : null,
					mimetype: mimetypes[type],
					file: storeStatusFile(instance, type, content, mimetypes[type]),
				};
	return recordPostedStatus(state, {
		instance: instance.name,
		type,
		...(type === 'text' ? { text: content } : { media }),
		...evolutionStatusFields(status, type),
		audience,
		recipients,
	});
}

/** A status's file, stored as other sends store theirs (a URL cannot be fetched: a sample stands in). */
export function storeStatusFile(
	instance: Instance,
	type: 'image' | 'video' | 'audio',
	content: string,
	mimetype: string,
): string {
	const base64 = content.startsWith('data:') ? content.slice(content.indexOf(',') + 1) : content;
	const stored = mediaContent(instance, `${type}Message`, base64, { mimetype, fileName: '' });
	return stored.type === 'media' ? stored.file : '';
}

export const evolutionV1StatusRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/message/sendStatus/:instance',
		family: 'instance',
		handler: sendStatus,
	},
];
