import { SEED, WEBHOOK_EVENTS } from './index.cts';
import { gatewayClient, useSimulator } from './testing.cts';

const connected = SEED.instances.connected;
const pairing = SEED.instances.pairing;
const { alice, bruno, bakery } = SEED.contacts;
const hikers = SEED.groups.hikers;
const CONNECTION_CLOSED = {
	status: 500,
	error: 'Internal Server Error',
	response: { message: 'Connection Closed' },
};

describe('instance family (Evolution v1): instances, presence, groups, webhooks', () => {
	const sim = useSimulator();

	describe('PUT /instance/restart/{instance}', () => {
		it('answers 200 with the instance state', async () => {
			const response = await gatewayClient(sim).put(`/instance/restart/${connected.name}`);
			expect(response.status).toBe(200);
			expect(response.data).toEqual({ instance: { instance: connected.name, state: 'open' } });
		});

		it('puts a closed instance back to pairing', async () => {
			sim.setInstanceState(pairing.name, 'close');
			const response = await gatewayClient(sim).put(`/instance/restart/${pairing.name}`);
			expect(response.status).toBe(200);
			expect(response.data).toEqual({ instance: { instance: pairing.name, state: 'connecting' } });
			expect(sim.getInstanceState(pairing.name)).toBe('connecting');
		});
	});

	describe('POST /instance/setPresence/{instance}', () => {
		it('answers 201 with an empty body', async () => {
			const response = await gatewayClient(sim).post(`/instance/setPresence/${connected.name}`, {
				presence: 'available',
			});
			expect(response.status).toBe(201);
			expect(response.data).toBe('');
		});

		it('answers 400 with nested messages for a missing or unknown presence', async () => {
			const missing = await gatewayClient(sim).post(`/instance/setPresence/${connected.name}`, {});
			expect(missing.status).toBe(400);
			expect(missing.data).toEqual({
				status: 400,
				error: 'Bad Request',
				response: { message: [['instance requires property "presence"']] },
			});
			const unknown = await gatewayClient(sim).post(`/instance/setPresence/${connected.name}`, {
				presence: 'asleep',
			});
			expect(unknown.data.response.message).toEqual([
				['presence is not one of enum values: unavailable,available,composing,recording,paused'],
			]);
		});

		it('fails with "Connection Closed" while the instance is not connected', async () => {
			const response = await gatewayClient(sim).post(`/instance/setPresence/${pairing.name}`, {
				presence: 'available',
			});
			expect(response.status).toBe(500);
			expect(response.data).toEqual(CONNECTION_CLOSED);
		});
	});

	describe('GET /group/findGroupInfos/{instance}', () => {
		it('returns the group with participants and roles', async () => {
			const response = await gatewayClient(sim).get(`/group/findGroupInfos/${connected.name}`, {
				params: { groupJid: hikers.id },
			});
			expect(response.status).toBe(200);
			expect(response.data).toEqual({
				id: hikers.id,
				subject: 'Weekend Hikers',
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
				participants: [
					{ id: connected.ownerJid, admin: 'superadmin' },
					{ id: alice.jid, admin: 'admin' },
					{ id: bruno.jid, admin: null },
					{ id: SEED.contacts.carla.jid, admin: null },
				],
			});
		});

		it('appends @g.us to a bare id', async () => {
			const response = await gatewayClient(sim).get(`/group/findGroupInfos/${connected.name}`, {
				params: { groupJid: hikers.id.replace('@g.us', '') },
			});
			expect(response.status).toBe(200);
			expect(response.data.id).toBe(hikers.id);
		});

		it('answers 400 without groupJid, 400 for a malformed one, 404 for an unknown one', async () => {
			const missing = await gatewayClient(sim).get(`/group/findGroupInfos/${connected.name}`);
			expect(missing.status).toBe(400);
			expect(missing.data.response.message).toEqual([
				'The group id needs to be informed in the query',
				'ex: "groupJid=120362@g.us"',
			]);
			const malformed = await gatewayClient(sim).get(`/group/findGroupInfos/${connected.name}`, {
				params: { groupJid: 'hikers' },
			});
			expect(malformed.status).toBe(400);
			expect(malformed.data.response.message).toEqual([
				{ property: 'instance.groupJid', message: 'does not match pattern "^[\\\\d-]+@g.us$"' },
			]);
			const unknown = await gatewayClient(sim).get(`/group/findGroupInfos/${connected.name}`, {
				params: { groupJid: '120363000000000000@g.us' },
			});
			expect(unknown.status).toBe(404);
			expect(unknown.data).toEqual({
				status: 404,
				error: 'Not Found',
				response: { message: ['Error fetching group', 'Error: item-not-found'] },
			});
		});
	});

	describe('POST /group/sendInvite/{instance}', () => {
		it('sends the invite link as text to every number (200)', async () => {
			const response = await gatewayClient(sim).post(`/group/sendInvite/${connected.name}`, {
				groupJid: hikers.id,
				description: 'Join us on Saturday!',
				numbers: [bakery.number],
			});
			expect(response.status).toBe(200);
			expect(response.data).toEqual({
				send: true,
				inviteUrl: `https://chat.messenger.net/${hikers.inviteCode}`,
			});
			const overview = await gatewayClient(sim).get(`/api/${connected.name}/chats/overview`, {
				params: { ids: bakery.chatId },
			});
			expect(overview.data[0].lastMessage.body).toBe(
				`Join us on Saturday!\n\nhttps://chat.messenger.net/${hikers.inviteCode}`,
			);
		});

		it('answers 400 with {property, message} items for schema violations', async () => {
			const response = await gatewayClient(sim).post(`/group/sendInvite/${connected.name}`, {
				groupJid: hikers.id,
				numbers: ['123'],
			});
			expect(response.status).toBe(400);
			expect(response.data.response.message).toEqual([
				{ property: 'instance.numbers[0]', message: 'does not meet minimum length of 10' },
				{ property: 'instance', message: 'requires property "description"' },
			]);
		});

		it('answers 404 "No send invite" for an unknown group or an unregistered number', async () => {
			for (const body of [
				{ groupJid: '120363000000000000@g.us', description: 'Hi', numbers: [alice.number] },
				{ groupJid: hikers.id, description: 'Hi', numbers: [SEED.unregisteredNumber] },
			]) {
				const response = await gatewayClient(sim).post(`/group/sendInvite/${connected.name}`, body);
				expect(response.status).toBe(404);
				expect(response.data).toEqual({
					status: 404,
					error: 'Not Found',
					response: { message: ['No send invite'] },
				});
			}
		});
	});

	describe('webhook configuration', () => {
		it('stores a webhook (201) and finds it', async () => {
			const set = await gatewayClient(sim).post(`/webhook/set/${connected.name}`, {
				url: 'https://hooks.example.com/gateway',
				webhook_by_events: false,
				webhook_base64: true,
				events: ['MESSAGES_UPSERT', 'QRCODE_UPDATED'],
			});
			expect(set.status).toBe(201);
			expect(set.data).toEqual({
				webhook: {
					instance: connected.name,
					webhook: {
						url: 'https://hooks.example.com/gateway',
						events: ['MESSAGES_UPSERT', 'QRCODE_UPDATED'],
						enabled: true,
						webhook_by_events: false,
						webhook_base64: true,
					},
				},
			});
			const found = await gatewayClient(sim).get(`/webhook/find/${connected.name}`);
			expect(found.status).toBe(200);
			expect(found.data).toEqual({
				enabled: true,
				url: 'https://hooks.example.com/gateway',
				events: ['MESSAGES_UPSERT', 'QRCODE_UPDATED'],
				webhook_by_events: false,
				webhook_base64: true,
			});
		});

		it('subscribes to every event when the list is empty, and replaces the previous config', async () => {
			await gatewayClient(sim).post(`/webhook/set/${connected.name}`, {
				url: 'http://a.example',
				events: ['CALL'],
			});
			const set = await gatewayClient(sim).post(`/webhook/set/${connected.name}`, {
				url: 'http://b.example',
				events: [],
			});
			expect(set.data.webhook.webhook).toEqual({
				url: 'http://b.example',
				events: WEBHOOK_EVENTS,
				enabled: true,
			});
			expect(sim.getWebhook(connected.name)).toEqual({
				enabled: true,
				url: 'http://b.example',
				events: WEBHOOK_EVENTS,
				webhook_by_events: false,
				webhook_base64: false,
			});
		});

		it('disables with enabled:false (url still required)', async () => {
			const set = await gatewayClient(sim).post(`/webhook/set/${connected.name}`, {
				enabled: false,
				url: 'https://hooks.example.com/gateway',
				events: ['MESSAGES_UPSERT'],
			});
			expect(set.status).toBe(201);
			expect(set.data.webhook.webhook).toEqual({ url: '', events: [], enabled: false });
			const found = await gatewayClient(sim).get(`/webhook/find/${connected.name}`);
			expect(found.data).toEqual({
				enabled: false,
				url: '',
				events: [],
				webhook_by_events: false,
				webhook_base64: false,
			});
		});

		it('returns the disabled config when nothing was set', async () => {
			const found = await gatewayClient(sim).get(`/webhook/find/${pairing.name}`);
			expect(found.status).toBe(200);
			expect(found.data).toEqual({
				enabled: false,
				url: '',
				events: [],
				webhook_by_events: false,
				webhook_base64: false,
			});
		});

		it('answers 400 for a missing url, an invalid url, and an unknown event', async () => {
			const missing = await gatewayClient(sim).post(`/webhook/set/${connected.name}`, {
				events: [],
			});
			expect(missing.data).toEqual({
				status: 400,
				error: 'Bad Request',
				response: { message: [['instance requires property "url"']] },
			});
			const invalid = await gatewayClient(sim).post(`/webhook/set/${connected.name}`, {
				url: 'not a url',
			});
			expect(invalid.status).toBe(400);
			expect(invalid.data.response.message).toEqual(['Invalid "url" property']);
			const unknownEvent = await gatewayClient(sim).post(`/webhook/set/${connected.name}`, {
				url: 'http://a.example',
				events: ['MESSAGE_RECEIVED'],
			});
			expect(unknownEvent.status).toBe(400);
			expect(unknownEvent.data.response.message).toEqual([
				[`events[0] is not one of enum values: ${WEBHOOK_EVENTS.join(',')}`],
			]);
		});
	});
});
