// Evolution API 2.3.6: the root, the credential check (verify-creds), instances (connect, state,
// restart, logout, presence) and the webhook configuration, as its index router, instance
// controller, Baileys service and WebhookController answer.
import type { RequestContext, Route } from '../core.cts';
import { evolutionError } from '../errors.cts';
import {
	EVOLUTION_V2_WEBHOOK_EVENTS,
	changeConnectionStateV2,
	newQrCodeV2,
	qrCodeOf,
	reconnectV2,
} from '../evolution-v2-events.cts';
import { newRecordId } from '../ids.cts';
import { fileUrlOrNull } from '../render.cts';
import type { Instance } from '../state.cts';
import { isObject } from '../validation.cts';
import { instanceAdminRoutes } from './instance-admin.cts';
import { bodyOf, keptRoute, refuseUnlessOpen, v2Route } from './evolution-v2-common.cts';

/** DATABASE_CONNECTION_CLIENT_NAME of 2.3.6's .env.example. */
const CLIENT_NAME = 'evolution_exchange';
/** When the seed instances were created (their rows' createdAt). */
const SEED_CREATED_AT = '2026-01-01T09:00:00.000Z';

/** The unauthenticated root: it says which release answers (the played one). */
function welcome(context: RequestContext) {
	return {
		status: 200,
		body: {
			status: 200,
			// 2.3.6's words (index.router.ts): a credential test tells Evolution API by them.
			message: 'Welcome to the Evolution API, it is working!',
			version: context.core.played.evolutionVersion,
			clientName: CLIENT_NAME,
			manager: `${context.core.baseUrl}/manager`,
			documentation: 'https://doc.evolution-api.com',
			whatsappWebVersion: '2.3000.1028959180',
		},
	};
}

/**
 * verifyCreds (index.router.ts): only the global key passes its apikey guard (no instance in the
 * path, so an instance's token is 401 too); the FACEBOOK_* settings it adds are unset in 2.3.6's
 * .env.example, so JSON leaves them out.
 */
function verifyCreds(context: RequestContext) {
	const global = context.apiKey !== undefined && context.apiKey === context.core.apiKey;
	context.setAuth(global ? 'valid' : context.apiKey === undefined ? 'missing' : 'invalid');
	if (!global) throw evolutionError.unauthorized();
	return { status: 200, body: { status: 200, message: 'Credentials are valid' } };
}

/** An instance's database row as fetchInstances returns it, with the relations it includes. */
function instanceRow(context: RequestContext, instance: Instance) {
	const connected = instance.wuid !== null;
	return {
		id: instance.instanceId,
		name: instance.name,
		connectionStatus: instance.state,
		ownerJid: instance.wuid,
		profileName: connected ? instance.profileName : null,
		profilePicUrl: connected
			? fileUrlOrNull(context.core.baseUrl, instance, instance.profilePictureFile)
			: null,
		integration: 'WHATSAPP-BAILEYS',
		number: null,
		businessId: null,
		token: instance.token,
		clientName: CLIENT_NAME,
		disconnectionReasonCode: null,
		disconnectionObject: null,
		disconnectionAt: null,
		createdAt: SEED_CREATED_AT,
		updatedAt: SEED_CREATED_AT,
		Chatwoot: null,
		Proxy: null,
		Rabbitmq: null,
		Nats: null,
		Sqs: null,
		Websocket: null,
		Setting: {
			id: `set${instance.instanceId.replace(/-/g, '').slice(0, 22)}`,
			rejectCall: false,
			msgCall: '',
			groupsIgnore: false,
			alwaysOnline: false,
			readMessages: false,
			readStatus: false,
			syncFullHistory: false,
			wavoipToken: '',
			createdAt: SEED_CREATED_AT,
			updatedAt: SEED_CREATED_AT,
			instanceId: instance.instanceId,
		},
		_count: {
			Message: [...instance.messages.values()].filter((message) => !message.revoked).length,
			Contact: instance.contacts.size,
			Chat: instance.chats.size,
		},
	};
}

const queryText = (value: string | string[] | undefined) =>
	Array.isArray(value) ? value[0] : value;

/**
 * fetchInstances: the global key sees every instance (`?instanceName=` or `?instanceId=` narrow it;
 * an unknown one is 404), an instance's token only the instances holding it (none: 401).
 */
function fetchInstances(context: RequestContext) {
	const instances = [...context.core.state.instances.values()];
	const key = context.apiKey;
	const global = key !== undefined && key === context.core.apiKey;
	const name = queryText(context.query.instanceName);
	const id = queryText(context.query.instanceId);
	const byToken = instances.filter(
		(instance) =>
			instance.token === key &&
			(!name || instance.name === name) &&
			(!id || instance.instanceId === id),
	);
	context.setAuth(
		global || byToken.length > 0 ? 'valid' : key === undefined ? 'missing' : 'invalid',
	);
	if (!global) {
		if (byToken.length === 0) throw evolutionError.unauthorized();
		return { status: 200, body: byToken.map((instance) => instanceRow(context, instance)) };
	}
	if (id && !instances.some((instance) => instance.instanceId === id))
		throw evolutionError.notFound(`Instance "${id}" not found`);
	if (name && !context.core.instance(name))
		throw evolutionError.notFound(`Instance "${name}" not found`);
	const visible = instances
		.filter((instance) => !name || instance.name === name)
		.filter((instance) => !id || instance.instanceId === id);
	return { status: 200, body: visible.map((instance) => instanceRow(context, instance)) };
}

const stateOf = (instance: Instance) => ({
	instance: { instanceName: instance.name, state: instance.state },
});

/**
 * connectToWhatsapp: an open instance answers its state; one that is pairing answers the QR code it
 * shows (no new one; `?number=` is only read when a connection starts); a closed one starts
 * connecting (CONNECTION_UPDATE), with a pairing code when `?number=` is given, and answers the
 * first QR code `{pairingCode, code, base64, count}`.
 */
function connect(context: RequestContext, instance: Instance) {
	if (instance.state === 'open') return { status: 200, body: stateOf(instance) };
	if (instance.state === 'connecting')
		return { status: 200, body: qrCodeOf(context.events, instance) };
	const number = queryText(context.query.number);
	changeConnectionStateV2(context.events, context.core.baseUrl, instance, 'connecting');
	return { status: 200, body: newQrCodeV2(context.events, instance, Boolean(number)) };
}

/**
 * restartInstance: a closed instance cannot restart, and the controller catches its own
 * BadRequestException into a 200 `{error: true, message}` of a plain object's toString(). An open
 * one closes its socket and connects again: it answers its state (still open) and announces the
 * reconnection (connecting, then open). One that is pairing answers its QR code and starts a new
 * socket, which shows a new code.
 */
function restart(context: RequestContext, instance: Instance) {
	const { events, core } = context;
	if (instance.state === 'close')
		return { status: 200, body: { error: true, message: '[object Object]' } };
	if (instance.state === 'open') {
		reconnectV2(events, core.baseUrl, instance);
		return { status: 200, body: stateOf(instance) };
	}
	const shown = qrCodeOf(events, instance);
	changeConnectionStateV2(events, core.baseUrl, instance, 'connecting');
	newQrCodeV2(events, instance, false);
	return { status: 200, body: shown };
}

/** setPresence: 201 `{presence}`; the socket refuses while the instance is not open. */
function setPresence(context: RequestContext, instance: Instance) {
	const body = bodyOf(context);
	refuseUnlessOpen(instance, (reason) => evolutionError.badRequest(reason));
	instance.presence = String(body.presence);
	return { status: 201, body: { presence: body.presence } };
}

interface WebhookRow {
	id: string;
	createdAt: string;
	updatedAt: string;
}

/** The parts of an instance's Webhook row the simulator's WebhookConfig does not hold. */
const webhookRows = new WeakMap<Instance, WebhookRow>();

function webhookRow(instance: Instance) {
	const config = instance.webhook;
	const row = webhookRows.get(instance);
	if (!config || !row) return null;
	return {
		id: row.id,
		url: config.url,
		headers: config.headers ?? null,
		enabled: config.enabled,
		events: config.events,
		webhookByEvents: config.webhook_by_events,
		webhookBase64: config.webhook_base64,
		createdAt: row.createdAt,
		updatedAt: row.updatedAt,
		instanceId: instance.instanceId,
	};
}

/**
 * WebhookController.set: `{webhook: {enabled, url, events, byEvents?, base64?, headers?}}` is upserted
 * into the instance's one Webhook row and the row answered (201, not wrapped). Disabled keeps the url
 * and clears the events; enabled with `[]` means every event; a field left out keeps its stored value
 * (byEvents and base64 default to false, headers to null). The controller reads `webhook.events`
 * unguarded: without `webhook`, or enabled without `events`, it fails with a TypeError (500).
 */
function setWebhook(context: RequestContext, instance: Instance) {
	const webhook = bodyOf(context).webhook;
	if (!isObject(webhook))
		throw evolutionError.of(500, "Cannot set properties of undefined (setting 'events')");
	const enabled = Boolean(webhook.enabled);
	if (enabled && !Array.isArray(webhook.events))
		throw evolutionError.of(500, "Cannot read properties of undefined (reading 'length')");
	const requested = enabled ? (webhook.events as string[]) : [];
	const previous = instance.webhook;
	const now = new Date().toISOString();
	const row = webhookRows.get(instance) ?? {
		id: `cm${newRecordId().slice(0, 23)}`,
		createdAt: now,
	};
	webhookRows.set(instance, { ...row, updatedAt: now });
	const headers = webhook.headers === undefined ? previous?.headers : webhook.headers;
	instance.webhook = {
		enabled,
		url: typeof webhook.url === 'string' ? webhook.url : (previous?.url ?? ''),
		events: enabled && requested.length === 0 ? [...EVOLUTION_V2_WEBHOOK_EVENTS] : requested,
		webhook_by_events: flag(webhook.byEvents, previous?.webhook_by_events),
		webhook_base64: flag(webhook.base64, previous?.webhook_base64),
		...(isObject(headers) ? { headers } : {}),
	};
	return { status: 201, body: webhookRow(instance) };
}

/** A flag the request left out keeps its stored value (false for a new row). */
function flag(given: unknown, stored: boolean | undefined): boolean {
	return given === undefined ? (stored ?? false) : given === true;
}

/** WebhookController.get: the row, or `null` when the instance never had one. */
function findWebhook(_context: RequestContext, instance: Instance) {
	return { status: 200, body: webhookRow(instance) };
}

export const evolutionV2InstanceRoutes: Route[] = [
	{ method: 'GET', pattern: '/', family: 'instance', handler: welcome },
	{ method: 'POST', pattern: '/verify-creds', family: 'instance', handler: verifyCreds },
	{
		method: 'GET',
		pattern: '/instance/fetchInstances',
		family: 'instance',
		handler: fetchInstances,
	},
	v2Route('GET', '/instance/connect/:instance', connect),
	keptRoute(instanceAdminRoutes, 'GET', '/instance/connectionState/:instance'),
	v2Route('POST', '/instance/restart/:instance', restart),
	keptRoute(instanceAdminRoutes, 'DELETE', '/instance/logout/:instance'),
	v2Route('POST', '/instance/setPresence/:instance', setPresence),
	v2Route('POST', '/webhook/set/:instance', setWebhook),
	v2Route('GET', '/webhook/find/:instance', findWebhook),
];
