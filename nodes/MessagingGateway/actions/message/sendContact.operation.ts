import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { classifyChat } from '../../../shared/identifiers';
import type { ChatReference } from '../../../shared/identifiers';
import { quoteValue } from '../../../shared/values';
import { delayOption, fieldError, presenceOption, readChat } from '../../helpers/message';
import { collectionEntries, isBlank, readOptions, textFrom } from '../../helpers/fields';
import { readSendOptions, replyToOption, sendToChat } from '../../helpers/instance-send';
import { isHttpUrl } from '../../helpers/urls';
import {
	readSession,
	sendTargetField,
	sessionFields,
	showOnlyFor,
	simultaneousChatsOption,
	paceSendsOptions,
	waitBetweenItemsOption,
} from '../common/descriptions';

const properties: INodeProperties[] = [
	...sessionFields,
	sendTargetField('send the contact card to'),
	{
		displayName: 'Contacts',
		name: 'contacts',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		required: true,
		default: {},
		placeholder: 'Add Contact',
		description:
			'The contact cards to send. One card shows as a contact; several show as one message with a list of contacts.',
		options: [
			{
				displayName: 'Contact',
				name: 'contact',
				values: [
					{
						displayName: 'Email',
						name: 'email',
						type: 'string',
						default: '',
						placeholder: 'e.g. name@email.com',
						description: 'Email address on the card (optional)',
					},
					{
						displayName: 'Full Name',
						name: 'fullName',
						type: 'string',
						required: true,
						default: '',
						placeholder: 'e.g. Alice Santos',
						description: 'The name shown on the card',
					},
					{
						displayName: 'Organization',
						name: 'organization',
						type: 'string',
						default: '',
						placeholder: 'e.g. Acme Store',
						description: 'Company on the card (optional)',
					},
					{
						displayName: 'Phone Number',
						name: 'phoneNumber',
						type: 'string',
						required: true,
						default: '',
						placeholder: 'e.g. +55 11 99999-9999',
						description: 'Phone number with country code; the card offers to message or call it',
					},
					{
						displayName: 'Website',
						name: 'url',
						type: 'string',
						default: '',
						placeholder: 'e.g. https://example.com',
						description: 'Web address on the card (optional)',
					},
				],
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			delayOption,
			...paceSendsOptions,
			presenceOption,
			replyToOption,
			simultaneousChatsOption,
			waitBetweenItemsOption,
		],
	},
];

export const description = showOnlyFor('message', 'sendContact', properties);

/** The gateway's card fields (Evolution v1 `contactMessage[]`), validated before any request. */
function readContacts(this: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const entries = collectionEntries.call(
		this,
		this.getNodeParameter('contacts', itemIndex, {}),
		'contact',
		itemIndex,
		'Contacts must have at least one contact',
		'Add a contact with a full name and a phone number.',
	);
	const cards = entries.map((entry, index) => {
		const field = entries.length > 1 ? `Contacts (contact ${index + 1})` : 'Contacts';
		const text = (key: string, label: string) =>
			textFrom.call(this, entry[key], `${field}: ${label}`, itemIndex).trim();
		const fullName = text('fullName', 'Full Name');
		if (isBlank(fullName))
			throw fieldError.call(this, itemIndex, `${field}: Full Name must not be empty`);
		const phone = classifyChat(entry.phoneNumber);
		if (phone?.kind !== 'contact') {
			throw fieldError.call(
				this,
				itemIndex,
				`${field}: Phone Number must be a phone number with country code, e.g. +55 11 99999-9999 (got ${quoteValue(entry.phoneNumber ?? '')})`,
			);
		}
		// wuid is the number the card's "Message" button opens; the gateway wants digits.
		const card: IDataObject = { fullName, wuid: phone.value, phoneNumber: `+${phone.value}` };
		const organization = text('organization', 'Organization');
		if (organization !== '') card.organization = organization;
		const email = text('email', 'Email');
		if (email !== '') {
			if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
				throw fieldError.call(
					this,
					itemIndex,
					`${field}: Email must be an email address like name@email.com (got "${email}")`,
				);
			}
			card.email = email;
		}
		const url = text('url', 'Website');
		if (url !== '') {
			if (!isHttpUrl(url)) {
				throw fieldError.call(
					this,
					itemIndex,
					`${field}: Website must be an http(s) address such as https://example.com (got "${url}")`,
				);
			}
			card.url = url;
		}
		return card;
	});
	// The gateway refuses two equal cards in one message.
	const seen = new Set<string>();
	cards.forEach((card, index) => {
		const key = JSON.stringify(card);
		if (seen.has(key)) {
			throw fieldError.call(
				this,
				itemIndex,
				`Contacts (contact ${index + 1}) repeats an earlier contact`,
				'Remove the repeated contact card.',
			);
		}
		seen.add(key);
	});
	return cards;
}

/** What the user asked Send Contact to do, checked; each gateway sends it its own way. */
export interface SendContactRequest {
	session: string;
	chat: ChatReference;
	/** The cards (Evolution v1 `contactMessage[]`: fullName, wuid, phoneNumber, organization?, email?, url?). */
	cards: IDataObject[];
	/** Delay, presence and the quoted message, as instance-family sends take them. */
	sendOptions: IDataObject;
	options: IDataObject;
}

/** Reads and checks every field of Send Contact for one item, before any request. */
export function readSendContact(this: IExecuteFunctions, itemIndex: number): SendContactRequest {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	const cards = readContacts.call(this, itemIndex);
	const options = readOptions.call(this, itemIndex);
	const sendOptions = readSendOptions.call(this, itemIndex, options);
	return { session, chat, cards, sendOptions, options };
}

/** Send Contact on the Messaging Gateway API: `POST /message/sendContact/<session>` (`contactMessage`). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, chat, cards, sendOptions } = readSendContact.call(this, itemIndex);
	return sendToChat.call(this, itemIndex, session, 'sendContact', chat, sendOptions, {
		contactMessage: cards,
	});
}
