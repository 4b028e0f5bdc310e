import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { gatewayApiRequest } from '../../../shared/transport';
import { expectList } from '../../helpers/responses';
import { parseChat, toJid } from '../../../shared/identifiers';
import { contactLocator, readSession, sessionFields, showOnlyFor } from '../common.descriptions';

const properties: INodeProperties[] = [
	...sessionFields,
	contactLocator(
		'contact',
		'Contact',
		'The contact to read: a phone number with country code, a chat ID (…@c.us) or a JID (…@s.messenger.net). Returns its JID, saved name, push name (notify), verified name and business name.',
	),
];

export const description = showOnlyFor('contact', 'get', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const raw = this.getNodeParameter('contact', itemIndex, undefined, { extractValue: true });
	const reference = parseChat.call(this, raw, 'Contact', itemIndex, ['contact']);
	const jid = toJid(reference);
	const response = await gatewayApiRequest.call(this, 'GET', '/api/contacts', {
		qs: { sessionId: session, jid },
		itemIndex,
	});
	const contacts = expectList.call(this, response, 'contacts', itemIndex);
	// Match on the number, not the suffix (gateways write @s.messenger.net or @s.whatsapp.net), so
	// a gateway that ignores the filter and lists every contact still yields the right one.
	const contact = contacts.find(
		(candidate) => String(candidate.jid ?? candidate.id ?? '').split('@')[0] === reference.value,
	);
	// The gateway answers an empty list for a contact the session does not know; outputting
	// nothing would silently stop the workflow, so say so.
	if (!contact) {
		throw new NodeOperationError(this.getNode(), `Contact ${jid} not found in session ${session}`, {
			itemIndex,
			description:
				'Check the phone number (with country code), or use Contact > Get Many to list the contacts this session knows.',
		});
	}
	return [{ json: contact }];
}
