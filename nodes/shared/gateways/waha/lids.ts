/**
 * WAHA's map between LIDs and phone numbers (2025.5.4 and later): `GET /api/{session}/lids/{lid}`
 * answers `{lid, pn}` and `GET /api/{session}/lids/pn/{phone}` the same, with `pn` a chat ID
 * (`<digits>@c.us`); what WAHA does not know is null (200, not 404). NOWEB answers 400 unless its
 * store is enabled; engines without the map answer 501.
 */
import type { JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ChatReference } from '../../identifiers';
import { addressesOf } from '../../people';
import type { PersonAddresses } from '../../people';
import { gatewayApiRequest, gatewayPath } from '../../transport';
import type { GatewayRequestContext } from '../../transport';
import { asObject, describeValue } from '../../values';

/** What to do when WAHA has no map, said with the error. */
export const WAHA_LID_HINT =
	'WAHA maps LIDs to phone numbers from 2025.5.4 on, on the WEBJS and GOWS engines, and on NOWEB with its store enabled (config.noweb.store.enabled). A number WAHA has not seen (not in your contacts, or a group where you are not admin) comes back null.';

/**
 * The phone number and LID WAHA knows for a person named by either; one of the two is null when
 * WAHA does not know it. A 2xx that is not `{lid, pn}` is an error with what came.
 */
export async function wahaLidPair(
	this: GatewayRequestContext,
	session: string,
	person: ChatReference,
	options: { itemIndex?: number; timeoutMs?: number } = {},
): Promise<PersonAddresses> {
	const path =
		person.kind === 'lid'
			? gatewayPath`/api/${session}/lids/${person.value}`
			: gatewayPath`/api/${session}/lids/pn/${person.value}`;
	const answer: unknown = await gatewayApiRequest.call(this, 'GET', path, options);
	const pair = asObject(answer);
	const known = (value: unknown) =>
		value === null || value === undefined || typeof value === 'string';
	if (!pair || !known(pair.lid) || !known(pair.pn)) {
		throw new NodeApiError(this.getNode(), (pair ?? {}) as JsonObject, {
			message: `Gateway error: the LID lookup's answer is not {lid, pn} (got ${describeValue(answer)})`,
			description: WAHA_LID_HINT,
			itemIndex: options.itemIndex,
		});
	}
	const found = addressesOf(pair.lid, pair.pn);
	// WAHA echoes what it was asked: the person asked about is known by that, whatever else came.
	return person.kind === 'lid'
		? { phone: found.phone, lid: person.value }
		: { phone: person.value, lid: found.lid };
}
