import type { IExecuteFunctions } from 'n8n-workflow';

import { splitList } from '../../../shared/lists';
import { phoneDigits } from '../../../shared/identifiers';
import { fieldError } from '../../helpers/fields';

/** The gateway refuses group member numbers shorter than this (its schema's minLength). */
const MIN_DIGITS = 10;

/**
 * The phone numbers of a list field ("a, b" or one per line, or a list from an expression) as
 * digits with country code, each once; an entry that is not a phone number, or none at all, fails
 * before any request, naming the field and the entry.
 */
export function readPhoneNumbers(
	this: IExecuteFunctions,
	name: string,
	displayName: string,
	itemIndex: number,
): string[] {
	const entries = splitList(this.getNodeParameter(name, itemIndex, ''));
	if (entries.length === 0) {
		throw fieldError.call(
			this,
			itemIndex,
			`${displayName} must list at least one phone number`,
			'Enter phone numbers with country code, separated by commas, e.g. +55 11 99999-9999.',
		);
	}
	const digits = entries.map((entry, index) => {
		const field = `${displayName} (entry ${index + 1})`;
		const number = phoneDigits.call(this, entry, field, itemIndex);
		if (number.length < MIN_DIGITS) {
			throw fieldError.call(
				this,
				itemIndex,
				`${field} must have at least ${MIN_DIGITS} digits with the country code (got "${String(entry)}")`,
				'Phone numbers need the country code, e.g. +55 11 99999-9999.',
			);
		}
		return number;
	});
	// The same number twice would be refused by the gateway or acted on twice.
	return [...new Set(digits)];
}
