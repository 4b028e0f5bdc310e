/**
 * The pickers' lists on Evolution API v2 (2.3.6): chats from findChats, contacts from
 * findContacts, groups from fetchAllGroups. Each value is what the operations take (a chat ID, a
 * contact's JID, a group ID). The Session picker needs nothing of its own: fetchInstances' flat
 * rows are read by `searchSessions` (shared/session.ts) as they are.
 */
import type { IDataObject, INodeListSearchResult } from 'n8n-workflow';

import { classifyChat } from '../../identifiers';
import { listItem, matchesFilter } from '../../lists';
import { gatewayApiRequest, gatewayPath } from '../../transport';
import { isObject } from '../../values';
import type { GatewayLists } from '../index';
import { chatFromV2, searchV2 } from './reads';

/** Entries a picker page asks for. */
const PAGE_SIZE = 50;

/** The rows of a list answer; anything else lists nothing (the picker shows an empty list). */
function rowsOf(answer: unknown): IDataObject[] {
	return Array.isArray(answer) ? answer.filter((row) => isObject<IDataObject>(row)) : [];
}

/** The next page's token when this page was full. */
function nextPage(rows: unknown[], offset: number): string | undefined {
	return rows.length === PAGE_SIZE ? String(offset + PAGE_SIZE) : undefined;
}

export const evolutionV2Lists: GatewayLists = {
	/** Chats with messages, newest first (`take`/`skip`), by name and chat ID. */
	async searchChats(session, filter, paginationToken): Promise<INodeListSearchResult> {
		const skip = Number(paginationToken ?? 0) || 0;
		const rows = rowsOf(await searchV2.call(this, 'findChats', session, { take: PAGE_SIZE, skip }));
		const results = rows
			.map(chatFromV2)
			.filter((chat) => matchesFilter(filter, chat.name, chat.id))
			.map((chat) => listItem(chat.name, String(chat.id)));
		return { results, paginationToken: nextPage(rows, skip) };
	},

	/**
	 * Contacts by name and JID, `{page, offset}` paged. v2's Contact rows also hold groups and
	 * LIDs (`…@lid`): only the ones the Contact fields take are listed.
	 */
	async searchContacts(session, filter, paginationToken): Promise<INodeListSearchResult> {
		const offset = Number(paginationToken ?? 0) || 0;
		const rows = rowsOf(
			await searchV2.call(this, 'findContacts', session, {
				page: Math.floor(offset / PAGE_SIZE) + 1,
				offset: PAGE_SIZE,
			}),
		);
		const results = rows
			.filter((row) => classifyChat(row.remoteJid)?.kind === 'contact')
			.filter((row) => matchesFilter(filter, row.pushName, row.remoteJid))
			.map((row) => listItem(row.pushName, String(row.remoteJid)));
		return { results, paginationToken: nextPage(rows, offset) };
	},

	/** Every group of the session at once (fetchAllGroups pages nothing), by subject and ID. */
	async searchGroups(session, filter): Promise<INodeListSearchResult> {
		const groups = rowsOf(
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
};
