import type { IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { splitList } from '../../shared/lists';
import { classifyChat, toNumber } from '../../shared/identifiers';
import type { ChatKind } from '../../shared/identifiers';
import { gatewayApiRequest, gatewayPath } from '../../shared/transport';
import { describeValue } from '../../shared/values';
import { fieldError } from './fields';
import { expectList, missingFromAnswer } from './responses';

/**
 * Numbers as people list them: "a, b; c", one per line, separated by spaces, or a list from an
 * expression. A piece is split on spaces only when it is not a phone number as a whole, so
 * "+55 11 99999-9999" stays one number. Blank entries of a list from an expression are kept, so
 * they are refused by position rather than skipped; empty pieces of a typed text (a trailing comma)
 * are dropped.
 */
export function listedNumbers(raw: unknown): unknown[] {
	const entries = Array.isArray(raw)
		? raw.map((entry) => (typeof entry === 'string' ? entry.trim() : entry))
		: splitList(raw);
	return entries.flatMap((entry) =>
		typeof entry !== 'string' || entry === '' || classifyChat(entry) ? [entry] : entry.split(/\s+/),
	);
}

export interface ListedNumber {
	/** The entry as the user gave it (trimmed). */
	given: string;
	/** Its digits with country code (or a LID, where the field takes one), as instance-family bodies take them. */
	number: string;
}

/**
 * The phone numbers of a list field (see `listedNumbers`), each once, in the order given; with
 * `takesLids`, LIDs too (a field whose gateway takes a person by their LID). An entry that is
 * neither (chat IDs and JIDs of contacts count as numbers) is refused before any request, naming
 * the field and its position.
 */
export function readPhoneNumbers(
	this: IExecuteFunctions,
	raw: unknown,
	displayName: string,
	itemIndex: number,
	takesLids = false,
): ListedNumber[] {
	const accepted: readonly ChatKind[] = takesLids ? ['contact', 'lid'] : ['contact'];
	const seen = new Map<string, ListedNumber>();
	listedNumbers(raw).forEach((entry, index, all) => {
		const reference = classifyChat(entry);
		const shown =
			typeof entry === 'string' || typeof entry === 'number'
				? String(entry)
				: JSON.stringify(entry ?? null);
		if (!reference || !accepted.includes(reference.kind)) {
			const position = all.length > 1 ? ` (entry ${index + 1})` : '';
			const shapes = takesLids
				? 'a phone number with country code, e.g. +55 11 99999-9999, or a LID, e.g. 123456789012345@lid'
				: 'a phone number with country code, e.g. +55 11 99999-9999';
			throw fieldError.call(
				this,
				itemIndex,
				`${displayName}${position} must be ${shapes} (got "${shown}")`,
				'Give each number with its country code, and separate several with commas, e.g. +55 11 99999-9999, +55 21 98888-7777.',
			);
		}
		const number = toNumber(reference);
		if (!seen.has(number)) seen.set(number, { given: shown, number });
	});
	return [...seen.values()];
}

export interface NumberCheck {
	exists: boolean;
	/** The JID the network knows the number by (Brazilian numbers may gain or lose their 9th digit). */
	jid: string | null;
	/** The contact's name, when the gateway knows one. */
	name?: string;
}

/**
 * Asks the gateway (`/chat/whatsappNumbers`) whether each number is on the messaging network, in
 * one request. The answer lists `{exists, jid, number, name?}` records, not necessarily in the order
 * asked; each is matched by the `number` sent, or by the digits of its JID. An answer that is not
 * such a list, or that leaves a number out, fails.
 */
export async function checkNumbers(
	this: IExecuteFunctions,
	session: string,
	numbers: string[],
	itemIndex: number,
): Promise<NumberCheck[]> {
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/chat/whatsappNumbers/${session}`,
		{ body: { numbers }, itemIndex, read: true },
	);
	const records = expectList.call(this, response, undefined, itemIndex);
	const hint =
		'The gateway answered with success but not with whether each number is on the network. Check that the Base URL points at the gateway and that its version matches.';
	for (const record of records) {
		if (typeof record.exists !== 'boolean') {
			throw missingFromAnswer.call(this, record, '"exists" field', hint, itemIndex);
		}
	}
	return numbers.map((number) => {
		const record =
			records.find((candidate) => String(candidate.number ?? '') === number) ??
			records.find((candidate) => jidDigits(candidate.jid) === number);
		if (!record) throw missingResult.call(this, response, number, hint, itemIndex);
		const check: NumberCheck = {
			exists: record.exists as boolean,
			jid: typeof record.jid === 'string' && record.jid !== '' ? record.jid : null,
		};
		if (typeof record.name === 'string' && record.name.trim() !== '') check.name = record.name;
		return check;
	});
}

function jidDigits(jid: unknown): string | undefined {
	return typeof jid === 'string' ? /^\+?(\d+)@/.exec(jid)?.[1] : undefined;
}

/** A list answer without a record for `number`: an error with the whole answer, not an item without data. */
function missingResult(
	this: IExecuteFunctions,
	response: unknown,
	number: string,
	hint: string,
	itemIndex: number,
): NodeApiError {
	const got = describeValue(response);
	return new NodeApiError(this.getNode(), { message: 'no result for a number' } as JsonObject, {
		message: `Gateway error: the answer has no result for ${number} (got ${got.length > 200 ? `${got.slice(0, 199)}…` : got})`,
		description: hint,
		itemIndex,
	});
}
