// Instance family (Evolution v1): creating groups, listing them, reading and changing their participants.
import type { RequestContext, Route } from '../core.cts';
import { evolutionError } from '../errors.cts';
import {
	contactJid,
	createJid,
	isGroupId,
	personJid,
	personOf,
	randomDigits,
	randomToken,
} from '../ids.cts';
import { fileUrlOrNull } from '../render.cts';
import { ensureChat, isRegistered, ownerJid, type Group, type Instance } from '../state.cts';
import {
	assertEvolutionBody,
	assertEvolutionGroupBody,
	bodyObject,
	type JsonObject,
	type Schema,
} from '../validation.cts';
import { instanceGuard } from './guards.cts';
import { groupInfo, socketFailure, withGroupSuffix } from './instance-common.cts';

const PARTICIPANT_ACTIONS = ['add', 'remove', 'promote', 'demote'] as const;
type ParticipantAction = (typeof PARTICIPANT_ACTIONS)[number];

/** Evolution's participants list: numeric strings of at least 10 characters (the pattern is not anchored). */
const participantsSchema: Schema = {
	type: 'array',
	minItems: 1,
	uniqueItems: true,
	items: {
		type: 'string',
		minLength: 10,
		pattern: '\\d+',
		description: '"participants" must be an array of numeric strings',
	},
};

const createGroupSchema: Schema = {
	type: 'object',
	properties: {
		subject: { type: 'string' },
		description: { type: 'string' },
		profilePicture: { type: 'string' },
		promoteParticipants: { type: 'boolean' },
		participants: participantsSchema,
	},
	required: ['subject', 'participants'],
};

const getParticipantsSchema: Schema = {
	type: 'object',
	properties: { getParticipants: { type: 'string', enum: ['true', 'false'] } },
	required: ['getParticipants'],
};

const groupJidSchema: Schema = {
	type: 'object',
	properties: { groupJid: { type: 'string', pattern: '^[\\d-]+@g.us$' } },
	required: ['groupJid'],
};

const updateParticipantsSchema: Schema = {
	type: 'object',
	properties: {
		groupJid: { type: 'string' },
		action: { type: 'string', enum: PARTICIPANT_ACTIONS },
		participants: participantsSchema,
	},
	required: ['groupJid', 'action', 'participants'],
};

/** Evolution's `groupValidate`: groupJid from the body, else the query (400 without it), @g.us appended. */
function groupRequest(context: RequestContext, schema: Schema): JsonObject {
	const body = bodyObject(context.body);
	const given = body.groupJid || context.query.groupJid;
	if (!given) {
		throw evolutionError.badRequest(
			'The group id needs to be informed in the query',
			'ex: "groupJid=120362@g.us"',
		);
	}
	return assertEvolutionGroupBody({ ...body, groupJid: withGroupSuffix(String(given)) }, schema);
}

/** Baileys `groupMetadata`: no picture URL, and no desc/descId while the group has no description. */
function groupMetadata(group: Group) {
	return {
		id: group.id,
		subject: group.subject,
		subjectOwner: contactJid(group.subjectOwner),
		subjectTime: group.subjectTime,
		size: group.participants.length,
		creation: group.creation,
		owner: contactJid(group.owner),
		...(group.desc ? { desc: group.desc, descId: group.descId } : {}),
		restrict: group.restrict,
		announce: group.announce,
		participants: group.participants.map((participant) => ({
			id: personJid(participant.number),
			admin: participant.admin,
		})),
	};
}

/**
 * createGroup: numbers not on the network are dropped (whatsappNumber), then the group is made
 * with the rest. Any failure, including the network refusing a group without members, is a 500
 * `["Error creating group", "<error>"]`. Announces GROUPS_UPSERT, and GROUP_PARTICIPANTS_UPDATE
 * (promote) when the members are made admins.
 */
function createGroup(context: RequestContext) {
	const instance = instanceGuard(context);
	const body = assertEvolutionBody(context.body, createGroupSchema);
	const failure = (reason: string) => evolutionError.of(500, ['Error creating group', reason]);
	const closed = socketFailure(instance);
	if (closed) throw failure(closed);
	const members = [
		...new Set(
			(body.participants as string[])
				.map((participant) => createJid(participant))
				.filter((jid) => !isGroupId(jid))
				.map(personOf)
				.filter((number) => number !== instance.ownerNumber && isRegistered(instance, number)),
		),
	];
	const subject = String(body.subject);
	if (members.length === 0 || subject.trim() === '') throw failure('Error: bad-request');

	const now = Math.floor(Date.now() / 1000);
	// Evolution only sets a description that is not empty.
	const description = typeof body.description === 'string' ? body.description : '';
	const group: Group = {
		id: `120363${randomDigits(12)}@g.us`,
		subject,
		subjectOwner: instance.ownerNumber,
		subjectTime: now,
		creation: now,
		owner: instance.ownerNumber,
		desc: description,
		descId: description ? `BAE5${randomDigits(12)}` : '',
		restrict: false,
		announce: false,
		participants: [
			{ number: instance.ownerNumber, admin: 'superadmin' },
			...members.map((number) => ({ number, admin: null })),
		],
		inviteCode: randomToken(22),
	};
	instance.groups.set(group.id, group);
	ensureChat(instance, group.id);
	context.events.emit(instance, 'GROUPS_UPSERT', [
		{ ...groupMetadata(group), author: ownerJid(instance) },
	]);
	if (body.promoteParticipants === true) {
		for (const participant of group.participants.slice(1)) participant.admin = 'admin';
		context.core.gatewayEvents.participants(context.events, context.core.baseUrl, instance, {
			id: group.id,
			participants: members.map(personJid),
			action: 'promote',
		});
	}
	return { status: 201, body: groupMetadata(group) };
}

/** fetchAllGroups: the `getParticipants` query is required; participants only when it is "true". */
function fetchAllGroups(context: RequestContext) {
	const instance = instanceGuard(context);
	const getParticipants = context.query.getParticipants;
	if (!getParticipants) {
		throw evolutionError.badRequest('The getParticipants needs to be informed in the query');
	}
	const body = assertEvolutionGroupBody(
		{ ...bodyObject(context.body), getParticipants },
		getParticipantsSchema,
	);
	const closed = socketFailure(instance);
	if (closed) throw evolutionError.notFound('Error fetching group', closed);
	const groups = [...instance.groups.values()].map((group) => {
		const { participants, ...info } = groupInfo(context, instance, group);
		return body.getParticipants === 'true' ? { ...info, participants } : info;
	});
	return { status: 200, body: groups };
}

/** findParticipants: each member with the push name and picture of the stored contact, when there is one. */
function findParticipants(context: RequestContext) {
	const instance = instanceGuard(context);
	const body = groupRequest(context, groupJidSchema);
	const failure = (reason: string) => evolutionError.notFound('No participants', reason);
	const closed = socketFailure(instance);
	if (closed) throw failure(closed);
	const group = instance.groups.get(String(body.groupJid));
	if (!group) throw failure('Error: item-not-found');
	const participants = group.participants.map((participant) => {
		const contact = instance.contacts.get(participant.number);
		return {
			id: personJid(participant.number),
			admin: participant.admin,
			name: contact ? contact.pushName || contact.name || undefined : undefined,
			imgUrl: contact
				? fileUrlOrNull(context.core.baseUrl, instance, contact.pictureFile)
				: undefined,
		};
	});
	return { status: 200, body: { participants } };
}

/** The per-participant status WhatsApp reports: "200" when done, else why that number was left alone. */
function applyParticipantAction(
	group: Group,
	action: ParticipantAction,
	number: string,
	instance: Instance,
): string {
	const index = group.participants.findIndex((participant) => participant.number === number);
	if (action === 'add') {
		if (index >= 0) return '409';
		if (!isRegistered(instance, number)) return '404';
		group.participants.push({ number, admin: null });
		return '200';
	}
	if (index < 0) return '404';
	const participant = group.participants[index];
	if (action === 'remove') group.participants.splice(index, 1);
	else if (action === 'promote' && participant.admin === null) participant.admin = 'admin';
	else if (action === 'demote') participant.admin = null;
	return '200';
}

/**
 * updateGParticipant: one result per number (Baileys `{status, jid, content}`); a failing number
 * does not fail the call. The numbers that changed are announced with GROUP_PARTICIPANTS_UPDATE.
 */
function updateParticipants(context: RequestContext) {
	const instance = instanceGuard(context);
	const body = groupRequest(context, updateParticipantsSchema);
	const failure = (reason: string) =>
		evolutionError.badRequest('Error updating participants', reason);
	const closed = socketFailure(instance);
	if (closed) throw failure(closed);
	const group = instance.groups.get(String(body.groupJid));
	if (!group) throw failure('Error: item-not-found');
	const action = body.action as ParticipantAction;
	const results = (body.participants as string[]).map((participant) => {
		const jid = createJid(participant);
		const status = applyParticipantAction(group, action, personOf(jid), instance);
		const attrs = status === '200' ? { jid } : { jid, error: status };
		return { status, jid, content: { tag: 'participant', attrs } };
	});
	const changed = results.filter((result) => result.status === '200').map((result) => result.jid);
	if (changed.length > 0) {
		context.core.gatewayEvents.participants(context.events, context.core.baseUrl, instance, {
			id: group.id,
			participants: changed,
			action,
		});
	}
	return { status: 201, body: { updateParticipants: results } };
}

export const instanceGroupsRoutes: Route[] = [
	{ method: 'POST', pattern: '/group/create/:instance', family: 'instance', handler: createGroup },
	{
		method: 'GET',
		pattern: '/group/fetchAllGroups/:instance',
		family: 'instance',
		handler: fetchAllGroups,
	},
	{
		method: 'GET',
		pattern: '/group/participants/:instance',
		family: 'instance',
		handler: findParticipants,
	},
	{
		method: 'PUT',
		pattern: '/group/updateParticipant/:instance',
		family: 'instance',
		handler: updateParticipants,
	},
];
