import { classifyChat, personIdOf } from './identifiers';

/**
 * A person's two addresses on WhatsApp: the phone number (digits with the country code) and the
 * LID (`<digits>@lid`), each null when nothing the gateway delivered says it.
 */
export interface PersonAddresses {
	phone: string | null;
	lid: string | null;
}

export const NO_ADDRESSES: Readonly<PersonAddresses> = Object.freeze({ phone: null, lid: null });

/**
 * The phone number and the LID among IDs a gateway delivered for one person (`remoteJid`,
 * `remoteJidAlt`, `senderPn`, …), whatever field each came in: each is told by its own ending, so
 * a version that swaps the fields (Evolution API 2.4.0) reads the same as one that does not, and
 * a LID's digits never become a phone number. Only full IDs count (bare digits could be either);
 * a device suffix (`…:3@…`) is read as the person; the first of each kind wins.
 */
export function addressesOf(...ids: unknown[]): PersonAddresses {
	return otherThan(NO_ADDRESSES, ids);
}

/**
 * As addressesOf, leaving out the IDs of `me` (the session's own number and LID): in a direct
 * chat, whatever ID is not mine is the other person's, whichever field a gateway put it in.
 */
export function otherThan(me: PersonAddresses, ids: readonly unknown[]): PersonAddresses {
	let phone: string | null = null;
	let lid: string | null = null;
	// An indexed loop: the trigger reads a delivery's IDs on every message event.
	for (let index = 0; index < ids.length; index++) {
		const id = ids[index];
		if (typeof id !== 'string') continue;
		const found = personOf(id);
		if (found === undefined) continue;
		if (found.endsWith('@lid')) {
			if (found !== me.lid) lid ??= found;
		} else if (found !== me.phone) {
			phone ??= found;
		}
	}
	return { phone, lid };
}

const ODD_SPELLING = /[A-Z\s]/;

/**
 * A person's ID (the LID or the phone number's digits) as personIdOf reads what gateways write;
 * an ID written another way (upper case, spaces) as classifyChat reads it.
 */
function personOf(id: string): string | undefined {
	const person = personIdOf(id);
	// Only full IDs: bare digits could be either a phone number or a LID's.
	if (person !== undefined || !id.includes('@') || !ODD_SPELLING.test(id)) return person;
	const reference = classifyChat(id);
	return reference?.kind === 'lid' || reference?.kind === 'contact' ? reference.value : undefined;
}

/**
 * A group member's phone number and LID, from whatever fields the gateway gave them in (WAHA's
 * `pn`, Evolution 2.3.6's `phoneNumber` or `lid`, 2.3.0's `jid`, or the `id` itself).
 */
export function memberAddresses(member: Record<string, unknown>): PersonAddresses {
	return addressesOf(member.id, member.pn, member.phoneNumber, member.lid, member.jid);
}
