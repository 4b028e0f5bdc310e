import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { fieldError } from '../../helpers/fields';
import { checkNumbers, readPhoneNumbers } from '../../helpers/numbers';
import type { ListedNumber, NumberCheck } from '../../helpers/numbers';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';

const properties: INodeProperties[] = [
	...sessionFields,
	{
		displayName: 'Numbers',
		name: 'numbers',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +55 11 99999-9999, +55 21 98888-7777',
		description:
			'Phone numbers with country code to check, separated by commas, spaces or new lines (an expression may also return a list). Outputs one item per number with exists, jid, number and, when the gateway knows it, the contact name. A LID (…@lid) is an account WhatsApp made, so it exists; Contact → Get Phone Number or LID finds its number.',
	},
];

export const description = showOnlyFor('contact', 'checkNumber', properties);

/** What Check Number was asked for one item: the session and the numbers, checked before any request. */
export function readCheckNumber(
	this: IExecuteFunctions,
	itemIndex: number,
): { session: string; listed: ListedNumber[] } {
	const session = readSession.call(this, itemIndex);
	const listed = readPhoneNumbers.call(
		this,
		this.getNodeParameter('numbers', itemIndex, ''),
		'Numbers',
		itemIndex,
		true,
	);
	if (listed.length === 0) {
		throw fieldError.call(
			this,
			itemIndex,
			'Numbers must list at least one phone number',
			'Enter phone numbers with country code, separated by commas, e.g. +55 11 99999-9999.',
		);
	}
	return { session, listed };
}

/** One item per number asked, in order: `{exists, jid, number, name?}`, the number as the user gave it. */
export function checkNumberOutput(
	listed: ListedNumber[],
	checks: NumberCheck[],
): INodeExecutionData[] {
	return listed.map((entry, index) => {
		const { exists, jid, name } = checks[index];
		const json: IDataObject = { exists, jid, number: entry.given };
		if (name !== undefined) json.name = name;
		return { json };
	});
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, listed } = readCheckNumber.call(this, itemIndex);
	// One request for all the numbers of the item: the gateway checks a list at once.
	const checks = await checkNumbers.call(
		this,
		session,
		listed.map((entry) => entry.number),
		itemIndex,
	);
	return checkNumberOutput(listed, checks);
}
