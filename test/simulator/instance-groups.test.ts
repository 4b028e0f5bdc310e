import { sleep } from 'n8n-workflow';

import { SEED } from './index.cts';
import {
	gatewayClient,
	startWebhookReceiver,
	useSimulator,
	type WebhookReceiver,
} from './testing.cts';

const connected = SEED.instances.connected;
const pairing = SEED.instances.pairing;
const { alice, bruno, bakery, carla } = SEED.contacts;
const { hikers, team } = SEED.groups;
const UNKNOWN_GROUP = '120363000000000000@g.us';
const NEW_NUMBER = '5521988887777';
const GROUP_ID = /^120363\d{12}@g\.us$/;
const PARTICIPANTS_NOT_NUMERIC = '"participants" must be an array of numeric strings';

describe('instance family (Evolution v1): group creation, listing and participants', () => {
	const sim = useSimulator();
	let receiver: WebhookReceiver;

	beforeAll(async () => {
		receiver = await startWebhookReceiver();
	});
	afterAll(async () => {
		await receiver.stop();
	});
	afterEach(() => {
		receiver.received.length = 0;
	});

	async function subscribe(events: string[]) {
		const response = await gatewayClient(sim).post(`/webhook/set/${connected.name}`, {
			url: receiver.url,
			events,
		});
		expect(response.status).toBe(201);
	}

	const create = (body: unknown, instance = connected.name) =>
		gatewayClient(sim).post(`/group/create/${instance}`, body);
	const fetchAll = (params: Record<string, string>, instance = connected.name) =>
		gatewayClient(sim).get(`/group/fetchAllGroups/${instance}`, { params });
	const participants = (params: Record<string, string>, instance = connected.name) =>
		gatewayClient(sim).get(`/group/participants/${instance}`, { params });
	const updateParticipants = (
		params: Record<string, string>,
		body: unknown,
		instance = connected.name,
	) => gatewayClient(sim).put(`/group/updateParticipant/${instance}`, body, { params });

	describe('POST /group/create/{instance}', () => {
		it('answers 201 with the Baileys metadata, dropping numbers not on the network', async () => {
			const response = await create({
				subject: 'Trail Crew',
				participants: [alice.number, '+55 (11) 98765-0002', SEED.unregisteredNumber],
			});

			expect(response.status).toBe(201);
			const now = Math.floor(Date.now() / 1000);
			expect(response.data).toEqual({
				id: expect.stringMatching(GROUP_ID),
				subject: 'Trail Crew',
				subjectOwner: connected.ownerJid,
				subjectTime: expect.any(Number),
				size: 3,
				creation: expect.any(Number),
				owner: connected.ownerJid,
				restrict: false,
				announce: false,
				participants: [
					{ id: connected.ownerJid, admin: 'superadmin' },
					{ id: alice.jid, admin: null },
					{ id: bruno.jid, admin: null },
				],
			});
			expect(Math.abs(response.data.creation - now)).toBeLessThanOrEqual(5);
		});

		it('sets the description and promotes the members when asked', async () => {
			const response = await create({
				subject: 'Trail Crew',
				participants: [alice.number, bruno.number],
				description: 'Saturday hikes',
				promoteParticipants: true,
			});

			expect(response.status).toBe(201);
			expect(response.data).toMatchObject({
				desc: 'Saturday hikes',
				descId: expect.any(String),
				participants: [
					{ id: connected.ownerJid, admin: 'superadmin' },
					{ id: alice.jid, admin: 'admin' },
					{ id: bruno.jid, admin: 'admin' },
				],
			});
		});

		it('makes a group that findGroupInfos, fetchAllGroups and sendText know', async () => {
			const created = await create({ subject: 'Trail Crew', participants: [bakery.number] });
			const id = created.data.id as string;

			const info = await gatewayClient(sim).get(`/group/findGroupInfos/${connected.name}`, {
				params: { groupJid: id },
			});
			expect(info.status).toBe(200);
			expect(info.data).toEqual({ ...created.data, pictureUrl: null });
			const all = await fetchAll({ getParticipants: 'false' });
			expect(all.data.map((group: { id: string }) => group.id)).toEqual([hikers.id, team.id, id]);
			const sent = await gatewayClient(sim).post(`/message/sendText/${connected.name}`, {
				number: id,
				textMessage: { text: 'Welcome!' },
			});
			expect(sent.status).toBe(201);
			expect(sent.data.key.remoteJid).toBe(id);
		});

		it('announces GROUPS_UPSERT, and GROUP_PARTICIPANTS_UPDATE for promoted members', async () => {
			await subscribe(['GROUPS_UPSERT', 'GROUP_PARTICIPANTS_UPDATE']);

			const created = await create({
				subject: 'Trail Crew',
				participants: [alice.number],
				promoteParticipants: true,
			});

			const deliveries = await sim.waitForDeliveries(2);
			const byEvent = Object.fromEntries(
				deliveries.map((delivery) => [delivery.event, delivery.body.data]),
			);
			expect(byEvent['groups.upsert']).toEqual([
				{
					...created.data,
					participants: [
						{ id: connected.ownerJid, admin: 'superadmin' },
						{ id: alice.jid, admin: null },
					],
					author: connected.ownerJid,
				},
			]);
			expect(byEvent['group-participants.update']).toEqual({
				id: created.data.id,
				participants: [alice.jid],
				action: 'promote',
			});
		});

		it.each([
			['no subject', { participants: [alice.number] }, [['instance requires property "subject"']]],
			['no participants', { subject: 'x' }, [['instance requires property "participants"']]],
			[
				'a participant that is too short',
				{ subject: 'x', participants: ['12345'] },
				[[PARTICIPANTS_NOT_NUMERIC]],
			],
			[
				'promoteParticipants that is not a boolean',
				{ subject: 'x', participants: [alice.number], promoteParticipants: 'yes' },
				[['promoteParticipants is not of a type(s) boolean']],
			],
		])('answers 400 with nested messages for %s', async (_case, body, message) => {
			const response = await create(body);

			expect(response.status).toBe(400);
			expect(response.data).toEqual({ status: 400, error: 'Bad Request', response: { message } });
		});

		it.each([
			[
				'no member is on the network',
				connected.name,
				[SEED.unregisteredNumber],
				'Error: bad-request',
			],
			['the instance is not connected', pairing.name, [alice.number], 'Error: Connection Closed'],
		])('answers 500 "Error creating group" when %s', async (_case, instance, numbers, reason) => {
			const response = await create({ subject: 'Trail Crew', participants: numbers }, instance);

			expect(response.status).toBe(500);
			expect(response.data).toEqual({
				status: 500,
				error: 'Internal Server Error',
				response: { message: ['Error creating group', reason] },
			});
		});
	});

	describe('GET /group/fetchAllGroups/{instance}', () => {
		it('lists every group without participants for getParticipants=false', async () => {
			const response = await fetchAll({ getParticipants: 'false' });

			expect(response.status).toBe(200);
			expect(response.data).toHaveLength(2);
			expect(response.data[0]).toEqual({
				id: hikers.id,
				subject: hikers.subject,
				subjectOwner: connected.ownerJid,
				subjectTime: expect.any(Number),
				pictureUrl: `${sim.url}/api/files/${connected.name}/group-hikers.png`,
				size: 4,
				creation: expect.any(Number),
				owner: connected.ownerJid,
				desc: 'Trail plans for every Saturday. Meet at 7am.',
				descId: 'BAE57E16498982ED',
				restrict: false,
				announce: false,
			});
			expect(response.data[1]).toMatchObject({ id: team.id, pictureUrl: null, announce: true });
			expect(response.data[1]).not.toHaveProperty('participants');
		});

		it('adds the participants for getParticipants=true', async () => {
			const response = await fetchAll({ getParticipants: 'true' });

			expect(response.data[1].participants).toEqual([
				{ id: alice.jid, admin: 'superadmin' },
				{ id: connected.ownerJid, admin: 'admin' },
				{ id: bruno.jid, admin: null },
			]);
		});

		it.each([
			['without the query', {}, ['The getParticipants needs to be informed in the query']],
			[
				'for a value other than true or false',
				{ getParticipants: 'yes' },
				[
					{
						property: 'instance.getParticipants',
						message: 'is not one of enum values: true,false',
					},
				],
			],
		])('answers 400 %s', async (_case, params, message) => {
			const response = await fetchAll(params);

			expect(response.status).toBe(400);
			expect(response.data).toEqual({ status: 400, error: 'Bad Request', response: { message } });
		});

		it('answers 404 "Error fetching group" while the instance is not connected', async () => {
			const response = await fetchAll({ getParticipants: 'true' }, pairing.name);

			expect(response.status).toBe(404);
			expect(response.data.response.message).toEqual([
				'Error fetching group',
				'Error: Connection Closed',
			]);
		});
	});

	describe('GET /group/participants/{instance}', () => {
		it('lists the members with the name and picture of stored contacts', async () => {
			const response = await participants({ groupJid: hikers.id });

			expect(response.status).toBe(200);
			expect(response.data).toEqual({
				participants: [
					{ id: connected.ownerJid, admin: 'superadmin' },
					{
						id: alice.jid,
						admin: 'admin',
						name: 'Alice',
						imgUrl: `${sim.url}/api/files/${connected.name}/avatar-${alice.number}.png`,
					},
					{ id: bruno.jid, admin: null, name: 'Bruno', imgUrl: null },
					{
						id: carla.jid,
						admin: null,
						name: 'Carla',
						imgUrl: `${sim.url}/api/files/${connected.name}/avatar-${carla.number}.png`,
					},
				],
			});
		});

		it('takes a bare group id and appends @g.us', async () => {
			const response = await participants({ groupJid: team.id.replace('@g.us', '') });

			expect(response.status).toBe(200);
			expect(response.data.participants).toHaveLength(3);
		});

		it.each([
			[
				'without groupJid',
				{},
				connected.name,
				400,
				['The group id needs to be informed in the query', 'ex: "groupJid=120362@g.us"'],
			],
			[
				'for a malformed groupJid',
				{ groupJid: 'hikers' },
				connected.name,
				400,
				[{ property: 'instance.groupJid', message: 'does not match pattern "^[\\\\d-]+@g.us$"' }],
			],
			[
				'for an unknown group',
				{ groupJid: UNKNOWN_GROUP },
				connected.name,
				404,
				['No participants', 'Error: item-not-found'],
			],
			[
				'while the instance is not connected',
				{ groupJid: hikers.id },
				pairing.name,
				404,
				['No participants', 'Error: Connection Closed'],
			],
		])('answers an error %s', async (_case, params, instance, status, message) => {
			const response = await participants(params, instance);

			expect(response.status).toBe(status);
			expect(response.data.response.message).toEqual(message);
		});
	});

	describe('PUT /group/updateParticipant/{instance}', () => {
		it.each([
			['add', [bakery.number, NEW_NUMBER], ['200', '200'], 6],
			['remove', [bruno.number, carla.number], ['200', '200'], 2],
			['promote', [bruno.number], ['200'], 4],
			['demote', [alice.number], ['200'], 4],
		])('answers 201 with one result per number for %s', async (action, numbers, statuses, size) => {
			const response = await updateParticipants(
				{ groupJid: hikers.id },
				{ action, participants: numbers },
			);

			expect(response.status).toBe(201);
			expect(response.data).toEqual({
				updateParticipants: numbers.map((number, index) => ({
					status: statuses[index],
					jid: `${number}@s.messenger.net`,
					content: { tag: 'participant', attrs: { jid: `${number}@s.messenger.net` } },
				})),
			});
			const info = await gatewayClient(sim).get(`/group/findGroupInfos/${connected.name}`, {
				params: { groupJid: hikers.id },
			});
			expect(info.data.size).toBe(size);
		});

		it('changes the roles it reports', async () => {
			await updateParticipants(
				{ groupJid: hikers.id },
				{ action: 'promote', participants: [bruno.number] },
			);
			await updateParticipants(
				{ groupJid: hikers.id },
				{ action: 'demote', participants: [alice.number] },
			);

			const after = await participants({ groupJid: hikers.id });
			expect(
				after.data.participants.map((participant: { admin: string | null }) => participant.admin),
			).toEqual(['superadmin', null, 'admin', null]);
		});

		it.each([
			['add', alice.number, '409'],
			['add', SEED.unregisteredNumber, '404'],
			['remove', bakery.number, '404'],
			['promote', bakery.number, '404'],
			['demote', bakery.number, '404'],
		])(
			'reports %s of %s as status %s and leaves the group as it was',
			async (action, number, status) => {
				const response = await updateParticipants(
					{ groupJid: hikers.id },
					{ action, participants: [number] },
				);

				expect(response.status).toBe(201);
				expect(response.data.updateParticipants).toEqual([
					{
						status,
						jid: `${number}@s.messenger.net`,
						content: {
							tag: 'participant',
							attrs: { jid: `${number}@s.messenger.net`, error: status },
						},
					},
				]);
				const after = await participants({ groupJid: hikers.id });
				expect(after.data.participants).toHaveLength(4);
			},
		);

		it('takes groupJid from the body as well as from the query', async () => {
			const response = await updateParticipants(
				{},
				{ groupJid: team.id, action: 'add', participants: [bakery.number] },
			);

			expect(response.status).toBe(201);
			expect(response.data.updateParticipants[0].status).toBe('200');
		});

		it('announces GROUP_PARTICIPANTS_UPDATE with the numbers that changed', async () => {
			await subscribe(['GROUP_PARTICIPANTS_UPDATE']);

			await updateParticipants(
				{ groupJid: hikers.id },
				{ action: 'add', participants: [alice.number, bakery.number] },
			);

			const [delivery] = await sim.waitForDeliveries(1);
			expect(delivery.event).toBe('group-participants.update');
			expect(delivery.body.data).toEqual({
				id: hikers.id,
				participants: [bakery.jid],
				action: 'add',
			});
		});

		it('announces nothing when no number changed', async () => {
			await subscribe(['GROUP_PARTICIPANTS_UPDATE']);

			await updateParticipants(
				{ groupJid: hikers.id },
				{ action: 'add', participants: [alice.number] },
			);

			await sleep(150);
			expect(sim.deliveries).toEqual([]);
		});

		it.each([
			[
				'an unknown action',
				{ groupJid: hikers.id },
				{ action: 'ban', participants: [alice.number] },
				[
					{
						property: 'instance.action',
						message: 'is not one of enum values: add,remove,promote,demote',
					},
				],
			],
			[
				'no participants',
				{ groupJid: hikers.id },
				{ action: 'add', participants: [] },
				[{ property: 'instance.participants', message: 'does not meet minimum length of 1' }],
			],
			[
				'a number given twice',
				{ groupJid: hikers.id },
				{ action: 'add', participants: [bakery.number, bakery.number] },
				[{ property: 'instance.participants', message: 'contains duplicate item' }],
			],
			[
				'no groupJid',
				{},
				{ action: 'add', participants: [alice.number] },
				['The group id needs to be informed in the query', 'ex: "groupJid=120362@g.us"'],
			],
			[
				'an unknown group',
				{ groupJid: UNKNOWN_GROUP },
				{ action: 'add', participants: [alice.number] },
				['Error updating participants', 'Error: item-not-found'],
			],
		])('answers 400 for %s', async (_case, params, body, message) => {
			const response = await updateParticipants(params, body);

			expect(response.status).toBe(400);
			expect(response.data).toEqual({ status: 400, error: 'Bad Request', response: { message } });
		});

		it('answers 400 "Error updating participants" while the instance is not connected', async () => {
			sim.setInstanceState(connected.name, 'close');

			const response = await updateParticipants(
				{ groupJid: hikers.id },
				{ action: 'add', participants: [bakery.number] },
			);

			expect(response.status).toBe(400);
			expect(response.data.response.message).toEqual([
				'Error updating participants',
				'Error: Connection Closed',
			]);
		});
	});
});
