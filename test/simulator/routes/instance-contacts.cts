// Instance family (Evolution v1): contacts endpoints beyond the spec (issue 12).
import type { RequestContext, Route } from '../core.cts';
import { evolutionError } from '../errors.cts';
import { contactJid, createJid, isGroupId, isLid } from '../ids.cts';
import { isRegistered, type Contact, type Instance } from '../state.cts';
import { assertEvolutionBody, type Schema } from '../validation.cts';
import { instanceGuard } from './guards.cts';

/** whatsappNumberSchema: `numbers` is not required (leaving it out crashes later, as in Evolution). */
const whatsappNumberSchema: Schema = {
	type: 'object',
	properties: {
		numbers: {
			type: 'array',
			minItems: 1,
			uniqueItems: true,
			items: { type: 'string', description: '"numbers" must be an array of numeric strings' },
		},
	},
};

/** What Evolution's unhandled TypeErrors answer: 500 with the raw message as a string. */
function typeError(property: string): never {
	throw evolutionError.of(500, `Cannot read properties of undefined (reading '${property}')`);
}

/** Whether the account's address book or its own number is `number`: the network knows these JIDs as they are. */
function isKnown(instance: Instance, number: string): boolean {
	return number === instance.ownerNumber || instance.contacts.has(number);
}

/**
 * The network's answer for one number (Baileys' onWhatsApp lists only the numbers that exist, by
 * their canonical JID): a Brazilian number with or without its 9th digit resolves to the spelling a
 * known account has; other registered numbers to themselves.
 */
function networkJid(instance: Instance, digits: string): string | undefined {
	if (!/^\d{5,20}$/.test(digits)) return undefined;
	if (isKnown(instance, digits)) return contactJid(digits);
	const variant = digits.startsWith('55') ? brazilianVariants(digits) : undefined;
	const known =
		variant && [variant.withDigit, variant.withoutDigit].find((n) => isKnown(instance, n));
	if (known) return contactJid(known);
	return isRegistered(instance, digits) ? contactJid(digits) : undefined;
}

/** Evolution's two spellings of a Brazilian number (`55` + area code, with and without the mobile 9). */
function brazilianVariants(number: string): { withDigit: string; withoutDigit: string } {
	return {
		withDigit:
			number.slice(4, 5) === '9' && number.length === 13
				? number
				: `${number.slice(0, 4)}9${number.slice(4)}`,
		withoutDigit: number.length === 12 ? number : number.slice(0, 4) + number.slice(5),
	};
}

/** Evolution's Mexican (52, mobile 1) and Argentinian (54, mobile 9) spellings. */
function prefixedVariants(
	number: string,
	prefix: string,
): { withDigit: string; withoutDigit: string } {
	return {
		withDigit:
			number.slice(2, 3) === prefix && number.length === 13
				? number
				: `${number.slice(0, 2)}${prefix}${number.slice(2)}`,
		withoutDigit: number.length === 12 ? number : number.slice(0, 2) + number.slice(3),
	};
}

/** The other spellings Evolution tries for a number as sent: Brazilian, Mexican or Argentinian. */
export function spellingsOf(number: string): string[] {
	const variants = number.startsWith('55')
		? brazilianVariants(number)
		: number.startsWith('52')
			? prefixedVariants(number, '1')
			: number.startsWith('54')
				? prefixedVariants(number, '9')
				: undefined;
	return variants ? [contactJid(variants.withDigit), contactJid(variants.withoutDigit)] : [];
}

/**
 * `whatsappNumber` of Evolution 1.8.2 (its sends run it too): broadcasts, then groups, then users,
 * each `number` as it was sent. Users are matched against the network's answers by their other
 * spellings (on the number as sent, so "+55…" skips them), then by their JID. Throws what Evolution
 * answers for a group it cannot read and for a socket that is not open.
 */
export function whatsappNumber(instance: Instance, numbers: string[]) {
	const { broadcasts, groups, users } = sortNumbers(numbers);
	// findGroup answers nothing for a group it cannot read, and Evolution then reads `.id` of it.
	const found = groups.map(({ jid, number }) => {
		const group = instance.state === 'open' ? instance.groups.get(jid) : undefined;
		if (!group) typeError('id');
		return { jid: group.id, exists: true, number, name: group.subject };
	});
	// onWhatsApp runs even for no users, on the socket.
	if (instance.state !== 'open') throw evolutionError.connectionClosed();
	return [...broadcasts, ...found, ...checkUsers(instance, users)];
}

/** The name Evolution stores for a contact: its push name, else its saved name, else its number. */
export function storedPushName(contact: Contact): string {
	return contact.pushName || contact.name || contact.number;
}

/** whatsappNumber's numbers by kind, each `number` as it was sent with the JID createJid makes of it. */
export function sortNumbers(numbers: string[]) {
	const sent = numbers.map((number) => ({ number, jid: createJid(number) }));
	return {
		broadcasts: sent
			.filter(({ jid }) => jid === 'status@broadcast')
			.map(({ jid, number }) => ({ jid, exists: false, number })),
		groups: sent.filter(({ jid }) => isGroupId(jid)),
		users: sent.filter(({ jid }) => !isGroupId(jid) && jid !== 'status@broadcast'),
	};
}

/**
 * The users' part of whatsappNumber (the same in Evolution 1.8.2 and 2.3.6): each matched against
 * the network's answers by its other spellings, then by its JID.
 */
export function checkUsers(instance: Instance, users: Array<{ number: string; jid: string }>) {
	const verified = users
		.filter(({ jid }) => !isLid(jid))
		.map(({ jid }) => networkJid(instance, jid.split('@')[0]))
		.filter((jid): jid is string => jid !== undefined);
	return users.map((user) => {
		// A LID is taken as valid without asking the network (Evolution's "@lid" branch).
		if (isLid(user.jid)) return { exists: true, jid: user.jid, number: user.number };
		const spellings = spellingsOf(user.number);
		const match =
			verified.find((jid) => spellings.includes(jid)) ?? verified.find((jid) => jid === user.jid);
		const jid = match ?? user.jid;
		const contact = instance.contacts.get(jid.split('@')[0]);
		const name = contact ? storedPushName(contact) : undefined;
		return { exists: match !== undefined, jid, ...(name ? { name } : {}), number: user.number };
	});
}

function whatsappNumbers(context: RequestContext) {
	const instance = instanceGuard(context);
	const body = assertEvolutionBody(context.body, whatsappNumberSchema);
	// `data.numbers.forEach` on a body without numbers.
	if (body.numbers === undefined) typeError('forEach');
	return { status: 200, body: whatsappNumber(instance, body.numbers as string[]) };
}

export const instanceContactsRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/chat/whatsappNumbers/:instance',
		family: 'instance',
		handler: whatsappNumbers,
	},
];
