import { SEED } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import {
	byId,
	expectOneRequest,
	expectValidationError,
	jsonItems,
	outputJson,
	resourceRunner,
} from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const PAIRING_SESSION = SEED.instances.pairing.name;
const HIKERS = SEED.groups.hikers;
const TEAM = SEED.groups.team;
const UNKNOWN_GROUP = '120363000000000099@g.us';
const { alice, bruno, bakery } = SEED.contacts;

const simulator = useSimulator();
const runGroup = resourceRunner(simulator, 'group', SESSION);

describe('Group > Get', () => {
	it('reads the group by ID from the groupJid query parameter and outputs the group info', async () => {
		const result = await runGroup('get', { groupId: byId(HIKERS.id) });

		expect(result.status).toBe('success');
		const request = expectOneRequest(simulator, {
			method: 'GET',
			path: `/group/findGroupInfos/${SESSION}`,
			query: { groupJid: HIKERS.id },
		});
		expect(request.body).toBeUndefined();
		expect(outputJson(result)).toEqual([
			{
				id: HIKERS.id,
				subject: HIKERS.subject,
				subjectOwner: SEED.instances.connected.ownerJid,
				subjectTime: expect.any(Number),
				pictureUrl: `${simulator.url}/api/files/${SESSION}/group-hikers.png`,
				size: 4,
				creation: expect.any(Number),
				owner: SEED.instances.connected.ownerJid,
				desc: 'Trail plans for every Saturday. Meet at 7am.',
				descId: 'BAE57E16498982ED',
				restrict: false,
				announce: false,
				participants: [
					{ id: SEED.instances.connected.ownerJid, admin: 'superadmin' },
					{ id: alice.jid, admin: 'admin' },
					{ id: bruno.jid, admin: null },
					{ id: SEED.contacts.carla.jid, admin: null },
				],
			},
		]);
		expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('takes the group picked from the list the same way', async () => {
		const result = await runGroup('get', {
			groupId: { __rl: true, mode: 'list', value: TEAM.id, cachedResultName: TEAM.subject },
		});

		expect(simulator.requests[0].query).toEqual({ groupJid: TEAM.id });
		expect(outputJson(result)[0]).toMatchObject({
			id: TEAM.id,
			subject: TEAM.subject,
			announce: true,
		});
	});

	it('URL-encodes the session name in the path', async () => {
		const result = await runGroup('get', { session: 'acme sales/eu', groupId: byId(HIKERS.id) });

		expect(simulator.requests[0].path).toBe('/group/findGroupInfos/acme%20sales%2Feu');
		expect(result.error?.message).toBe(
			'Gateway error 404: The "acme sales/eu" instance does not exist',
		);
	});

	it('rejects a phone number given as Group ID before any request', async () => {
		const result = await runGroup(
			'get',
			{ groupId: byId('={{ $json.group }}') },
			{ items: jsonItems({ group: alice.chatId }) },
		);

		expectValidationError(
			simulator,
			result,
			`Group ID must be a group ID (120363012345678901@g.us) (got "${alice.chatId}")`,
		);
	});

	it('surfaces an unknown group as the gateway error', async () => {
		const result = await runGroup('get', { groupId: byId(UNKNOWN_GROUP) });

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(
			'Gateway error 404: Error fetching group; Error: item-not-found',
		);
		expect(result.error?.httpCode).toBe('404');
		expect(simulator.requests).toHaveLength(1);
	});
});

describe('Group > Send Invite', () => {
	it('sends the description and the validated numbers as digits, and outputs send and inviteUrl', async () => {
		const result = await runGroup('sendInvite', {
			groupId: byId(HIKERS.id),
			numbers: `+55 (11) 98765-0001, ${bruno.chatId}\n${bakery.jid}`,
			description: '  Join our weekend hikes!  ',
		});

		expect(result.status).toBe('success');
		const request = expectOneRequest(simulator, {
			method: 'POST',
			path: `/group/sendInvite/${SESSION}`,
			query: {},
		});
		expect(request.body).toEqual({
			groupJid: HIKERS.id,
			description: 'Join our weekend hikes!',
			numbers: [alice.number, bruno.number, bakery.number],
		});
		expect(outputJson(result)).toEqual([
			{ send: true, inviteUrl: `https://chat.messenger.net/${HIKERS.inviteCode}` },
		]);
		expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('accepts a list from an expression and sends each number once', async () => {
		const result = await runGroup(
			'sendInvite',
			{
				groupId: byId(HIKERS.id),
				numbers: '={{ $json.numbers }}',
				description: 'Come along',
			},
			{ items: jsonItems({ numbers: ['+55 11 98765-0001', alice.chatId, bruno.number] }) },
		);

		expect(result.status).toBe('success');
		expect((simulator.requests[0].body as { numbers: string[] }).numbers).toEqual([
			alice.number,
			bruno.number,
		]);
	});

	it('names the entry of Numbers that is not a phone number, before any request', async () => {
		const result = await runGroup(
			'sendInvite',
			{ groupId: byId(HIKERS.id), numbers: '={{ $json.numbers }}', description: 'Hi' },
			{ items: jsonItems({ numbers: `${alice.number}, ask Bruno` }) },
		);

		expectValidationError(
			simulator,
			result,
			/^Numbers \(entry 2\) must be a phone number .*\(got "ask Bruno"\)$/,
		);
	});

	it('needs at least one number', async () => {
		const result = await runGroup(
			'sendInvite',
			{ groupId: byId(HIKERS.id), numbers: '={{ $json.numbers }}', description: 'Hi' },
			{ items: jsonItems({ numbers: ' , ' }) },
		);

		expectValidationError(simulator, result, 'Numbers must list at least one phone number');
	});

	it('needs a description, because the gateway requires one', async () => {
		const result = await runGroup(
			'sendInvite',
			{ groupId: byId(HIKERS.id), numbers: alice.number, description: '={{ $json.text }}' },
			{ items: jsonItems({ text: '   ' }) },
		);

		expectValidationError(simulator, result, 'Description must not be empty');
	});

	it('rejects a contact given as Group ID', async () => {
		const result = await runGroup(
			'sendInvite',
			{ groupId: byId('={{ $json.group }}'), numbers: alice.number, description: 'Hi' },
			{ items: jsonItems({ group: alice.number }) },
		);

		expectValidationError(simulator, result, /^Group ID must be a group ID/);
	});

	it('surfaces the gateway refusal for an unknown group', async () => {
		const result = await runGroup('sendInvite', {
			groupId: byId(UNKNOWN_GROUP),
			numbers: alice.number,
			description: 'Hi',
		});

		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('Gateway error 404: No send invite');
		expect(simulator.requests).toHaveLength(1);
	});

	it('sends one request per item, waiting between items, with paired outputs', async () => {
		const result = await runGroup(
			'sendInvite',
			{
				groupId: byId('={{ $json.group }}'),
				numbers: '={{ $json.number }}',
				description: 'Invite',
				options: { waitBetweenItems: 60 },
			},
			{
				items: jsonItems(
					{ group: HIKERS.id, number: alice.number },
					{ group: TEAM.id, number: bruno.number },
					{ group: HIKERS.id, number: bakery.number },
				),
			},
		);

		expect(result.status).toBe('success');
		expect(simulator.requests.map((request) => request.body)).toEqual([
			{ groupJid: HIKERS.id, description: 'Invite', numbers: [alice.number] },
			{ groupJid: TEAM.id, description: 'Invite', numbers: [bruno.number] },
			{ groupJid: HIKERS.id, description: 'Invite', numbers: [bakery.number] },
		]);
		const [first, second, third] = simulator.requests.map((request) => request.at);
		expect(second - first).toBeGreaterThanOrEqual(50);
		expect(third - second).toBeGreaterThanOrEqual(50);
		expect(result.outputs[0].map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(outputJson(result).map((json) => json.inviteUrl)).toEqual([
			`https://chat.messenger.net/${HIKERS.inviteCode}`,
			`https://chat.messenger.net/${TEAM.inviteCode}`,
			`https://chat.messenger.net/${HIKERS.inviteCode}`,
		]);
	});

	it('with Continue On Fail, a bad item becomes an error item and the others are sent', async () => {
		const result = await runGroup(
			'sendInvite',
			{ groupId: byId(HIKERS.id), numbers: '={{ $json.number }}', description: 'Invite' },
			{
				items: jsonItems({ number: alice.number }, { number: 'nobody' }, { number: bruno.number }),
				onError: 'continueRegularOutput',
			},
		);

		expect(result.status).toBe('success');
		expect(simulator.requests).toHaveLength(2);
		expect(outputJson(result)).toEqual([
			{ send: true, inviteUrl: `https://chat.messenger.net/${HIKERS.inviteCode}` },
			{
				error: expect.stringMatching(
					/^Numbers \(entry 1\) must be a phone number .*\(got "nobody"\)$/,
				),
				message: expect.stringContaining('country code'),
			},
			{ send: true, inviteUrl: `https://chat.messenger.net/${HIKERS.inviteCode}` },
		]);
		expect(result.outputs[0].map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});
});

describe('Group > Refresh', () => {
	it('posts to the session refresh endpoint without a body and outputs the response', async () => {
		const result = await runGroup('refresh', {});

		expectOneRequest(simulator, {
			method: 'POST',
			path: `/api/${SESSION}/groups/refresh`,
			query: {},
		});
		expect(simulator.requests[0].body).toBeUndefined();
		expect(outputJson(result)).toEqual([{ success: true, message: 'Groups refreshed', count: 2 }]);
	});

	it('says what was done when the gateway answers a bare true or nothing', async () => {
		simulator.injectFault({ match: { path: '/groups/refresh' }, status: 200, body: true });
		simulator.injectFault({ match: { path: '/groups/refresh' }, status: 200, empty: true });

		const bare = await runGroup('refresh', {});
		const empty = await runGroup('refresh', {});

		expect(outputJson(bare)).toEqual([{ success: true, session: SESSION }]);
		expect(outputJson(empty)).toEqual([{ success: true, session: SESSION }]);
	});

	it('surfaces the 422 of a session that is not connected', async () => {
		const result = await runGroup('refresh', { session: PAIRING_SESSION });

		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(
			`Gateway error 422: Session status is not as expected. Try again later or restart the session (session "${PAIRING_SESSION}" is SCAN_QR_CODE, expected WORKING)`,
		);
		expect(result.error?.description).toMatch(/not ready for this operation/);
	});
});

describe('Group > Leave', () => {
	it('puts the URL-encoded group ID in the path and outputs the response', async () => {
		const result = await runGroup('leave', { groupId: byId(HIKERS.id) });

		expectOneRequest(simulator, {
			method: 'POST',
			path: `/api/${SESSION}/groups/120363041234567890%40g.us/leave`,
			query: {},
		});
		expect(simulator.requests[0].body).toBeUndefined();
		expect(outputJson(result)).toEqual([
			{ success: true, message: `Left the group "${HIKERS.subject}"` },
		]);
	});

	it('surfaces "group not found" when the account is not in the group', async () => {
		await runGroup('leave', { groupId: byId(HIKERS.id) });
		const again = await runGroup('leave', { groupId: byId(HIKERS.id) });

		expect(again.status).toBe('error');
		expect(again.error?.message).toBe('Gateway error 404: Group not found');
		expect(simulator.requests).toHaveLength(2);
	});

	it('outputs success and the group ID when the gateway answers with an empty body', async () => {
		simulator.injectFault({ match: { path: '/leave' }, status: 200, empty: true });

		const result = await runGroup('leave', { groupId: byId(TEAM.id) });

		expect(outputJson(result)).toEqual([{ success: true, groupId: TEAM.id }]);
	});

	it('rejects a chat ID that is not a group before any request', async () => {
		const result = await runGroup(
			'leave',
			{ groupId: byId('={{ $json.group }}') },
			{ items: jsonItems({ group: SEED.channels.updates.id }) },
		);

		expectValidationError(
			simulator,
			result,
			/^Group ID must be a group ID .*\(got "120363150000000001@newsletter"\)$/,
		);
	});
});
