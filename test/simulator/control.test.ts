import axios from 'axios';

import { DEFAULT_API_KEY, SEED, startSimulator, type Simulator } from './index.cts';
import { gatewayClient, startWebhookReceiver, useSimulator } from './testing.cts';

const connected = SEED.instances.connected;
const pairing = SEED.instances.pairing;
const { alice, bruno } = SEED.contacts;

function controlClient(sim: Simulator) {
	return axios.create({ baseURL: `${sim.url}/__sim`, validateStatus: () => true });
}

describe('control API (/__sim/) and programmatic control', () => {
	const sim = useSimulator();

	it('describes itself without an apikey and is never recorded', async () => {
		const response = await controlClient(sim).get('');
		expect(response.status).toBe(200);
		expect(response.data).toMatchObject({
			simulator: 'messaging-gateway',
			url: sim.url,
			apiKey: sim.apiKey,
		});
		expect(response.data.routes).toContain('POST /__sim/inbound');
		const seed = await controlClient(sim).get('/seed');
		expect(seed.data).toEqual({ apiKey: sim.apiKey, seed: JSON.parse(JSON.stringify(SEED)) });
		expect(sim.requests).toEqual([]);
	});

	it('answers unknown control routes with 404 {error}', async () => {
		const response = await controlClient(sim).get('/nothing');
		expect(response.status).toBe(404);
		expect(response.data).toEqual({ error: 'No control route GET /__sim/nothing' });
	});

	describe('POST /__sim/inbound', () => {
		it('stores an inbound text that the API can then read', async () => {
			const response = await controlClient(sim).post('/inbound', {
				instance: connected.name,
				from: alice.jid,
				text: 'Is the bakery open on Sunday?',
				replyTo: SEED.messages.replyToAlice.id,
			});
			expect(response.status).toBe(201);
			expect(response.data).toMatchObject({
				id: expect.stringMatching(new RegExp(`^false_${alice.chatId}_3EB0[0-9A-F]{16}$`)),
				chatId: alice.chatId,
				remoteJid: alice.jid,
				fromMe: false,
				waha: {
					body: 'Is the bakery open on Sunday?',
					replyTo: { id: SEED.messages.replyToAlice.shortId },
				},
				evolution: { messageType: 'extendedTextMessage' },
			});
			const read = await gatewayClient(sim).get(
				`/api/${connected.name}/chats/${alice.chatId}/messages/${response.data.id}`,
			);
			expect(read.status).toBe(200);
			expect(read.data).toEqual(response.data.waha);
		});

		it('creates a contact for an unknown sender and supports location and vcard', async () => {
			const location = await controlClient(sim).post('/inbound', {
				from: '5511912345678',
				pushName: 'Dora',
				location: { latitude: -22.9519, longitude: -43.2105, name: 'Christ the Redeemer' },
			});
			expect(location.status).toBe(201);
			expect(location.data.waha.location).toMatchObject({
				latitude: '-22.9519',
				name: 'Christ the Redeemer',
			});
			const contacts = await gatewayClient(sim).get('/api/contacts', {
				params: { sessionId: connected.name, jid: '5511912345678@s.messenger.net' },
			});
			expect(contacts.data.contacts).toEqual([
				{
					jid: '5511912345678@s.messenger.net',
					name: '',
					notify: 'Dora',
					verifiedName: '',
					businessName: '',
				},
			]);
			const vcard = await controlClient(sim).post('/inbound', {
				from: bruno.number,
				vcard: { displayName: 'Eva', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Eva\nEND:VCARD' },
			});
			expect(vcard.data.evolution.message).toEqual({
				contactMessage: {
					displayName: 'Eva',
					vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Eva\nEND:VCARD',
				},
			});
		});

		it('stores uploaded media and serves it back', async () => {
			const data = Buffer.from('hello, this is a text file').toString('base64');
			const response = await controlClient(sim).post('/inbound', {
				from: alice.number,
				media: { mimetype: 'text/plain', fileName: 'note.txt', base64: data, caption: 'a note' },
			});
			expect(response.status).toBe(201);
			expect(response.data.waha.media).toMatchObject({
				mimetype: 'text/plain',
				filename: 'note.txt',
			});
			const file = await gatewayClient(sim).get(response.data.waha.media.url, {
				responseType: 'text',
			});
			expect(file.data).toBe('hello, this is a text file');
		});

		it('rejects bad input with {error}', async () => {
			const cases: Array<[unknown, number, string]> = [
				[{ instance: 'ghost', from: alice.number, text: 'x' }, 404, 'No instance named "ghost"'],
				[
					{ instance: pairing.name, from: alice.number, text: 'x' },
					409,
					`Instance "${pairing.name}" is connecting; set it to open first`,
				],
				[
					{ from: 'alice', text: 'x' },
					400,
					'from must be a contact: digits, <digits>@c.us or <digits>@s.messenger.net',
				],
				[
					{ from: alice.number, text: 'x', media: {} },
					400,
					'Give exactly one of text, media, location or vcard',
				],
				[
					{ from: alice.number, groupId: '1@g.us', text: 'x' },
					404,
					'The instance is not in a group "1@g.us"',
				],
				[{ from: alice.number, text: 'x', replyTo: 'NOPE' }, 404, 'No message NOPE to reply to'],
			];
			for (const [body, status, error] of cases) {
				const response = await controlClient(sim).post('/inbound', body);
				expect({ status: response.status, body: response.data }).toEqual({
					status,
					body: { error },
				});
			}
		});
	});

	describe('POST /__sim/deletion and POST /__sim/state', () => {
		it('deletes a message once', async () => {
			const body = {
				instance: connected.name,
				chatId: bruno.jid,
				messageId: SEED.messages.brunoVcard.id,
			};
			const first = await controlClient(sim).post('/deletion', body);
			expect(first.status).toBe(200);
			expect(first.data.deleted).toMatchObject({
				id: SEED.messages.brunoVcard.id,
				chatId: bruno.chatId,
			});
			const second = await controlClient(sim).post('/deletion', body);
			expect(second.status).toBe(404);
			expect(second.data).toEqual({
				error: `No message ${SEED.messages.brunoVcard.id} in ${bruno.chatId}`,
			});
		});

		it('connects the pairing instance so both families work on it', async () => {
			const response = await controlClient(sim).post('/state', {
				instance: pairing.name,
				state: 'open',
			});
			expect(response.status).toBe(200);
			expect(response.data).toEqual({ instance: pairing.name, state: 'open' });
			const send = await gatewayClient(sim).post(`/message/sendText/${pairing.name}`, {
				number: alice.number,
				textMessage: { text: 'Now connected' },
			});
			expect(send.status).toBe(201);
			const contacts = await gatewayClient(sim).get('/api/contacts', {
				params: { sessionId: pairing.name },
			});
			expect(contacts.status).toBe(200);
			const instances = await controlClient(sim).get('/instances');
			expect(instances.data).toContainEqual(
				expect.objectContaining({
					name: pairing.name,
					state: 'open',
					sessionStatus: 'WORKING',
					owner: `${pairing.ownerNumber}@s.messenger.net`,
				}),
			);
		});

		it('closes an instance and rejects unknown states', async () => {
			sim.setInstanceState(connected.name, 'close');
			const overview = await gatewayClient(sim).get(`/api/${connected.name}/chats/overview`);
			expect(overview.status).toBe(422);
			expect(overview.data.status).toBe('STOPPED');
			const invalid = await controlClient(sim).post('/state', {
				instance: connected.name,
				state: 'asleep',
			});
			expect(invalid.status).toBe(400);
			expect(invalid.data).toEqual({ error: 'state must be one of open, close, connecting' });
			expect(() => sim.setInstanceState('ghost', 'open')).toThrow('No instance named "ghost"');
		});
	});

	describe('request log', () => {
		it('records method, raw path, query, headers without the key, parsed body and auth', async () => {
			await gatewayClient(sim).get(
				`/api/${connected.name}/chats/overview?ids=a%40c.us&ids=b%40c.us&limit=5`,
				{
					headers: { 'X-Trace': 'abc' },
				},
			);
			await gatewayClient(sim).post('/api/sendPoll', {
				session: connected.name,
				chatId: alice.chatId,
				poll: { name: 'Q', options: ['A', 'B'] },
			});
			await gatewayClient(sim, null).post(`/webhook/set/${connected.name}`, 'plain text', {
				headers: { 'Content-Type': 'text/plain' },
			});
			await gatewayClient(sim).delete(`/api/${connected.name}/profile/picture`);

			const [overview, poll, webhook, deletion] = sim.requests;
			expect(overview).toEqual({
				method: 'GET',
				path: `/api/${connected.name}/chats/overview`,
				query: { ids: ['a@c.us', 'b@c.us'], limit: '5' },
				headers: expect.objectContaining({ 'x-trace': 'abc', host: expect.any(String) }),
				auth: 'valid',
				body: undefined,
				at: expect.any(Number),
			});
			expect(overview.headers).not.toHaveProperty('apikey');
			expect(poll.body).toEqual({
				session: connected.name,
				chatId: alice.chatId,
				poll: { name: 'Q', options: ['A', 'B'] },
			});
			expect(webhook).toMatchObject({ auth: 'missing', body: 'plain text' });
			expect(deletion).toMatchObject({ method: 'DELETE', body: undefined });

			const fromHttp = await controlClient(sim).get('/requests', {
				params: { method: 'post', path: '/webhook/' },
			});
			expect(fromHttp.data).toEqual([JSON.parse(JSON.stringify(webhook))]);
			expect(sim.requestsTo('/api/sendPoll', 'POST')).toEqual([poll]);
		});

		it('keeps the path percent-encoded as received', async () => {
			await gatewayClient(sim).post(
				`/api/${connected.name}/groups/${encodeURIComponent(SEED.groups.hikers.id)}/leave`,
			);
			expect(sim.requests[0].path).toBe(
				`/api/${connected.name}/groups/120363041234567890%40g.us/leave`,
			);
		});

		it('is cleared over HTTP, by clearLogs() and by reset(), keeping the same array', async () => {
			const log = sim.requests;
			await gatewayClient(sim).get('/instance/fetchInstances');
			const cleared = await controlClient(sim).delete('/requests');
			expect(cleared.data).toEqual({ cleared: 1 });
			await gatewayClient(sim).get('/instance/fetchInstances');
			sim.clearLogs();
			expect(log).toHaveLength(0);
			await gatewayClient(sim).get('/instance/fetchInstances');
			sim.reset();
			expect(log).toHaveLength(0);
			expect(sim.requests).toBe(log);
		});
	});

	it('lists and clears webhook deliveries over HTTP', async () => {
		const receiver = await startWebhookReceiver();
		try {
			await gatewayClient(sim).post(`/webhook/set/${connected.name}`, {
				url: receiver.url,
				events: ['MESSAGES_UPSERT'],
			});
			await controlClient(sim).post('/inbound', { from: alice.number, text: 'hi' });
			await sim.waitForDeliveries(1);
			const listed = await controlClient(sim).get('/deliveries');
			expect(listed.status).toBe(200);
			expect(listed.data).toEqual([
				expect.objectContaining({ url: receiver.url, event: 'messages.upsert', status: 200 }),
			]);
			const cleared = await controlClient(sim).delete('/deliveries');
			expect(cleared.data).toEqual({ cleared: 1 });
			expect(sim.deliveries).toEqual([]);
		} finally {
			await receiver.stop();
		}
	});

	it('queues, lists and clears faults over HTTP', async () => {
		const added = await controlClient(sim).post('/faults', [
			{ match: { path: '/webhook/find/' }, status: 503, body: { message: 'maintenance' } },
			{ match: { method: 'GET' }, times: 3, latencyMs: 1 },
		]);
		expect(added.status).toBe(201);
		expect(added.data.pending).toHaveLength(2);
		const faulted = await gatewayClient(sim).get(`/webhook/find/${connected.name}`);
		expect(faulted.status).toBe(503);
		expect(faulted.data).toEqual({ message: 'maintenance' });
		const listed = await controlClient(sim).get('/faults');
		expect(listed.data).toEqual({
			pending: [{ match: { method: 'GET' }, times: 3, latencyMs: 1 }],
		});
		const cleared = await controlClient(sim).delete('/faults');
		expect(cleared.data).toEqual({ cleared: 1 });
		const invalid = await controlClient(sim).post('/faults', { times: 0 });
		expect(invalid.status).toBe(400);
		expect(invalid.data).toEqual({ error: 'times must be a positive integer' });
	});

	it('resets to the seed state over HTTP', async () => {
		await gatewayClient(sim).post(`/api/${connected.name}/groups/${SEED.groups.hikers.id}/leave`);
		await gatewayClient(sim).post(`/webhook/set/${connected.name}`, { url: 'http://a.example' });
		const reset = await controlClient(sim).post('/reset');
		expect(reset.status).toBe(200);
		expect(reset.data).toEqual({ reset: true });
		const refreshed = await gatewayClient(sim).post(`/api/${connected.name}/groups/refresh`);
		expect(refreshed.data.count).toBe(2);
		expect(sim.getWebhook(connected.name)).toBeNull();
		expect(sim.requests).toHaveLength(1);
	});

	describe('programmatic API', () => {
		it('finds messages by full or short id, not deleted ones', async () => {
			expect(sim.findMessage(connected.name, SEED.messages.aliceImage.shortId)).toMatchObject({
				id: SEED.messages.aliceImage.id,
				waha: { hasMedia: true },
				evolution: { messageType: 'imageMessage' },
			});
			await sim.injectDeletion({
				instance: connected.name,
				chatId: alice.chatId,
				messageId: SEED.messages.aliceImage.shortId,
			});
			expect(sim.findMessage(connected.name, SEED.messages.aliceImage.id)).toBeUndefined();
		});

		it('runs many simulators side by side, each with its own state and key', async () => {
			const startedAt = Date.now();
			const others = await Promise.all([
				startSimulator({ apiKey: 'key-one' }),
				startSimulator({ apiKey: 'key-two' }),
				startSimulator(),
			]);
			try {
				expect(Date.now() - startedAt).toBeLessThan(1000);
				expect(new Set([sim.url, ...others.map((other) => other.url)]).size).toBe(4);
				expect(others[2].apiKey).toBe(DEFAULT_API_KEY);
				await gatewayClient(others[0]).post(
					`/api/${connected.name}/groups/${SEED.groups.team.id}/leave`,
				);
				const first = await gatewayClient(others[0]).post(`/api/${connected.name}/groups/refresh`);
				const second = await gatewayClient(others[1]).post(`/api/${connected.name}/groups/refresh`);
				expect([first.data.count, second.data.count]).toEqual([1, 2]);
				const wrongKey = await gatewayClient(others[1], 'key-one').get('/instance/fetchInstances');
				expect(wrongKey.status).toBe(401);
				expect(others[0].requests).toHaveLength(2);
				expect(sim.requests).toHaveLength(0);
			} finally {
				await Promise.all(others.map((other) => other.stop()));
			}
		});

		it('validates fault rules given to injectFault', () => {
			expect(() => sim.injectFault({ status: 42 })).toThrow('status must be an HTTP status code');
		});
	});
});
