import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import { matchesFilter } from '../../shared/lists';
import { checkSessionName, currentSessionValue } from '../../shared/session';
import { gatewayApiRequest, gatewayPath } from '../../shared/transport';

export { searchSessions } from '../../shared/session';

const PAGE_SIZE = 50;

/**
 * The Session the list depends on. Without a usable one the list says so (the editor shows the
 * error in the dropdown) instead of showing an empty list that looks like "no chats".
 */
function currentSession(this: ILoadOptionsFunctions): string {
	const raw = currentSessionValue.call(this);
	const check = checkSessionName(raw);
	if (check.ok) return check.session;
	const empty = raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
	throw new NodeOperationError(this.getNode(), empty ? 'Pick a Session first' : check.reason, {
		description:
			'The list shows what the chosen session has, so it needs the Session field filled in.',
	});
}

/** Chats of the session, newest first, from the conversation overview (offset-paged). */
export async function searchChats(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const session = currentSession.call(this);
	const offset = Number(paginationToken ?? 0) || 0;
	const chats = (await gatewayApiRequest.call(
		this,
		'GET',
		gatewayPath`/api/${session}/chats/overview`,
		{
			qs: { limit: PAGE_SIZE, offset },
		},
	)) as IDataObject[];
	const page = Array.isArray(chats) ? chats : [];
	const results: INodeListSearchItems[] = page
		.filter((chat) => matchesFilter(filter, chat.name, chat.id))
		.map((chat) => ({
			name:
				typeof chat.name === 'string' && chat.name
					? `${chat.name} (${String(chat.id)})`
					: String(chat.id),
			value: String(chat.id),
		}));
	return {
		results,
		paginationToken: page.length === PAGE_SIZE ? String(offset + PAGE_SIZE) : undefined,
	};
}

/** Contacts of the session (offset-paged), shown by name and JID. */
export async function searchContacts(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const session = currentSession.call(this);
	const offset = Number(paginationToken ?? 0) || 0;
	const response = (await gatewayApiRequest.call(this, 'GET', '/api/contacts', {
		qs: { sessionId: session, limit: PAGE_SIZE, offset },
	})) as IDataObject;
	const contacts = Array.isArray(response?.contacts) ? (response.contacts as IDataObject[]) : [];
	const results: INodeListSearchItems[] = contacts
		.filter((contact) =>
			matchesFilter(filter, contact.name, contact.notify, contact.verifiedName, contact.jid),
		)
		.map((contact) => {
			const label = [contact.name, contact.notify, contact.verifiedName].find(
				(text) => typeof text === 'string' && text !== '',
			);
			return {
				name: label ? `${String(label)} (${String(contact.jid)})` : String(contact.jid),
				value: String(contact.jid),
			};
		});
	return {
		results,
		paginationToken: contacts.length === PAGE_SIZE ? String(offset + PAGE_SIZE) : undefined,
	};
}

/** Groups of the session: the chat list without contacts and channels. */
export async function searchGroups(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = await searchChats.call(this, filter, paginationToken);
	return { ...page, results: page.results.filter((chat) => String(chat.value).endsWith('@g.us')) };
}
