// WhatsApp Business labels, as each gateway the simulator plays has them: Evolution API 1.8.2's and
// 2.3.6's /label routes (label.router.ts: findLabels, handleLabel, the Baileys service's fetchLabels()
// and handleLabel()) and WAHA's /api/{session}/labels routes (labels.controller.ts, NOWEB's session and
// store; GOWS' own chat list). The labels and each chat's label ids are the account's (state.cts:
// `labelsOf`, `chatLabelIds`), the same whichever gateway changes them. Registered in dialects.cts
// (spec), evolution-v2.cts and waha.cts.
import type { RequestContext, Route } from '../core.cts';
import { evolutionError, nestError } from '../errors.cts';
import { chatIdToJid, isGroupId, normaliseChatId } from '../ids.cts';
import {
	chatLabelIds,
	chatsWithLabel,
	labelChat,
	labelsOf,
	messagesOfChat,
	type Instance,
	type Label,
} from '../state.cts';
import type { JsonObject } from '../validation.cts';
import type { WahaEvent } from '../webhooks.cts';
import { bodyOf, v2Route, whatsappNumberV2 } from './evolution-v2-common.cts';
import { instanceGuard } from './guards.cts';
import { assertEvolutionV1Validation } from './instance-common.cts';
import { whatsappNumber } from './instance-contacts.cts';
import { requireNowebStore, wahaRoute, type WahaRequest } from './waha-common.cts';

/**
 * The chat a label association names, as the simulator keeps chats (`…@c.us`, a group, a LID),
 * from a JID or chat id in any spelling; anything else is kept as given (WhatsApp takes it).
 */
export function labelChatId(value: string): string {
	return normaliseChatId(value) ?? value;
}

// ---------------------------------------------------------------------------------------------
// Evolution API 1.8.2 and 2.3.6
// ---------------------------------------------------------------------------------------------

/** OnWhatsAppDto as handleLabel reads it. */
interface OnWhatsApp {
	jid: string;
	exists: boolean;
}

/**
 * handleLabel after the number check (the same code in 1.8.2 and 2.3.6): nothing answered → 404
 * `Number not found`, `exists: false` → 404 `Number is not on WhatsApp`, else Baileys'
 * addChatLabel / removeChatLabel on the JID answered. Baileys sends that app-state patch without
 * looking the label up, and WhatsApp takes it: an unknown label id is added (or removed) as well.
 * (A patch that failed would answer 400 `["Unable to add label to chat", "<error>"]`, "remove" for
 * a removal: nothing here makes it fail.) Both releases run Baileys with emitOwnEvents off, so no
 * LABELS_ASSOCIATION is delivered; 2.3.6 also writes the chat's labels (Chat.labels).
 */
function changeChatLabel(found: OnWhatsApp | undefined, instance: Instance, body: JsonObject) {
	if (!found) throw evolutionError.notFound('Number not found');
	if (!found.exists) throw evolutionError.notFound('Number is not on WhatsApp');
	const labelId = String(body.labelId);
	const add = body.action === 'add';
	labelChat(instance, labelChatId(found.jid), labelId, add);
	return {
		status: 200,
		body: add
			? { numberJid: found.jid, labelId, add: true }
			: { numberJid: found.jid, labelId, remove: true },
	};
}

/** fetchLabels of 1.8.2: the stored labels, `color` a number, `predefinedId` left out when none. */
function findLabelsV1(context: RequestContext) {
	const instance = instanceGuard(context);
	const labels = [...labelsOf(instance).values()].map((label) => ({
		color: label.color,
		name: label.name,
		id: label.id,
		...(label.predefinedId !== undefined ? { predefinedId: label.predefinedId } : {}),
	}));
	return { status: 200, body: labels };
}

/**
 * PUT handleLabel (1.8.2): handleLabelSchema (the restatement in the compatibility reference,
 * judged by jsonschema as Evolution does), then whatsappNumber on the one number, which needs the
 * socket (500 `Connection Closed`) and crashes on a group it cannot read (500), then
 * changeChatLabel.
 */
function handleLabelV1(context: RequestContext) {
	const instance = instanceGuard(context);
	assertEvolutionV1Validation(context);
	const body = context.body as JsonObject;
	const [found] = whatsappNumber(instance, [String(body.number)]);
	return changeChatLabel(found, instance, body);
}

export const evolutionV1LabelRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/label/findLabels/:instance',
		family: 'instance',
		handler: findLabelsV1,
	},
	{
		method: 'PUT',
		pattern: '/label/handleLabel/:instance',
		family: 'instance',
		handler: handleLabelV1,
	},
];

/**
 * 2.3.6: the Label rows (`color` is a text column, `predefinedId` null when none, `id` the label's
 * own id, not the row's), and POST handleLabel (2.3.6's handleLabelSchema, with its "cannot be
 * empty"), whose number check is whatsappNumber's: a group the account cannot read is
 * `exists: false` there, users need the socket.
 */
export const evolutionV2LabelRoutes: Route[] = [
	v2Route('GET', '/label/findLabels/:instance', (_context, instance) => ({
		status: 200,
		body: [...labelsOf(instance).values()].map((label) => ({
			color: String(label.color),
			name: label.name,
			id: label.id,
			predefinedId: label.predefinedId ?? null,
		})),
	})),
	v2Route('POST', '/label/handleLabel/:instance', (context, instance) => {
		const body = bodyOf(context);
		const version = context.core.played.evolutionVersion;
		const [found] = whatsappNumberV2(instance, [String(body.number)], version);
		return changeChatLabel(found, instance, body);
	}),
];

// ---------------------------------------------------------------------------------------------
// WAHA 2026.x
// ---------------------------------------------------------------------------------------------

/** WAHA's label colours (labels.dto.ts `Colors`): `color` is the index. */
export const WAHA_LABEL_COLOURS = [
	'#ff9485',
	'#64c4ff',
	'#ffd429',
	'#dfaef0',
	'#99b6c1',
	'#55ccb3',
	'#ff9dff',
	'#d3a91d',
	'#6d7cce',
	'#d7e752',
	'#00d0e2',
	'#ffc5c7',
	'#93ceac',
	'#f74848',
	'#00a0f2',
	'#83e422',
	'#ffaf04',
	'#b5ebff',
	'#9ba6ff',
	'#9368cf',
] as const;

/** Label.toHex: `#000000` past the table, nothing (left out of the JSON) for no index of it. */
function colourHex(color: number): string | undefined {
	return color >= WAHA_LABEL_COLOURS.length ? '#000000' : WAHA_LABEL_COLOURS[color];
}

/** WAHA's Label `{id, name, color, colorHex}` (toLabel). */
function wahaLabel(label: Label) {
	return { id: label.id, name: label.name, color: label.color, colorHex: colourHex(label.color) };
}

const WORKING_PATH = { session: 'path', status: 'WORKING' } as const;

/**
 * What the engine announces: NOWEB (and GOWS) see their own app-state patches come back
 * (`labels.edit`, `labels.association`) and raise label.upsert / label.deleted /
 * label.chat.added / label.chat.deleted from them; WEBJS raises none of the four.
 */
function announce(
	context: RequestContext,
	instance: Instance,
	event: Extract<WahaEvent, `label.${string}`>,
	payload: unknown,
) {
	if (context.core.played.wahaEngine === 'WEBJS') return;
	context.events.emit(instance, event, payload);
}

/** class-validator's isHexColor. */
const HEX_COLOUR = /^#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/**
 * LabelBody's checks beyond the OpenAPI types (`@IsHexColor()`: 400), then toDTO(): exactly one
 * of `color` and `colorHex` (422 `Use either 'color' or 'colorHex'`, 422 `'color' or 'colorHex'
 * is required`), a `colorHex` from the table (422 `Invalid 'colorHex'. Possible values: …`).
 */
function labelDto(request: WahaRequest): { name: string; color: number } {
	const { name, color, colorHex } = request.body;
	if (typeof colorHex === 'string' && !HEX_COLOUR.test(colorHex))
		throw nestError.validation(['colorHex must be a hexadecimal color']);
	if (color != null && colorHex != null)
		throw nestError.unprocessable("Use either 'color' or 'colorHex'");
	if (color == null && colorHex == null)
		throw nestError.unprocessable("'color' or 'colorHex' is required");
	if (typeof colorHex === 'string') {
		const index = (WAHA_LABEL_COLOURS as readonly string[]).indexOf(colorHex);
		if (index === -1)
			throw nestError.unprocessable(
				`Invalid 'colorHex'. Possible values: ${WAHA_LABEL_COLOURS.join(', ')}`,
			);
		return { name: String(name), color: index };
	}
	return { name: String(name), color: Number(color) };
}

/** The controller's name check (create and update alike: a label keeping its own name fails it too). */
function refuseTakenName(instance: Instance, name: string): void {
	const taken = [...labelsOf(instance).values()].find((label) => label.name === name);
	if (taken)
		throw nestError.unprocessable(`Label with '${taken.name}' already exists, id: ${taken.id}`);
}

/** session.getLabel: the label with that id, else 404 `Label not found`. */
function existingLabel(context: RequestContext, instance: Instance): Label {
	requireNowebStore(context);
	const label = labelsOf(instance).get(context.params.labelId);
	if (!label) throw nestError.notFound('Label not found');
	return label;
}

/** GET /labels: the store's labels. */
function listLabels(context: RequestContext, _request: WahaRequest, instance: Instance) {
	requireNowebStore(context);
	return { status: 200, body: [...labelsOf(instance).values()].map(wahaLabel) };
}

/**
 * POST /labels: toDTO, then at most 20 labels (422 `Maximum 20 labels allowed`), a name not taken,
 * then NOWEB's createLabel: the id after the highest numeric one (`1` when none), sent as an
 * app-state patch (label.upsert). 201 the Label.
 */
function createLabel(context: RequestContext, request: WahaRequest, instance: Instance) {
	const dto = labelDto(request);
	requireNowebStore(context);
	const labels = labelsOf(instance);
	if (labels.size >= 20) throw nestError.unprocessable('Maximum 20 labels allowed');
	refuseTakenName(instance, dto.name);
	const numbers = [...labels.keys()].map((id) => parseInt(id, 10)).filter((n) => !isNaN(n));
	const highest = numbers.length > 0 ? Math.max(...numbers) : 0;
	const label: Label = { id: String(highest ? highest + 1 : 1), ...dto };
	labels.set(label.id, label);
	announce(context, instance, 'label.upsert', wahaLabel(label));
	return { status: 201, body: wahaLabel(label) };
}

/** PUT /labels/{labelId}: the label (404), toDTO, a name no label has (its own included). 200 the Label. */
function updateLabel(context: RequestContext, request: WahaRequest, instance: Instance) {
	const label = existingLabel(context, instance);
	const dto = labelDto(request);
	refuseTakenName(instance, dto.name);
	Object.assign(label, dto);
	announce(context, instance, 'label.upsert', wahaLabel(label));
	return { status: 200, body: wahaLabel(label) };
}

/**
 * DELETE /labels/{labelId}: the label (404) goes, and NOWEB's store drops its chat associations
 * with it (no label.chat.deleted for them). 200 `{result: true}`.
 */
function deleteLabel(context: RequestContext, _request: WahaRequest, instance: Instance) {
	const label = existingLabel(context, instance);
	labelsOf(instance).delete(label.id);
	for (const chatId of chatsWithLabel(instance, label.id))
		labelChat(instance, chatId, label.id, false);
	announce(context, instance, 'label.deleted', wahaLabel(label));
	return { status: 200, body: { result: true } };
}

/** The labels a chat has that exist (the store joins the associations with the labels). */
function labelsOfChat(instance: Instance, chatId: string): Label[] {
	const ids = chatLabelIds(instance, chatId);
	return [...labelsOf(instance).values()].filter((label) => ids.includes(label.id));
}

/** GET /labels/chats/{chatId}: the chat's labels (`[]` for a chat without any, or unknown). */
function labelsOfChatRoute(context: RequestContext, _request: WahaRequest, instance: Instance) {
	requireNowebStore(context);
	const chatId = labelChatId(context.params.chatId);
	return { status: 200, body: labelsOfChat(instance, chatId).map(wahaLabel) };
}

/**
 * PUT /labels/chats/{chatId} `{labels: [{id}]}`: the chat's whole set becomes the one given.
 * putLabelsToChat adds each id the chat's existing labels lack (an unknown id too: Baileys sends
 * it, so it is added again on every PUT that names it) and removes the existing labels not given,
 * one app-state patch each (label.chat.added / label.chat.deleted). 200 with no body (the method
 * returns nothing).
 */
function putLabelsOfChat(context: RequestContext, request: WahaRequest, instance: Instance) {
	requireNowebStore(context);
	const chatId = labelChatId(context.params.chatId);
	const wanted = (request.body.labels as JsonObject[]).map((label) => String(label.id));
	const current = labelsOfChat(instance, chatId).map((label) => label.id);
	const association = (labelId: string) => {
		const label = labelsOf(instance).get(labelId);
		return { labelId, chatId, label: label ? wahaLabel(label) : null };
	};
	for (const labelId of wanted.filter((id) => !current.includes(id))) {
		labelChat(instance, chatId, labelId, true);
		announce(context, instance, 'label.chat.added', association(labelId));
	}
	for (const labelId of current.filter((id) => !wanted.includes(id))) {
		labelChat(instance, chatId, labelId, false);
		announce(context, instance, 'label.chat.deleted', association(labelId));
	}
	return { status: 200 };
}

/**
 * GET /labels/{labelId}/chats, engine by engine: GOWS answers `[{id}]`, each chat labelled with it
 * as a chat id (`…@c.us`, a group, a LID); NOWEB (and here WEBJS) the rows of its chat store for
 * those chats, unreadCount removed: Baileys' chat `{id: <JID>, name? (a group's subject),
 * conversationTimestamp?}` (`…@s.whatsapp.net` for a person), chats the store has (with messages
 * or a group) only. An unknown label has no chats: `[]`.
 */
function chatsOfLabel(context: RequestContext, _request: WahaRequest, instance: Instance) {
	requireNowebStore(context);
	const chatIds = chatsWithLabel(instance, context.params.labelId);
	if (context.core.played.wahaEngine === 'GOWS')
		return { status: 200, body: chatIds.map((id) => ({ id })) };
	const rows = chatIds
		.filter((chatId) => instance.chats.has(chatId))
		.map((chatId) => {
			const last = messagesOfChat(instance, chatId).at(-1);
			const subject = isGroupId(chatId) ? instance.groups.get(chatId)?.subject : undefined;
			return {
				id: chatIdToJid(chatId),
				...(subject !== undefined ? { name: subject } : {}),
				...(last ? { conversationTimestamp: last.timestamp } : {}),
			};
		});
	return { status: 200, body: rows };
}

export const wahaLabelRoutes: Route[] = [
	wahaRoute('GET', '/api/:session/labels', listLabels, WORKING_PATH),
	wahaRoute('POST', '/api/:session/labels', createLabel, WORKING_PATH),
	// Nest declares the chat routes before `/:labelId/chats`.
	wahaRoute('GET', '/api/:session/labels/chats/:chatId', labelsOfChatRoute, WORKING_PATH),
	wahaRoute('PUT', '/api/:session/labels/chats/:chatId', putLabelsOfChat, WORKING_PATH),
	wahaRoute('GET', '/api/:session/labels/:labelId/chats', chatsOfLabel, WORKING_PATH),
	wahaRoute('PUT', '/api/:session/labels/:labelId', updateLabel, WORKING_PATH),
	wahaRoute('DELETE', '/api/:session/labels/:labelId', deleteLabel, WORKING_PATH),
];
