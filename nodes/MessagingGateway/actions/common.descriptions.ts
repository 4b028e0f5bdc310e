import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export const sessionField: INodeProperties = {
	displayName: 'Session',
	name: 'session',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. default',
	description: 'The session name, also called instance name',
};

/** The Session of an item, trimmed; an empty one fails before any request (it would become `/api//…`). */
export function readSession(this: IExecuteFunctions, itemIndex: number): string {
	const session = String(this.getNodeParameter('session', itemIndex) ?? '').trim();
	if (session === '') {
		throw new NodeOperationError(this.getNode(), 'Session must not be empty', {
			itemIndex,
			description: 'Enter the session name, also called instance name, e.g. default.',
		});
	}
	return session;
}

/** Client-side throttle for send operations; read by the router, which waits before every item but the first. */
export const waitBetweenItemsOption: INodeProperties = {
	displayName: 'Wait Between Items (Ms)',
	name: 'waitBetweenItems',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description:
		'Milliseconds to wait before sending each item after the first, so bulk sends do not hammer the gateway or the messaging network',
};

const CHAT_ID_PATTERN =
	'^\\s*(\\+?[\\d\\s().-]{8,22}|\\d+@(c\\.us|s\\.messenger\\.net|s\\.whatsapp\\.net)|\\d+(-\\d+)?@g\\.us|\\d+@newsletter)\\s*$';

/**
 * Picker for a chat: from the session's conversation list, or typed in as a phone number,
 * chat ID, JID, group ID or channel ID. Read it with `extractValue: true`.
 */
export function chatLocator(
	name: string,
	displayName: string,
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchChats', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. +55 11 99999-9999 or 120363012345678901@g.us',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: CHAT_ID_PATTERN,
							errorMessage:
								'Enter a phone number with country code, a chat ID (…@c.us), a JID (…@s.messenger.net), a group ID (…@g.us) or a channel ID (…@newsletter)',
						},
					},
				],
			},
		],
	};
}

/** Picker for a contact: from the session's contacts, or typed in as a phone number, chat ID or JID. */
export function contactLocator(
	name: string,
	displayName: string,
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchContacts', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. +55 11 99999-9999',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: CHAT_ID_PATTERN,
							errorMessage:
								'Enter a phone number with country code, a chat ID (…@c.us) or a JID (…@s.messenger.net)',
						},
					},
				],
			},
		],
	};
}
