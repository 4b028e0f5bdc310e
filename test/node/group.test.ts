import { SEED } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import {
	byId,
	expectGatewayError,
	expectOneRequest,
	expectValidationError,
	jsonItems,
	outputJson,
	resourceRunner,
	expectPacedAndPaired,
} from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const PAIRING_SESSION = SEED.instances.pairing.name;
const HIKERS = SEED.groups.hikers;
const TEAM = SEED.groups.team;
const UNKNOWN_GROUP = '120363000000000099@g.us';
const { alice, bruno, bakery, carla } = SEED.contacts;
const OWNER_JID = SEED.instances.connected.ownerJid;
const GROUP_ID = /^120363\d{12}@g\.us$/;

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
			/^Numbers \(entry 2\) must be a phone number .*\(got "ask"\)$/,
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
		expectPacedAndPaired(simulator, result, 50);
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
				error: expect.stringMatching(/^Numbers must be a phone number .*\(got "nobody"\)$/),
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

describe('Group > Create', () => {
	it('sends the name and the participants as digits, and outputs the created group', async () => {
		const result = await runGroup('create', {
			subject: '  Trail Crew  ',
			participants: `+55 (11) 98765-0001, ${bruno.chatId}\n${bakery.jid}`,
		});

		expect(result.status).toBe('success');
		const request = expectOneRequest(simulator, {
			method: 'POST',
			path: `/group/create/${SESSION}`,
		});
		expect(request.body).toEqual({
			subject: 'Trail Crew',
			participants: [alice.number, bruno.number, bakery.number],
		});
		expect(outputJson(result)).toEqual([
			{
				id: expect.stringMatching(GROUP_ID),
				subject: 'Trail Crew',
				subjectOwner: OWNER_JID,
				subjectTime: expect.any(Number),
				size: 4,
				creation: expect.any(Number),
				owner: OWNER_JID,
				restrict: false,
				announce: false,
				participants: [
					{ id: OWNER_JID, admin: 'superadmin' },
					{ id: alice.jid, admin: null },
					{ id: bruno.jid, admin: null },
					{ id: bakery.jid, admin: null },
				],
			},
		]);
		expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('takes a list from an expression once per number, with description and promotion', async () => {
		const result = await runGroup(
			'create',
			{
				subject: 'Trail Crew',
				participants: '={{ $json.numbers }}',
				options: { description: ' Saturday hikes ', promoteParticipants: true },
			},
			{ items: jsonItems({ numbers: ['+55 11 98765-0001', alice.chatId, 5511987650002] }) },
		);

		expect(simulator.requests[0].body).toEqual({
			subject: 'Trail Crew',
			participants: [alice.number, bruno.number],
			description: 'Saturday hikes',
			promoteParticipants: true,
		});
		expect(outputJson(result)[0]).toMatchObject({
			desc: 'Saturday hikes',
			participants: [
				{ id: OWNER_JID, admin: 'superadmin' },
				{ id: alice.jid, admin: 'admin' },
				{ id: bruno.jid, admin: 'admin' },
			],
		});
	});

	it('makes a group that Get reads afterwards', async () => {
		const created = await runGroup('create', { subject: 'Trail Crew', participants: carla.number });
		const id = String(outputJson(created)[0].id);

		const read = await runGroup('get', { groupId: byId(id) });

		expect(outputJson(read)[0]).toMatchObject({ id, subject: 'Trail Crew', size: 2 });
	});

	it.each([
		['a blank Group Name', { subject: '  ' }, 'Group Name must not be empty'],
		[
			'no participants',
			{ participants: ' , ' },
			'Participants must list at least one phone number',
		],
		[
			'an entry that is not a phone number',
			{ participants: `${alice.number}, Bruno` },
			/^Participants \(entry 2\) must be a phone number .*\(got "Bruno"\)$/,
		],
		[
			'a number without country code',
			{ participants: '987650001' },
			'Participants must have at least 10 digits with the country code (got "987650001")',
		],
		[
			'a Promote option that is not a yes/no',
			{ options: { promoteParticipants: '={{ "maybe" }}' } },
			'Promote Participants to Admins must be true or false (got "maybe")',
		],
		[
			'a Description that is an object',
			{ options: { description: '={{ { text: "x" } }}' } },
			/^Description must be text \(got an object/,
		],
	])('refuses %s before any request', async (_case, parameters, message) => {
		const result = await runGroup('create', {
			subject: 'Trail Crew',
			participants: alice.number,
			...parameters,
		});

		expectValidationError(simulator, result, message);
	});

	it('surfaces the refusal when no participant is on the network', async () => {
		const result = await runGroup('create', {
			subject: 'Trail Crew',
			participants: SEED.unregisteredNumber,
		});

		expectGatewayError(
			simulator,
			result,
			'Gateway error 500: Error creating group; Error: bad-request',
			'500',
		);
	});

	it.each([
		[{}, /^Gateway error: the answer has no group ID \(got an object \(\{\}\)\)$/],
		[[], /^Gateway error: the answer is not an object \(got a list/],
	])('fails on a success answer %j that is not a group', async (body, message) => {
		simulator.injectFault({ match: { path: '/group/create' }, status: 201, body });

		const result = await runGroup('create', { subject: 'Trail Crew', participants: alice.number });

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(message);
	});
});

describe('Group > Get Many', () => {
	it('asks without participants and outputs one item per group', async () => {
		const result = await runGroup('getMany', { returnAll: true });

		expect(result.status).toBe('success');
		expectOneRequest(simulator, {
			method: 'GET',
			path: `/group/fetchAllGroups/${SESSION}`,
			query: { getParticipants: 'false' },
		});
		const groups = outputJson(result);
		expect(groups.map((group) => group.id)).toEqual([HIKERS.id, TEAM.id]);
		expect(groups[0]).toMatchObject({ subject: HIKERS.subject, size: 4, announce: false });
		expect(groups[0]).not.toHaveProperty('participants');
		expect(result.outputs[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it('includes the participants when asked', async () => {
		const result = await runGroup('getMany', {
			returnAll: true,
			options: { includeParticipants: true },
		});

		expect(simulator.requests[0].query).toEqual({ getParticipants: 'true' });
		expect(outputJson(result)[1].participants).toEqual([
			{ id: alice.jid, admin: 'superadmin' },
			{ id: OWNER_JID, admin: 'admin' },
			{ id: bruno.jid, admin: null },
		]);
	});

	it.each([
		['Limit', { returnAll: false, limit: 1 }, [HIKERS.id]],
		['Return All', { returnAll: true, limit: 1 }, [HIKERS.id, TEAM.id]],
		[
			'Name Contains, in any letter case',
			{ returnAll: true, filters: { subject: 'acme TEAM' } },
			[TEAM.id],
		],
		['Name Contains, matching nothing', { returnAll: true, filters: { subject: 'chess' } }, []],
	])('applies %s', async (_case, parameters, ids) => {
		const result = await runGroup('getMany', parameters);

		expect(result.status).toBe('success');
		expect(outputJson(result).map((group) => group.id)).toEqual(ids);
	});

	it('refuses a Limit below 1 before any request', async () => {
		const result = await runGroup('getMany', { returnAll: false, limit: 0 });

		expectValidationError(
			simulator,
			result,
			'Limit must be a whole number of at least 1 (got "0")',
		);
	});

	it('fails on a success answer that is not a list of groups, quoting it', async () => {
		simulator.injectFault({
			match: { path: '/fetchAllGroups' },
			status: 200,
			body: { groups: [] },
		});

		const result = await runGroup('getMany', { returnAll: true });

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(
			'Gateway error: the answer is not a list of records (got an object ({"groups":[]}))',
		);
	});

	it('surfaces the error of a session that is not connected', async () => {
		const result = await runGroup('getMany', { session: PAIRING_SESSION, returnAll: true });

		expectGatewayError(
			simulator,
			result,
			'Gateway error 404: Error fetching group; Error: Connection Closed',
			'404',
		);
	});
});

describe('Group > Get Participants', () => {
	it('reads the group from the groupJid query and outputs one item per participant', async () => {
		const result = await runGroup('getParticipants', { groupId: byId(HIKERS.id) });

		expect(result.status).toBe('success');
		expectOneRequest(simulator, {
			method: 'GET',
			path: `/group/participants/${SESSION}`,
			query: { groupJid: HIKERS.id },
		});
		expect(outputJson(result)).toEqual([
			{
				id: OWNER_JID,
				admin: 'superadmin',
				phone: SEED.instances.connected.ownerNumber,
				lid: null,
				groupId: HIKERS.id,
			},
			{
				id: alice.jid,
				admin: 'admin',
				name: 'Alice',
				imgUrl: `${simulator.url}/api/files/${SESSION}/avatar-${alice.number}.png`,
				phone: alice.number,
				lid: null,
				groupId: HIKERS.id,
			},
			{
				id: bruno.jid,
				admin: null,
				name: 'Bruno',
				imgUrl: null,
				phone: bruno.number,
				lid: null,
				groupId: HIKERS.id,
			},
			{
				id: carla.jid,
				admin: null,
				name: 'Carla',
				imgUrl: `${simulator.url}/api/files/${SESSION}/avatar-${carla.number}.png`,
				phone: carla.number,
				lid: null,
				groupId: HIKERS.id,
			},
		]);
	});

	it('pairs the participants of each input item with that item', async () => {
		const result = await runGroup(
			'getParticipants',
			{ groupId: byId('={{ $json.group }}') },
			{ items: jsonItems({ group: TEAM.id }, { group: HIKERS.id }) },
		);

		expect(result.outputs[0].map((item) => [item.json.groupId, item.pairedItem])).toEqual([
			...Array(3).fill([TEAM.id, { item: 0 }]),
			...Array(4).fill([HIKERS.id, { item: 1 }]),
		]);
	});

	it('rejects a phone number given as Group ID before any request', async () => {
		const result = await runGroup(
			'getParticipants',
			{ groupId: byId('={{ $json.group }}') },
			{ items: jsonItems({ group: alice.number }) },
		);

		expectValidationError(simulator, result, /^Group ID must be a group ID/);
	});

	it('surfaces an unknown group as the gateway error', async () => {
		const result = await runGroup('getParticipants', { groupId: byId(UNKNOWN_GROUP) });

		expectGatewayError(
			simulator,
			result,
			'Gateway error 404: No participants; Error: item-not-found',
			'404',
		);
	});

	it('fails on a success answer without a participants list', async () => {
		simulator.injectFault({ match: { path: '/group/participants' }, status: 200, body: [] });

		const result = await runGroup('getParticipants', { groupId: byId(HIKERS.id) });

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(
			/^Gateway error: the answer is not an object with a list "participants" \(got a list/,
		);
	});
});

describe('Group > Update Participants', () => {
	it('puts the group in the query and the action and numbers in the body', async () => {
		const result = await runGroup('updateParticipants', {
			groupId: byId(HIKERS.id),
			participantAction: 'add',
			participants: `${bakery.chatId}\n+55 21 98888-7777`,
		});

		expect(result.status).toBe('success');
		const request = expectOneRequest(simulator, {
			method: 'PUT',
			path: `/group/updateParticipant/${SESSION}`,
			query: { groupJid: HIKERS.id },
		});
		expect(request.body).toEqual({
			action: 'add',
			participants: [bakery.number, '5521988887777'],
		});
		expect(outputJson(result)).toEqual([
			{ status: '200', jid: bakery.jid, updated: true, groupId: HIKERS.id, action: 'add' },
			{
				status: '200',
				jid: '5521988887777@s.messenger.net',
				updated: true,
				groupId: HIKERS.id,
				action: 'add',
			},
		]);
		expect(result.outputs[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it.each([
		['add', alice.number, '409', 4],
		['add', SEED.unregisteredNumber, '404', 4],
		['remove', bruno.number, '200', 3],
		['remove', bakery.number, '404', 4],
		['promote', carla.number, '200', 4],
		['demote', bakery.number, '404', 4],
	])(
		'%s %s outputs status %s, and the group has %i participants after',
		async (action, number, status, size) => {
			const result = await runGroup('updateParticipants', {
				groupId: byId(HIKERS.id),
				participantAction: action,
				participants: number,
			});

			expect(result.status).toBe('success');
			expect(outputJson(result)).toEqual([
				expect.objectContaining({ status, updated: status === '200', action }),
			]);
			const after = await runGroup('getParticipants', { groupId: byId(HIKERS.id) });
			expect(outputJson(after)).toHaveLength(size);
		},
	);

	it('takes the action from an expression', async () => {
		const result = await runGroup(
			'updateParticipants',
			{
				groupId: byId(HIKERS.id),
				participantAction: '={{ $json.action }}',
				participants: bruno.number,
			},
			{ items: jsonItems({ action: 'promote' }) },
		);

		expect(simulator.requests[0].body).toEqual({ action: 'promote', participants: [bruno.number] });
		expect(outputJson(result)[0]).toMatchObject({ status: '200', action: 'promote' });
	});

	it.each([
		[
			'an unknown action',
			{ participantAction: '={{ "ban" }}' },
			'Action must be one of add, demote, promote, remove (got "ban")',
		],
		[
			'no participants',
			{ participants: '={{ [] }}' },
			'Participants must list at least one phone number',
		],
		[
			'an entry that is not a phone number',
			{ participants: `${bruno.number}\neveryone` },
			/^Participants \(entry 2\) must be a phone number .*\(got "everyone"\)$/,
		],
		[
			'a channel as Group ID',
			{ groupId: byId(`={{ "${SEED.channels.updates.id}" }}`) },
			/^Group ID must be a group ID .*\(got "120363150000000001@newsletter"\)$/,
		],
	])('refuses %s before any request', async (_case, parameters, message) => {
		const result = await runGroup('updateParticipants', {
			groupId: byId(HIKERS.id),
			participantAction: 'add',
			participants: bruno.number,
			...parameters,
		});

		expectValidationError(simulator, result, message);
	});

	it('surfaces an unknown group as the gateway error', async () => {
		const result = await runGroup('updateParticipants', {
			groupId: byId(UNKNOWN_GROUP),
			participantAction: 'remove',
			participants: bruno.number,
		});

		expectGatewayError(
			simulator,
			result,
			'Gateway error 400: Error updating participants; Error: item-not-found',
			'400',
		);
	});

	it('fails on a success answer without the list of results', async () => {
		simulator.injectFault({
			match: { path: '/updateParticipant' },
			status: 201,
			body: { updateParticipants: 'done' },
		});

		const result = await runGroup('updateParticipants', {
			groupId: byId(HIKERS.id),
			participantAction: 'add',
			participants: bakery.number,
		});

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(
			'Gateway error: the answer is not an object with a list "updateParticipants" (got an object ({"updateParticipants":"done"}))',
		);
	});
});
