/**
 * Groups on WAHA (2026.x): its `/api/{session}/groups/…` routes. WAHA passes each engine's own
 * group rows through (NOWEB: `{id, subject, participants: [{id, admin}], …}`; WEBJS: `{id:
 * {_serialized}, name, groupMetadata}`; GOWS: `{JID, Name, …}`), so the outputs add the documented
 * `id` and `subject` to the row as WAHA gave it. Members are named by chat ID (`<digits>@c.us`).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as createOperation from '../../actions/group/create.operation';
import * as getManyOperation from '../../actions/group/getMany.operation';
import * as sendInviteOperation from '../../actions/group/sendInvite.operation';
import * as updateParticipantsOperation from '../../actions/group/updateParticipants.operation';
import { readGroupId, readSession } from '../../actions/common/descriptions';
import { expectList, expectObject, missingFromAnswer, responseOr } from '../../helpers/responses';
import { asChatId } from '../../../shared/identifiers';
import { memberAddresses } from '../../../shared/people';
import { matchesFilter } from '../../../shared/lists';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { asObject, describeValue } from '../../../shared/values';
import type { GatewayOperation } from '../../../shared/gateways';

/** A text field, or undefined. */
function textField(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A group's ID in any engine's row: `id` (NOWEB), `id._serialized` (WEBJS), `gid`, `JID` (GOWS). */
export function groupIdOf(row: IDataObject): string | undefined {
	return (
		textField(row.id) ??
		textField(asObject(row.id)?._serialized) ??
		textField(asObject(row.gid)?._serialized) ??
		textField(row.JID)
	);
}

/** A WAHA group row with the documented `id` and `subject` (its name), WAHA's fields kept. */
export function groupFromWaha(row: IDataObject): IDataObject {
	const subject =
		textField(row.subject) ??
		textField(row.name) ??
		textField(row.Name) ??
		textField(asObject(row.groupMetadata)?.subject);
	return { ...row, id: groupIdOf(row) ?? null, subject: subject ?? null };
}

/** The groups of a list answer: a list (WEBJS, GOWS) or an object keyed by group ID (NOWEB). */
export function groupRowsOf(answer: unknown): IDataObject[] | undefined {
	const rows = Array.isArray(answer) ? answer : asObject(answer) && Object.values(answer as object);
	return rows && rows.every((row) => asObject(row)) ? (rows as IDataObject[]) : undefined;
}

/** A member number as WAHA's `Participant` (`{id: <digits>@c.us}`). */
function participantsOf(numbers: string[]): IDataObject[] {
	return numbers.map((number) => ({ id: asChatId(number) }));
}

/**
 * `POST /api/{session}/groups` `{name, participants: [{id}]}`. WAHA's create takes no description
 * and no admins: those follow, once the group exists, as `PUT …/groups/{id}/description` and `POST
 * …/groups/{id}/admin/promote`; if one fails, the error says the group was created (and its ID), so
 * it is not created twice.
 */
async function createGroup(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = createOperation.readCreateGroup.call(this, itemIndex);
	const { session } = request;
	const participants = participantsOf(request.participants);
	const answer = expectObject.call(
		this,
		await gatewayApiRequest.call(this, 'POST', gatewayPath`/api/${session}/groups`, {
			body: { name: request.subject, participants },
			itemIndex,
		}),
		itemIndex,
	);
	const group = groupFromWaha(answer);
	const groupId = group.id;
	if (typeof groupId !== 'string') {
		throw missingFromAnswer.call(
			this,
			answer,
			'group ID',
			'WAHA did not say which group it created. Check in the app whether the group exists before trying again.',
			itemIndex,
		);
	}
	const followUp = async (what: string, send: () => Promise<unknown>) => {
		try {
			return await send();
		} catch (error) {
			const failed = error as NodeApiError;
			failed.message = `Group ${groupId} was created, but ${what} failed: ${failed.message}`;
			failed.description =
				`${failed.description ?? ''} Do not create the group again: change it in the app, or with Group → Update Participants.`.trim();
			throw failed;
		}
	};
	if (request.description !== '') {
		await followUp(
			'setting its description',
			async () =>
				await gatewayApiRequest.call(
					this,
					'PUT',
					gatewayPath`/api/${session}/groups/${groupId}/description`,
					{ body: { description: request.description }, itemIndex },
				),
		);
		group.description = request.description;
	}
	if (request.promoteParticipants) {
		const promoted = await followUp(
			'promoting the participants',
			async () =>
				await gatewayApiRequest.call(
					this,
					'POST',
					gatewayPath`/api/${session}/groups/${groupId}/admin/promote`,
					{ body: { participants }, itemIndex },
				),
		);
		// WAHA's answer (per-member results on NOWEB), or true when it answered nothing.
		group.promoted = (promoted ?? true) as IDataObject[string];
	}
	return [{ json: group }];
}

/** `GET /api/{session}/groups/{id}`: WAHA answers nothing for a group the account is not in. */
async function getGroup(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const groupId = readGroupId.call(this, itemIndex);
	const answer = responseOr.call(
		this,
		await gatewayApiRequest.call(this, 'GET', gatewayPath`/api/${session}/groups/${groupId}`, {
			itemIndex,
		}),
		{},
		itemIndex,
	);
	if (Object.keys(answer).length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			`Group ${groupId} not found in session ${session}`,
			{
				itemIndex,
				description:
					'WAHA knows the groups the account is in. Check the group ID, or list them with Group → Get Many.',
			},
		);
	}
	return [{ json: groupFromWaha(answer) }];
}

/**
 * `GET /api/{session}/groups` (`exclude=participants` unless they are wanted): every group at once,
 * filtered by name here, as on the other gateways.
 */
async function getManyGroups(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = getManyOperation.readGetManyGroups.call(this, itemIndex);
	const answer = await gatewayApiRequest.call(
		this,
		'GET',
		gatewayPath`/api/${request.session}/groups`,
		{ qs: request.includeParticipants ? {} : { exclude: ['participants'] }, itemIndex },
	);
	const rows = groupRowsOf(answer);
	if (!rows) {
		throw new NodeApiError(this.getNode(), { message: 'unexpected answer' } as JsonObject, {
			message: `Gateway error: the answer is not a list of groups (got ${describeValue(answer).slice(0, 200)})`,
			description:
				'WAHA answers the groups as a list, or keyed by group ID. Check that the Base URL points at WAHA 2026.x.',
			itemIndex,
		});
	}
	return rows
		.map(groupFromWaha)
		.filter((group) => matchesFilter(request.subject, group.subject))
		.slice(0, request.wanted)
		.map((group) => ({ json: group }));
}

/** Admin roles of WAHA's normalized participants. */
const ADMIN_ROLES = new Set(['admin', 'superadmin']);

/**
 * `GET /api/{session}/groups/{id}/participants/v2`: `[{id, pn, role}]` the same on every engine;
 * each item adds the documented `admin` (admin, superadmin or null) and the group.
 */
async function getParticipants(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const groupId = readGroupId.call(this, itemIndex);
	const participants = expectList.call(
		this,
		await gatewayApiRequest.call(
			this,
			'GET',
			gatewayPath`/api/${session}/groups/${groupId}/participants/v2`,
			{ itemIndex },
		),
		undefined,
		itemIndex,
	);
	return participants.map((participant) => ({
		json: {
			...participant,
			admin: ADMIN_ROLES.has(String(participant.role)) ? participant.role : null,
			...memberAddresses(participant),
			groupId,
		},
	}));
}

/** WAHA's route for each action of Update Participants. */
const PARTICIPANT_ROUTES: Record<string, string> = {
	add: 'participants/add',
	remove: 'participants/remove',
	promote: 'admin/promote',
	demote: 'admin/demote',
};

/**
 * Per-number results of a participants answer: NOWEB's list `[{jid, status}]`, or WEBJS's object
 * keyed by member `{<id>: {code, message}}`; undefined when the answer has none.
 */
function participantResults(answer: unknown): IDataObject[] | undefined {
	if (Array.isArray(answer)) return answer.every((entry) => asObject(entry)) ? answer : undefined;
	const keyed = asObject(answer);
	if (!keyed || Object.keys(keyed).length === 0) return undefined;
	const entries = Object.entries(keyed);
	if (!entries.every(([, result]) => asObject(result)?.code !== undefined)) return undefined;
	return entries.map(([jid, result]) => ({
		jid,
		status: (result as IDataObject).code,
		...(result as IDataObject),
	}));
}

/**
 * `POST /api/{session}/groups/{id}/participants/add|remove` or `…/admin/promote|demote`
 * `{participants: [{id}]}`: one item per number with its status where WAHA's engine gives one;
 * otherwise (an empty answer) one per number sent, `status` null.
 */
async function updateParticipants(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = updateParticipantsOperation.readUpdateParticipants.call(this, itemIndex);
	const { session, groupId, action } = request;
	const answer = await gatewayApiRequest.call(
		this,
		'POST',
		`${gatewayPath`/api/${session}/groups/${groupId}`}/${PARTICIPANT_ROUTES[action]}`,
		{ body: { participants: participantsOf(request.participants) }, itemIndex },
	);
	const results = participantResults(answer);
	if (results) return updateParticipantsOperation.participantResultsOutput(results, request);
	responseOr.call(this, answer, {}, itemIndex);
	return request.participants.map((number) => ({
		json: { jid: asChatId(number), status: null, updated: true, groupId, action },
	}));
}

/** An invite code (letters, digits, `_` and `-`), or WAHA's whole link, as the link to send. */
function inviteUrlOf(answer: unknown): string | undefined {
	const text = typeof answer === 'string' ? answer.trim() : '';
	if (/^https:\/\/chat\.whatsapp\.com\/[\w-]+$/.test(text)) return text;
	return /^[\w-]{6,}$/.test(text) ? `https://chat.whatsapp.com/${text}` : undefined;
}

/**
 * WAHA has no route that sends an invite: `GET /api/{session}/groups/{id}/invite-code` gives the
 * code, and each number gets `<description>\n\n<link>` by `POST /api/sendText`, one after another,
 * as Evolution API sends it. A failure says which numbers already got it.
 */
async function sendInvite(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, groupJid, numbers, text } = sendInviteOperation.readSendInvite.call(
		this,
		itemIndex,
	);
	const code = await gatewayApiRequest.call(
		this,
		'GET',
		gatewayPath`/api/${session}/groups/${groupJid}/invite-code`,
		{ itemIndex, plainText: true },
	);
	const inviteUrl = inviteUrlOf(code);
	if (!inviteUrl) {
		throw missingFromAnswer.call(
			this,
			{ answer: typeof code === 'string' ? code.slice(0, 200) : (code as IDataObject[string]) },
			'invite code',
			'WAHA gives the invite code of a group the account administers. Check that the account is an admin of the group.',
			itemIndex,
		);
	}
	const messages: IDataObject[] = [];
	for (const number of numbers) {
		const chatId = asChatId(number);
		try {
			const sent = await gatewayApiRequest.call(this, 'POST', '/api/sendText', {
				body: { session, chatId, text: `${text}\n\n${inviteUrl}` },
				itemIndex,
			});
			messages.push({ chatId, ...(asObject(sent) ?? {}) });
		} catch (error) {
			const failed = error as NodeApiError;
			const already = messages.map((message) => message.chatId).join(', ');
			failed.description =
				`${failed.description ?? ''} The invite was not sent to ${chatId}${already ? `; it was sent to ${already}` : ''}.`.trim();
			throw failed;
		}
	}
	return [{ json: { send: true, inviteUrl, groupId: groupJid, messages } }];
}

export const wahaGroupOperations: Record<string, GatewayOperation> = {
	'group.create': createGroup,
	'group.get': getGroup,
	'group.getMany': getManyGroups,
	'group.getParticipants': getParticipants,
	'group.updateParticipants': updateParticipants,
	'group.sendInvite': sendInvite,
};
