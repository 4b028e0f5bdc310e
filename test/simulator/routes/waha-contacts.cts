// WAHA 2026.x: contacts (src/api/contacts.controller.ts, session in the query), groups as NOWEB
// answers them (Baileys' GroupMetadata, WhatsApp JIDs for members) and channels.
import type { RequestContext, Route } from '../core.cts';
import { nestError } from '../errors.cts';
import {
	contactChatId,
	digitsOf,
	isLid,
	personChatId,
	personJid,
	randomDigits,
	randomToken,
	withoutDevice,
} from '../ids.cts';
import { fileUrlOrNull } from '../render.cts';
import { isRegistered, type Group, type Instance } from '../state.cts';
import { isObject } from '../validation.cts';
import { sessionAccountRoutes } from './session-account.cts';
import { keptWahaRoute, wahaRoute, type WahaRequest } from './waha-common.cts';

const WORKING_QUERY = { session: 'query', status: 'WORKING' } as const;
const WORKING_PATH = { session: 'path', status: 'WORKING' } as const;

function queryText(request: WahaRequest, name: string): string {
	const value = request.query[name];
	return String((Array.isArray(value) ? value[0] : value) ?? '');
}

function queryNumber(request: WahaRequest, name: string, fallback: number): number {
	const number = Number(queryText(request, name));
	return queryText(request, name) !== '' && Number.isFinite(number) ? number : fallback;
}

/** WhatsApp's JID of a member (a phone's, or their LID), as Baileys writes it in group metadata. */
function whatsappJid(person: string): string {
	return isLid(person) ? person : `${person}@s.whatsapp.net`;
}

/** The contact WAHA describes for a number (`{id, number, name, pushname, ...}`). */
function contactOf(instance: Instance, number: string) {
	const contact = instance.contacts.get(number);
	return {
		id: contactChatId(number),
		number,
		name: contact?.name || null,
		pushname: contact?.pushName || null,
		shortName: contact?.name ? contact.name.split(' ')[0] : null,
		isMe: number === instance.ownerNumber,
		isGroup: false,
		isWAContact: isRegistered(instance, number),
		isMyContact: Boolean(contact?.name),
		isBlocked: false,
	};
}

/** A LID contact: the store keeps it under its LID, with the push name it wrote with. */
function lidContactOf(instance: Instance, lid: string) {
	const person = instance.lidPeople.get(lid);
	return {
		id: lid,
		number: lid.split('@')[0],
		name: null,
		pushname: person?.pushName || null,
		shortName: null,
		isMe: false,
		isGroup: false,
		isWAContact: true,
		isMyContact: false,
		isBlocked: false,
	};
}

function contactNumber(request: WahaRequest, name = 'contactId'): string {
	const number = digitsOf(queryText(request, name).split('@')[0]);
	if (!number) throw nestError.validation([`${name} must be a phone number or a chat id`]);
	return number;
}

function allContacts(_context: RequestContext, request: WahaRequest, instance: Instance) {
	const limit = queryNumber(request, 'limit', Infinity);
	const offset = queryNumber(request, 'offset', 0);
	const sortBy = queryText(request, 'sortBy') === 'name' ? 'name' : 'id';
	const descending = queryText(request, 'sortOrder') === 'desc';
	const contacts = [...instance.contacts.keys()]
		.map((number) => contactOf(instance, number))
		.sort((a, b) => String(a[sortBy] ?? '').localeCompare(String(b[sortBy] ?? '')));
	if (descending) contacts.reverse();
	return { status: 200, body: contacts.slice(offset, offset + limit) };
}

const contactRoutes: Route[] = [
	wahaRoute(
		'GET',
		'/api/contacts',
		(_context, request, instance) => {
			const lid = withoutDevice(queryText(request, 'contactId'));
			if (isLid(lid)) return { status: 200, body: lidContactOf(instance, lid) };
			return { status: 200, body: contactOf(instance, contactNumber(request)) };
		},
		WORKING_QUERY,
	),
	wahaRoute('GET', '/api/contacts/all', allContacts, WORKING_QUERY),
	wahaRoute(
		'GET',
		'/api/contacts/check-exists',
		(_context, request, instance) => {
			const number = contactNumber(request, 'phone');
			const exists = isRegistered(instance, number);
			return {
				status: 200,
				body: exists
					? { numberExists: true, chatId: contactChatId(number) }
					: { numberExists: false },
			};
		},
		WORKING_QUERY,
	),
	wahaRoute(
		'GET',
		'/api/contacts/profile-picture',
		(context, request, instance) => {
			const file = instance.contacts.get(contactNumber(request))?.pictureFile;
			return {
				status: 200,
				body: { profilePictureURL: fileUrlOrNull(context.core.baseUrl, instance, file) },
			};
		},
		WORKING_QUERY,
	),
	wahaRoute(
		'GET',
		'/api/contacts/about',
		(_context, request, instance) => {
			const contact = instance.contacts.get(contactNumber(request));
			return { status: 200, body: { about: contact?.business?.description ?? null } };
		},
		WORKING_QUERY,
	),
];

/** Baileys' GroupMetadata, what NOWEB answers for a group. */
function groupMetadata(group: Group) {
	return {
		id: group.id,
		subject: group.subject,
		subjectOwner: whatsappJid(group.subjectOwner),
		subjectTime: group.subjectTime,
		size: group.participants.length,
		creation: group.creation,
		owner: whatsappJid(group.owner),
		desc: group.desc,
		descId: group.descId,
		restrict: group.restrict,
		announce: group.announce,
		participants: group.participants.map((participant) => ({
			id: whatsappJid(participant.number),
			admin: participant.admin,
		})),
	};
}

function groupOf(context: RequestContext, instance: Instance): Group {
	const group = instance.groups.get(context.params.id);
	if (!group) throw nestError.notFound('Group not found');
	return group;
}

/** The members a ParticipantsRequest names (`{id}` chat ids, numbers or LIDs). */
function participantNumbers(request: WahaRequest): string[] {
	const participants = Array.isArray(request.body.participants) ? request.body.participants : [];
	return participants
		.filter(isObject)
		.map((participant) => {
			const id = withoutDevice(String(participant.id ?? ''));
			return isLid(id) ? id : digitsOf(id.split('@')[0]);
		})
		.filter(Boolean);
}

/**
 * participants/v2's `pn`. A LID member's phone: NOWEB's when it knows it (else no `pn`), GOWS's or
 * `""`, never WEBJS's (null).
 */
function memberPhone(context: RequestContext, instance: Instance, person: string) {
	if (!isLid(person)) return { pn: contactChatId(person) };
	const phone = instance.lidPeople.get(person)?.phone;
	switch (context.core.played.wahaEngine) {
		case 'WEBJS':
			return { pn: null };
		case 'GOWS':
			return { pn: phone ? contactChatId(phone) : '' };
		default:
			return phone ? { pn: contactChatId(phone) } : {};
	}
}

type ParticipantAction = 'add' | 'remove' | 'promote' | 'demote';

/** Adds, removes, promotes or demotes members; answers Baileys' result; `group.v2.participants`. */
function changeParticipants(action: ParticipantAction) {
	return (context: RequestContext, request: WahaRequest, instance: Instance) => {
		const group = groupOf(context, instance);
		const numbers = participantNumbers(request);
		for (const number of numbers) {
			const index = group.participants.findIndex((participant) => participant.number === number);
			if (action === 'add' && index < 0) group.participants.push({ number, admin: null });
			if (action === 'remove' && index >= 0) group.participants.splice(index, 1);
			if (action === 'promote' && index >= 0) group.participants[index].admin = 'admin';
			if (action === 'demote' && index >= 0) group.participants[index].admin = null;
		}
		context.core.gatewayEvents.participants(context.events, context.core.baseUrl, instance, {
			id: group.id,
			participants: numbers.map(personJid),
			action,
		});
		return {
			status: 200,
			body: numbers.map((number) => ({ status: '200', jid: whatsappJid(number) })),
		};
	};
}

function createGroup(_context: RequestContext, request: WahaRequest, instance: Instance) {
	const now = Math.floor(Date.now() / 1000);
	const group: Group = {
		id: `120363${randomDigits(12)}@g.us`,
		subject: String(request.body.name),
		subjectOwner: instance.ownerNumber,
		subjectTime: now,
		creation: now,
		owner: instance.ownerNumber,
		desc: '',
		descId: '',
		restrict: false,
		announce: false,
		participants: [
			{ number: instance.ownerNumber, admin: 'superadmin' },
			...participantNumbers(request).map((number) => ({ number, admin: null })),
		],
		inviteCode: randomToken(22),
	};
	instance.groups.set(group.id, group);
	return { status: 201, body: groupMetadata(group) };
}

const GROUP = '/api/:session/groups/:id';

const groupRoutes: Route[] = [
	wahaRoute(
		'GET',
		'/api/:session/groups',
		(_context, _request, instance) => ({
			status: 200,
			body: Object.fromEntries(
				[...instance.groups.values()].map((group) => [group.id, groupMetadata(group)]),
			),
		}),
		WORKING_PATH,
	),
	wahaRoute('POST', '/api/:session/groups', createGroup, WORKING_PATH),
	// NOWEB's refreshGroups fetches every group again and answers true.
	wahaRoute(
		'POST',
		'/api/:session/groups/refresh',
		() => ({ status: 200, body: true }),
		WORKING_PATH,
	),
	wahaRoute(
		'GET',
		GROUP,
		(context, _request, instance) => ({
			status: 200,
			body: groupMetadata(groupOf(context, instance)),
		}),
		WORKING_PATH,
	),
	wahaRoute(
		'GET',
		`${GROUP}/participants`,
		(context, _request, instance) => ({
			status: 200,
			body: groupMetadata(groupOf(context, instance)).participants,
		}),
		WORKING_PATH,
	),
	wahaRoute(
		'GET',
		`${GROUP}/participants/v2`,
		(context, _request, instance) => ({
			status: 200,
			body: groupOf(context, instance).participants.map((participant) => ({
				id: personChatId(participant.number),
				...memberPhone(context, instance, participant.number),
				role: participant.admin ?? 'participant',
			})),
		}),
		WORKING_PATH,
	),
	wahaRoute('POST', `${GROUP}/participants/add`, changeParticipants('add'), WORKING_PATH),
	wahaRoute('POST', `${GROUP}/participants/remove`, changeParticipants('remove'), WORKING_PATH),
	wahaRoute('POST', `${GROUP}/admin/promote`, changeParticipants('promote'), WORKING_PATH),
	wahaRoute('POST', `${GROUP}/admin/demote`, changeParticipants('demote'), WORKING_PATH),
	// NOWEB's groupUpdateDescription / groupUpdateSubject answer nothing: 200 with an empty body.
	wahaRoute(
		'PUT',
		`${GROUP}/description`,
		(context, request, instance) => {
			groupOf(context, instance).desc = String(request.body.description ?? '');
			return { status: 200 };
		},
		WORKING_PATH,
	),
	wahaRoute(
		'PUT',
		`${GROUP}/subject`,
		(context, request, instance) => {
			const group = groupOf(context, instance);
			group.subject = String(request.body.subject ?? '');
			group.subjectOwner = instance.ownerNumber;
			group.subjectTime = Math.floor(Date.now() / 1000);
			return { status: 200 };
		},
		WORKING_PATH,
	),
	wahaRoute(
		'POST',
		`${GROUP}/leave`,
		(context, _request, instance) => {
			instance.groups.delete(groupOf(context, instance).id);
			return { status: 200 };
		},
		WORKING_PATH,
	),
	// The invite URL is a plain string, which Nest sends as text/html.
	wahaRoute(
		'GET',
		`${GROUP}/invite-code`,
		(context, _request, instance) => ({
			status: 200,
			body: `https://chat.whatsapp.com/${groupOf(context, instance).inviteCode}`,
			contentType: 'text/html; charset=utf-8',
		}),
		WORKING_PATH,
	),
];

function channelOf(instance: Instance, id: string) {
	const channel = instance.channels.get(id);
	if (!channel) throw nestError.notFound('Channel not found');
	const {
		country: _country,
		category: _category,
		createdAt: _createdAt,
		trendScore: _trend,
		pictureUrl,
		...rest
	} = channel;
	return pictureUrl ? { ...rest, preview: pictureUrl, picture: pictureUrl } : rest;
}

const channelRoutes: Route[] = [
	wahaRoute(
		'GET',
		'/api/:session/channels',
		(_context, _request, instance) => ({
			status: 200,
			body: [...instance.channels.keys()].map((id) => channelOf(instance, id)),
		}),
		WORKING_PATH,
	),
	keptWahaRoute(sessionAccountRoutes, 'POST', '/api/:session/channels', WORKING_PATH),
	keptWahaRoute(sessionAccountRoutes, 'POST', '/api/:session/channels/search/by-view', {
		...WORKING_PATH,
		// ChannelListResult is `{page, channels}`; the spec's extra `nextCursor` is not WAHA's.
		reshape: (body) => {
			const { nextCursor: _next, ...result } = body as Record<string, unknown>;
			return result;
		},
	}),
	wahaRoute(
		'GET',
		'/api/:session/channels/:id',
		(context, _request, instance) => ({
			status: 200,
			body: channelOf(instance, context.params.id),
		}),
		WORKING_PATH,
	),
];

export const wahaContactRoutes: Route[] = [...contactRoutes, ...groupRoutes, ...channelRoutes];
