/**
 * The Events options both nodes show (the trigger's Events, Webhook → Set's), each saying on which
 * gateways it is missing: read from every gateway's own event table, so this file stands above
 * the gateway folders, which never import it.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { INSTANCE_EVENTS } from '../../events';
import { EVOLUTION_V2_EVENTS } from '../evolution-v2/webhook';
import { wahaHasEvent } from '../waha/events';

/** Names kept as they are in the nodes panel's sentence-case labels. */
const PROPER_NAMES = new Set(['Typebot', 'Chama']);

/**
 * The nodes panel's label for an event ("On message received", "On QR code updated"): n8n
 * lower-cases the whole name unless the option says it.
 */
function panelLabel(displayName: string): string {
	const words = displayName
		.split(' ')
		.map((word) =>
			/^[A-Z]{2,}$/.test(word) || PROPER_NAMES.has(word) ? word : word.toLowerCase(),
		);
	return `On ${words.join(' ')}`;
}

/**
 * Which gateways have an event. The Events list cannot follow the credential: n8n's nodes panel
 * builds its "On …" entries from a static list, and a list loaded from the credential would have
 * to be named "Event Names or IDs" (n8n's lint), which the panel does not look for. So each option
 * says where it is missing, and activation refuses it there.
 */
const GATEWAYS_WITH_EVENT: Array<[label: string, has: (event: string) => boolean]> = [
	['Evolution API v1', () => true],
	['Evolution API v2', (event) => EVOLUTION_V2_EVENTS.has(event)],
	['WAHA', wahaHasEvent],
];

/** " Not on WAHA.", " Only on Evolution API v1." or nothing, for an event. */
export function eventAvailability(event: string): string {
	const having = GATEWAYS_WITH_EVENT.filter(([, has]) => has(event)).map(([label]) => label);
	if (having.length === GATEWAYS_WITH_EVENT.length) return '';
	const lacking = GATEWAYS_WITH_EVENT.filter(([label]) => !having.includes(label));
	return having.length === 1
		? ` Only on ${having[0]}.`
		: ` Not on ${lacking.map(([label]) => label).join(' or ')}.`;
}

/**
 * The Events options in the order above. A named constant, not an inline array: n8n shows options
 * in the given order, and its lint rule on sorted options applies to inline option lists only.
 */
export const EVENT_OPTIONS: INodePropertyOptions[] = INSTANCE_EVENTS.map((event) => ({
	name: event.displayName,
	value: event.name,
	action: panelLabel(event.displayName),
	description: `${event.description}.${eventAvailability(event.name)}`,
}));
