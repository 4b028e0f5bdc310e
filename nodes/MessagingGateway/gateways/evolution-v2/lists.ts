/**
 * The pickers' lists on Evolution API v2 (2.3.6): chats from findChats, contacts from
 * findContacts, groups from fetchAllGroups. Each value is what the operations take (a chat ID, a
 * contact's JID, a group ID). The Session picker needs nothing of its own: fetchInstances' flat
 * rows are read by `searchSessions` (shared/session.ts) as they are.
 */
import type { INodeListSearchResult } from 'n8n-workflow';

import { classifyChat } from '../../../shared/identifiers';
import {
	listItem,
	matchesFilter,
	nextPickerPage,
	PICKER_PAGE_SIZE,
	pickerRows,
} from '../../../shared/lists';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import type { GatewayLists } from '../../../shared/gateways';
import { chatFromV2, searchV2 } from './reads';
import { evolutionLabels, labelPickerList } from '../../actions/label/labels';

export const evolutionV2Lists: GatewayLists = {
	/** Chats with messages, newest first (`take`/`skip`), by name and chat ID. */
	async searchChats(session, filter, paginationToken): Promise<INodeListSearchResult> {
		const skip = Number(paginationToken ?? 0) || 0;
		const rows = pickerRows(
			await searchV2.call(this, 'findChats', session, { take: PICKER_PAGE_SIZE, skip }),
		);
		const results = rows
			.map(chatFromV2)
			.filter((chat) => matchesFilter(filter, chat.name, chat.id))
			.map((chat) => listItem(chat.name, String(chat.id)));
		return { results, paginationToken: nextPickerPage(rows, skip) };
	},

	/**
	 * Contacts by name and JID, `{page, offset}` paged. v2's Contact rows also hold groups and
	 * LIDs (`…@lid`): only the ones the Contact fields take are listed.
	 */
	async searchContacts(session, filter, paginationToken): Promise<INodeListSearchResult> {
		const offset = Number(paginationToken ?? 0) || 0;
		const rows = pickerRows(
			await searchV2.call(this, 'findContacts', session, {
				page: Math.floor(offset / PICKER_PAGE_SIZE) + 1,
				offset: PICKER_PAGE_SIZE,
			}),
		);
		const results = rows
			.filter((row) => classifyChat(row.remoteJid)?.kind === 'contact')
			.filter((row) => matchesFilter(filter, row.pushName, row.remoteJid))
			.map((row) => listItem(row.pushName, String(row.remoteJid)));
		return { results, paginationToken: nextPickerPage(rows, offset) };
	},

	/** Every group of the session at once (fetchAllGroups pages nothing), by subject and ID. */
	async searchGroups(session, filter): Promise<INodeListSearchResult> {
		const groups = pickerRows(
			await gatewayApiRequest.call(this, 'GET', gatewayPath`/group/fetchAllGroups/${session}`, {
				qs: { getParticipants: 'false' },
			}),
		);
		const results = groups
			.filter((group) => typeof group.id === 'string' && group.id !== '')
			.filter((group) => matchesFilter(filter, group.subject, group.id))
			.map((group) => listItem(group.subject, String(group.id)));
		return { results };
	},

	/** Labels from `GET /label/findLabels/{instance}` (the same route and answer as v1). */
	async searchLabels(session, filter): Promise<INodeListSearchResult> {
		return labelPickerList(await evolutionLabels.call(this, session), filter);
	},
};
