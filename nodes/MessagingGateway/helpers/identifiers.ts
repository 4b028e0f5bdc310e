import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

/** Digits of a phone number typed the way people type them: "+55 (11) 99999-9999" -> "5511999999999". */
export function phoneDigits(
	this: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	const text =
		typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	const digits = text.replace(/[\s()+\-.]/g, '');
	if (!/^\d{8,15}$/.test(digits)) {
		throw new NodeOperationError(
			this.getNode(),
			`${field} must be a phone number with country code, e.g. +55 11 99999-9999 (got "${text}")`,
			{
				itemIndex,
				description:
					'Use 8 to 15 digits including the country code; spaces, +, -, . and brackets are ignored.',
			},
		);
	}
	return digits;
}
