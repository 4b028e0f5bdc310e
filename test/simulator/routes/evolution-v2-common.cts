// What every Evolution API 2.3.6 route shares: the guards and the validation its routers run before a
// controller, the number check of its Baileys service (whatsappNumber) and the send path every
// /message/send* takes (sendMessageWithTyping).
import type { Handler, RequestContext, Route } from '../core.cts';
import { evolutionError } from '../errors.cts';
import { storeOutgoingMessage } from '../events.cts';
import { v2MessageRaw } from '../evolution-v2-events.cts';
import { contactChatId, createJid, digitsOf, isGroupId, isLid, personOf } from '../ids.cts';
import { findMessage, type Instance, type MessageContent } from '../state.cts';
import type { EvolutionVersion } from '../types.cts';
import { isObject, type JsonObject } from '../validation.cts';
import { EVOLUTION_V2, checkEvolutionV2 } from '../../compatibility/evolution-v2.cts';
import type { SentRequest, Verdict } from '../../compatibility/verdicts.cts';
import { instanceGuard, requireConnected } from './guards.cts';
import { applySendDelay } from './instance-common.cts';
import { checkUsers, sortNumbers } from './instance-contacts.cts';

/**
 * Evolution 2.3.6's own request validation: the route its routers declare for the method and path,
 * the RouterBroker validator that route calls, and its JSON schema judged by `jsonschema` (its
 * validator), as test/compatibility/evolution-v2.cts restates them. The one place v2 routes ask.
 */
export function validateV2(request: SentRequest): Verdict {
	return checkEvolutionV2(request);
}

/**
 * Refuses what 2.3.6's routers refuse before a controller runs: no such route (404 as Express), or
 * a body its validator rejects (400). dataValidate nests its messages once more
 * (`[["instance requires property \"text\""]]`); the group validators list them flat.
 */
export function refuseInvalid(context: RequestContext): void {
	const verdict = validateV2({
		method: context.method,
		path: context.rawPath,
		query: context.query,
		body: context.body,
	});
	if (verdict.outcome === 'absent') throw evolutionError.routeNotFound(context.method, context.url);
	if (verdict.outcome === 'accepted') return;
	const route = EVOLUTION_V2.routes.find(
		(candidate) => `${candidate.method} ${candidate.path}` === verdict.endpoint,
	);
	throw route?.validator === 'dataValidate'
		? evolutionError.schema(verdict.reasons)
		: evolutionError.badRequest(...verdict.reasons);
}

/** A route of an instance: its guards (instance 404, then apikey 401), validation, then the handler. */
export function v2Route(
	method: string,
	pattern: string,
	handler: (context: RequestContext, instance: Instance) => ReturnType<Handler>,
): Route {
	return {
		method,
		pattern,
		family: 'instance',
		handler: (context) => {
			const instance = instanceGuard(context);
			refuseInvalid(context);
			return handler(context, instance);
		},
	};
}

/**
 * A v1 route whose behaviour 2.3.6 kept (its service code is the same): the v1 handler behind v2's
 * guards and validation, under 2.3.6's method when that changed, its answer reshaped where 2.3.6
 * adds to it.
 */
export function keptRoute(
	routes: Route[],
	v1Method: string,
	pattern: string,
	options: { method?: string; reshape?: (body: unknown) => unknown } = {},
): Route {
	const v1 = routes.find((route) => route.method === v1Method && route.pattern === pattern);
	if (!v1) throw new Error(`No v1 route ${v1Method} ${pattern} to keep`);
	const { method = v1Method, reshape } = options;
	return v2Route(method, pattern, async (context) => {
		const reply = await v1.handler(context);
		return reshape ? { ...reply, body: reshape(reply.body) } : reply;
	});
}

/**
 * Calls on a socket that is not open fail with Baileys' "Connection Closed", which each service
 * wraps in its own exception (`make` builds it from the error's toString()).
 */
export function refuseUnlessOpen(instance: Instance, make: (reason: string) => Error): void {
	if (instance.state !== 'open') throw make('Error: Connection Closed');
}

/** The body as 2.3.6's DTO sees it (Express gives `{}` when there is none). */
export function bodyOf(context: RequestContext): JsonObject {
	return isObject(context.body) ? context.body : {};
}

/** OnWhatsAppDto: `{jid, exists, number, name?, lid?}`. */
interface OnWhatsApp {
	jid: string;
	exists: boolean;
	number: string;
	name?: string;
	lid?: string;
}

/**
 * The `lid` of OnWhatsAppDto. A LID asked for is valid without asking the network, flagged with the
 * string `'lid'` (2.3.0: its domain, which is the same word). Only 2.3.0's Baileys fork asks the
 * network for a phone's LID too (USync), which answers it when the gateway knows the pair.
 */
function lidField(instance: Instance, jid: string, version: EvolutionVersion): string | undefined {
	if (isLid(jid)) return 'lid';
	if (version !== '2.3.0') return undefined;
	const phone = personOf(jid);
	return [...instance.lidPeople.values()].find((person) => person.phone === phone)?.lid;
}

/**
 * whatsappNumber: broadcasts, then groups (a group it cannot read is `exists: false`, where v1
 * crashed), then users checked on the network as v1 does, LIDs valid as they are (2.3.0 lists them
 * after the phones). The users' check needs the socket.
 */
export function whatsappNumberV2(
	instance: Instance,
	numbers: string[],
	version: EvolutionVersion = '2.3.6',
): OnWhatsApp[] {
	const { broadcasts, groups, users } = sortNumbers(numbers);
	const found = groups.map(({ jid, number }) => {
		const group = instance.state === 'open' ? instance.groups.get(jid) : undefined;
		return group
			? { jid: group.id, exists: true, number, name: group.subject }
			: { jid, exists: false, number };
	});
	if (users.length > 0) requireConnected(instance);
	const checked = checkUsers(instance, users).map(({ exists, jid, number, ...rest }) => {
		const name = 'name' in rest ? rest.name : undefined;
		const lid = exists ? lidField(instance, jid, version) : undefined;
		return { jid, exists, number, ...(name ? { name } : {}), ...(lid ? { lid } : {}) };
	});
	const lidsLast =
		version === '2.3.0'
			? [
					...checked.filter((user) => !isLid(user.jid)),
					...checked.filter((user) => isLid(user.jid)),
				]
			: checked;
	return [...broadcasts, ...found, ...lidsLast];
}

/** What a send asks besides its content (2.3.6's Metadata DTO). */
export interface SendMetadata {
	delay?: unknown;
	quoted?: unknown;
	mentioned?: unknown;
	mentionsEveryOne?: unknown;
}

export function metadataOf(body: JsonObject): SendMetadata {
	return {
		delay: body.delay,
		quoted: body.quoted,
		mentioned: body.mentioned,
		mentionsEveryOne: body.mentionsEveryOne,
	};
}

/**
 * sendMessageWithTyping: the number must be on the network (400 with its OnWhatsAppDto), the delay
 * is waited, mentions apply in groups only, a group the account cannot read fails inside its try and
 * is rethrown as `BadRequestException(error.toString())` of a plain object: `["[object Object]"]`.
 * The message is stored PENDING, announced with SEND_MESSAGE and answered 201 as prepareMessage
 * renders it.
 */
export async function sendV2(
	context: RequestContext,
	instance: Instance,
	number: unknown,
	metadata: SendMetadata,
	buildContent: () => MessageContent,
) {
	requireConnected(instance);
	const version = context.core.played.evolutionVersion;
	const [recipient] = whatsappNumberV2(instance, [String(number)], version);
	if (!recipient.exists && !isGroupId(recipient.jid)) throw evolutionError.badRequest(recipient);
	await applySendDelay(context, metadata.delay);
	const group = isGroupId(recipient.jid) ? instance.groups.get(recipient.jid) : undefined;
	if (isGroupId(recipient.jid) && !group) throw evolutionError.badRequest('[object Object]');
	const quotedKey =
		isObject(metadata.quoted) && isObject(metadata.quoted.key) ? metadata.quoted.key : undefined;
	const quoted =
		typeof quotedKey?.id === 'string' ? findMessage(instance, quotedKey.id) : undefined;
	const mentions = group
		? metadata.mentionsEveryOne === true
			? group.participants.map((participant) => participant.number)
			: Array.isArray(metadata.mentioned)
				? metadata.mentioned.map((mention) => digitsOf(createJid(String(mention))))
				: undefined
		: undefined;
	// A LID is its own chat: the message is stored (and answered) under it.
	const chatId = group
		? group.id
		: isLid(recipient.jid)
			? recipient.jid
			: contactChatId(recipient.jid.split('@')[0]);
	const message = storeOutgoingMessage(instance, chatId, buildContent(), {
		quotedId: quoted?.shortId,
		mentions,
	});
	context.core.gatewayEvents.message(context.events, context.core.baseUrl, instance, message);
	return {
		status: 201,
		body: v2MessageRaw(instance, message, context.core.baseUrl, undefined, version),
	};
}

/** When the seed rows were written (createdAt of contacts and chats, a profile status's setAt). */
export const SEED_ROW_DATE = '2026-01-01T09:00:00.000Z';
