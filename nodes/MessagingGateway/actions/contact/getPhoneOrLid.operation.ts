import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ChatReference } from '../../../shared/identifiers';
import { parseChat } from '../../../shared/identifiers';
import type { PersonAddresses } from '../../../shared/people';
import { isBlank } from '../../../shared/values';
import { contactLocator, sessionFields, showOnlyFor } from '../common/descriptions';
import { readGetContact } from './get.operation';

const properties: INodeProperties[] = [
	...sessionFields,
	contactLocator(
		'contact',
		'Contact',
		'The person: a LID (…@lid) to find their phone number, or a phone number with country code (or its chat ID or JID) to find their LID. Outputs phone (digits with country code) and lid, each null when the gateway does not know it.',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'In Group',
				name: 'groupId',
				type: 'string',
				default: '',
				placeholder: 'e.g. 120363012345678901@g.us',
				description:
					"A group the person is in. Evolution API has no LID lookup of its own: it knows the pair from a group's members, so name a group the person wrote in (the trigger's chatId of a group message).",
			},
		],
	},
];

export const description = showOnlyFor('contact', 'getPhoneOrLid', properties);

export interface PhoneOrLidRequest {
	session: string;
	person: ChatReference;
	/** A group the person is in (Evolution API reads its members). */
	groupId?: string;
}

/** What Get Phone Number or LID was asked for one item, checked before any request. */
export function readPhoneOrLid(this: IExecuteFunctions, itemIndex: number): PhoneOrLidRequest {
	// The Contact field is Contact → Get's, read the same way.
	const { session, contact: person } = readGetContact.call(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const group = options.groupId;
	if (group === undefined || group === null || (typeof group === 'string' && isBlank(group))) {
		return { session, person };
	}
	return {
		session,
		person,
		groupId: parseChat.call(this, group, 'In Group', itemIndex, ['group']).value,
	};
}

/** One item: the person's phone number and LID, and whether the gateway knew both. */
export function phoneOrLidOutput(found: PersonAddresses): INodeExecutionData[] {
	return [
		{
			json: {
				phone: found.phone,
				lid: found.lid,
				found: found.phone !== null && found.lid !== null,
			},
		},
	];
}

/** The Messaging Gateway API: the spec has no way to map a LID to a phone number. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	readPhoneOrLid.call(this, itemIndex);
	throw new NodeOperationError(
		this.getNode(),
		'Get Phone Number or LID is not available on the Messaging Gateway API: it has no route that maps a LID to a phone number',
		{
			itemIndex,
			description:
				'Use the phone and lid fields of the Messaging Gateway Trigger, which come with each message. WAHA (2025.5.4 and later) maps LIDs to phone numbers; Evolution API v2 knows the pair from group members: pick that Gateway in the credential if your server is one of them.',
		},
	);
}
