import type { INodeProperties } from 'n8n-workflow';

import * as requestPairingCode from './requestPairingCode.operation';
import * as restart from './restart.operation';
import * as setPresence from './setPresence.operation';

export { requestPairingCode, restart, setPresence };

/** The operations of this resource by value, for the router. */
export const operations = { requestPairingCode, restart, setPresence };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['session'] } },
		options: [
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
		default: 'restart',
	},
	...requestPairingCode.description,
	...restart.description,
	...setPresence.description,
];
