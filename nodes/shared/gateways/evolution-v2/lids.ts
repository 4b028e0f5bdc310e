/**
 * What Evolution API knows of a person's LID and phone number. It has no route that maps one to
 * the other (2.3.0 to 2.4.0); two answers carry the pair sometimes:
 * - a group's members, `GET /group/participants/{instance}?groupJid=`: 2.3.6 and later give a
 *   LID member its `phoneNumber` and a phone member its `lid`; 2.3.0 a `jid` with the phone;
 * - the number check, `POST /chat/whatsappNumbers/{instance}`: for a LID, `jid` is the phone
 *   number when the server keeps its number cache (DATABASE_SAVE_IS_ON_WHATSAPP=true) and has seen
 *   the person; for a phone number, only 2.3.0 gives the LID (`lid`; later versions write the word
 *   "lid" there, not a LID).
 */
import type { ChatReference } from '../../identifiers';
import { toNumber } from '../../identifiers';
import { addressesOf, NO_ADDRESSES } from '../../people';
import type { PersonAddresses } from '../../people';
import { gatewayApiRequest, gatewayPath } from '../../transport';
import type { GatewayRequestContext } from '../../transport';
import { asObject } from '../../values';

interface LookupOptions {
	itemIndex?: number;
	timeoutMs?: number;
}

/** The person among a group's members: `{id, phoneNumber?, lid?, jid?}` rows, matched by either ID. */
async function fromGroupMembers(
	this: GatewayRequestContext,
	session: string,
	groupId: string,
	person: ChatReference,
	options: LookupOptions,
): Promise<PersonAddresses> {
	const answer = asObject(
		await gatewayApiRequest.call(this, 'GET', gatewayPath`/group/participants/${session}`, {
			qs: { groupJid: groupId },
			...options,
		}),
	);
	const members = Array.isArray(answer?.participants) ? answer.participants : [];
	for (const member of members) {
		const row = asObject(member);
		if (!row) continue;
		const found = addressesOf(row.id, row.phoneNumber, row.lid, row.jid);
		const named = person.kind === 'lid' ? found.lid : found.phone;
		if (named === person.value) return found;
	}
	return NO_ADDRESSES;
}

/** The person as the number check answers: `[{jid, exists, number, lid?}]`. */
async function fromNumberCheck(
	this: GatewayRequestContext,
	session: string,
	person: ChatReference,
	options: LookupOptions,
): Promise<PersonAddresses> {
	const answer: unknown = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/chat/whatsappNumbers/${session}`,
		{ body: { numbers: [toNumber(person)] }, read: true, ...options },
	);
	const record = Array.isArray(answer) ? asObject(answer[0]) : undefined;
	if (!record || record.exists !== true) return NO_ADDRESSES;
	return addressesOf(record.jid, record.lid);
}

/**
 * The phone number and LID Evolution API gives for a person named by either (see above); what
 * it does not give is null. `groupId`: a group the person is in, whose members are read first.
 */
export async function evolutionLidPair(
	this: GatewayRequestContext,
	session: string,
	person: ChatReference,
	groupId: string | undefined,
	options: LookupOptions = {},
): Promise<PersonAddresses> {
	const asked: PersonAddresses =
		person.kind === 'lid' ? { phone: null, lid: person.value } : { phone: person.value, lid: null };
	const complete = (found: PersonAddresses): PersonAddresses => ({
		phone: asked.phone ?? found.phone,
		lid: asked.lid ?? found.lid,
	});
	if (groupId) {
		const members = complete(await fromGroupMembers.call(this, session, groupId, person, options));
		if (members.phone && members.lid) return members;
	}
	return complete(await fromNumberCheck.call(this, session, person, options));
}
