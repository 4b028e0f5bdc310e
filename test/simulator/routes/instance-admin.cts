// Instance family (Evolution v1): instances, presence, groups, webhook configuration.
import type { RequestContext, Route } from '../core.cts';
import { evolutionError } from '../errors.cts';
import { changeConnectionState, emitQrCode, storeOutgoingMessage } from '../events.cts';
import { fileUrlOrNull } from '../render.cts';
import type { Instance } from '../state.cts';
import { assertEvolutionBody, assertEvolutionGroupBody, type Schema } from '../validation.cts';
import { DISABLED_WEBHOOK, WEBHOOK_EVENTS, isWebhookUrl } from '../webhooks.cts';
import { instanceGuard, requireConnected } from './guards.cts';
import { groupInfo, PRESENCES, resolveRecipient, withGroupSuffix } from './instance-common.cts';

const presenceSchema: Schema = {
	type: 'object',
	properties: { presence: { type: 'string', enum: PRESENCES } },
	required: ['presence'],
};

const webhookSchema: Schema = {
	type: 'object',
	properties: {
		url: { type: 'string' },
		events: { type: 'array', minItems: 0, items: { type: 'string', enum: WEBHOOK_EVENTS } },
	},
	required: ['url'],
};

const groupJidSchema: Schema = {
	type: 'object',
	properties: { groupJid: { type: 'string', pattern: '^[\\d-]+@g.us$' } },
	required: ['groupJid'],
};

const sendInviteSchema: Schema = {
	type: 'object',
	properties: {
		groupJid: { type: 'string', minLength: 1 },
		description: { type: 'string', minLength: 1 },
		numbers: {
			type: 'array',
			minItems: 1,
			// Digits, as the spec asks, or a LID (Evolution's own pattern is the unanchored `\d+`).
			items: { type: 'string', minLength: 10, pattern: '^(\\d+|\\d+(:\\d+)?@lid)$' },
		},
	},
	required: ['groupJid', 'description', 'numbers'],
};

function instanceSummary(context: RequestContext, instance: Instance) {
	const summary: Record<string, unknown> = {
		instanceName: instance.name,
		instanceId: instance.instanceId,
	};
	if (instance.wuid) {
		Object.assign(summary, {
			owner: instance.wuid,
			profileName: instance.profileName,
			profilePictureUrl: fileUrlOrNull(context.core.baseUrl, instance, instance.profilePictureFile),
			profileStatus: instance.profileStatus,
		});
	}
	Object.assign(summary, {
		status: instance.state,
		serverUrl: context.core.baseUrl,
		apikey: instance.token,
		integration: { integration: 'WHATSAPP-BAILEYS', token: instance.token },
	});
	return { instance: summary };
}

/** Evolution's unauthenticated root: handy to check that something answers at a base URL. */
function welcome() {
	return {
		status: 200,
		body: {
			status: 200,
			message: 'Welcome to the messaging gateway simulator, it is working!',
			version: '1.8.2',
		},
	};
}

/** Global key: every instance. An instance's own token: just that instance. */
function fetchInstances(context: RequestContext) {
	const instances = [...context.core.state.instances.values()];
	const byToken = instances.find((instance) => instance.token === context.apiKey);
	const global = context.apiKey !== undefined && context.apiKey === context.core.apiKey;
	context.setAuth(
		global || byToken ? 'valid' : context.apiKey === undefined ? 'missing' : 'invalid',
	);
	if (!global && !byToken) throw evolutionError.unauthorized();
	const wanted =
		typeof context.query.instanceName === 'string' ? context.query.instanceName : undefined;
	if (wanted !== undefined && !context.core.instance(wanted)) {
		throw evolutionError.notFound(`Instance "${wanted}" not found`);
	}
	const visible = instances
		.filter((instance) => global || instance === byToken)
		.filter((instance) => wanted === undefined || instance.name === wanted);
	return { status: 200, body: visible.map((instance) => instanceSummary(context, instance)) };
}

/**
 * Evolution v1: an open instance answers its state; any other starts (or goes on) pairing: a closed
 * one turns `connecting`, every call makes a new QR code (QRCODE_UPDATED) and answers it with the
 * pairing code and how many codes this pairing has made.
 */
function connectInstance(context: RequestContext) {
	const instance = instanceGuard(context);
	if (instance.state === 'open') {
		return { status: 200, body: { instance: { instanceName: instance.name, state: 'open' } } };
	}
	if (instance.state === 'close') changeConnectionState(context.events, instance, 'connecting');
	const qrcode = emitQrCode(context.events, instance);
	instance.qrCount = (instance.qrCount ?? 0) + 1;
	return { status: 200, body: { ...qrcode, count: instance.qrCount } };
}

/** Evolution v1: only an instance that is not closed can log out; it closes (CONNECTION_UPDATE close). */
function logoutInstance(context: RequestContext) {
	const instance = instanceGuard(context);
	if (instance.state === 'close') {
		throw evolutionError.badRequest(`The "${instance.name}" instance is not connected`);
	}
	context.core.gatewayEvents.connection(context.events, context.core.baseUrl, instance, 'close');
	instance.pairingCode = null;
	return {
		status: 200,
		body: { status: 'SUCCESS', error: false, response: { message: 'Instance logged out' } },
	};
}

function connectionState(context: RequestContext) {
	const instance = instanceGuard(context);
	return {
		status: 200,
		body: { instance: { instanceName: instance.name, state: instance.state } },
	};
}

/** A connected instance stays open; any other starts pairing again: CONNECTION_UPDATE + QRCODE_UPDATED. */
function restartInstance(context: RequestContext) {
	const instance = instanceGuard(context);
	if (instance.state !== 'open') {
		changeConnectionState(context.events, instance, 'connecting');
		emitQrCode(context.events, instance);
	}
	return { status: 200, body: { instance: { instance: instance.name, state: instance.state } } };
}

function setPresence(context: RequestContext) {
	const instance = instanceGuard(context);
	const body = assertEvolutionBody(context.body, presenceSchema);
	requireConnected(instance);
	instance.presence = String(body.presence);
	// Evolution's controller returns nothing: 201 with an empty body.
	return { status: 201 };
}

function findGroupInfos(context: RequestContext) {
	const instance = instanceGuard(context);
	const groupJid = typeof context.query.groupJid === 'string' ? context.query.groupJid : undefined;
	if (!groupJid) {
		throw evolutionError.badRequest(
			'The group id needs to be informed in the query',
			'ex: "groupJid=120362@g.us"',
		);
	}
	const body = assertEvolutionGroupBody({ groupJid: withGroupSuffix(groupJid) }, groupJidSchema);
	requireConnected(instance);
	const group = instance.groups.get(String(body.groupJid));
	if (!group) throw evolutionError.notFound('Error fetching group', 'Error: item-not-found');
	return { status: 200, body: groupInfo(context, instance, group) };
}

/** Sends `description` and the invite link as a text to every number; any failure is "No send invite". */
function sendInvite(context: RequestContext) {
	const instance = instanceGuard(context);
	const body = assertEvolutionGroupBody(context.body, sendInviteSchema);
	requireConnected(instance);
	const group = instance.groups.get(withGroupSuffix(String(body.groupJid)));
	if (!group) throw evolutionError.notFound('No send invite');
	let recipients: string[];
	try {
		recipients = (body.numbers as string[]).map((number) => resolveRecipient(instance, number));
	} catch {
		throw evolutionError.notFound('No send invite');
	}
	const inviteUrl = `https://chat.messenger.net/${group.inviteCode}`;
	for (const chatId of recipients) {
		const message = storeOutgoingMessage(instance, chatId, {
			type: 'text',
			text: `${body.description}\n\n${inviteUrl}`,
		});
		context.core.gatewayEvents.message(context.events, context.core.baseUrl, instance, message);
	}
	return { status: 200, body: { send: true, inviteUrl } };
}

/**
 * One webhook per instance, replaced on every call. `enabled` defaults to true; `enabled: false`
 * clears url and events; an empty event list means every event.
 */
function setWebhook(context: RequestContext) {
	const instance = instanceGuard(context);
	const body = assertEvolutionBody(context.body, webhookSchema);
	// Checked even when disabling, as Evolution does.
	if (!isWebhookUrl(body.url)) throw evolutionError.badRequest('Invalid "url" property');
	const enabled =
		body.enabled === undefined || body.enabled === null ? true : body.enabled !== false;
	const requested = Array.isArray(body.events) ? (body.events as string[]) : [];
	const url = enabled ? String(body.url) : '';
	const events = enabled ? (requested.length > 0 ? requested : [...WEBHOOK_EVENTS]) : [];
	instance.webhook = {
		enabled,
		url,
		events,
		webhook_by_events: body.webhook_by_events === true,
		webhook_base64: body.webhook_base64 === true,
	};
	// The answer echoes the optional flags only when they were sent.
	const response: Record<string, unknown> = { url, events, enabled };
	for (const key of ['webhook_by_events', 'webhook_base64'])
		if (key in body) response[key] = body[key];
	return { status: 201, body: { webhook: { instance: instance.name, webhook: response } } };
}

function findWebhook(context: RequestContext) {
	const instance = instanceGuard(context);
	return { status: 200, body: { ...(instance.webhook ?? DISABLED_WEBHOOK) } };
}

export const instanceAdminRoutes: Route[] = [
	{ method: 'GET', pattern: '/', family: 'instance', handler: welcome },
	{
		method: 'GET',
		pattern: '/instance/fetchInstances',
		family: 'instance',
		handler: fetchInstances,
	},
	{
		method: 'GET',
		pattern: '/instance/connect/:instance',
		family: 'instance',
		handler: connectInstance,
	},
	{
		method: 'GET',
		pattern: '/instance/connectionState/:instance',
		family: 'instance',
		handler: connectionState,
	},
	{
		method: 'DELETE',
		pattern: '/instance/logout/:instance',
		family: 'instance',
		handler: logoutInstance,
	},
	{
		method: 'PUT',
		pattern: '/instance/restart/:instance',
		family: 'instance',
		handler: restartInstance,
	},
	{
		method: 'POST',
		pattern: '/instance/setPresence/:instance',
		family: 'instance',
		handler: setPresence,
	},
	{
		method: 'GET',
		pattern: '/group/findGroupInfos/:instance',
		family: 'instance',
		handler: findGroupInfos,
	},
	{
		method: 'POST',
		pattern: '/group/sendInvite/:instance',
		family: 'instance',
		handler: sendInvite,
	},
	{ method: 'POST', pattern: '/webhook/set/:instance', family: 'instance', handler: setWebhook },
	{ method: 'GET', pattern: '/webhook/find/:instance', family: 'instance', handler: findWebhook },
];
