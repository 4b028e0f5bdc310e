/**
 * The Messaging Gateway API's instance-family requests as Evolution API v2 takes them. In the
 * core, not with v2's operations, because helpers/instance-send.ts turns every instance-family
 * request of the action node's operations with it, below the operations and their gateways.
 */
import type { IDataObject } from 'n8n-workflow';

import type { InstanceRequest } from '../index';
import { asObject } from '../../values';
import { evolutionV2SendBody, keyForV2, whatsappJid } from './send-bodies';

function keysForV2(keys: unknown): IDataObject[] {
	return Array.isArray(keys) ? keys.map((key) => keyForV2(key as IDataObject)) : [];
}

/**
 * The instance-family routes whose method or body v2.3.6 changed, keyed `<family>/<action>`:
 * five PUTs became POSTs, read receipts are `readMessages`, and every key names WhatsApp JIDs.
 */
const CHANGED_ROUTES: Record<string, (request: InstanceRequest) => InstanceRequest> = {
	'chat/markMessageAsRead': (request) => ({
		...request,
		method: 'POST',
		body: { readMessages: keysForV2(request.body?.read_messages) },
	}),
	'chat/updateMessage': (request) => ({
		...request,
		method: 'POST',
		body: { ...request.body, key: keyForV2((request.body?.key ?? {}) as IDataObject) },
	}),
	'chat/deleteMessageForEveryone': (request) => {
		const body = keyForV2(request.body ?? {});
		if (typeof body.participant === 'string') body.participant = whatsappJid(body.participant);
		return { ...request, body };
	},
	// v2 matches the chat exactly as stored: WhatsApp's JID, never the spec's.
	'chat/findStatusMessage': (request) => {
		const where = asObject(request.body?.where);
		if (typeof where?.remoteJid !== 'string') return request;
		return {
			...request,
			body: { ...request.body, where: { ...where, remoteJid: whatsappJid(where.remoteJid) } },
		};
	},
	'group/updateParticipant': (request) => ({ ...request, method: 'POST' }),
	'instance/restart': (request) => ({ ...request, method: 'POST' }),
	'label/handleLabel': (request) => ({ ...request, method: 'POST' }),
};

/**
 * A request of the Messaging Gateway API to an instance-family route (Evolution API v1's) as
 * Evolution API v2 takes it: sends get v2's flat bodies, changed routes their new method and
 * body; the others are the same on both.
 */
export function evolutionV2Request(request: InstanceRequest): InstanceRequest {
	const [family, action] = request.route.split('/');
	if (family === 'message') {
		return { ...request, body: evolutionV2SendBody(action, request.body ?? {}) };
	}
	return CHANGED_ROUTES[request.route]?.(request) ?? request;
}
