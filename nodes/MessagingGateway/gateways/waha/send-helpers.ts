/**
 * What WAHA's sends share: the full message ID of an answer, the reply and the delay the node's
 * options ask for, and one POST to a send route.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { fullIdFromKey, readShapeAReplyTo, responseObject } from '../../helpers/message';
import type { MediaFile } from '../../helpers/media-source';
import type { ChatReference, FullMessageId } from '../../../shared/identifiers';
import { asChatId, toChatId } from '../../../shared/identifiers';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { asObject } from '../../../shared/values';

const FULL_ID = /^(true|false)_/;

/**
 * The full message ID (`true_<chatId>_<id>`) of WAHA's answer to a send, which each engine writes
 * its own way: a WAMessage (`id` the full ID, as WAHA's OpenAPI documents it), whatsapp-web.js's
 * Message (WEBJS: `id._serialized`) or Baileys' WebMessageInfo (NOWEB: `key`).
 */
export function fullIdOfWahaAnswer(answer: unknown, chatId: string): string | undefined {
	const message = asObject(answer);
	if (!message) return undefined;
	if (typeof message.id === 'string' && FULL_ID.test(message.id)) return message.id;
	const serialized = asObject(message.id)?._serialized;
	if (typeof serialized === 'string' && FULL_ID.test(serialized)) return serialized;
	return fullIdFromKey(message, chatId);
}

/** A send's answer as the node's output: WAHA's answer with the full message ID, so React, Edit or Delete can follow. */
export function wahaSentOutput(
	this: IExecuteFunctions,
	answer: unknown,
	chatId: string,
	itemIndex: number,
): IDataObject {
	const json = responseObject.call(this, answer, itemIndex);
	const messageId = fullIdOfWahaAnswer(answer, chatId);
	return messageId ? { ...json, messageId } : json;
}

/** A file as WAHA's send bodies take it: `{mimetype, filename?, url}` or `{mimetype, filename?, data}` (base64). */
export function wahaFile(file: MediaFile, mimetype: string, filename?: string): IDataObject {
	const named = filename === undefined ? {} : { filename };
	return file.source === 'url'
		? { mimetype, ...named, url: file.media }
		: { mimetype, ...named, data: file.media };
}

/** A full message ID as WAHA names messages: its chats and members as `…@c.us` (a JID of the spec becomes one). */
export function wahaMessageId(messageId: FullMessageId): string {
	const participant = messageId.participant ? `_${asChatId(messageId.participant)}` : '';
	return `${messageId.fromMe}_${asChatId(messageId.chatId)}_${messageId.id}${participant}`;
}

/** Reply To Message ID as WAHA's `reply_to` (the full ID), or undefined when none is given. */
export function readWahaReplyTo(
	this: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): string | undefined {
	// WAHA's bodies are chatId + session, where the reply is always allowed.
	return readShapeAReplyTo.call(this, itemIndex, options, 'chatIdSession', 'messages');
}

/**
 * Delay (Ms) on WAHA, whose sends wait for nothing: the chat shows the presence asked for
 * (`POST /api/{session}/presence`: typing, or recording for a voice note) while n8n waits, and
 * the send follows. No delay, no request.
 */
export async function showPresenceAndWait(
	this: IExecuteFunctions,
	session: string,
	chat: ChatReference,
	sendOptions: IDataObject,
	itemIndex: number,
): Promise<void> {
	const delay = typeof sendOptions.delay === 'number' ? sendOptions.delay : 0;
	if (delay <= 0) return;
	const presence = sendOptions.presence === 'recording' ? 'recording' : 'typing';
	await gatewayApiRequest.call(this, 'POST', gatewayPath`/api/${session}/presence`, {
		body: { chatId: toChatId(chat), presence },
		itemIndex,
	});
	await sleep(delay);
}

/** POSTs one of WAHA's send routes (`path`, e.g. `/api/sendText`) with `{session, chatId, ...content}`; the answer with the full message ID. */
export async function postWahaSend(
	this: IExecuteFunctions,
	path: string,
	session: string,
	chat: ChatReference,
	content: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const chatId = toChatId(chat);
	const answer = await gatewayApiRequest.call(this, 'POST', path, {
		body: { session, chatId, ...content },
		itemIndex,
	});
	return wahaSentOutput.call(this, answer, chatId, itemIndex);
}

/** The Delay (Ms) asked in `sendOptions` (see showPresenceAndWait), then the send; its output item. */
export async function sendAfterDelay(
	this: IExecuteFunctions,
	path: string,
	session: string,
	chat: ChatReference,
	sendOptions: IDataObject,
	content: IDataObject,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	await showPresenceAndWait.call(this, session, chat, sendOptions, itemIndex);
	return [{ json: await postWahaSend.call(this, path, session, chat, content, itemIndex) }];
}
