import type { IDataObject } from 'n8n-workflow';

import { asObject } from '../../values';

/** The spec names contacts `…@s.messenger.net`; WhatsApp, and so Evolution API, `…@s.whatsapp.net`. */
export function whatsappJid(jid: string): string {
	return jid.replace(/@s\.messenger\.net$/, '@s.whatsapp.net');
}

/** A message key as v2 reads it (its JIDs are WhatsApp's). */
export function keyForV2(key: IDataObject): IDataObject {
	return typeof key.remoteJid === 'string'
		? { ...key, remoteJid: whatsappJid(key.remoteJid) }
		: key;
}

/** A part of a body as an object; none is an empty one. */
function part(value: unknown): IDataObject {
	return asObject(value) ?? {};
}

/**
 * What each send's content (Evolution v1's wrapper object, as the Messaging Gateway API takes it)
 * is in v2's flat body, by endpoint. v2 requires a location's name and address and a list's
 * footer: empty when not given.
 */
const CONTENT: Record<string, (v1: IDataObject) => IDataObject> = {
	sendText: (v1) => ({ text: part(v1.textMessage).text }),
	sendLocation: (v1) => ({ name: '', address: '', ...part(v1.locationMessage) }),
	sendContact: (v1) => ({ contact: v1.contactMessage }),
	sendList: (v1) => ({ footerText: '', ...part(v1.listMessage) }),
	sendMedia: (v1) => ({ ...part(v1.mediaMessage) }),
	sendWhatsAppAudio: (v1) => ({ audio: part(v1.audioMessage).audio }),
	sendSticker: (v1) => ({ sticker: part(v1.stickerMessage).image }),
	sendStatus: (v1) => {
		const status = part(v1.statusMessage);
		return Array.isArray(status.statusJidList)
			? { ...status, statusJidList: status.statusJidList.map((jid) => whatsappJid(String(jid))) }
			: status;
	},
};

/**
 * A `/message/<endpoint>` body of the Messaging Gateway API (`{number, options?, <wrapper>}`) as
 * Evolution API v2 takes it: flat, with v1's options as v2's own fields (`delay`, `quoted`,
 * `linkPreview`, `mentioned`, `mentionsEveryOne`, `encoding`). v2 has no presence field: its
 * service shows typing (recording for audio) while it delays by itself.
 */
export function evolutionV2SendBody(endpoint: string, v1: IDataObject): IDataObject {
	const content = CONTENT[endpoint];
	if (!content) throw new Error(`No Evolution API v2 body for /message/${endpoint}`);
	const options = part(v1.options);
	// A status goes to no chat: it has no number.
	const body: IDataObject =
		v1.number === undefined ? content(v1) : { number: v1.number, ...content(v1) };
	if (options.delay !== undefined) body.delay = options.delay;
	if (options.linkPreview !== undefined) body.linkPreview = options.linkPreview;
	if (options.encoding !== undefined) body.encoding = options.encoding;
	const quoted = part(options.quoted);
	if (quoted.key) body.quoted = { ...quoted, key: keyForV2(part(quoted.key)) };
	const mentions = part(options.mentions);
	if (Array.isArray(mentions.mentioned)) body.mentioned = mentions.mentioned;
	if (mentions.everyOne === true) body.mentionsEveryOne = true;
	return body;
}
