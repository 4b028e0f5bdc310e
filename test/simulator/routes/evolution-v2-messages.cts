// Evolution API 2.3.6: /message/send*. Flat bodies (`{number, text, delay?, quoted?, mentioned?,
// mentionsEveryOne?}` and the like); the controller's and service's own checks are modelled here, the
// schemas are validateV2's. Answers are the stored message as prepareMessage renders it.
import type { RequestContext, Route } from '../core.cts';
import { evolutionError } from '../errors.cts';
import { deviceOf } from '../evolution-v2-events.cts';
import { contactRowsV2 } from '../evolution-v2-store.cts';
import { createJid, newShortMessageId } from '../ids.cts';
import type { MediaType } from '../media.cts';
import { findMessage, ownerChatId, type ChatButton, type Instance } from '../state.cts';
import { isObject, type JsonObject } from '../validation.cts';
import { requireConnected } from './guards.cts';
import { bodyOf, metadataOf, sendV2, v2Route, whatsappNumberV2 } from './evolution-v2-common.cts';
import { contactContent, isUrl, mediaContent, mimeTypeOfName } from './instance-message-extras.cts';
import {
	STATUS_BROADCAST,
	baileysStatusContent,
	formatStatusMessage,
	recordEvolutionStatus,
	refuseLocalPath,
} from './status.cts';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** class-validator's isBase64: no whitespace, padded to a multiple of four. */
const isBase64 = (value: string) =>
	value.length % 4 === 0 &&
	/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value);

/** class-validator's isURL / isBase64, as the controllers check owned media. */
const isOwnedMedia = (value: unknown) =>
	typeof value === 'string' && (isUrl(value) || isBase64(value));

/** textMessage: a missing or blank text is refused before anything else. */
function sendText(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	const message = text(body.text);
	if (!message || message.trim().length === 0) throw evolutionError.badRequest('Text is required');
	return sendV2(context, instance, body.number, metadataOf(body), () => ({
		type: 'text',
		text: message,
	}));
}

/**
 * sendMedia's controller (a base64 document needs a file name; media must be a URL or base64), then
 * prepareMediaMessage: images are converted to JPEG (`image.jpg`), a document without a name is named
 * after its URL, a video is `video.mp4`; a file name decides the MIME type (mime-types' lookup, which
 * stringifies to "false" for an unknown extension).
 */
function sendMedia(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	const media = text(body.media);
	const mediatype = String(body.mediatype);
	let fileName = text(body.fileName);
	if (media && isBase64(media) && !fileName && mediatype === 'document')
		throw evolutionError.badRequest('For base64 the file name must be informed.');
	if (!media || !isOwnedMedia(media))
		throw evolutionError.badRequest('Owned media must be a url or base64');
	let mimetype = text(body.mimetype);
	if (mediatype === 'image') {
		fileName ??= 'image.jpg';
		mimetype = 'image/jpeg';
	}
	if (mediatype === 'document' && !fileName) {
		const match = /.*\/(.+?)\./.exec(media);
		if (!match)
			throw evolutionError.of(500, ["TypeError: Cannot read properties of null (reading '1')"]);
		fileName = match[1];
	}
	if (mediatype === 'video' && !fileName) fileName = 'video.mp4';
	if (fileName) {
		const byName = mimeTypeOfName(fileName) ?? 'false';
		mimetype = byName === 'application/mp4' ? 'video/mp4' : byName;
	}
	return sendV2(context, instance, body.number, metadataOf(body), () =>
		mediaContent(instance, `${mediatype}Message` as MediaType, media, {
			mimetype: mimetype ?? 'application/octet-stream',
			fileName: fileName ?? '',
			caption: text(body.caption),
		}),
	);
}

/** audioWhatsapp: a voice note, encoded to Opus (ogg) unless `encoding: false`; only `delay` applies. */
function sendWhatsAppAudio(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	if (!isOwnedMedia(body.audio))
		throw evolutionError.badRequest('Owned media must be a url, base64, or valid file with buffer');
	return sendV2(context, instance, body.number, { delay: body.delay }, () =>
		mediaContent(instance, 'audioMessage', String(body.audio), {
			mimetype: 'audio/ogg; codecs=opus',
			fileName: '',
			ptt: true,
		}),
	);
}

/** mediaSticker: converted to WebP. */
function sendSticker(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	if (!isOwnedMedia(body.sticker))
		throw evolutionError.badRequest('Owned media must be a url or base64');
	return sendV2(context, instance, body.number, metadataOf(body), () =>
		mediaContent(instance, 'stickerMessage', String(body.sticker), {
			mimetype: 'image/webp',
			fileName: '',
		}),
	);
}

function sendLocation(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	return sendV2(context, instance, body.number, metadataOf(body), () => ({
		type: 'location',
		latitude: Number(body.latitude),
		longitude: Number(body.longitude),
		name: text(body.name),
		address: text(body.address),
	}));
}

/** contactMessage reads `contact.length` unguarded (a TypeError without it) and sends without options. */
function sendContact(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	if (!Array.isArray(body.contact))
		throw evolutionError.of(500, "Cannot read properties of undefined (reading 'length')");
	const contacts = body.contact.filter(isObject);
	return sendV2(context, instance, body.number, {}, () => contactContent(contacts));
}

function sendList(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	return sendV2(context, instance, body.number, metadataOf(body), () => ({
		type: 'list',
		title: String(body.title),
		description: text(body.description) ?? '',
		buttonText: String(body.buttonText),
		footerText: text(body.footerText),
		sections: Array.isArray(body.sections) ? body.sections : [],
	}));
}

function sendPoll(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	const selectableCount = typeof body.selectableCount === 'number' ? body.selectableCount : 0;
	return sendV2(context, instance, body.number, metadataOf(body), () => ({
		type: 'poll',
		name: String(body.name),
		options: Array.isArray(body.values) ? body.values.map(String) : [],
		multipleAnswers: selectableCount !== 1,
		selectableCount,
	}));
}

const BUTTON_TYPES = ['reply', 'copy', 'url', 'call'];

/**
 * buttonMessage's rules: at least one button, at most three reply buttons and never mixed with
 * others. The text is `*title*` and the description; PIX buttons are not modelled.
 */
function sendButtons(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	const buttons = Array.isArray(body.buttons) ? body.buttons.filter(isObject) : [];
	if (buttons.length === 0) throw evolutionError.badRequest('At least one button is required');
	const replies = buttons.filter((button) => button.type === 'reply').length;
	if (replies > 0 && buttons.length > 3)
		throw evolutionError.badRequest('Maximum of 3 reply buttons allowed');
	if (replies > 0 && replies < buttons.length)
		throw evolutionError.badRequest('Reply buttons cannot be mixed with other button types');
	if (buttons.some((button) => !BUTTON_TYPES.includes(String(button.type))))
		throw evolutionError.badRequest('The simulator models reply, copy, url and call buttons');
	const description = text(body.description);
	return sendV2(context, instance, body.number, metadataOf(body), () => ({
		type: 'buttons',
		header: '',
		body: `*${String(body.title)}*${description ? `\n\n${description}\n` : ''}`,
		footer: text(body.footer) ?? '',
		buttons: buttons.map(
			(button): ChatButton => ({
				type: button.type as ChatButton['type'],
				text: text(button.displayText) ?? '',
				id: text(button.id),
				phoneNumber: text(button.phoneNumber),
				copyCode: text(button.copyCode),
				url: text(button.url),
			}),
		),
	}));
}

/** One emoji, or '' (which removes the reaction): emoji-regex's single match. */
const SINGLE_EMOJI =
	/^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}{2})(?:\uFE0F|\p{Emoji_Modifier}|\u200D\p{Extended_Pictographic}\uFE0F?)*$/u;

/**
 * sendReaction: the controller takes one emoji or ''; the service sends a reactionMessage to the
 * key's chat (which must exist on the network) whatever message it names. The reaction is answered
 * and announced (SEND_MESSAGE) as a message of its own; the message it names, when there is one,
 * shows it.
 */
function sendReaction(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	const reaction = typeof body.reaction === 'string' ? body.reaction : '';
	if (reaction !== '' && !SINGLE_EMOJI.test(reaction))
		throw evolutionError.badRequest('Reaction must be a single emoji or empty string');
	const key = isObject(body.key) ? body.key : {};
	requireConnected(instance);
	const [chat] = whatsappNumberV2(
		instance,
		[String(key.remoteJid)],
		context.core.played.evolutionVersion,
	);
	if (!chat.exists && !chat.jid.endsWith('@g.us')) throw evolutionError.badRequest(chat);
	const target = typeof key.id === 'string' ? findMessage(instance, key.id) : undefined;
	if (target && createJid(String(key.remoteJid)) === chat.jid) {
		if (reaction) target.reactions[ownerChatId(instance)] = reaction;
		else delete target.reactions[ownerChatId(instance)];
	}
	const id = newShortMessageId();
	const raw: JsonObject = {
		key: { remoteJid: chat.jid, fromMe: true, id },
		pushName: 'Você',
		status: 'PENDING',
		message: { reactionMessage: { key, text: reaction, senderTimestampMs: String(Date.now()) } },
		messageType: 'reactionMessage',
		messageTimestamp: Math.floor(Date.now() / 1000),
		instanceId: instance.instanceId,
		source: deviceOf(id),
	};
	context.events.emit(instance, 'SEND_MESSAGE', raw);
	return { status: 201, body: raw };
}

/** The MIME type a status's media goes with: Baileys' MIMETYPE_MAP; 2.3.6 sends audio as Opus. */
const STATUS_MIMETYPES = {
	image: 'image/jpeg',
	video: 'video/mp4',
	audio: 'audio/ogg; codecs=opus',
} as const;

/**
 * sendStatus (flat StatusMessage body, statusMessageSchema: only `type` required): formatStatusMessage
 * as 1.8.2's, its `allContacts` being the Contact rows with a push name (sendMessage's own
 * `option.allContacts` branch, every non-group row, is never reached: the option is not passed on).
 * whatsappNumber takes status@broadcast without the socket; the send then goes out in batches of
 * 10 recipients under one id, inside sendMessageWithTyping's try, which answers any failure as 400
 * with its text: no recipient at all (prepareMessage of nothing), an image or video that is not a
 * URL (Baileys 7 reads data: URLs too), a socket not open. The answer and SEND_MESSAGE are
 * prepareMessage's raw: a text status is stored as a `conversation`, its colour and font gone.
 */
function sendStatus(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	const contacts = contactRowsV2(instance).map((row) => ({
		jid: row.remoteJid,
		pushName: row.pushName,
	}));
	const { type, content, audience, recipients } = formatStatusMessage(body, contacts);
	whatsappNumberV2(instance, [STATUS_BROADCAST], context.core.played.evolutionVersion);
	if (recipients.length === 0)
		throw evolutionError.badRequest(
			"TypeError: Cannot read properties of undefined (reading 'message')",
		);
	if (type === 'image' || type === 'video') refuseLocalPath(content, true);
	if (instance.state !== 'open') throw evolutionError.badRequest('Error: Connection Closed');
	const posted = recordEvolutionStatus(
		context.core.state,
		instance,
		{ type, content, audience, recipients },
		body,
		STATUS_MIMETYPES,
	);
	const baileys = baileysStatusContent(instance, context.core.baseUrl, posted);
	const message = type === 'text' ? { conversation: content } : baileys.message;
	const file = posted.media && instance.files.get(posted.media.file);
	const raw: JsonObject = {
		key: { remoteJid: STATUS_BROADCAST, fromMe: true, id: posted.id },
		pushName: 'Você',
		status: 'PENDING',
		message,
		messageType: type === 'text' ? 'conversation' : baileys.messageType,
		messageTimestamp: posted.timestamp,
		instanceId: instance.instanceId,
		source: deviceOf(posted.id),
	};
	const base64 =
		instance.webhook?.webhook_base64 === true ? file?.data.toString('base64') : undefined;
	context.events.emit(
		instance,
		'SEND_MESSAGE',
		base64 === undefined ? raw : { ...raw, message: { ...message, base64 } },
	);
	return { status: 201, body: raw };
}

const send = (name: string, handler: Parameters<typeof v2Route>[2]) =>
	v2Route('POST', `/message/${name}/:instance`, handler);

export const evolutionV2MessageRoutes: Route[] = [
	send('sendText', sendText),
	send('sendMedia', sendMedia),
	send('sendWhatsAppAudio', sendWhatsAppAudio),
	send('sendSticker', sendSticker),
	send('sendLocation', sendLocation),
	send('sendContact', sendContact),
	send('sendList', sendList),
	send('sendPoll', sendPoll),
	send('sendButtons', sendButtons),
	send('sendReaction', sendReaction),
	send('sendStatus', sendStatus),
];
