import { classifyChat } from './identifiers';

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

const PHONE_ENDINGS = ['@s.whatsapp.net', '@c.us', '@s.messenger.net'];
const ODD_SPELLING = /[A-Z\s]/;

/**
 * A person's ID as a gateway writes it: the LID (`<digits>@lid`) or the phone number's digits,
 * undefined for anything else; the same as classifyChat says, on the way every delivery takes
 * (no expressions, no copy unless a device suffix is cut off). An ID written another way (upper
 * case, spaces) goes through classifyChat.
 */
export function personOf(id: string): string | undefined {
	if (id.endsWith('@lid')) {
		const at = id.length - 4;
		const end = digitsEnd(id, at, 20);
		if (end === -1) return undefined;
		return end === at ? id : `${id.slice(0, end)}@lid`;
	}
	for (let index = 0; index < PHONE_ENDINGS.length; index++) {
		const ending = PHONE_ENDINGS[index];
		if (!id.endsWith(ending)) continue;
		const end = digitsEnd(id, id.length - ending.length, 15);
		return end === -1 ? undefined : id.slice(0, end);
	}
	if (!ODD_SPELLING.test(id) || !id.includes('@')) return undefined;
	const reference = classifyChat(id);
	if (reference?.kind === 'lid' || reference?.kind === 'contact') return reference.value;
	return undefined;
}

/**
 * Where the person's digits before `at` end (at least 6 of them, at most `most`), a device suffix
 * (`:` and 1 to 3 digits) left out; -1 when there are other characters.
 */
function digitsEnd(id: string, at: number, most: number): number {
	let end = at;
	// A device suffix is at most 3 digits: look that far back only.
	for (let index = at - 1; index >= at - 4 && index >= 0; index--) {
		if (id.charCodeAt(index) !== 58) continue;
		if (index === at - 1 || !allDigits(id, index + 1, at)) return -1;
		end = index;
		break;
	}
	return end < 6 || end > most || !allDigits(id, 0, end) ? -1 : end;
}

function allDigits(text: string, from: number, to: number): boolean {
	for (let index = from; index < to; index++) {
		const code = text.charCodeAt(index);
		if (code < 48 || code > 57) return false;
	}
	return true;
}

/**
 * A group member's phone number and LID, from whatever fields the gateway gave them in (WAHA's
 * `pn`, Evolution 2.3.6's `phoneNumber` or `lid`, 2.3.0's `jid`, or the `id` itself).
 */
export function memberAddresses(member: Record<string, unknown>): PersonAddresses {
	return addressesOf(member.id, member.pn, member.phoneNumber, member.lid, member.jid);
}
