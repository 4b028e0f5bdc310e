// What Evolution API 2.3.x / 2.4.0 keep in their database beside the messages, where the simulator's
// shared state (the address book, the LID people) does not say it: the Contact rows a message from
// someone addressed by LID writes (messages.upsert's `contactRaw`), and the IsOnWhatsapp number
// cache (`DATABASE_SAVE_IS_ON_WHATSAPP=true`, its .env.example default) whatsappNumbers reads first.
// Both are per instance and go with it on reset (a new seed state is new instances).
import { contactJid, isGroupId, isLid } from './ids.cts';
import { spellingsOf, storedPushName } from './routes/instance-contacts.cts';
import { lidAddressOf, type Instance, type StoredMessage } from './state.cts';
import type { EvolutionVersion } from './types.cts';

/** An IsOnWhatsapp row: the JID answered, every spelling (and LID) that finds it, the `lid` flag. */
export interface NumberCacheRow {
	remoteJid: string;
	jidOptions: string[];
	lid: 'lid' | null;
}

interface Store {
	/** Contact rows written by messages from people addressed by LID: JID → push name. */
	contacts: Map<string, string>;
	numbers: NumberCacheRow[];
}

const stores = new WeakMap<Instance, Store>();

function storeOf(instance: Instance): Store {
	let store = stores.get(instance);
	if (!store) {
		store = { contacts: new Map(), numbers: [] };
		stores.set(instance, store);
	}
	return store;
}

/** A Contact row as findContacts and whatsappNumbers read it (JIDs as the simulator writes them). */
export interface ContactRow {
	remoteJid: string;
	pushName: string;
	pictureFile?: string;
}

/**
 * The instance's Contact table in insertion order: the address book (seed contacts and people who
 * wrote from their phone), then the rows messages from people addressed by LID wrote. A row under a
 * JID the address book already has (2.3.7 writes Dora's under her phone) updates it.
 */
export function contactRowsV2(instance: Instance): ContactRow[] {
	const rows = new Map<string, ContactRow>();
	for (const contact of instance.contacts.values()) {
		const remoteJid = contactJid(contact.number);
		rows.set(remoteJid, {
			remoteJid,
			pushName: storedPushName(contact),
			pictureFile: contact.pictureFile,
		});
	}
	for (const [remoteJid, pushName] of storeOf(instance).contacts) {
		const row = rows.get(remoteJid);
		rows.set(remoteJid, row ? { ...row, pushName } : { remoteJid, pushName });
	}
	return [...rows.values()];
}

/** onWhatsappCache's getAvailableNumbers: a LID or group as it is; a number with its other spellings. */
function availableNumbers(jid: string): string[] {
	if (isLid(jid) || isGroupId(jid)) return [jid];
	const spellings = spellingsOf(jid.split('@')[0]);
	return spellings.length > 0 ? spellings : [jid];
}

/** What saveOnWhatsappCache is given: the JID to answer, the JID beside it (kept when a LID), the flag. */
export interface NumberCacheItem {
	remoteJid: string | undefined;
	remoteJidAlt?: string;
	lid?: 'lid' | null;
}

/**
 * saveOnWhatsappCache: the row that has any of the JIDs (or the same `remoteJid`) takes the new
 * `remoteJid`, the `lid` flag (`'lid'` when flagged or a LID) and every JID; else a new row. An item
 * without `remoteJid` throws on 2.3.6 (`undefined.startsWith`) and is skipped from 2.3.7 on.
 */
export function saveNumberCache(
	instance: Instance,
	version: EvolutionVersion,
	item: NumberCacheItem,
): void {
	const { remoteJid } = item;
	if (remoteJid === undefined) {
		if (version === '2.3.6')
			throw new TypeError("Cannot read properties of undefined (reading 'startsWith')");
		return;
	}
	const lidAlt = item.remoteJidAlt && isLid(item.remoteJidAlt) ? item.remoteJidAlt : undefined;
	const jids = [...availableNumbers(remoteJid), ...(lidAlt ? [lidAlt] : [])];
	const rows = storeOf(instance).numbers;
	const existing = rows.find(
		(row) => row.remoteJid === remoteJid || jids.some((jid) => row.jidOptions.includes(jid)),
	);
	const row: NumberCacheRow = {
		remoteJid,
		jidOptions: [...new Set([...jids, ...(existing?.jidOptions ?? [])])],
		lid: item.lid === 'lid' || isLid(remoteJid) ? 'lid' : null,
	};
	if (existing) Object.assign(existing, row);
	else rows.push(row);
}

/** getOnWhatsappCache, then whatsappNumber's pick: the first row that has the JID. */
export function cachedNumber(instance: Instance, jid: string): NumberCacheRow | undefined {
	const row = storeOf(instance).numbers.find((candidate) => candidate.jidOptions.includes(jid));
	return row && { ...row, jidOptions: [...row.jidOptions] };
}

type Key = Record<string, unknown>;
const jidOf = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The end of messages.upsert for a message from the network (or typed on the owner's phone) in a
 * direct chat, after MESSAGES_UPSERT: 2.3.6+ cache the number (with the number cache on) as the
 * delivered key says it (`upsertKey`: a LID-addressed chat caches its phone, flagged `lid`; 2.4.0's
 * swapped key its phone with the LID beside it), then the Contact row is written under
 * `received.key.remoteJid`: the stored LID, except on 2.3.7 whose overwrite of the shared key puts
 * it under the phone. On 2.3.6 a LID without its phone (Eli) crashes the cache write, so no row.
 * Only rows of people addressed by LID are kept here; the address book has everyone else's.
 */
export function recordUpsertV2(
	instance: Instance,
	message: StoredMessage,
	storedKey: Key,
	upsertKey: Key,
	version: EvolutionVersion,
	numberCache: boolean,
): void {
	if (message.source === 'api' || isGroupId(message.chatId)) return;
	if (numberCache && version !== '2.3.0') {
		const byLid = upsertKey.addressingMode === 'lid';
		try {
			saveNumberCache(instance, version, {
				remoteJid: jidOf(byLid ? upsertKey.remoteJidAlt : upsertKey.remoteJid),
				remoteJidAlt: jidOf(upsertKey.remoteJidAlt),
				lid: byLid ? 'lid' : null,
			});
		} catch {
			// The handler's catch: the rest of the batch (this contact) is skipped.
			return;
		}
	}
	if (!lidAddressOf(instance, message)) return;
	const remoteJid = jidOf(version === '2.3.7' ? upsertKey.remoteJid : storedKey.remoteJid);
	if (remoteJid) storeOf(instance).contacts.set(remoteJid, message.fromMe ? '' : message.pushName);
}
