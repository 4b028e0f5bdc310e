import type { INodeProperties } from 'n8n-workflow';

import * as connect from './connect.operation';
import * as getConnectionState from './getConnectionState.operation';
import * as getMany from './getMany.operation';
import * as logout from './logout.operation';
import * as requestPairingCode from './requestPairingCode.operation';
import * as restart from './restart.operation';
import * as setPresence from './setPresence.operation';
import { withEarlierDefaults } from '../common/descriptions';

/** The operations of this resource by value, for the router. */
export const operations = {
	connect,
	getConnectionState,
	getMany,
	logout,
	requestPairingCode,
	restart,
	setPresence,
};

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
					name: 'Connect',
					value: 'connect',
					description:
						'Start pairing a session that is not connected: a QR code as a PNG to scan, and the pairing code',
					action: 'Connect a session',
				},
				{
					name: 'Get Connection State',
					value: 'getConnectionState',
					description: 'Whether the session is connected (open), pairing (connecting) or closed',
					action: 'Get the connection state of a session',
				},
				{
					name: 'Get Many',
					value: 'getMany',
					description: 'List the sessions (instances) of the gateway with their connection state',
					action: 'Get many sessions',
				},
				{
					name: 'Log Out',
					value: 'logout',
					description:
						'Unlink the session from its phone; it stays on the gateway and can be connected again',
					action: 'Log out a session',
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
	...connect.description,
	...getConnectionState.description,
	...getMany.description,
	...logout.description,
	...requestPairingCode.description,
	...restart.description,
	...setPresence.description,
];
