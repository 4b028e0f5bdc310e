/**
 * The simulator's waha gateway: WAHA 2026.x's routes and answers behind X-Api-Key, every request
 * judged by WAHA's published OpenAPI document (judgeWaha, the same verdict the routes apply), and
 * its session webhooks: several per session, each with its events, HMAC and custom headers.
 */
import { sleep } from 'n8n-workflow';

import { SEED, judgeWaha, type RecordedRequest } from './index.cts';
import { startWebhookReceiver, useSimulator, type WebhookReceiver } from './testing.cts';
import { HMAC_KEYS, signedWith, wahaClient } from './waha-testing.cts';

const SESSION = SEED.instances.connected.name;
const PAIRING = SEED.instances.pairing.name;
const ME = SEED.instances.connected.ownerChatId;
const alice = SEED.contacts.alice;
const hikers = SEED.groups.hikers;
const aliceText = SEED.messages.aliceText;
const aliceImage = SEED.messages.aliceImage;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const messagePath = (chatId: string, id: string) =>
	`/api/${SESSION}/chats/${encodeURIComponent(chatId)}/messages/${encodeURIComponent(id)}`;
const GROUP = `/api/${SESSION}/groups/${encodeURIComponent(hikers.id)}`;
const TINY_PNG = Buffer.from(PNG_SIGNATURE).toString('base64');

/** What the simulator answered must be what judgeWaha says of the request it logged. */
function verdictOf(request: RecordedRequest | undefined) {
	if (!request) throw new Error('No request was logged');
	return judgeWaha(request);
}

describe('waha gateway (WAHA 2026.x)', () => {
	const sim = useSimulator({ gateway: 'waha' });
	const api = () => wahaClient(sim);

	describe('routes answer as WAHA, every request accepted by its OpenAPI document', () => {
		it.each<[string, string, string, unknown, number, unknown]>([
			[
				'sendText',
				'POST',
				'/api/sendText',
				{ session: SESSION, chatId: alice.chatId, text: 'Hi' },
				201,
				{
					fromMe: true,
					to: alice.chatId,
					body: 'Hi',
					source: 'api',
					id: expect.stringMatching(/^true_5511987650001@c\.us_3EB0/),
				},
			],
			[
				'sendImage',
				'POST',
				'/api/sendImage',
				{
					session: SESSION,
					chatId: alice.chatId,
					file: { mimetype: 'image/png', data: TINY_PNG, filename: 'a.png' },
					caption: 'Look',
				},
				201,
				{ hasMedia: true, body: 'Look', media: { mimetype: 'image/png', filename: 'a.png' } },
			],
			[
				'sendFile',
				'POST',
				'/api/sendFile',
				{
					session: SESSION,
					chatId: alice.chatId,
					file: {
						mimetype: 'application/pdf',
						url: 'https://example.com/invoice.pdf',
						filename: 'invoice.pdf',
					},
				},
				201,
				{ hasMedia: true, media: { mimetype: 'application/pdf', filename: 'invoice.pdf' } },
			],
			[
				'sendVideo',
				'POST',
				'/api/sendVideo',
				{
					session: SESSION,
					chatId: alice.chatId,
					file: { mimetype: 'video/mp4', url: 'https://example.com/v.mp4', filename: 'v.mp4' },
					convert: false,
					caption: 'Clip',
				},
				201,
				{ hasMedia: true, body: 'Clip' },
			],
			[
				'sendVoice',
				'POST',
				'/api/sendVoice',
				{
					session: SESSION,
					chatId: alice.chatId,
					file: { mimetype: 'audio/ogg; codecs=opus', url: 'https://example.com/v.opus' },
					convert: false,
				},
				201,
				{ hasMedia: true },
			],
			[
				'sendLocation',
				'POST',
				'/api/sendLocation',
				{
					session: SESSION,
					chatId: alice.chatId,
					latitude: -23.55,
					longitude: -46.66,
					title: 'Store',
				},
				201,
				{ location: { latitude: '-23.55', longitude: '-46.66', name: 'Store' } },
			],
			[
				'sendContactVcard',
				'POST',
				'/api/sendContactVcard',
				{
					session: SESSION,
					chatId: alice.chatId,
					contacts: [
						{
							fullName: 'Bruno',
							phoneNumber: '+55 11 98765-0002',
							vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Bruno\nEND:VCARD',
						},
					],
				},
				201,
				{ vCards: [expect.stringContaining('FN:Bruno')] },
			],
			[
				'sendPoll',
				'POST',
				'/api/sendPoll',
				{
					session: SESSION,
					chatId: hikers.id,
					poll: { name: 'Trail?', options: ['North', 'South'], multipleAnswers: false },
				},
				201,
				{ to: hikers.id, body: 'Trail?' },
			],
			[
				'sendButtons',
				'POST',
				'/api/sendButtons',
				{
					session: SESSION,
					chatId: alice.chatId,
					header: 'H',
					body: 'Pick',
					footer: 'F',
					buttons: [{ type: 'reply', text: 'Yes' }],
				},
				201,
				{ body: 'Pick' },
			],
			[
				'sendList',
				'POST',
				'/api/sendList',
				{
					session: SESSION,
					chatId: alice.chatId,
					message: {
						title: 'Menu',
						description: 'Choose',
						button: 'Open',
						sections: [{ title: 'Food', rows: [{ title: 'Pizza', rowId: 'p1' }] }],
					},
				},
				201,
				{ body: 'Choose' },
			],
			[
				'link preview',
				'POST',
				'/api/send/link-custom-preview',
				{
					session: SESSION,
					chatId: alice.chatId,
					text: 'See https://acme.example',
					preview: { url: 'https://acme.example', title: 'Acme', description: 'Shop' },
				},
				201,
				{ body: 'See https://acme.example' },
			],
			['sendSeen', 'POST', '/api/sendSeen', { session: SESSION, chatId: alice.chatId }, 201, {}],
			[
				'reaction',
				'PUT',
				'/api/reaction',
				{ session: SESSION, messageId: aliceText.id, reaction: '👍' },
				200,
				{},
			],
			[
				'a message',
				'GET',
				messagePath(alice.chatId, aliceImage.id),
				undefined,
				200,
				{
					id: aliceImage.id,
					hasMedia: true,
					media: { url: expect.stringContaining('/api/files/acme-sales/') },
					mediaUrl: expect.any(String),
				},
			],
			[
				'a message without media',
				'GET',
				`${messagePath(alice.chatId, aliceImage.id)}?downloadMedia=false`,
				undefined,
				200,
				{ id: aliceImage.id, media: null },
			],
			[
				"a chat's messages",
				'GET',
				`/api/${SESSION}/chats/${alice.chatId}/messages?limit=2`,
				undefined,
				200,
				[{ fromMe: false }, {}],
			],
			[
				'chats',
				'GET',
				`/api/${SESSION}/chats`,
				undefined,
				200,
				expect.arrayContaining([expect.objectContaining({ id: alice.chatId })]),
			],
			[
				'chats overview',
				'GET',
				`/api/${SESSION}/chats/overview?limit=1`,
				undefined,
				200,
				[{ id: expect.any(String), lastMessage: expect.any(Object) }],
			],
			[
				'a contact',
				'GET',
				`/api/contacts?contactId=${alice.chatId}&session=${SESSION}`,
				undefined,
				200,
				{ id: alice.chatId, number: alice.number, isMyContact: true },
			],
			[
				'all contacts',
				'GET',
				`/api/contacts/all?session=${SESSION}&limit=2`,
				undefined,
				200,
				[{ isGroup: false }, { isGroup: false }],
			],
			[
				'number check',
				'GET',
				`/api/contacts/check-exists?phone=${alice.number}&session=${SESSION}`,
				undefined,
				200,
				{ numberExists: true, chatId: alice.chatId },
			],
			[
				'profile picture',
				'GET',
				`/api/contacts/profile-picture?contactId=${alice.chatId}&session=${SESSION}`,
				undefined,
				200,
				{ profilePictureURL: expect.stringContaining('/api/files/') },
			],
			[
				'about',
				'GET',
				`/api/contacts/about?contactId=${alice.chatId}&session=${SESSION}`,
				undefined,
				200,
				{ about: null },
			],
			[
				'groups',
				'GET',
				`/api/${SESSION}/groups`,
				undefined,
				200,
				{ [hikers.id]: { subject: hikers.subject } },
			],
			[
				'a group',
				'GET',
				GROUP,
				undefined,
				200,
				{
					id: hikers.id,
					participants: expect.arrayContaining([
						{ id: '5511987650001@s.whatsapp.net', admin: 'admin' },
					]),
				},
			],
			[
				'group create',
				'POST',
				`/api/${SESSION}/groups`,
				{ name: 'New', participants: [{ id: alice.chatId }] },
				201,
				{ subject: 'New', size: 2 },
			],
			[
				'participants add',
				'POST',
				`${GROUP}/participants/add`,
				{ participants: [{ id: '5511987650077@c.us' }] },
				200,
				[{ status: '200', jid: '5511987650077@s.whatsapp.net' }],
			],
			[
				'participants remove',
				'POST',
				`${GROUP}/participants/remove`,
				{ participants: [{ id: alice.chatId }] },
				200,
				[{ status: '200' }],
			],
			[
				'promote',
				'POST',
				`${GROUP}/admin/promote`,
				{ participants: [{ id: '5511987650002@c.us' }] },
				200,
				[{ status: '200' }],
			],
			[
				'demote',
				'POST',
				`${GROUP}/admin/demote`,
				{ participants: [{ id: alice.chatId }] },
				200,
				[{ status: '200' }],
			],
			[
				'participants v2',
				'GET',
				`${GROUP}/participants/v2`,
				undefined,
				200,
				expect.arrayContaining([{ id: alice.chatId, pn: alice.chatId, role: 'admin' }]),
			],
			['group description', 'PUT', `${GROUP}/description`, { description: 'New trails' }, 200, ''],
			['group subject', 'PUT', `${GROUP}/subject`, { subject: 'Hikers' }, 200, ''],
			['groups refresh', 'POST', `/api/${SESSION}/groups/refresh`, undefined, 200, true],
			[
				'sessions',
				'GET',
				'/api/sessions',
				undefined,
				200,
				[
					{ name: SESSION, status: 'WORKING', me: { id: ME } },
					{ name: PAIRING, status: 'SCAN_QR_CODE', me: null },
				],
			],
			[
				'a session',
				'GET',
				`/api/sessions/${SESSION}`,
				undefined,
				200,
				{ name: SESSION, status: 'WORKING', engine: { engine: 'NOWEB' } },
			],
			[
				'me',
				'GET',
				`/api/sessions/${SESSION}/me`,
				undefined,
				200,
				{ id: ME, pushName: 'Acme Sales' },
			],
			[
				'stop',
				'POST',
				`/api/sessions/${SESSION}/stop`,
				undefined,
				201,
				{ name: SESSION, status: 'STOPPED' },
			],
			[
				'profile',
				'GET',
				`/api/${SESSION}/profile`,
				undefined,
				200,
				{ id: ME, name: 'Acme Sales', picture: expect.any(String) },
			],
			[
				'profile name',
				'PUT',
				`/api/${SESSION}/profile/name`,
				{ name: 'Acme' },
				200,
				{ success: true },
			],
			[
				'profile status',
				'PUT',
				`/api/${SESSION}/profile/status`,
				{ status: 'Open' },
				200,
				{ success: true },
			],
			[
				'profile picture set',
				'PUT',
				`/api/${SESSION}/profile/picture`,
				{ file: { mimetype: 'image/png', url: 'https://example.com/me.png' } },
				200,
				{ success: true },
			],
			[
				'profile picture delete',
				'DELETE',
				`/api/${SESSION}/profile/picture`,
				undefined,
				200,
				{ success: true },
			],
			[
				'channel create',
				'POST',
				`/api/${SESSION}/channels`,
				{ name: 'News' },
				201,
				{ name: 'News', role: 'OWNER' },
			],
			[
				'channels',
				'GET',
				`/api/${SESSION}/channels`,
				undefined,
				200,
				[{ id: SEED.channels.updates.id, role: 'OWNER' }],
			],
			[
				'pairing code',
				'POST',
				`/api/${PAIRING}/auth/request-code`,
				{ phoneNumber: '5511987650099' },
				201,
				{ code: expect.stringMatching(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/) },
			],
			[
				'server version',
				'GET',
				'/api/server/version',
				undefined,
				200,
				{ version: '2026.7.1', engine: 'NOWEB', tier: 'CORE' },
			],
		])('%s: %s %s', async (_name, method, url, data, status, expected) => {
			const response = await api().request({ method, url, data });

			expect({ status: response.status, body: response.data }).toMatchObject({
				status,
				body: expected,
			});
			expect(verdictOf(sim.requests.at(-1))).toMatchObject({ outcome: 'accepted' });
		});

		it('answers GET /ping without a key', async () => {
			const response = await wahaClient(sim, null).get('/ping');
			expect([response.status, response.data]).toEqual([200, { message: 'pong' }]);
		});

		it('edits a text the account sent and deletes it for everyone', async () => {
			const sent = await api().post('/api/sendText', {
				session: SESSION,
				chatId: alice.chatId,
				text: 'Typo',
			});
			const path = messagePath(alice.chatId, sent.data.id);

			const edited = await api().put(path, { text: 'Fixed' });
			expect([edited.status, edited.data.body]).toEqual([200, 'Fixed']);
			const deleted = await api().delete(path);
			expect(deleted.status).toBe(200);
			expect((await api().get(path)).status).toBe(404);
			expect(sim.requests.map((request) => judgeWaha(request).outcome)).toEqual(
				Array(4).fill('accepted'),
			);
		});
	});

	describe('what WAHA refuses', () => {
		it.each<[string, string, string, unknown, number, unknown]>([
			[
				'no chatId',
				'POST',
				'/api/sendText',
				{ session: SESSION, text: 'Hi' },
				400,
				{ statusCode: 400, message: ['body lacks chatId'], error: 'Bad Request' },
			],
			[
				'a number as text',
				'POST',
				'/api/sendText',
				{ session: SESSION, chatId: alice.chatId, text: 5 },
				400,
				{ statusCode: 400, message: ['body.text must be string'] },
			],
			[
				'voice without convert',
				'POST',
				'/api/sendVoice',
				{ session: SESSION, chatId: alice.chatId, file: { url: 'https://example.com/a.ogg' } },
				400,
				{ message: expect.arrayContaining(['body lacks convert']) },
			],
			[
				'an unknown webhook event',
				'PUT',
				`/api/sessions/${SESSION}`,
				{
					config: {
						webhooks: [{ url: 'https://a.example', events: ['message', 'MESSAGES_UPSERT'] }],
					},
				},
				400,
				{ message: ['body.config.webhooks.0.events.1 must be one of the WAHA events or "*"'] },
			],
			[
				'no contactId',
				'GET',
				`/api/contacts?session=${SESSION}`,
				undefined,
				400,
				{ message: ['query lacks contactId'] },
			],
			[
				'a session left out (WAHA takes "default")',
				'POST',
				'/api/sendText',
				{ chatId: alice.chatId, text: 'Hi' },
				404,
				{ statusCode: 404, message: expect.stringContaining("session with name 'default'") },
			],
			[
				'a session not working',
				'POST',
				'/api/sendText',
				{ session: PAIRING, chatId: alice.chatId, text: 'Hi' },
				422,
				{ session: PAIRING, status: 'SCAN_QR_CODE', expected: ['WORKING'] },
			],
			[
				'a QR code of a working session',
				'GET',
				`/api/${SESSION}/auth/qr`,
				undefined,
				422,
				{ status: 'WORKING', expected: ['SCAN_QR_CODE'] },
			],
			[
				'an unknown session',
				'GET',
				'/api/sessions/nobody',
				undefined,
				404,
				{ statusCode: 404, message: 'Session not found', error: 'Not Found' },
			],
			[
				'an unknown message',
				'GET',
				messagePath(alice.chatId, 'false_5511987650001@c.us_3A0000000000000000FF'),
				undefined,
				404,
				{ message: 'Message not found' },
			],
			[
				'an unknown route',
				'GET',
				'/api/nothing-here',
				undefined,
				404,
				{ statusCode: 404, message: 'Cannot GET /api/nothing-here', error: 'Not Found' },
			],
			[
				"Evolution's routes",
				'POST',
				`/message/sendText/${SESSION}`,
				{ number: alice.number, text: 'Hi' },
				404,
				{ message: `Cannot POST /message/sendText/${SESSION}` },
			],
			[
				"the spec's Wappfy contacts",
				'GET',
				`/api/contacts?sessionId=${SESSION}&jid=${alice.number}`,
				undefined,
				400,
				{ message: ['query lacks contactId'] },
			],
			[
				'a method WAHA lacks',
				'POST',
				`/api/sessions/${SESSION}`,
				{},
				404,
				{ message: `Cannot POST /api/sessions/${SESSION}` },
			],
		])('%s: %s %s', async (_name, method, url, data, status, expected) => {
			const response = await api().request({ method, url, data });

			expect({ status: response.status, body: response.data }).toMatchObject({
				status,
				body: expected,
			});
			const verdict = verdictOf(sim.requests.at(-1));
			if (status === 400)
				expect(verdict).toMatchObject({ outcome: 'rejected', reasons: response.data.message });
			else if (/^Cannot /.test(String(response.data.message)))
				expect(verdict.outcome).toBe('absent');
			else expect(verdict.outcome).toBe('accepted');
		});
	});

	describe('auth by X-Api-Key', () => {
		it.each<[string, Record<string, string>, number]>([
			['no key', {}, 401],
			['a wrong key', { 'X-Api-Key': 'wrong' }, 401],
			["the key in the spec's apikey header", { apikey: SEED.defaultApiKey }, 401],
			['the key', { 'X-Api-Key': SEED.defaultApiKey }, 200],
		])('%s: %s', async (_name, headers, status) => {
			const response = await wahaClient(sim, null).get('/api/sessions', { headers });

			expect(response.status).toBe(status);
			if (status === 401)
				expect(response.data).toEqual({ statusCode: 401, message: 'Unauthorized' });
			expect(sim.requests.at(-1)?.auth).toBe(
				status === 200
					? 'valid'
					: 'apikey' in headers || !('X-Api-Key' in headers)
						? 'missing'
						: 'invalid',
			);
		});

		it('checks the key before the route exists', async () => {
			const response = await wahaClient(sim, null).get('/api/nothing-here');
			expect([response.status, response.data]).toEqual([
				401,
				{ statusCode: 401, message: 'Unauthorized' },
			]);
		});
	});

	describe('QR code of a session waiting for one', () => {
		it('is a PNG by default', async () => {
			const response = await api().get(`/api/${PAIRING}/auth/qr`, { responseType: 'arraybuffer' });

			expect(response.status).toBe(200);
			expect(response.headers['content-type']).toBe('image/png');
			expect(Buffer.from(response.data as ArrayBuffer).subarray(0, 8)).toEqual(PNG_SIGNATURE);
		});

		it.each<[string, string, Record<string, string>, unknown]>([
			[
				'base64 JSON when JSON is accepted',
				'',
				{ Accept: 'application/json' },
				{ mimetype: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) },
			],
			[
				'base64 JSON with format=image',
				'?format=image',
				{ Accept: 'application/json' },
				{ mimetype: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) },
			],
			['a PNG still with format=image', '?format=image', {}, expect.any(String)],
			['its value with format=raw', '?format=raw', {}, { value: expect.stringMatching(/^2@/) }],
		])('%s', async (_name, query, headers, expected) => {
			const response = await api().get(`/api/${PAIRING}/auth/qr${query}`, { headers });

			expect([response.status, response.data]).toEqual([200, expected]);
			expect(verdictOf(sim.requests.at(-1)).outcome).toBe('accepted');
		});
	});

	describe('several webhooks per session', () => {
		let orders: WebhookReceiver;
		let support: WebhookReceiver;
		beforeAll(async () => {
			orders = await startWebhookReceiver('/orders');
			support = await startWebhookReceiver('/support');
		});
		afterEach(() => {
			orders.received.length = 0;
			support.received.length = 0;
		});
		afterAll(async () => {
			await orders.stop();
			await support.stop();
		});
		const ordersHook = (events: string[]) => ({
			url: orders.url,
			events,
			hmac: { key: HMAC_KEYS.orders },
		});
		const supportHook = (events: string[]) => ({
			url: support.url,
			events,
			hmac: { key: HMAC_KEYS.support },
			customHeaders: [{ name: 'X-Tenant', value: 'acme' }],
		});

		/**
		 * PUT the session's config; the restart's session.status deliveries (STOPPED, STARTING,
		 * WORKING, to each new webhook that takes them) are waited for and cleared.
		 */
		async function configure(config: Record<string, unknown>) {
			const before = sim.deliveries.length;
			const response = await api().put(`/api/sessions/${SESSION}`, { config });
			expect(response.status).toBe(200);
			const statusTakers = ((config.webhooks ?? []) as Array<{ events: string[] }>).filter(
				(webhook) => webhook.events.includes('session.status') || webhook.events.includes('*'),
			);
			await sim.waitForDeliveries(before + 3 * statusTakers.length);
			sim.clearLogs();
			orders.received.length = 0;
			support.received.length = 0;
		}

		async function deliveriesAfter(count: number) {
			await sim.waitForDeliveries(count);
			await sleep(50);
			return sim.deliveries;
		}

		it('posts each event to every webhook that subscribes to it, signed with its own key', async () => {
			await configure({
				metadata: { 'user.id': '42' },
				webhooks: [ordersHook(['message']), supportHook(['*'])],
			});

			const inbound = await sim.injectInboundMessage({ from: alice.number, text: 'Order ready?' });

			const deliveries = await deliveriesAfter(3);
			expect(deliveries.map((delivery) => `${delivery.event} -> ${delivery.url}`).sort()).toEqual(
				[
					`message -> ${orders.url}`,
					`message -> ${support.url}`,
					`message.any -> ${support.url}`,
				].sort(),
			);
			const [toOrders] = orders.received;
			expect(toOrders.body).toEqual({
				id: expect.stringMatching(/^evt_[0-9a-hjkmnp-tv-z]{26}$/),
				timestamp: expect.any(Number),
				event: 'message',
				session: SESSION,
				metadata: { 'user.id': '42' },
				me: { id: ME, pushName: 'Acme Sales', lid: SEED.instances.connected.lid },
				payload: expect.objectContaining({
					id: inbound.id,
					from: alice.chatId,
					fromMe: false,
					body: 'Order ready?',
				}),
				engine: 'NOWEB',
				environment: expect.objectContaining({ version: '2026.7.1', engine: 'NOWEB' }),
			});
			expect(toOrders.headers).toMatchObject({
				'content-type': 'application/json',
				'user-agent': 'WAHA/2026.7.1',
				'x-webhook-request-id': expect.stringMatching(/^[0-9a-z]{26}$/),
				'x-webhook-timestamp': String((toOrders.body as { timestamp: number }).timestamp),
				'x-webhook-hmac-algorithm': 'sha512',
			});
			expect(signedWith(HMAC_KEYS.orders, toOrders.rawBody, toOrders.headers)).toBe(true);
			expect(signedWith(HMAC_KEYS.support, toOrders.rawBody, toOrders.headers)).toBe(false);
			for (const received of support.received) {
				expect(signedWith(HMAC_KEYS.support, received.rawBody, received.headers)).toBe(true);
				expect(received.headers['x-tenant']).toBe('acme');
			}
			// The record keeps the headers sent, as named by WAHA.
			expect(deliveries.find((delivery) => delivery.url === orders.url)?.headers).toMatchObject({
				'User-Agent': 'WAHA/2026.7.1',
				'X-Webhook-Hmac': toOrders.headers['x-webhook-hmac'],
			});
		});

		it('a webhook without a key gets no signature headers', async () => {
			await configure({ webhooks: [{ url: orders.url, events: ['message'] }] });

			await sim.injectInboundMessage({ from: alice.number, text: 'Hi' });

			await deliveriesAfter(1);
			expect(orders.received[0].headers['x-webhook-hmac']).toBeUndefined();
			expect(orders.received[0].headers['x-webhook-hmac-algorithm']).toBeUndefined();
		});

		it.each<[string, (sent: { id: string }) => Promise<unknown>, string, unknown]>([
			[
				'an own send',
				async () => undefined,
				'message.any',
				{ fromMe: true, source: 'api', body: 'Ready' },
			],
			[
				'an ack',
				async (sent) => sim.injectAck({ instance: SESSION, messageId: sent.id, ack: 3 }),
				'message.ack',
				{ fromMe: true, ack: 3, ackName: 'READ', to: alice.chatId },
			],
			[
				'an edit',
				async (sent) => api().put(messagePath(alice.chatId, sent.id), { text: 'Ready now' }),
				'message.edited',
				{ body: 'Ready now', editedMessageId: expect.any(String) },
			],
			[
				'a revoke',
				async (sent) => api().delete(messagePath(alice.chatId, sent.id)),
				'message.revoked',
				{
					before: expect.objectContaining({ body: 'Ready' }),
					revokedMessageId: expect.any(String),
				},
			],
			[
				'a reaction',
				async (sent) =>
					api().put('/api/reaction', { session: SESSION, messageId: sent.id, reaction: '🎉' }),
				'message.reaction',
				{ fromMe: true, reaction: { text: '🎉', messageId: expect.stringMatching(/^true_/) } },
			],
		])('%s is delivered as %s', async (_name, act, event, payload) => {
			await configure({ webhooks: [ordersHook([event])] });
			const sent = await api().post('/api/sendText', {
				session: SESSION,
				chatId: alice.chatId,
				text: 'Ready',
			});

			await act(sent.data);

			await deliveriesAfter(1);
			expect(orders.received.map((received) => (received.body as { event: string }).event)).toEqual(
				[event],
			);
			expect((orders.received[0].body as { payload: unknown }).payload).toMatchObject(
				payload as object,
			);
		});

		it.each<[string, () => Promise<unknown>, string[]]>([
			[
				'restarting the pairing session',
				() => api().post(`/api/sessions/${PAIRING}/restart`),
				['STOPPED', 'STARTING', 'SCAN_QR_CODE'],
			],
			[
				'logging it out and back',
				() => api().post(`/api/sessions/${PAIRING}/logout`),
				['STOPPED', 'STARTING', 'SCAN_QR_CODE'],
			],
			['stopping it', () => api().post(`/api/sessions/${PAIRING}/stop`), ['STOPPED']],
			['pairing it (control API)', async () => sim.setInstanceState(PAIRING, 'open'), ['WORKING']],
		])('%s announces session.status %j', async (_name, act, statuses) => {
			const response = await api().put(`/api/sessions/${PAIRING}`, {
				config: { webhooks: [ordersHook(['session.status'])] },
			});
			expect(response.data.status).toBe('SCAN_QR_CODE');
			await deliveriesAfter(3);
			sim.clearLogs();
			orders.received.length = 0;

			await act();

			await deliveriesAfter(statuses.length);
			const bodies = orders.received.map(
				(received) => received.body as { event: string; payload: { status: string } },
			);
			expect(bodies.map((body) => body.payload.status)).toEqual(statuses);
			expect(bodies.every((body) => body.event === 'session.status')).toBe(true);
		});

		it('a working session dropped by WhatsApp is FAILED; start leaves it so, a restart asks for a QR code', async () => {
			await configure({ webhooks: [ordersHook(['session.status'])] });

			sim.setInstanceState(SESSION, 'close');
			await deliveriesAfter(1);
			const started = await api().post(`/api/sessions/${SESSION}/start`);
			const restarted = await api().post(`/api/sessions/${SESSION}/restart`);

			await deliveriesAfter(4);
			const statuses = orders.received.map(
				(received) => (received.body as { payload: { status: string } }).payload.status,
			);
			expect(statuses).toEqual(['FAILED', 'STOPPED', 'STARTING', 'SCAN_QR_CODE']);
			expect([started.data.status, restarted.data.status]).toEqual(['FAILED', 'SCAN_QR_CODE']);
		});

		it('PUT replaces the whole config: what it leaves out is gone', async () => {
			await configure({ metadata: { 'user.id': '1' }, webhooks: [ordersHook(['message'])] });

			await configure({ webhooks: [supportHook(['message'])] });

			expect(sim.getWebhooks(SESSION)).toEqual([supportHook(['message'])]);
			expect((await api().get(`/api/sessions/${SESSION}`)).data.config).toEqual({
				webhooks: [supportHook(['message'])],
			});
		});

		it('a read-modify-write PUT keeps the other webhooks and settings', async () => {
			await configure({ metadata: { 'user.id': '1' }, webhooks: [ordersHook(['message'])] });

			const { config } = (await api().get(`/api/sessions/${SESSION}`)).data;
			await configure({ ...config, webhooks: [...config.webhooks, supportHook(['message.any'])] });
			await sim.injectInboundMessage({ from: alice.number, text: 'Both?' });

			expect(sim.getWebhooks(SESSION)).toEqual([
				ordersHook(['message']),
				supportHook(['message.any']),
			]);
			expect((await api().get(`/api/sessions/${SESSION}`)).data.config.metadata).toEqual({
				'user.id': '1',
			});
			const deliveries = await deliveriesAfter(2);
			expect(deliveries.map((delivery) => delivery.url).sort()).toEqual(
				[orders.url, support.url].sort(),
			);
		});

		it('POST /api/sessions creates a session with its webhooks, which hear it start', async () => {
			const response = await api().post('/api/sessions', {
				name: 'acme-new',
				config: { webhooks: [ordersHook(['session.status'])] },
			});

			expect(response.status).toBe(201);
			expect(response.data).toMatchObject({ name: 'acme-new', status: 'SCAN_QR_CODE' });
			expect(sim.getWebhooks('acme-new')).toEqual([ordersHook(['session.status'])]);
			await deliveriesAfter(2);
			expect(
				orders.received.map(
					(received) => (received.body as { payload: { status: string } }).payload.status,
				),
			).toEqual(['STARTING', 'SCAN_QR_CODE']);
			expect((await api().post('/api/sessions', { name: 'acme-new' })).status).toBe(422);
		});

		it('getWebhooks is empty for a session without webhooks and for unknown sessions', () => {
			expect(sim.getWebhooks(SESSION)).toEqual([]);
			expect(sim.getWebhooks('nobody')).toEqual([]);
		});
	});
});
