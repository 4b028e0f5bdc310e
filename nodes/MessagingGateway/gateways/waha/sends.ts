/**
 * The send operations on WAHA (2026.x): each reads what the user asked with its operation file's
 * code and sends it as WAHA's own route and body (`{session, chatId, …}`); each output is WAHA's
 * answer with the full message ID, so React, Edit or Delete can follow.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import * as sendAndWaitOperation from '../../actions/message/sendAndWait.operation';
import * as sendAudioOperation from '../../actions/message/sendAudio.operation';
import * as sendButtonsOperation from '../../actions/message/sendButtons.operation';
import * as sendContactOperation from '../../actions/message/sendContact.operation';
import * as sendLinkPreviewOperation from '../../actions/message/sendLinkPreview.operation';
import * as sendListOperation from '../../actions/message/sendList.operation';
import * as sendLocationOperation from '../../actions/message/sendLocation.operation';
import * as sendMediaOperation from '../../actions/message/sendMedia.operation';
import * as sendPollOperation from '../../actions/message/sendPoll.operation';
import * as sendTextOperation from '../../actions/message/sendText.operation';
import { readOptions } from '../../helpers/fields';
import type { ButtonsMessage } from '../../helpers/instance-send';
import { sendButtonsMessage } from '../../helpers/instance-send';
import { fallbackFileName } from '../../helpers/media-source';
import type { ChatReference } from '../../../shared/identifiers';
import { classifyChat, asChatId, toChatId, toNumber } from '../../../shared/identifiers';
import { isBlank } from '../../../shared/values';
import type { GatewayOperation } from '../../../shared/gateways';
import { checkExists } from './contacts';
import {
	postWahaSend,
	readWahaReplyTo,
	sendAfterDelay,
	showPresenceAndWait,
	wahaFile,
	wahaSentOutput,
} from './send-helpers';

/**
 * The chat ID a text goes to: the chat's, or with Check the Number First the one WAHA knows the
 * number by (`GET /api/contacts/check-exists`); a number that is not on WhatsApp fails the item.
 */
async function wahaRecipient(
	this: IExecuteFunctions,
	request: sendTextOperation.SendTextRequest,
	itemIndex: number,
): Promise<string> {
	const chatId = toChatId(request.chat);
	if (!request.checkFirst || request.chat.kind !== 'contact') return chatId;
	const number = toNumber(request.chat);
	const check = await checkExists.call(this, request.session, number, itemIndex);
	if (!check.numberExists) throw sendTextOperation.notOnNetwork.call(this, number, itemIndex);
	return check.chatId ?? chatId;
}

/**
 * `POST /api/sendText` `{session, chatId, text, reply_to?, linkPreview?, mentions?}`: mentions
 * are chat IDs (`…@c.us`), and `all` mentions every member of a group.
 */
async function sendText(this: IExecuteFunctions, itemIndex: number) {
	const request = sendTextOperation.readSendText.call(this, itemIndex);
	const replyTo = readWahaReplyTo.call(this, itemIndex, readOptions.call(this, itemIndex));
	const chatId = await wahaRecipient.call(this, request, itemIndex);
	// The number checked first may be known by another chat ID (a Brazilian one without its 9th digit).
	const chat = classifyChat(chatId) ?? request.chat;
	// Split Into Messages: each part after its own typing; the reply goes with the first.
	return await sendTextOperation.sendTextInParts.call(
		this,
		request,
		itemIndex,
		async (part, index) => {
			const body: IDataObject = { text: part.text };
			if (replyTo !== undefined && index === 0) body.reply_to = replyTo;
			if (part.linkPreview !== undefined) body.linkPreview = part.linkPreview;
			const mentions = part.mentioned.map(asChatId);
			if (part.mentionEveryone) mentions.unshift('all');
			if (mentions.length > 0) body.mentions = mentions;
			await showPresenceAndWait.call(
				this,
				request.session,
				chat,
				{ delay: part.delay, presence: part.presence },
				itemIndex,
			);
			return await postWahaSend.call(this, '/api/sendText', request.session, chat, body, itemIndex);
		},
	);
}

/** What each Media Type is sent as when the file's type is unknown. */
const FALLBACK_MIME_TYPE: Record<sendMediaOperation.MediaKind, string> = {
	image: 'image/jpeg',
	video: 'video/mp4',
	audio: 'audio/mpeg',
	document: 'application/octet-stream',
};

/**
 * `POST /api/sendImage`, `/api/sendVideo` or `/api/sendFile` (audio files and documents)
 * `{session, chatId, file, caption, reply_to?}`; a video is converted unless it is MP4 already.
 */
async function sendMedia(this: IExecuteFunctions, itemIndex: number) {
	const request = await sendMediaOperation.readSendMedia.call(this, itemIndex);
	const { kind, file } = request;
	const replyTo = readWahaReplyTo.call(this, itemIndex, request.options);
	const mimetype = request.mimeType ?? FALLBACK_MIME_TYPE[kind];
	const filename =
		request.fileName ?? fallbackFileName(kind === 'document' ? 'document' : kind, mimetype);
	const content: IDataObject = { file: wahaFile(file, mimetype, filename) };
	if (kind === 'video') content.convert = mimetype !== 'video/mp4';
	// WAHA's video body captions "Just watch at this!" when no caption is sent.
	if (!isBlank(request.caption) || kind === 'video') content.caption = request.caption;
	if (replyTo !== undefined) content.reply_to = replyTo;
	const path =
		kind === 'image' ? '/api/sendImage' : kind === 'video' ? '/api/sendVideo' : '/api/sendFile';
	return await sendAfterDelay.call(
		this,
		path,
		request.session,
		request.chat,
		request.sendOptions,
		content,
		itemIndex,
	);
}

/** `POST /api/sendVoice` `{session, chatId, file, convert}`: WAHA converts to OGG/Opus when asked. */
async function sendAudio(this: IExecuteFunctions, itemIndex: number) {
	const request = await sendAudioOperation.readSendAudio.call(this, itemIndex);
	const mimetype = request.file.mimeType ?? 'audio/ogg; codecs=opus';
	// A voice note from a URL names no file; inline content needs a name.
	const filename =
		request.file.source === 'url'
			? undefined
			: (request.file.fileName ?? fallbackFileName('voice', mimetype));
	return await sendAfterDelay.call(
		this,
		'/api/sendVoice',
		request.session,
		request.chat,
		{ delay: request.delay, presence: 'recording' },
		{ file: wahaFile(request.file, mimetype, filename), convert: request.convert },
		itemIndex,
	);
}

/**
 * `POST /api/sendLocation` `{session, chatId, latitude, longitude, title}`: WAHA takes one title,
 * the name over the address (each on its line), empty when neither is given.
 */
async function sendLocation(this: IExecuteFunctions, itemIndex: number) {
	const request = sendLocationOperation.readSendLocation.call(this, itemIndex);
	const title = [request.name, request.address].filter((line) => line !== '').join('\n');
	const content = { latitude: request.latitude, longitude: request.longitude, title };
	return await sendAfterDelay.call(
		this,
		'/api/sendLocation',
		request.session,
		request.chat,
		request.sendOptions,
		content,
		itemIndex,
	);
}

/** A text value of a vCard (RFC 6350): backslashes, commas, semicolons and line breaks escaped. */
function vcardText(value: string): string {
	return value
		.replace(/\\/g, '\\\\')
		.replace(/,/g, '\\,')
		.replace(/;/g, '\\;')
		.replace(/\r?\n/g, '\\n');
}

/** A contact card as the vCard WAHA sends (its `waid` is the number the card's Message button opens). */
export function vcardOf(card: IDataObject): string {
	const lines = ['BEGIN:VCARD', 'VERSION:3.0', `FN:${vcardText(String(card.fullName))}`];
	if (typeof card.organization === 'string') lines.push(`ORG:${vcardText(card.organization)};`);
	lines.push(`TEL;type=CELL;type=VOICE;waid=${String(card.wuid)}:${String(card.phoneNumber)}`);
	if (typeof card.email === 'string') lines.push(`EMAIL:${vcardText(card.email)}`);
	if (typeof card.url === 'string') lines.push(`URL:${card.url}`);
	lines.push('END:VCARD');
	return lines.join('\n');
}

/** `POST /api/sendContactVcard` `{session, chatId, contacts: [{vcard}], reply_to?}`: every field of each card in its vCard. */
async function sendContact(this: IExecuteFunctions, itemIndex: number) {
	const { session, chat, cards, sendOptions, options } = sendContactOperation.readSendContact.call(
		this,
		itemIndex,
	);
	const content: IDataObject = { contacts: cards.map((card) => ({ vcard: vcardOf(card) })) };
	const replyTo = readWahaReplyTo.call(this, itemIndex, options);
	if (replyTo !== undefined) content.reply_to = replyTo;
	return await sendAfterDelay.call(
		this,
		'/api/sendContactVcard',
		session,
		chat,
		sendOptions,
		content,
		itemIndex,
	);
}

/** `POST /api/sendList` `{session, chatId, message: {title, description, footer?, button, sections}, reply_to?}`. */
async function sendList(this: IExecuteFunctions, itemIndex: number) {
	const request = sendListOperation.readSendList.call(this, itemIndex);
	const message: IDataObject = { title: request.title, description: request.text };
	if (request.footerText !== '') message.footer = request.footerText;
	message.button = request.buttonText;
	message.sections = request.sections;
	const content: IDataObject = { message };
	const replyTo = readWahaReplyTo.call(this, itemIndex, request.options);
	if (replyTo !== undefined) content.reply_to = replyTo;
	return await sendAfterDelay.call(
		this,
		'/api/sendList',
		request.session,
		request.chat,
		request.sendOptions,
		content,
		itemIndex,
	);
}

/** `POST /api/sendPoll` `{session, chatId, poll: {name, options, multipleAnswers}, reply_to?}`. */
async function sendPoll(this: IExecuteFunctions, itemIndex: number) {
	const request = sendPollOperation.readSendPoll.call(this, itemIndex);
	const content: IDataObject = {
		poll: {
			name: request.name,
			options: request.pollOptions,
			multipleAnswers: request.multipleAnswers,
		},
	};
	const replyTo = readWahaReplyTo.call(this, itemIndex, request.options);
	if (replyTo !== undefined) content.reply_to = replyTo;
	return await sendAfterDelay.call(
		this,
		'/api/sendPoll',
		request.session,
		request.chat,
		{},
		content,
		itemIndex,
	);
}

/** `POST /api/sendButtons` as the Messaging Gateway API takes it (WAHA's own body); the answer with the full message ID. */
async function sendButtonsOnWaha(
	this: IExecuteFunctions,
	message: ButtonsMessage,
	itemIndex: number,
): Promise<IDataObject> {
	const answer = await sendButtonsMessage.call(this, message, itemIndex);
	return wahaSentOutput.call(this, answer, toChatId(message.chat), itemIndex);
}

/** Send and Wait's question as text: `POST /api/sendText` without a link preview (a preview fetcher must not answer). */
async function sendLinksText(
	this: IExecuteFunctions,
	session: string,
	chat: ChatReference,
	text: string,
	itemIndex: number,
): Promise<unknown> {
	return await postWahaSend.call(
		this,
		'/api/sendText',
		session,
		chat,
		{ text, linkPreview: false },
		itemIndex,
	);
}

/**
 * `POST /api/send/link-custom-preview` `{session, chatId, text, preview: {url, title,
 * description, image?}, reply_to?, linkPreviewHighQuality?}`: the image as `{url}`, or from a
 * binary field as `{mimetype, filename, data}`.
 */
async function sendLinkPreview(this: IExecuteFunctions, itemIndex: number) {
	const request = sendLinkPreviewOperation.readSendLinkPreview.call(this, itemIndex);
	const imageSource = sendLinkPreviewOperation.readPreviewImageSource.call(this, itemIndex);
	const highQuality = sendLinkPreviewOperation.readHighQuality.call(
		this,
		request.options,
		itemIndex,
	);
	const replyTo = readWahaReplyTo.call(this, itemIndex, request.options);
	const preview: IDataObject = {
		url: request.url,
		title: request.title,
		description: request.description,
	};
	if (imageSource && 'url' in imageSource) preview.image = { url: imageSource.url };
	if (imageSource && 'binaryProperty' in imageSource) {
		const binary = this.helpers.assertBinaryData(itemIndex, imageSource.binaryProperty);
		const data = await this.helpers.getBinaryDataBuffer(itemIndex, imageSource.binaryProperty);
		const mimetype = binary.mimeType || 'image/jpeg';
		preview.image = {
			mimetype,
			filename: binary.fileName ?? fallbackFileName('preview', mimetype),
			data: data.toString('base64'),
		};
	}
	const content: IDataObject = { text: request.text, preview };
	if (replyTo !== undefined) content.reply_to = replyTo;
	if (highQuality !== undefined) content.linkPreviewHighQuality = highQuality;
	return await sendAfterDelay.call(
		this,
		'/api/send/link-custom-preview',
		request.session,
		request.chat,
		{},
		content,
		itemIndex,
	);
}

export const wahaSends: Record<string, GatewayOperation> = {
	'message.sendText': sendText,
	'message.sendMedia': sendMedia,
	'message.sendAudio': sendAudio,
	'message.sendLocation': sendLocation,
	'message.sendContact': sendContact,
	'message.sendList': sendList,
	'message.sendPoll': sendPoll,
	'message.sendButtons': async function (this: IExecuteFunctions, itemIndex: number) {
		return await sendButtonsOperation.execute.call(this, itemIndex, sendButtonsOnWaha);
	},
	'message.sendAndWait': async function (
		this: IExecuteFunctions,
		itemIndex: number,
	): Promise<INodeExecutionData[]> {
		return await sendAndWaitOperation.execute.call(
			this,
			itemIndex,
			sendButtonsOnWaha,
			sendLinksText,
		);
	},
	'message.sendLinkPreview': sendLinkPreview,
};
