/**
 * A 2xx answer whose shape is not what the operation returns (a list where the spec has an
 * object, an object where it has a list, a list of texts, an answer without the one field that
 * matters) fails as a gateway error instead of becoming an odd item or no item at all.
 */
import type { INodeParameters } from 'n8n-workflow';

import { SEED } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { byId, runGateway } from '../support/gateway-node.cts';

const simulator = useSimulator();

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice.number;
const GROUP = SEED.groups.hikers.id;

const OPERATIONS: Record<string, INodeParameters> = {
	'profile/get': {},
	'group/sendInvite': { groupId: byId(GROUP), numbers: ALICE, description: 'Join us' },
	'session/requestPairingCode': { phoneNumber: '+55 11 98765-0099' },
	'session/restart': {},
	'webhook/set': { url: 'https://hooks.example.com/in', events: ['MESSAGES_UPSERT'] },
	'contact/get': { contact: byId(ALICE) },
	'contact/getMany': { limit: 10 },
	'contact/getProfilePicture': { contact: byId(ALICE) },
	'chat/getMany': { limit: 10 },
	'channel/search': { view: 'POPULAR', countries: 'US', limit: 10 },
};

/** Runs "resource/operation" with its valid parameters. */
async function runOperation(path: string) {
	const [resource, operation] = path.split('/');
	return await runGateway(simulator, {
		resource,
		operation,
		session: SESSION,
		...OPERATIONS[path],
	});
}

describe('a 2xx answer of the wrong shape is an error', () => {
	it.each([
		['profile/get', [], /^Gateway error: the answer is not an object \(got a list \(\[\]\)\)/],
		[
			'group/sendInvite',
			[{ send: true }],
			/^Gateway error: the answer is not an object \(got a list/,
		],
		[
			'session/requestPairingCode',
			{},
			/^Gateway error: the answer has no pairing code \(got an object \(\{\}\)\)/,
		],
		[
			'session/requestPairingCode',
			['ABCD-1234'],
			/^Gateway error: the answer is not an object \(got a list/,
		],
		['session/restart', [], /^Gateway error: the answer is not an object \(got a list/],
		['webhook/set', [], /^Gateway error: the answer is not an object \(got a list/],
		[
			'contact/getProfilePicture',
			['https://cdn.example.com/a.jpg'],
			/^Gateway error: the answer is not an object \(got a list/,
		],
		[
			'contact/get',
			[],
			/^Gateway error: the answer is not an object with a list "contacts" \(got a list/,
		],
		[
			'contact/getMany',
			{ contacts: 'none' },
			/^Gateway error: the answer is not an object with a list "contacts"/,
		],
		[
			'chat/getMany',
			{ chats: [] },
			/^Gateway error: the answer is not a list of records \(got an object/,
		],
		[
			'chat/getMany',
			[1, 'x'],
			/^Gateway error: the answer is not a list of records \(got a list \(\[1,"x"\]\)\)/,
		],
		[
			'channel/search',
			[],
			/^Gateway error: the answer is not an object with a list "channels" \(got a list/,
		],
	] as const)('%s answered with %j', async (path, body, message) => {
		simulator.injectFault({ status: 200, body });

		const result = await runOperation(path);

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(message);
		expect(simulator.requests).toHaveLength(1);
	});

	it.each([
		['session/restart', { session: SESSION, state: null }],
		['webhook/set', { session: SESSION, enabled: true, url: 'https://hooks.example.com/in' }],
		['contact/getProfilePicture', { wuid: null, profilePictureUrl: null }],
	] as const)('%s answered with nothing still outputs what was done', async (path, json) => {
		simulator.injectFault({ status: 200, empty: true });

		const result = await runOperation(path);

		expect(result.status).toBe('success');
		expect(result.outputs[0][0].json).toMatchObject(json);
	});
});
