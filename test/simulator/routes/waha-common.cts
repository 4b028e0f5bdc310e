// What every WAHA 2026.x route shares: the API key guard (before anything, as WAHA's auth runs before
// its router), the request validation of its DTOs (judged by checkWaha against its published OpenAPI
// document), the session lookups of its session pipes, and the file inputs of its send DTOs.
import type { Handler, RequestContext, Route } from '../core.cts';
import { nestError } from '../errors.cts';
import { normaliseChatId, isGroupId, CHANNEL_SUFFIX } from '../ids.cts';
import {
	decodeBase64Payload,
	extensionFor,
	fileFromBuffer,
	mediaTypeFor,
	samplePdf,
	samplePhoto,
} from '../media.cts';
import type { StoredFile } from '../media.cts';
import type { Instance, MessageContent } from '../state.cts';
import { isObject, type JsonObject } from '../validation.cts';
import { WAHA_EVENTS } from '../webhooks.cts';
import { wahaSession, type WahaStatus } from '../waha-events.cts';
import { WAHA, checkWaha } from '../../compatibility/waha.cts';
import type { SentRequest, Verdict } from '../../compatibility/verdicts.cts';
import { matchTemplate } from '../../compatibility/verdicts.cts';
import { sessionKeyGuard } from './guards.cts';

/** WAHA's SessionBaseRequest and SessionQuery: `session: string = 'default'`. */
export const DEFAULT_SESSION = 'default';

type Operation = (typeof WAHA.paths)[string][string];

function operationOf(request: SentRequest): Operation | undefined {
	const matched = matchTemplate(request.path, Object.keys(WAHA.paths));
	return matched ? WAHA.paths[matched.template][request.method.toLowerCase()] : undefined;
}

/**
 * The request as WAHA's validation pipe sees it: its query DTOs' initializers fill the parameters
 * left out (`format = 'image'`, `session = 'default'`, `limit = 10`), and SessionBaseRequest's the
 * body's `session`. The OpenAPI document marks these as required because they are not optional in
 * the class; WAHA accepts requests without them.
 */
export function withWahaDefaults(request: SentRequest): SentRequest {
	const operation = operationOf(request);
	if (!operation) return request;
	const query = { ...request.query };
	for (const parameter of operation.parameters ?? []) {
		const fallback = parameter.schema?.default;
		if (parameter.in !== 'query' || fallback === undefined || query[parameter.name] !== undefined)
			continue;
		query[parameter.name] = Array.isArray(fallback) ? fallback.map(String) : String(fallback);
	}
	const bodySchema = operation.requestBody?.content['application/json']?.schema;
	const ref = typeof bodySchema?.$ref === 'string' ? bodySchema.$ref.split('/').pop() : undefined;
	const required = ref ? (WAHA.components.schemas[ref]?.required as string[] | undefined) : [];
	let body = request.body;
	if (isObject(body) && required?.includes('session') && body.session === undefined)
		body = { ...body, session: DEFAULT_SESSION };
	return { ...request, query, body };
}

const EVENT_ITEM_TYPE = /^body\.config\.webhooks\.\d+\.events\.\d+ must be object$/;

/**
 * `WebhookConfig.events` is `@IsEnum(WAHAEvents, {each: true})` in WAHA, which its OpenAPI document
 * renders as items of type object: the names are checked against the enum here instead.
 */
function webhookEventReasons(body: unknown): string[] {
	const config = isObject(body) && isObject(body.config) ? body.config : undefined;
	const webhooks = Array.isArray(config?.webhooks) ? config.webhooks : [];
	const allowed: readonly string[] = [...WAHA_EVENTS, '*'];
	return webhooks.flatMap((webhook, index) => {
		const events = isObject(webhook) && Array.isArray(webhook.events) ? webhook.events : [];
		return events
			.map((event, position) =>
				typeof event === 'string' && allowed.includes(event)
					? undefined
					: `body.config.webhooks.${index}.events.${position} must be one of the WAHA events or "*"`,
			)
			.filter((reason): reason is string => reason !== undefined);
	});
}

/**
 * How the WAHA mode judges a request: checkWaha on the request with WAHA's defaults filled in, the
 * webhook event names checked against WAHA's list. Tests judge what they sent with the same call.
 */
export function judgeWaha(request: SentRequest): Verdict {
	const filled = withWahaDefaults(request);
	const verdict = checkWaha(filled);
	if (verdict.outcome === 'absent') return verdict;
	const reasons = [
		...(verdict.outcome === 'rejected'
			? verdict.reasons.filter((reason) => !EVENT_ITEM_TYPE.test(reason))
			: []),
		...webhookEventReasons(filled.body),
	];
	return reasons.length === 0
		? { outcome: 'accepted', endpoint: verdict.endpoint }
		: { outcome: 'rejected', endpoint: verdict.endpoint, reasons };
}

/** The request as the handlers read it: WAHA's defaults filled in. */
export interface WahaRequest {
	query: Record<string, string | string[]>;
	body: JsonObject;
}

export interface WahaRouteOptions {
	/** Where the session is named; handlers without one get no instance. */
	session?: 'path' | 'body' | 'query';
	/** The status the session pipe waits for (WorkingSessionParam, QRCodeSessionParam): 422 otherwise. */
	status?: WahaStatus;
}

/** The status of a WAHA session: its own record (FAILED and STARTING included). */
export function statusOf(instance: Instance): WahaStatus {
	return wahaSession(instance).status;
}

export function findWahaSession(context: RequestContext, name: string): Instance {
	const instance = context.core.instance(name);
	if (!instance) throw nestError.sessionNotFound(name);
	return instance;
}

export function requireWahaStatus(instance: Instance, expected: WahaStatus): void {
	const status = statusOf(instance);
	if (status !== expected) throw nestError.sessionStatus(instance.name, status, [expected]);
}

function firstValue(value: string | string[] | undefined): string | undefined {
	return Array.isArray(value) ? value[0] : value;
}

export type WahaHandler = (
	context: RequestContext,
	request: WahaRequest,
	instance: Instance,
) => ReturnType<Handler>;

/**
 * A WAHA route: the key (401), then the DTOs' validation (404 for a path WAHA does not have, 400
 * with the reasons), then the session (404) and its status (422), then the handler.
 */
export function wahaRoute(
	method: string,
	pattern: string,
	handler: WahaHandler,
	options: WahaRouteOptions = {},
): Route {
	return {
		method,
		pattern,
		family: 'session',
		handler: (context) => {
			sessionKeyGuard(context);
			const sent = {
				method: context.method,
				path: context.rawPath,
				query: context.query,
				body: context.body,
			};
			const verdict = judgeWaha(sent);
			if (verdict.outcome === 'absent')
				throw nestError.routeNotFound(context.method, context.rawPath);
			if (verdict.outcome === 'rejected') throw nestError.validation(verdict.reasons);
			const filled = withWahaDefaults(sent);
			const request: WahaRequest = {
				query: filled.query,
				body: isObject(filled.body) ? filled.body : {},
			};
			const name =
				options.session === 'path'
					? context.params.session
					: options.session === 'query'
						? firstValue(request.query.session)
						: options.session === 'body'
							? String(request.body.session ?? DEFAULT_SESSION)
							: undefined;
			// Handlers without a session still get a value; they do not read it.
			const instance =
				name === undefined ? (undefined as unknown as Instance) : findWahaSession(context, name);
			if (name !== undefined && options.status) requireWahaStatus(instance, options.status);
			// Reused session-family handlers read what WAHA's pipe made of the body.
			context.body = filled.body;
			context.query = filled.query;
			return handler(context, request, instance);
		},
	};
}

/**
 * A session-family handler whose answer WAHA's route gives as well, behind WAHA's key, validation,
 * session and status checks.
 */
export function keptWahaRoute(
	routes: Route[],
	method: string,
	pattern: string,
	options: WahaRouteOptions & { reshape?: (body: unknown) => unknown } = {},
): Route {
	const kept = routes.find((route) => route.method === method && route.pattern === pattern);
	if (!kept) throw new Error(`No session-family route ${method} ${pattern} to keep`);
	return wahaRoute(
		method,
		pattern,
		async (context) => {
			const reply = await kept.handler(context);
			return options.reshape ? { ...reply, body: options.reshape(reply.body) } : reply;
		},
		options,
	);
}

/** A chat the session can write to: a contact (`@c.us`, `@s.whatsapp.net` or digits), a group it is in, its channel. */
export function wahaChat(instance: Instance, value: unknown): string {
	const chatId = typeof value === 'string' ? normaliseChatId(value) : undefined;
	if (!chatId) throw nestError.validation([`chatId must be a chat id such as 11111111111@c.us`]);
	if (isGroupId(chatId) && !instance.groups.has(chatId))
		throw nestError.notFound('Group not found');
	if (chatId.endsWith(CHANNEL_SUFFIX) && !instance.channels.has(chatId))
		throw nestError.notFound('Channel not found');
	return chatId;
}

/**
 * A RemoteFile `{mimetype, url, filename}` or BinaryFile `{mimetype, data, filename}` stored in the
 * session's files. A URL is not fetched (no internet): a sample PDF stands in for documents, the
 * sample photo for anything else.
 */
export function storeWahaFile(
	instance: Instance,
	file: JsonObject,
	baseName: string,
	fallbackMimetype: string,
): { key: string; stored: StoredFile; filename?: string } {
	const mimetype = typeof file.mimetype === 'string' ? file.mimetype : fallbackMimetype;
	let stored: StoredFile;
	if (typeof file.data === 'string') {
		const decoded = decodeBase64Payload(file.data);
		if (!decoded) throw nestError.validation(['file.data must be base64 encoded']);
		stored = fileFromBuffer(mimetype, decoded.data);
	} else if (mimetype === 'application/pdf') {
		stored = samplePdf('Simulated document');
	} else {
		const photo = samplePhoto();
		stored = mimetype.startsWith('image/') ? photo : fileFromBuffer(mimetype, photo.data);
	}
	const key = `${baseName}.${extensionFor(stored.mimetype)}`;
	instance.files.set(key, stored);
	const filename = typeof file.filename === 'string' ? file.filename : undefined;
	return { key, stored, filename };
}

/** Media content of a send: the stored file, its type, caption and name. */
export function mediaContent(
	instance: Instance,
	file: JsonObject,
	baseName: string,
	options: { caption?: unknown; fallbackMimetype: string; ptt?: boolean; document?: boolean },
): MessageContent {
	const { key, stored, filename } = storeWahaFile(
		instance,
		file,
		baseName,
		options.fallbackMimetype,
	);
	return {
		type: 'media',
		mediaType: options.document ? 'documentMessage' : mediaTypeFor(stored.mimetype),
		file: key,
		fileName: filename ?? key,
		mimetype: stored.mimetype,
		caption: typeof options.caption === 'string' ? options.caption : '',
		ptt: options.ptt,
	};
}

/** NowebInMemoryStore's errorMessage: what NOWEB answers a read of its store when the store is off. */
const NO_STORE =
	'Enable NOWEB store "config.noweb.store.enabled=True" and "config.noweb.store.full_sync=True" when starting a new session. ' +
	'Read more: https://waha.devlike.pro/docs/engines/noweb#store';

/** NOWEB without its store answers a read of it 400 (a BadRequestException). */
export function requireNowebStore(context: RequestContext): void {
	const { wahaEngine, wahaStore } = context.core.played;
	if (wahaEngine === 'NOWEB' && !wahaStore) throw nestError.of(400, NO_STORE);
}
