// Pieces the instance-family (Evolution v1) routes share: schemas, recipients, send delays.
import { setTimeout as sleep } from 'node:timers/promises';

import type { RequestContext } from '../core.cts';
import { evolutionError } from '../errors.cts';
import {
	contactChatId,
	contactJid,
	createJid,
	GROUP_SUFFIX,
	isGroupId,
	isLid,
	personJid,
} from '../ids.cts';
import { fileUrlOrNull } from '../render.cts';
import { isRegistered, type Group, type Instance } from '../state.cts';
import type { Schema } from '../validation.cts';
import { checkEvolution } from '../../compatibility/evolution.cts';

export const PRESENCES = ['unavailable', 'available', 'composing', 'recording', 'paused'] as const;

/** Evolution's number field: a type error reports its description. */
export const numberSchema: Schema = { type: 'string', description: 'Invalid format' };

export const sendOptionsSchema: Schema = {
	type: 'object',
	properties: {
		delay: { type: 'integer' },
		presence: { type: 'string', enum: PRESENCES },
		linkPreview: { type: 'boolean' },
		quoted: {
			type: 'object',
			properties: {
				key: {
					type: 'object',
					properties: {
						id: { type: 'string' },
						remoteJid: { type: 'string' },
						fromMe: { type: 'boolean' },
					},
					required: ['id'],
				},
				message: { type: 'object' },
			},
			required: ['key'],
		},
		mentions: {
			type: 'object',
			properties: {
				everyOne: { type: 'boolean' },
				mentioned: {
					type: 'array',
					minItems: 1,
					items: {
						type: 'string',
						pattern: '^\\d+',
						description: '"mentioned" must be an array of numeric strings',
					},
				},
			},
		},
	},
};

/** Longest `options.delay` honoured, so a delay given in seconds by mistake cannot stall a test run. */
const MAX_SEND_DELAY_MS = 10_000;

/**
 * The chat a `number` addresses, as a session-family chat id. Groups must be known (400 "Group
 * not found"); contacts must be registered (400 `[{exists:false, jid, number}]`); a LID (`X@lid`)
 * is its own chat, as Evolution takes every LID as valid.
 */
export function resolveRecipient(instance: Instance, number: string): string {
	const jid = createJid(number);
	if (isGroupId(jid)) {
		if (!instance.groups.has(jid)) throw evolutionError.badRequest('Group not found');
		return jid;
	}
	if (isLid(jid)) return jid;
	const digits = jid.split('@')[0];
	if (!/^\d{5,20}$/.test(digits) || !isRegistered(instance, digits)) {
		throw evolutionError.badRequest({ exists: false, jid, number: digits });
	}
	return contactChatId(digits);
}

/** Evolution waits `options.delay` milliseconds (showing `presence`) before sending. */
export async function applySendDelay(context: RequestContext, delay: unknown): Promise<void> {
	if (typeof delay !== 'number' || delay <= 0) return;
	await sleep(Math.min(delay, MAX_SEND_DELAY_MS), undefined, {
		signal: context.core.lifetime.signal,
	});
}

/** groupValidate appends @g.us to a group id given without it. */
export function withGroupSuffix(groupJid: string): string {
	return groupJid.includes('@') ? groupJid : `${groupJid}${GROUP_SUFFIX}`;
}

/** A group as findGroupInfos and fetchAllGroups render it (Baileys metadata plus pictureUrl and size). */
export function groupInfo(context: RequestContext, instance: Instance, group: Group) {
	return {
		id: group.id,
		subject: group.subject,
		subjectOwner: contactJid(group.subjectOwner),
		subjectTime: group.subjectTime,
		pictureUrl: fileUrlOrNull(context.core.baseUrl, instance, group.pictureFile),
		size: group.participants.length,
		creation: group.creation,
		owner: contactJid(group.owner),
		// Baileys leaves both out while a group has no description.
		desc: group.desc || undefined,
		descId: group.descId || undefined,
		restrict: group.restrict,
		announce: group.announce,
		participants: group.participants.map((participant) => ({
			id: personJid(participant.number),
			admin: participant.admin,
		})),
	};
}

/**
 * What Baileys throws when a call needs the socket and the instance is not connected; the group
 * services catch it and wrap its text (`error.toString()`) in their own exception.
 */
export function socketFailure(instance: Instance): string | undefined {
	return instance.state === 'open' ? undefined : 'Error: Connection Closed';
}

/**
 * A body judged by Evolution API 1.8.2's own validation as the compatibility reference restates it
 * (jsonschema, as its routers run it): 400 with its reasons when it fails.
 */
export function assertEvolutionV1Validation(context: RequestContext): void {
	const verdict = checkEvolution({
		method: context.method,
		path: context.rawPath,
		query: context.query,
		body: context.body,
	});
	if (verdict.outcome === 'rejected') throw evolutionError.schema(verdict.reasons);
}
