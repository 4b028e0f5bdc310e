/**
 * The pickers' lists on WAHA (2026.x): chats from its chats overview, contacts from
 * `/api/contacts/all`, groups from `/api/{session}/groups`. Each value is what the operations take
 * (a chat ID, a contact's chat ID `…@c.us`, a group ID). The Session picker lists `GET
 * /api/sessions` (shared/session.ts).
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
import { groupFromWaha, groupRowsOf } from './groups';
import { labelPickerList } from '../../actions/label/labels';
import { wahaLabels } from './labels';

export const wahaLists: GatewayLists = {
	/** Chats newest first (`limit`/`offset`), by name and chat ID. */
	async searchChats(session, filter, paginationToken): Promise<INodeListSearchResult> {
		const offset = Number(paginationToken ?? 0) || 0;
		const rows = pickerRows(
			await gatewayApiRequest.call(this, 'GET', gatewayPath`/api/${session}/chats/overview`, {
				qs: { limit: PICKER_PAGE_SIZE, offset },
			}),
		);
		const results = rows
			.filter((chat) => typeof chat.id === 'string' && chat.id !== '')
			.filter((chat) => matchesFilter(filter, chat.name, chat.id))
			.map((chat) => listItem(chat.name, String(chat.id)));
		return { results, paginationToken: nextPickerPage(rows, offset) };
	},

	/**
	 * Contacts by name, push name and chat ID (`limit`/`offset`). WAHA's contact list also holds
	 * groups and LIDs: only the ones the Contact fields take are listed.
	 */
	async searchContacts(session, filter, paginationToken): Promise<INodeListSearchResult> {
		const offset = Number(paginationToken ?? 0) || 0;
		const rows = pickerRows(
			await gatewayApiRequest.call(this, 'GET', '/api/contacts/all', {
				qs: { session, limit: PICKER_PAGE_SIZE, offset },
			}),
		);
		const results = rows
			.filter((row) => classifyChat(row.id)?.kind === 'contact')
			.filter((row) => matchesFilter(filter, row.name, row.pushname, row.id))
			.map((row) =>
				listItem(
					[row.name, row.pushname].find((text) => typeof text === 'string' && text !== ''),
					String(row.id),
				),
			);
		return { results, paginationToken: nextPickerPage(rows, offset) };
	},

	/** Every group of the session at once, without participants, by name and ID. */
	async searchGroups(session, filter): Promise<INodeListSearchResult> {
		const answer = await gatewayApiRequest.call(this, 'GET', gatewayPath`/api/${session}/groups`, {
			qs: { exclude: ['participants'] },
		});
		const results = (groupRowsOf(answer) ?? [])
			.map(groupFromWaha)
			.filter((group) => typeof group.id === 'string')
			.filter((group) => matchesFilter(filter, group.subject, group.id))
			.map((group) => listItem(group.subject, String(group.id)));
		return { results };
	},

	/** Labels from `GET /api/{session}/labels`, by name and ID. */
	async searchLabels(session, filter): Promise<INodeListSearchResult> {
		return labelPickerList(await wahaLabels.call(this, session), filter);
	},
};
