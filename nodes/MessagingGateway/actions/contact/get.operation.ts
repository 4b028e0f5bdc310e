import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { gatewayApiRequest } from '../../../shared/transport';
import { expectList } from '../../helpers/responses';
import { classifyChat, parseChat, PERSON_KINDS, toJid } from '../../../shared/identifiers';
import type { ChatReference } from '../../../shared/identifiers';
import { contactLocator, readSession, sessionFields, showOnlyFor } from '../common/descriptions';

const properties: INodeProperties[] = [
	...sessionFields,
	contactLocator(
		'contact',
		'Contact',
		'The contact to read: a phone number with country code, a chat ID (…@c.us), a JID (…@s.messenger.net) or a LID (…@lid). Returns its JID, saved name, push name (notify), verified name and business name.',
	),
];

export const description = showOnlyFor('contact', 'get', properties);

/** What Get was asked for one item, checked before any request. */
export function readGetContact(
	this: IExecuteFunctions,
	itemIndex: number,
): { session: string; contact: ChatReference } {
	const session = readSession.call(this, itemIndex);
	const raw = this.getNodeParameter('contact', itemIndex, undefined, { extractValue: true });
	return { session, contact: parseChat.call(this, raw, 'Contact', itemIndex, PERSON_KINDS) };
}

/**
 * The asked contact among those the gateway answered (`jid`, or `id`, names it), as the output;
 * `jid` is the contact as the request named it.
 */
export function contactOutput(
	this: IExecuteFunctions,
	contacts: IDataObject[],
	request: { session: string; contact: ChatReference },
	jid: string,
	itemIndex: number,
): INodeExecutionData[] {
	// Match on the person, not the suffix (gateways write @s.messenger.net or @s.whatsapp.net), so
	// a gateway that ignores the filter and lists every contact still yields the right one.
	const wanted = request.contact;
	const contact = contacts.find((candidate) => {
		const found = classifyChat(String(candidate.jid ?? candidate.id ?? ''));
		return found?.kind === wanted.kind && found.value === wanted.value;
	});
	// The gateway answers an empty list for a contact the session does not know; outputting
	// nothing would silently stop the workflow, so say so.
	if (!contact) {
		throw new NodeOperationError(
			this.getNode(),
			`Contact ${jid} not found in session ${request.session}`,
			{
				itemIndex,
				description:
					'Check the phone number (with country code), or use Contact > Get Many to list the contacts this session knows.',
			},
		);
	}
	return [{ json: contact }];
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = readGetContact.call(this, itemIndex);
	const jid = toJid(request.contact);
	const response = await gatewayApiRequest.call(this, 'GET', '/api/contacts', {
		qs: { sessionId: request.session, jid },
		itemIndex,
	});
	const contacts = expectList.call(this, response, 'contacts', itemIndex);
	return contactOutput.call(this, contacts, request, jid, itemIndex);
}
