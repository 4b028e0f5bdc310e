/**
 * Reading messages, chats and contacts on Evolution API v2 (2.3.6): its database searches
 * (findMessages, findChats, findContacts) and getBase64FromMediaMessage. Each operation reads what
 * the user asked with its operation file's code; v2's rows become the outputs the node documents
 * on the Messaging Gateway API (full message IDs, chat IDs `…@c.us`, names), each with v2's own row
 * kept (`_data` of a message, `_chat` of a chat, the contact's own fields).
 */
import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as getManyChatsOperation from '../../actions/chat/getMany.operation';
import * as getContactOperation from '../../actions/contact/get.operation';
import * as downloadMediaOperation from '../../actions/message/downloadMedia.operation';
import * as getMessageOperation from '../../actions/message/get.operation';
import { readSession } from '../../actions/common/descriptions';
import { messageFromV2, namesChat } from '../../helpers/evolution-messages';
import { mediaAnswerAsBinary, requestMediaBase64 } from '../../helpers/message-media';
import { collectOffsetPages, wantedCount } from '../../helpers/pagination';
import { expectList } from '../../helpers/responses';
import { asChatId, toJid } from '../../../shared/identifiers';
import type { ChatReference } from '../../../shared/identifiers';
import { textOf } from '../../../shared/message-text';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { asObject } from '../../../shared/values';
import type { GatewayOperation } from '../../../shared/gateways';
import { whatsappJid } from '../../../shared/gateways/evolution-v2/send-bodies';

/** Chats a findChats page asks for (`take`); 2.3.6 sets no page size of its own. */
const CHATS_PAGE = 50;
/** Contacts a findContacts page asks for (`offset`, its page size). */
const CONTACTS_PAGE = 100;

type SearchRoute = 'findChats' | 'findContacts' | 'findMessages';

/** `POST /chat/<search>/{instance}`: one of v2's database searches (a read, retried like lookups). */
export async function searchV2(
	this: IExecuteFunctions | ILoadOptionsFunctions,
	search: SearchRoute,
	session: string,
	body: IDataObject,
	itemIndex?: number,
): Promise<unknown> {
	return await gatewayApiRequest.call(this, 'POST', gatewayPath`/chat/${search}/${session}`, {
		body,
		itemIndex,
		read: true,
	});
}

/** A contact, group or channel as the JID v2 stores (`…@s.whatsapp.net` for contacts). */
function jidForV2(reference: ChatReference): string {
	return whatsappJid(toJid(reference));
}

/** A findChats row as Chat → Get Many outputs a chat: `{id, name, picture, lastMessage}`, the row under `_chat`. */
export function chatFromV2(row: IDataObject): IDataObject {
	const lastMessage = asObject(row.lastMessage);
	return {
		id: asChatId(textOf(row.remoteJid) ?? ''),
		name: row.pushName ?? null,
		picture: row.profilePicUrl ?? null,
		lastMessage: lastMessage ? messageFromV2(lastMessage, false) : null,
		_chat: row,
	};
}

/** A Contact row of v2 with the fields Contact → Get outputs first: its JID and name (v2 keeps one name, `pushName`). */
export function contactFromV2(row: IDataObject): IDataObject {
	return { jid: row.remoteJid ?? null, name: row.pushName ?? null, ...row };
}

/**
 * `POST /chat/findMessages/{instance}` `{where: {key: {id}}}`: IDs are made by the sending device,
 * so the chat of the full ID picks the message (its `remoteJid`, or `remoteJidAlt` where v2 keeps
 * a contact's LID). With Put Media in Binary, the file comes from getBase64FromMediaMessage, as
 * Download Media gets it.
 */
async function getMessage(this: IExecuteFunctions, itemIndex: number) {
	const request = getMessageOperation.readGetMessage.call(this, itemIndex);
	const { session, messageId } = request;
	const answer = await searchV2.call(
		this,
		'findMessages',
		session,
		{ where: { key: { id: messageId.id } } },
		itemIndex,
	);
	const records = expectList.call(this, answer, 'messages.records', itemIndex);
	const chatId = asChatId(messageId.chatId);
	const record = records.find((candidate) => {
		const key = asObject(candidate.key) ?? {};
		return namesChat(key.remoteJid, chatId) || namesChat(key.remoteJidAlt, chatId);
	});
	if (!record) {
		throw new NodeOperationError(
			this.getNode(),
			`Message ${messageId.serialized} not found in session ${session}`,
			{
				itemIndex,
				description:
					'Check the message ID: Evolution API v2 finds the messages it has stored for this session.',
			},
		);
	}
	const json = messageFromV2(record, request.downloadMedia);
	if (!request.binaryPropertyName || json.hasMedia !== true) return [{ json }];
	const media = await requestMediaBase64.call(this, session, messageId.id, false, itemIndex);
	const { binary } = await mediaAnswerAsBinary.call(this, media, messageId.id, itemIndex);
	return [{ json, binary: { [request.binaryPropertyName]: binary } }];
}

/**
 * `POST /chat/findChats/{instance}`: newest first, paged by `take`/`skip` (2.3.6 reads no other
 * paging); the Chats filter asks for each listed chat by `where.remoteJid`, in the order given.
 */
async function getManyChats(this: IExecuteFunctions, itemIndex: number) {
	const { session, wanted, chats } = getManyChatsOperation.readGetManyChats.call(this, itemIndex);
	const findChats = async (body: IDataObject) =>
		expectList.call(
			this,
			await searchV2.call(this, 'findChats', session, body, itemIndex),
			undefined,
			itemIndex,
		);
	let rows: IDataObject[] = [];
	if (chats.length === 0) {
		rows = await collectOffsetPages(
			async (take, skip) => await findChats({ take, skip }),
			wanted,
			CHATS_PAGE,
		);
	}
	for (const chat of chats) {
		if (rows.length >= wanted) break;
		rows.push(...(await findChats({ where: { remoteJid: jidForV2(chat) } })));
	}
	return rows.slice(0, wanted).map((row) => ({ json: chatFromV2(row) }));
}

/** `POST /chat/findContacts/{instance}` `{where: {remoteJid}}`: 2.3.6 filters by nothing else (not `where.id`). */
async function getContact(this: IExecuteFunctions, itemIndex: number) {
	const request = getContactOperation.readGetContact.call(this, itemIndex);
	const jid = jidForV2(request.contact);
	const answer = await searchV2.call(
		this,
		'findContacts',
		request.session,
		{ where: { remoteJid: jid } },
		itemIndex,
	);
	const contacts = expectList.call(this, answer, undefined, itemIndex).map(contactFromV2);
	return getContactOperation.contactOutput.call(this, contacts, request, jid, itemIndex);
}

/** `POST /chat/findContacts/{instance}` `{page, offset}`: `offset` is 2.3.6's page size, `page` counts from 1. */
async function getManyContacts(this: IExecuteFunctions, itemIndex: number) {
	const session = readSession.call(this, itemIndex);
	const wanted = wantedCount.call(this, itemIndex);
	const pageSize = Math.min(CONTACTS_PAGE, wanted);
	const contacts = await collectOffsetPages(
		async (_limit, collected) =>
			expectList.call(
				this,
				await searchV2.call(
					this,
					'findContacts',
					session,
					{ page: Math.floor(collected / pageSize) + 1, offset: pageSize },
					itemIndex,
				),
				undefined,
				itemIndex,
			),
		wanted,
		pageSize,
	);
	return contacts.map((contact) => ({ json: contactFromV2(contact) }));
}

export const evolutionV2Reads: Record<string, GatewayOperation> = {
	'message.get': getMessage,
	// The same route, body and answer on v2 as on the Messaging Gateway API.
	'message.downloadMedia': downloadMediaOperation.execute,
	'chat.getMany': getManyChats,
	'contact.get': getContact,
	'contact.getMany': getManyContacts,
};
