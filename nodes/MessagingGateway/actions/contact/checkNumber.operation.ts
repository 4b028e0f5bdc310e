import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { fieldError } from '../../helpers/fields';
import { checkNumbers, readPhoneNumbers } from '../../helpers/numbers';
import { readSession, sessionFields, showOnlyFor } from '../common.descriptions';

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
			'Phone numbers with country code to check, separated by commas, spaces or new lines (an expression may also return a list). Outputs one item per number with exists, jid, number and, when the gateway knows it, the contact name.',
	},
];

export const description = showOnlyFor('contact', 'checkNumber', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const listed = readPhoneNumbers.call(
		this,
		this.getNodeParameter('numbers', itemIndex, ''),
		'Numbers',
		itemIndex,
	);
	if (listed.length === 0) {
		throw fieldError.call(
			this,
			itemIndex,
			'Numbers must list at least one phone number',
			'Enter phone numbers with country code, separated by commas, e.g. +55 11 99999-9999.',
		);
	}
	// One request for all the numbers of the item: the gateway checks a list at once.
	const checks = await checkNumbers.call(
		this,
		session,
		listed.map((entry) => entry.number),
		itemIndex,
	);
	return listed.map((entry, index) => {
		const { exists, jid, name } = checks[index];
		const json: IDataObject = { exists, jid, number: entry.given };
		if (name !== undefined) json.name = name;
		return { json };
	});
}
