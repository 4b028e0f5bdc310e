import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RequestBodyStyle } from '../../shared/transport';
import { responseOr } from './responses';

import type { ChatReference } from '../../shared/identifiers';
import {
	CHAT_KINDS,
	classifyChat,
	parseChat,
	parseFullMessageId,
	asChatId,
	toJid,
} from '../../shared/identifiers';
import { fieldError, integerFrom, textFrom } from './fields';
import { isBlank, quoteValue } from '../../shared/values';
import { rememberedParameter } from '../../shared/parameters';

/** A chat picked with `chatLocator`, as a contact or group reference (channels are refused). */
export function readChat(
	this: IExecuteFunctions,
	itemIndex: number,
	name = 'chatId',
	displayName = 'Chat',
): ChatReference {
	const raw =
		name === 'chatId'
			? rememberedParameter.call(this, name, itemIndex)
			: this.getNodeParameter(name, itemIndex, undefined, { extractValue: true });
	return parseChat.call(this, raw, displayName, itemIndex, CHAT_KINDS);
}

/** A chat ID taken from a message ID (…@c.us, …@s.messenger.net, …@g.us, …@lid) as a JID. */
export function chatIdToJid(chatId: string): string {
	const reference = classifyChat(chatId);
	return reference ? toJid(reference) : chatId;
}

/**
 * The full message ID of an instance-family send result (`key: {remoteJid, fromMe, id}`), so
 * users can chain React or Get; undefined when the gateway sent no key.
 */
export function fullIdFromKey(response: unknown, fallbackChatId: string): string | undefined {
	const key = (response as IDataObject | undefined)?.key as IDataObject | undefined;
	if (!key || typeof key.id !== 'string' || key.id === '') return undefined;
	const chatId = typeof key.remoteJid === 'string' ? asChatId(key.remoteJid) : fallbackChatId;
	const fromMe = typeof key.fromMe === 'boolean' ? key.fromMe : true;
	return `${fromMe}_${chatId}_${key.id}`;
}

/** A full or short message ID as typed; the short ID is what instance-family bodies take. */
export function readShortMessageId(
	this: IExecuteFunctions,
	raw: unknown,
	field: string,
	itemIndex: number,
): string {
	const text = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : '';
	if (/^(true|false)_/.test(text)) return parseFullMessageId.call(this, text, field, itemIndex).id;
	if (/^[A-Za-z0-9]+$/.test(text)) return text;
	throw new NodeOperationError(
		this.getNode(),
		`${field} must be a message ID like 3EB0C767D26A1D3BB2F1 or false_5511999999999@c.us_3EB0C767D26A1D3BB2F1 (got "${text}")`,
		{
			itemIndex,
			description:
				'Use the "id" of a message from the trigger, Get or a send operation (the full ID or the part after the last underscore).',
		},
	);
}

export { fieldError } from './fields';

/** The gateway's answer as an object; `{ success: true }` when it answered nothing (see `responseOr`). */
export function responseObject(
	this: IExecuteFunctions,
	response: unknown,
	itemIndex: number,
): IDataObject {
	return responseOr.call(this, response, { success: true }, itemIndex);
}

export const delayOption: INodeProperties = {
	displayName: 'Delay (Ms)',
	name: 'delay',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 0 },
	default: 1000,
	description:
		'Milliseconds the gateway waits before sending, showing the chosen presence (typing or recording) meanwhile',
};

export const presenceOption: INodeProperties = {
	displayName: 'Presence While Delaying',
	name: 'presence',
	type: 'options',
	default: 'composing',
	options: [
		{ name: 'Composing', value: 'composing', description: 'Show "typing…"' },
		{ name: 'Recording', value: 'recording', description: 'Show "recording audio…"' },
	],
	description: 'What the chat shows during the delay',
};

/** `options.delay` and `options.presence` of an instance-family send, from the Options collection. */
export function delayAndPresence(
	this: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): IDataObject {
	const sendOptions: IDataObject = {};
	if (options.delay !== undefined) {
		sendOptions.delay = integerFrom.call(this, options.delay, 'Delay (Ms)', itemIndex, 0);
	}
	if (options.presence !== undefined) {
		const presence = typeof options.presence === 'string' ? options.presence.trim() : '';
		if (presence !== 'composing' && presence !== 'recording') {
			throw fieldError.call(
				this,
				itemIndex,
				`Presence While Delaying must be composing or recording (got ${quoteValue(options.presence)})`,
			);
		}
		sendOptions.presence = presence;
	}
	return sendOptions;
}

export const binaryPropertyField: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the output binary field to put the file in',
};

/** The output binary field's name, from the parameter or an Options value (`raw`), never blank. */
export function outputFieldName(this: IExecuteFunctions, raw: unknown, itemIndex: number): string {
	const name = textFrom.call(this, raw ?? 'data', 'Put Output File in Field', itemIndex).trim();
	if (isBlank(name)) {
		throw fieldError.call(
			this,
			itemIndex,
			'Put Output File in Field must not be empty',
			'Enter the name of the output binary field, e.g. data.',
		);
	}
	return name;
}

export function readBinaryPropertyName(this: IExecuteFunctions, itemIndex: number): string {
	return outputFieldName.call(
		this,
		this.getNodeParameter('binaryPropertyName', itemIndex, 'data'),
		itemIndex,
	);
}

/** The usual file name extension of each MIME type (the reverse, with other names, in media-source.ts). */
export const EXTENSION_BY_MIME_TYPE: Record<string, string> = {
	'application/msword': 'doc',
	'application/pdf': 'pdf',
	'application/vnd.ms-excel': 'xls',
	'application/vnd.ms-powerpoint': 'ppt',
	'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
	'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
	'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
	'application/zip': 'zip',
	'audio/aac': 'aac',
	'audio/amr': 'amr',
	'audio/mp4': 'm4a',
	'audio/mpeg': 'mp3',
	'audio/ogg': 'ogg',
	'audio/wav': 'wav',
	'image/gif': 'gif',
	'image/jpeg': 'jpg',
	'image/png': 'png',
	'image/webp': 'webp',
	'text/csv': 'csv',
	'text/plain': 'txt',
	'text/vcard': 'vcf',
	'video/3gpp': '3gp',
	'video/mp4': 'mp4',
	'video/quicktime': 'mov',
};

/** "audio/ogg; codecs=opus" -> "ogg"; unknown types -> "bin". */
export function extensionForMimeType(mimeType: string): string {
	return EXTENSION_BY_MIME_TYPE[mimeType.split(';')[0].trim().toLowerCase()] ?? 'bin';
}

/** Reply-to for the session-family sends that only shape A bodies can carry (`reply_to`). */
export const replyToShapeAOption: INodeProperties = {
	displayName: 'Reply To Message ID',
	name: 'replyTo',
	type: 'string',
	default: '',
	placeholder: 'e.g. false_5511999999999@c.us_3EB0C767D26A1D3BB2F1',
	description:
		'Full ID of the message to reply to. Not available with the Request Body Style "jid + sessionId" of the credential.',
};

/**
 * The full message ID given in `replyToShapeAOption`, or undefined when none. Shape B bodies have no
 * reply field, so a reply there fails before sending instead of being dropped silently.
 */
export function readShapeAReplyTo(
	this: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	style: RequestBodyStyle,
	what: string,
): string | undefined {
	const replyTo = textFrom.call(this, options.replyTo, 'Reply To Message ID', itemIndex).trim();
	if (replyTo === '') return undefined;
	const replyToId = parseFullMessageId.call(
		this,
		replyTo,
		'Reply To Message ID',
		itemIndex,
	).serialized;
	if (style === 'jidSessionId') {
		throw fieldError.call(
			this,
			itemIndex,
			'Reply To Message ID cannot be used with the Request Body Style "jid + sessionId"',
			`The gateway takes replies to ${what} only in the Request Body Style "chatId + session". Remove the option or change the credential.`,
		);
	}
	return replyToId;
}
