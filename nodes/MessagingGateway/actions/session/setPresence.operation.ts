import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { optionFrom } from '../../helpers/fields';

const PRESENCE_OPTIONS = [
	{ name: 'Available', value: 'available', description: 'Show the account as online' },
	{ name: 'Composing', value: 'composing', description: 'Show "typing…"' },
	{ name: 'Paused', value: 'paused', description: 'Stop showing typing or recording' },
	{ name: 'Recording', value: 'recording', description: 'Show "recording audio…"' },
	{ name: 'Unavailable', value: 'unavailable', description: 'Show the account as offline' },
];

/** The values the gateway accepts, checked again for values from expressions. */
const PRESENCES = PRESENCE_OPTIONS.map((option) => option.value);

const properties: INodeProperties[] = [
	...sessionFields,
	{
		displayName: 'Presence',
		name: 'presence',
		type: 'options',
		default: 'available',
		options: PRESENCE_OPTIONS,
		description: 'The presence to show for the whole account',
	},
];

export const description = showOnlyFor('session', 'setPresence', properties);

/** What Set Presence was asked for one item: the session and one of the presences, checked before any request. */
export function readSetPresence(
	this: IExecuteFunctions,
	itemIndex: number,
): { session: string; presence: string } {
	const session = readSession.call(this, itemIndex);
	const presence = optionFrom.call(
		this,
		this.getNodeParameter('presence', itemIndex),
		'Presence',
		itemIndex,
		PRESENCES,
	);
	return { session, presence };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, presence } = readSetPresence.call(this, itemIndex);
	// The gateway answers 201 with an empty body; say what was done instead of outputting nothing.
	await gatewayApiRequest.call(this, 'POST', gatewayPath`/instance/setPresence/${session}`, {
		body: { presence },
		itemIndex,
	});
	return [{ json: { success: true, session, presence } }];
}
