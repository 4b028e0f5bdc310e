import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';
import * as requestPairingCode from './requestPairingCode.operation';
import * as restart from './restart.operation';
import * as setPresence from './setPresence.operation';
import { withEarlierDefaults } from '../common.descriptions';

export { getMany, requestPairingCode, restart, setPresence };

/** The operations of this resource by value, for the router. */
export const operations = { getMany, requestPairingCode, restart, setPresence };

export const description: INodeProperties[] = [
	...withEarlierDefaults(
		{ 1: 'restart' },
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: ['session'] } },
			options: [
				{
					name: 'Get Many',
					value: 'getMany',
					description: 'List the sessions (instances) of the gateway with their connection state',
					action: 'Get many sessions',
				},
				{
					name: 'Request Pairing Code',
					value: 'requestPairingCode',
					description: 'Get a code that links a phone to the session without scanning a QR code',
					action: 'Request a pairing code',
				},
				{
					name: 'Restart',
					value: 'restart',
					description: 'Restart the session (instance) and return its connection state',
					action: 'Restart a session',
				},
				{
					name: 'Set Presence',
					value: 'setPresence',
					description: 'Set the online presence of the whole account',
					action: 'Set the presence of a session',
				},
			],
			default: 'getMany',
		},
	),
	...getMany.description,
	...requestPairingCode.description,
	...restart.description,
	...setPresence.description,
];
