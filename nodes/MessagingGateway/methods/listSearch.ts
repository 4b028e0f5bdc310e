import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import type { GatewayLists } from '../../shared/gateways';
import { evolutionV2Lists } from '../gateways/evolution-v2/lists';
import { wahaLists } from '../gateways/waha/lists';
import { evolutionLabels, labelPickerList } from '../actions/label/labels';
import { listItem, matchesFilter } from '../../shared/lists';
import { checkSessionName, currentSessionValue } from '../../shared/session';
import type { GatewayName } from '../../shared/transport';
import { gatewayApiRequest, gatewayPath, selectedGateway } from '../../shared/transport';

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
async function overviewChats(
	this: ILoadOptionsFunctions,
	session: string,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
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
		.map((chat) => listItem(chat.name, String(chat.id)));
	return {
		results,
		paginationToken: page.length === PAGE_SIZE ? String(offset + PAGE_SIZE) : undefined,
	};
}

/** The Messaging Gateway API's lists: chats from the overview, contacts from `/api/contacts`. */
const MESSAGING_GATEWAY_API_LISTS: GatewayLists = {
	searchChats: overviewChats,

	/** Contacts of the session (offset-paged), shown by name and JID. */
	async searchContacts(session, filter, paginationToken) {
		const offset = Number(paginationToken ?? 0) || 0;
		const response = (await gatewayApiRequest.call(this, 'GET', '/api/contacts', {
			qs: { sessionId: session, limit: PAGE_SIZE, offset },
		})) as IDataObject;
		const contacts = Array.isArray(response?.contacts) ? (response.contacts as IDataObject[]) : [];
		const results: INodeListSearchItems[] = contacts
			.filter((contact) =>
				matchesFilter(filter, contact.name, contact.notify, contact.verifiedName, contact.jid),
			)
			.map((contact) =>
				listItem(
					[contact.name, contact.notify, contact.verifiedName].find(
						(text) => typeof text === 'string' && text !== '',
					),
					String(contact.jid),
				),
			);
		return {
			results,
			paginationToken: contacts.length === PAGE_SIZE ? String(offset + PAGE_SIZE) : undefined,
		};
	},

	/** Groups of the session: the chat list without contacts and channels. */
	async searchGroups(session, filter, paginationToken) {
		const page = await overviewChats.call(this, session, filter, paginationToken);
		return {
			...page,
			results: page.results.filter((chat) => String(chat.value).endsWith('@g.us')),
		};
	},

	/** Labels as Evolution API v1 lists them (WhatsApp Business), by name and ID. */
	async searchLabels(session, filter) {
		return labelPickerList(await evolutionLabels.call(this, session), filter);
	},
};

const LISTS: Record<GatewayName, GatewayLists> = {
	messagingGatewayApi: MESSAGING_GATEWAY_API_LISTS,
	evolutionV2: evolutionV2Lists,
	waha: wahaLists,
};

/** A picker's list as the credential's gateway gives it, for the Session the editor shows. */
function listedByGateway(picker: keyof GatewayLists) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		const session = currentSession.call(this);
		const gateway = await selectedGateway.call(this);
		return await LISTS[gateway][picker].call(this, session, filter, paginationToken);
	};
}

export const searchChats = listedByGateway('searchChats');
export const searchContacts = listedByGateway('searchContacts');
export const searchGroups = listedByGateway('searchGroups');
export const searchLabels = listedByGateway('searchLabels');
