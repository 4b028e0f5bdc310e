import type { IExecuteFunctions } from 'n8n-workflow';

import { fieldError } from '../../helpers/fields';
import { readPhoneNumbers } from '../../helpers/numbers';

/** The gateway refuses group member numbers shorter than this (its schema's minLength). */
const MIN_DIGITS = 10;

/**
 * The member numbers of a list field (see `readPhoneNumbers`) as digits with country code, each
 * once; none at all, or a number too short for the gateway, fails before any request.
 */
export function readMemberNumbers(
	this: IExecuteFunctions,
	name: string,
	displayName: string,
	itemIndex: number,
): string[] {
	const listed = readPhoneNumbers.call(
		this,
		this.getNodeParameter(name, itemIndex, ''),
		displayName,
		itemIndex,
		true,
	);
	if (listed.length === 0) {
		throw fieldError.call(
			this,
			itemIndex,
			`${displayName} must list at least one phone number`,
			'Enter phone numbers with country code, separated by commas, e.g. +55 11 99999-9999.',
		);
	}
	for (const [index, entry] of listed.entries()) {
		// A LID is no phone number: its digits say nothing of a country code.
		if (!entry.number.endsWith('@lid') && entry.number.length < MIN_DIGITS) {
			const position = listed.length > 1 ? ` (entry ${index + 1})` : '';
			throw fieldError.call(
				this,
				itemIndex,
				`${displayName}${position} must have at least ${MIN_DIGITS} digits with the country code (got "${entry.given}")`,
				'Phone numbers need the country code, e.g. +55 11 99999-9999.',
			);
		}
	}
	return listed.map((entry) => entry.number);
}
