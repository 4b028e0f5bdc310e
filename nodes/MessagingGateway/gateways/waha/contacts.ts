/**
 * Contacts on WAHA (2026.x): its `/api/contacts` routes, which name the session in the query
 * (`session`) and a contact by its chat ID (`contactId`, `<digits>@c.us`). WAHA's contact rows
 * (`{id, name, pushname, …}`) are output with the documented `jid`, `name` and `notify`.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
} from 'n8n-workflow';

import * as checkNumberOperation from '../../actions/contact/checkNumber.operation';
import * as getContactOperation from '../../actions/contact/get.operation';
import * as phoneOrLid from '../../actions/contact/getPhoneOrLid.operation';
import * as profilePictureOperation from '../../actions/contact/getProfilePicture.operation';
import { readSession } from '../../actions/common/descriptions';
import { collectOffsetPages, wantedCount } from '../../helpers/pagination';
import { expectList, missingFromAnswer, responseOr } from '../../helpers/responses';
import type { NumberCheck } from '../../helpers/numbers';
import { asChatId, toChatId } from '../../../shared/identifiers';
import { gatewayApiRequest } from '../../../shared/transport';
import type { GatewayOperation } from '../../../shared/gateways';
import { wahaLidPair, WAHA_LID_HINT } from '../../../shared/gateways/waha/lids';

/** Contacts a `/api/contacts/all` page asks for. */
const CONTACTS_PAGE = 100;

/**
 * A WAHA contact row with the fields Contact → Get outputs first: its JID (WAHA's `id`, a chat ID),
 * its saved name and its push name (`notify`, WAHA's `pushname`).
 */
export function contactFromWaha(row: IDataObject): IDataObject {
	return { jid: row.id ?? null, name: row.name ?? null, notify: row.pushname ?? null, ...row };
}

/**
 * `GET /api/contacts/check-exists?phone=<digits>&session=`: whether the number is on WhatsApp, and
 * its chat ID there (null when it is not, or WAHA does not say). An answer without `numberExists`
 * fails: for a send that checks first as for Check Number.
 */
export async function checkExists(
	this: IExecuteFunctions,
	session: string,
	number: string,
	itemIndex: number,
): Promise<{ numberExists: boolean; chatId: string | null }> {
	const answer = responseOr.call(
		this,
		await gatewayApiRequest.call(this, 'GET', '/api/contacts/check-exists', {
			qs: { phone: number, session },
			itemIndex,
		}),
		{},
		itemIndex,
	);
	if (typeof answer.numberExists !== 'boolean') {
		throw missingFromAnswer.call(
			this,
			answer,
			'"numberExists" field',
			'WAHA answers whether the number is on WhatsApp. Check that the Base URL points at WAHA 2026.x.',
			itemIndex,
		);
	}
	const chatId = typeof answer.chatId === 'string' && answer.chatId !== '' ? answer.chatId : null;
	return { numberExists: answer.numberExists, chatId: answer.numberExists ? chatId : null };
}

/** Check Number: check-exists once per number, in order. */
async function checkNumber(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, listed } = checkNumberOperation.readCheckNumber.call(this, itemIndex);
	const checks: NumberCheck[] = [];
	for (const { number } of listed) {
		// WAHA's check reads a LID's digits as a phone number; a LID is an account WhatsApp made.
		if (number.endsWith('@lid')) {
			checks.push({ exists: true, jid: number });
			continue;
		}
		const { numberExists, chatId } = await checkExists.call(this, session, number, itemIndex);
		checks.push({ exists: numberExists, jid: chatId });
	}
	return checkNumberOperation.checkNumberOutput(listed, checks);
}

/** Contact → Get Phone Number or LID: WAHA's map, either way. */
export async function getPhoneOrLid(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = phoneOrLid.readPhoneOrLid.call(this, itemIndex);
	try {
		return phoneOrLid.phoneOrLidOutput(
			await wahaLidPair.call(this, request.session, request.person, { itemIndex }),
		);
	} catch (error) {
		// The gateway's own error (400 without NOWEB's store, 501 on an engine without the map), with what to do.
		const failed = error as NodeApiError;
		failed.description = `${failed.description ?? ''} ${WAHA_LID_HINT}`.trim();
		throw failed;
	}
}

/**
 * `GET /api/contacts?contactId=<digits>@c.us&session=`: the contact WAHA keeps, or nothing (null)
 * for one it does not know, which fails as on every gateway.
 */
async function getContact(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = getContactOperation.readGetContact.call(this, itemIndex);
	const contactId = toChatId(request.contact);
	const answer = responseOr.call(
		this,
		await gatewayApiRequest.call(this, 'GET', '/api/contacts', {
			qs: { contactId, session: request.session },
			itemIndex,
		}),
		{},
		itemIndex,
	);
	const contacts = Object.keys(answer).length === 0 ? [] : [contactFromWaha(answer)];
	return getContactOperation.contactOutput.call(this, contacts, request, contactId, itemIndex);
}

/** `GET /api/contacts/all?session=&limit=&offset=`, paged until Limit or the last page. */
async function getManyContacts(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const wanted = wantedCount.call(this, itemIndex);
	const contacts = await collectOffsetPages(
		async (limit, offset) =>
			expectList.call(
				this,
				await gatewayApiRequest.call(this, 'GET', '/api/contacts/all', {
					qs: { session, limit, offset },
					itemIndex,
				}),
				undefined,
				itemIndex,
			),
		wanted,
		CONTACTS_PAGE,
	);
	return contacts.map((contact) => ({ json: contactFromWaha(contact) }));
}

/**
 * `GET /api/contacts/profile-picture?contactId=<digits>@c.us&session=`: `{profilePictureURL}`, null
 * when the contact has none or hides it; `wuid` is the contact's chat ID.
 */
async function getProfilePicture(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = profilePictureOperation.readGetProfilePicture.call(this, itemIndex);
	const contactId = asChatId(request.number);
	const answer = responseOr.call(
		this,
		await gatewayApiRequest.call(this, 'GET', '/api/contacts/profile-picture', {
			qs: { contactId, session: request.session },
			itemIndex,
		}),
		{},
		itemIndex,
	);
	return await profilePictureOperation.profilePictureOutput.call(
		this,
		request,
		{ wuid: contactId, ...answer },
		answer.profilePictureURL,
		itemIndex,
	);
}

export const wahaContactOperations: Record<string, GatewayOperation> = {
	'contact.checkNumber': checkNumber,
	'contact.get': getContact,
	'contact.getMany': getManyContacts,
	'contact.getProfilePicture': getProfilePicture,
	'contact.getPhoneOrLid': getPhoneOrLid,
};
