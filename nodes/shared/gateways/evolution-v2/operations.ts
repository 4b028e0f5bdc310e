/**
 * The action node's operations on Evolution API v2 (2.3.6): its routes and bodies, as its own
 * routers and validation schemas have them. Each operation reads what the user asked with the
 * reader of its operation file, so the fields and their checks are the same on every gateway.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import {
	postText,
	readSendText,
	recipientOf,
} from '../../../MessagingGateway/actions/message/sendText.operation';
import { fieldError } from '../../../MessagingGateway/helpers/fields';
import type { GatewayOperations } from '../index';

/** The spec names contacts `…@s.messenger.net`; WhatsApp, and so Evolution API, `…@s.whatsapp.net`. */
function whatsappJid(jid: string): string {
	return jid.replace(/@s\.messenger\.net$/, '@s.whatsapp.net');
}

/** A message key as v2 reads it (its JIDs are WhatsApp's). */
function keyForV2(key: IDataObject): IDataObject {
	return typeof key.remoteJid === 'string'
		? { ...key, remoteJid: whatsappJid(key.remoteJid) }
		: key;
}

/** `POST /message/sendText/{instance}` `{number, text, delay?, linkPreview?, quoted?, mentioned?, mentionsEveryOne?}`. */
async function sendText(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const request = readSendText.call(this, itemIndex);
	// v2's send bodies have no presence: during the delay its service shows "composing" for texts.
	if (request.presence === 'recording') {
		throw fieldError.call(
			this,
			itemIndex,
			'Presence While Delaying cannot be recording on Evolution API v2: it shows "typing…" while it delays a text',
			'Remove Presence While Delaying or set it to Composing.',
		);
	}
	const number = await recipientOf.call(this, request, itemIndex);
	const body: IDataObject = { number, text: request.text };
	if (request.delay !== undefined) body.delay = request.delay;
	if (request.linkPreview !== undefined) body.linkPreview = request.linkPreview;
	if (request.quoted) body.quoted = { key: keyForV2(request.quoted) };
	if (request.mentioned.length > 0) body.mentioned = request.mentioned;
	if (request.mentionEveryone) body.mentionsEveryOne = true;
	return await postText.call(this, request, body, itemIndex);
}

export const evolutionV2Operations: GatewayOperations = {
	offered: {
		'message.sendText': sendText,
	},
	notOffered: {
		'channel.create':
			'Evolution API v2 has no channels (newsletters): it offers no route to create one.',
		'channel.search':
			'Evolution API v2 has no channels (newsletters): it offers no route to search them.',
		'group.refresh':
			'Evolution API v2 keeps no group cache to refresh: Group → Get Many reads the groups live.',
	},
};
