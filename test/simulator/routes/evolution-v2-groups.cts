// Evolution API 2.3.6: /group/*. Its group service is 1.8.2's (create, infos, participants, invites),
// so the v1 handlers answer behind v2's validation; 2.3.6 adds Baileys 7's community flags to group
// infos, takes updateParticipant as POST, and has leaveGroup.
import type { RequestContext, Route } from '../core.cts';
import { evolutionError } from '../errors.cts';
import type { Instance } from '../state.cts';
import { isObject } from '../validation.cts';
import { bodyOf, keptRoute, refuseUnlessOpen, v2Route } from './evolution-v2-common.cts';
import { instanceAdminRoutes } from './instance-admin.cts';
import { withGroupSuffix } from './instance-common.cts';
import { instanceGroupsRoutes } from './instance-groups.cts';

/** Baileys 7's groupMetadata tells communities apart; the simulator's groups are none. */
function withCommunityFlags(group: unknown): unknown {
	return isObject(group) ? { ...group, isCommunity: false, isCommunityAnnounce: false } : group;
}

/** leaveGroup: groupValidate's groupJid (body first, then query); Baileys' failure wrapped (400). */
function leaveGroup(context: RequestContext, instance: Instance) {
	const given = bodyOf(context).groupJid || context.query.groupJid;
	const groupJid = withGroupSuffix(String(given));
	const failure = (reason: string) =>
		evolutionError.badRequest('Unable to leave the group', reason);
	refuseUnlessOpen(instance, failure);
	if (!instance.groups.delete(groupJid)) throw failure('Error: item-not-found');
	return { status: 200, body: { groupJid, leave: true } };
}

export const evolutionV2GroupRoutes: Route[] = [
	keptRoute(instanceGroupsRoutes, 'POST', '/group/create/:instance'),
	keptRoute(instanceAdminRoutes, 'GET', '/group/findGroupInfos/:instance', {
		reshape: withCommunityFlags,
	}),
	keptRoute(instanceGroupsRoutes, 'GET', '/group/fetchAllGroups/:instance', {
		reshape: (groups) => (Array.isArray(groups) ? groups.map(withCommunityFlags) : groups),
	}),
	keptRoute(instanceGroupsRoutes, 'GET', '/group/participants/:instance'),
	keptRoute(instanceGroupsRoutes, 'PUT', '/group/updateParticipant/:instance', { method: 'POST' }),
	keptRoute(instanceAdminRoutes, 'POST', '/group/sendInvite/:instance'),
	v2Route('DELETE', '/group/leaveGroup/:instance', leaveGroup),
];
