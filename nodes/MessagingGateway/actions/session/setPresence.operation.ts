import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { readSession, sessionField } from '../common.descriptions';

const properties: INodeProperties[] = [
	sessionField,
	{
		displayName: 'Presence',
		name: 'presence',
		type: 'options',
		default: 'available',
		options: [
			{ name: 'Available', value: 'available', description: 'Show the account as online' },
			{ name: 'Composing', value: 'composing', description: 'Show "typing…"' },
			{ name: 'Paused', value: 'paused', description: 'Stop showing typing or recording' },
			{ name: 'Recording', value: 'recording', description: 'Show "recording audio…"' },
			{ name: 'Unavailable', value: 'unavailable', description: 'Show the account as offline' },
		],
		description: 'The presence to show for the whole account',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['session'], operation: ['setPresence'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const presence = this.getNodeParameter('presence', itemIndex) as string;
	// The gateway answers 201 with an empty body; say what was done instead of outputting nothing.
	await gatewayApiRequest.call(this, 'POST', gatewayPath`/instance/setPresence/${session}`, {
		body: { presence },
		itemIndex,
	});
	return [{ json: { success: true, session, presence } }];
}
