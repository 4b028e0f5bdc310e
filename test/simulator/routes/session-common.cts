// Pieces the session-family routes share: request shapes A/B, chat ids, file inputs.
import type { RequestContext } from '../core.cts';
import { nestError } from '../errors.cts';
import { CHANNEL_SUFFIX, isGroupId, normaliseChatId } from '../ids.cts';
import { decodeBase64Payload, extensionFor, fileFromBuffer } from '../media.cts';
import { avatarPng } from '../png.cts';
import { fileUrl } from '../render.cts';
import type { Instance } from '../state.cts';
import { isObject, type FieldChecks, type JsonObject } from '../validation.cts';

/** Shape A: `session` + `chatId`; shape B: `sessionId` + `jid` (spec §1.4). */
export interface BodyShape {
	sessionField: 'session' | 'sessionId';
	chatField: 'chatId' | 'jid';
}

export function detectShape(body: JsonObject): BodyShape {
	const shapeB = ('sessionId' in body || 'jid' in body) && !('session' in body || 'chatId' in body);
	return shapeB
		? { sessionField: 'sessionId', chatField: 'jid' }
		: { sessionField: 'session', chatField: 'chatId' };
}

function firstQueryValue(value: string | string[] | undefined): string | undefined {
	return Array.isArray(value) ? value[0] : value;
}

/** The session named in the body, or (spec §1.2) in the `sessionId` query parameter. */
export function sessionName(
	context: RequestContext,
	body: JsonObject,
	shape: BodyShape,
	checks: FieldChecks,
): string | undefined {
	const fromQuery =
		firstQueryValue(context.query.sessionId) ?? firstQueryValue(context.query.session);
	if (body[shape.sessionField] === undefined && fromQuery) return fromQuery;
	return checks.string(shape.sessionField, { notEmpty: true });
}

/** A contact, group or own channel the session can write to; 400 when malformed, 404 when unknown. */
export function resolveChat(instance: Instance, value: string, field: string): string {
	const chatId = normaliseChatId(value);
	if (!chatId) {
		throw nestError.validation([
			`${field} must be a chat ID such as 5511999999999@c.us, 5511999999999@s.messenger.net or 120363000000000000@g.us`,
		]);
	}
	if (isGroupId(chatId) && !instance.groups.has(chatId))
		throw nestError.notFound('Group not found');
	if (chatId.endsWith(CHANNEL_SUFFIX) && !instance.channels.has(chatId))
		throw nestError.notFound('Channel not found');
	return chatId;
}

/** WAHA's RemoteFile `{mimetype, url, filename}` or BinaryFile `{mimetype, data, filename}`, or a bare base64 string. */
export interface FileInput {
	mimetype: string;
	filename?: string;
	url?: string;
	data?: Buffer;
}

export function readFileInput(
	checks: FieldChecks,
	field: string,
	value: unknown,
	options: { allowBase64String: boolean; mimetypeOptional?: boolean },
): FileInput | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'string' && options.allowBase64String) {
		const decoded = decodeBase64Payload(value);
		if (!decoded) checks.add(`${field} must be a base64 encoded string`);
		return decoded && { mimetype: decoded.mimetype ?? 'image/png', data: decoded.data };
	}
	if (!isObject(value)) {
		checks.add(`${field} must be an object with mimetype and url or data`);
		return undefined;
	}
	const hasMimetype = typeof value.mimetype === 'string' && value.mimetype !== '';
	if (!hasMimetype && !options.mimetypeOptional) checks.add(`${field}.mimetype must be a string`);
	const mimetype = hasMimetype ? String(value.mimetype) : 'image/jpeg';
	const filename = typeof value.filename === 'string' ? value.filename : undefined;
	if (typeof value.url === 'string' && value.url !== '') {
		if (!/^https?:\/\/\S+$/.test(value.url)) checks.add(`${field}.url must be a URL address`);
		return { mimetype, filename, url: value.url };
	}
	if (typeof value.data === 'string') {
		const decoded = decodeBase64Payload(value.data);
		if (!decoded) checks.add(`${field}.data must be base64 encoded`);
		return decoded && { mimetype, filename, data: decoded.data };
	}
	checks.add(`${field} must contain either url or data`);
	return undefined;
}

/**
 * Stores an uploaded picture in the session's files and returns its key. A remote URL is not
 * fetched (the simulator has no internet); a placeholder image stands in for it.
 */
export function storePicture(instance: Instance, input: FileInput, baseName: string): string {
	const data = input.data ?? avatarPng([100, 116, 139]);
	const mimetype = input.data ? input.mimetype : 'image/png';
	const key = `${baseName}.${extensionFor(mimetype)}`;
	instance.files.set(key, fileFromBuffer(mimetype, data));
	return key;
}

/** A URL for a file input: remote URLs stay as given, uploaded data is served by the simulator. */
export function fileInputUrl(
	baseUrl: string,
	instance: Instance,
	input: FileInput,
	baseName: string,
): string {
	return input.url ?? fileUrl(baseUrl, instance, storePicture(instance, input, baseName));
}
