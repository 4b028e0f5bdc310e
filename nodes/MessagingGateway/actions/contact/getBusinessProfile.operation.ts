import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { responseOr } from '../../helpers/responses';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { parseChat, PERSON_KINDS, toNumber } from '../../../shared/identifiers';
import { contactLocator, readSession, sessionFields, showOnlyFor } from '../common/descriptions';

const properties: INodeProperties[] = [
	...sessionFields,
	contactLocator(
		'contact',
		'Contact',
		'The contact whose business profile to read: a phone number with country code, a chat ID (…@c.us), a JID (…@s.messenger.net) or a LID (…@lid). For a business account the output has isBusiness true with description, category, email, website, address and business hours; otherwise isBusiness is false.',
	),
];

export const description = showOnlyFor('contact', 'getBusinessProfile', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const raw = this.getNodeParameter('contact', itemIndex, undefined, { extractValue: true });
	const number = toNumber(parseChat.call(this, raw, 'Contact', itemIndex, PERSON_KINDS));
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/chat/fetchBusinessProfile/${session}`,
		{ body: { number }, itemIndex, read: true },
	);
	// Both answers (business and "Not is business profile") are objects worth passing on as they are.
	// An empty answer says nothing about the profile; keep the item so the workflow goes on.
	return [{ json: responseOr.call(this, response, { number }, itemIndex) }];
}
