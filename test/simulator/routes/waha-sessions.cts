// WAHA 2026.x: sessions (src/api/sessions.controller.ts: a PUT replaces the whole config and restarts
// a running session), pairing (QR code, pairing code), the account's profile and the server version.
import type { Played, RequestContext, Route } from '../core.cts';
import { nestError } from '../errors.cts';
import { newInstanceId, newQrPayload, randomDigits, randomToken } from '../ids.cts';
import { qrCodePng } from '../png.cts';
import { fileUrlOrNull } from '../render.cts';
import { emptyInstance } from '../seed.cts';
import { ownerChatId, type Instance } from '../state.cts';
import { isObject } from '../validation.cts';
import {
	changeWahaStatus,
	meInfo,
	startWahaSession,
	wahaEnvironment,
	wahaSession,
} from '../waha-events.cts';
import { sessionAccountRoutes } from './session-account.cts';
import { keptWahaRoute, statusOf, wahaRoute, type WahaRequest } from './waha-common.cts';

const PATH = { session: 'path' } as const;
const WORKING_PATH = { session: 'path', status: 'WORKING' } as const;
const PAIRING_PATH = { session: 'path', status: 'SCAN_QR_CODE' } as const;

/**
 * The config of a session never given one: on NOWEB, the store the options play (`wahaStore`), as a
 * session started with `config.noweb.store` has it; on the other engines none.
 */
function seededConfig(played: Played) {
	if (played.wahaEngine !== 'NOWEB') return null;
	const store = { enabled: played.wahaStore, fullSync: played.wahaStore };
	return { noweb: { markOnline: true, store } };
}

/** SessionDTO: name, status, config. */
function sessionDto(context: RequestContext, instance: Instance) {
	const session = wahaSession(instance);
	const config = session.config ?? seededConfig(context.core.played);
	return { name: instance.name, status: session.status, config };
}

/** SessionInfo: the DTO with the account, presence and activity; GET of one adds the engine. */
function sessionInfo(context: RequestContext, instance: Instance) {
	return {
		...sessionDto(context, instance),
		me: meInfo(instance) ?? null,
		assignedWorker: '',
		presence: null,
		timestamps: { activity: null },
	};
}

/** NotFoundException('Session not found') of the sessions controller (not the pipes' longer text). */
function sessionOrNotFound(context: RequestContext, name: string): Instance {
	const instance = context.core.instance(name);
	if (!instance) throw nestError.notFound('Session not found');
	return instance;
}

function isRunning(instance: Instance): boolean {
	return statusOf(instance) !== 'STOPPED';
}

function listSessions(context: RequestContext, request: WahaRequest) {
	const all = request.query.all === 'true';
	const sessions = [...context.core.state.instances.values()]
		.filter((instance) => all || isRunning(instance))
		.map((instance) => sessionInfo(context, instance));
	return { status: 200, body: sessions };
}

function createSession(context: RequestContext, request: WahaRequest) {
	const body = request.body;
	const name =
		typeof body.name === 'string' ? body.name : `session_${randomToken(26).toLowerCase()}`;
	if (context.core.instance(name))
		throw nestError.unprocessable(`Session '${name}' already exists. Use PUT to update it.`);
	const instance = emptyInstance({
		name,
		instanceId: newInstanceId(),
		token: randomToken(32),
		state: 'close',
		ownerNumber: `5511987${randomDigits(6)}`,
		profileName: name,
	});
	context.core.state.instances.set(name, instance);
	const session = wahaSession(instance);
	session.config = isObject(body.config) ? body.config : undefined;
	// SessionCreateRequest.start defaults to true.
	if (body.start !== false) startWahaSession(context.events, instance);
	return { status: 201, body: sessionDto(context, instance) };
}

/** The new config replaces the old one as a whole; a running session is restarted with it. */
function updateSession(context: RequestContext, request: WahaRequest) {
	const instance = sessionOrNotFound(context, context.params.session);
	const running = isRunning(instance);
	if (running) changeWahaStatus(context.events, instance, 'STOPPED');
	wahaSession(instance).config = isObject(request.body.config) ? request.body.config : undefined;
	if (running) startWahaSession(context.events, instance);
	return { status: 200, body: sessionDto(context, instance) };
}

function deleteSession(context: RequestContext) {
	const instance = context.core.instance(context.params.session);
	if (instance) {
		if (isRunning(instance)) changeWahaStatus(context.events, instance, 'STOPPED');
		context.core.state.instances.delete(instance.name);
	}
	return { status: 200 };
}

function startSession(context: RequestContext) {
	const instance = sessionOrNotFound(context, context.params.session);
	// Idempotent: a running session stays as it is.
	if (!isRunning(instance)) startWahaSession(context.events, instance);
	return { status: 201, body: sessionDto(context, instance) };
}

function stopSession(context: RequestContext) {
	const instance = sessionOrNotFound(context, context.params.session);
	if (isRunning(instance)) changeWahaStatus(context.events, instance, 'STOPPED');
	return { status: 201, body: sessionDto(context, instance) };
}

function logoutSession(context: RequestContext) {
	const instance = sessionOrNotFound(context, context.params.session);
	const running = isRunning(instance);
	if (running) changeWahaStatus(context.events, instance, 'STOPPED');
	wahaSession(instance).authenticated = false;
	instance.wuid = null;
	if (running) startWahaSession(context.events, instance);
	return { status: 201, body: sessionDto(context, instance) };
}

function restartSession(context: RequestContext) {
	const instance = sessionOrNotFound(context, context.params.session);
	if (isRunning(instance)) changeWahaStatus(context.events, instance, 'STOPPED');
	startWahaSession(context.events, instance);
	return { status: 201, body: sessionDto(context, instance) };
}

/**
 * The QR code of a session waiting for one: `format=raw` gives its value; `format=image` (the
 * default) a PNG, or `{mimetype, data}` when the client asks for JSON alone (`Accept:
 * application/json`, BufferResponseInterceptor); axios' default Accept list gets the PNG.
 */
function getQr(context: RequestContext, request: WahaRequest, instance: Instance) {
	const session = wahaSession(instance);
	session.qr ??= newQrPayload();
	if (request.query.format === 'raw') return { status: 200, body: { value: session.qr } };
	const png = qrCodePng(session.qr);
	const accept = String(context.headers.accept ?? '')
		.trim()
		.toLowerCase();
	if (accept === 'application/json')
		return { status: 200, body: { mimetype: 'image/png', data: png.toString('base64') } };
	return { status: 200, raw: png, contentType: 'image/png' };
}

function getMe(_context: RequestContext, _request: WahaRequest, instance: Instance) {
	const me = meInfo(instance);
	// null is sent by Nest as an empty body.
	return me ? { status: 200, body: me } : { status: 200 };
}

function getProfile(context: RequestContext, _request: WahaRequest, instance: Instance) {
	return {
		status: 200,
		body: {
			id: ownerChatId(instance),
			name: instance.profileName,
			picture: fileUrlOrNull(context.core.baseUrl, instance, instance.profilePictureFile),
		},
	};
}

const version = (context: RequestContext) => ({
	status: 200,
	body: wahaEnvironment(context.core.played.wahaEngine),
});

/** GET /ping: WAHA's liveness answer, without a key. */
const pingRoute: Route = {
	method: 'GET',
	pattern: '/ping',
	family: 'session',
	handler: () => ({ status: 200, body: { message: 'pong' } }),
};

export const wahaSessionRoutes: Route[] = [
	wahaRoute('GET', '/api/sessions', listSessions),
	wahaRoute('POST', '/api/sessions', createSession),
	wahaRoute('GET', '/api/sessions/:session', (context) => ({
		status: 200,
		body: {
			...sessionInfo(context, sessionOrNotFound(context, context.params.session)),
			engine: { engine: context.core.played.wahaEngine },
		},
	})),
	wahaRoute('PUT', '/api/sessions/:session', updateSession),
	wahaRoute('DELETE', '/api/sessions/:session', deleteSession),
	wahaRoute('POST', '/api/sessions/:session/start', startSession),
	wahaRoute('POST', '/api/sessions/:session/stop', stopSession),
	wahaRoute('POST', '/api/sessions/:session/logout', logoutSession),
	wahaRoute('POST', '/api/sessions/:session/restart', restartSession),
	wahaRoute('GET', '/api/sessions/:session/me', getMe, PATH),
	wahaRoute('GET', '/api/:session/auth/qr', getQr, PAIRING_PATH),
	keptWahaRoute(sessionAccountRoutes, 'POST', '/api/:session/auth/request-code', PAIRING_PATH),
	wahaRoute('GET', '/api/:session/profile', getProfile, WORKING_PATH),
	wahaRoute(
		'PUT',
		'/api/:session/profile/name',
		(_context, request, instance) => {
			instance.profileName = String(request.body.name);
			return { status: 200, body: { success: true } };
		},
		WORKING_PATH,
	),
	wahaRoute(
		'PUT',
		'/api/:session/profile/status',
		(_context, request, instance) => {
			instance.profileStatus = String(request.body.status);
			return { status: 200, body: { success: true } };
		},
		WORKING_PATH,
	),
	keptWahaRoute(sessionAccountRoutes, 'PUT', '/api/:session/profile/picture', WORKING_PATH),
	keptWahaRoute(sessionAccountRoutes, 'DELETE', '/api/:session/profile/picture', WORKING_PATH),
	// PresenceController.setPresence: the account's presence, or its typing in one chat; 201, no body.
	wahaRoute(
		'POST',
		'/api/:session/presence',
		(_context, request, instance) => {
			if (request.body.chatId === undefined) instance.presence = String(request.body.presence);
			return { status: 201 };
		},
		WORKING_PATH,
	),
	wahaRoute('GET', '/api/server/version', version),
	wahaRoute('GET', '/api/version', version),
	pingRoute,
];
