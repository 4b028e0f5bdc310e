/**
 * The simulator's evolution-v2 gateway: Evolution API 2.3.6's routes, methods, answers and webhook
 * deliveries, over the same seed data and control API as the spec gateway.
 */
import { createHmac } from 'node:crypto';

import { sleep } from 'n8n-workflow';

import { EVOLUTION_V2_SEED as SEED } from './index.cts';
import {
	gatewayClient,
	startWebhookReceiver,
	useSimulator,
	useWebhookReceiver,
} from './testing.cts';

const connected = SEED.instances.connected;
const pairing = SEED.instances.pairing;
const { alice } = SEED.contacts;
const hikers = SEED.groups.hikers;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const notFound = (message: string) => ({
	status: 404,
	error: 'Not Found',
	response: { message: [message] },
});

describe('evolution-v2 gateway (Evolution API 2.3.6)', () => {
	const sim = useSimulator({ gateway: 'evolution-v2' });
	const api = () => gatewayClient(sim);

	it('says at its root that 2.3.6 answers, without an apikey', async () => {
		const response = await gatewayClient(sim, null).get('/');
		expect(response.status).toBe(200);
		expect(response.data).toMatchObject({ status: 200, version: '2.3.6' });
	});

	describe('routes v2 does not have answer as Express does', () => {
		it.each([
			['PUT', `/instance/restart/${connected.name}`],
			['PUT', `/chat/markMessageAsRead/${connected.name}`],
			['PUT', `/chat/updateMessage/${connected.name}`],
			['PUT', `/group/updateParticipant/${connected.name}?groupJid=${hikers.id}`],
			['GET', `/api/${connected.name}/profile`],
			['POST', '/api/sendPoll'],
			['PUT', '/api/reaction'],
			['GET', `/api/contacts?sessionId=${connected.name}`],
			['POST', `/api/${connected.name}/groups/refresh`],
			['POST', `/api/${connected.name}/channels`],
		])('%s %s → 404 Cannot …', async (method, url) => {
			const response = await api().request({ method, url, data: {} });
			expect(response.status).toBe(404);
			expect(response.data).toEqual(notFound(`Cannot ${method} ${url}`));
		});

		it('checks the instance (404) before the key (401), as its guards run', async () => {
			const unknown = await gatewayClient(sim, 'wrong').get('/instance/connectionState/nobody');
			expect(unknown.data).toEqual(notFound('The "nobody" instance does not exist'));
			const wrongKey = await gatewayClient(sim, 'wrong').get(
				`/instance/connectionState/${connected.name}`,
			);
			expect(wrongKey.status).toBe(401);
			expect(wrongKey.data).toEqual({
				status: 401,
				error: 'Unauthorized',
				response: { message: 'Unauthorized' },
			});
		});
	});

	describe('instances', () => {
		it('fetchInstances lists database rows, flat', async () => {
			const response = await api().get('/instance/fetchInstances');
			expect(response.status).toBe(200);
			expect(response.data).toHaveLength(2);
			const [sales, support] = response.data;
			expect(sales).toMatchObject({
				id: connected.instanceId,
				name: connected.name,
				connectionStatus: 'open',
				ownerJid: connected.ownerJid,
				profileName: connected.profileName,
				profilePicUrl: expect.stringContaining('/api/files/'),
				integration: 'WHATSAPP-BAILEYS',
				token: connected.token,
				Setting: expect.objectContaining({ rejectCall: false, instanceId: connected.instanceId }),
				_count: { Message: expect.any(Number), Contact: 4, Chat: expect.any(Number) },
			});
			expect(support).toMatchObject({
				name: pairing.name,
				connectionStatus: 'connecting',
				ownerJid: null,
				profileName: null,
				profilePicUrl: null,
			});
		});

		it.each([
			[
				'the global key, one name',
				SEED.defaultApiKey,
				`?instanceName=${pairing.name}`,
				[pairing.name],
			],
			['an instance token', connected.token, '', [connected.name]],
			[
				'an instance token, its own name',
				connected.token,
				`?instanceName=${connected.name}`,
				[connected.name],
			],
		])('fetchInstances with %s', async (_case, key, query, names) => {
			const response = await gatewayClient(sim, key).get(`/instance/fetchInstances${query}`);
			expect(response.status).toBe(200);
			expect(response.data.map((row: { name: string }) => row.name)).toEqual(names);
		});

		it.each([
			[
				'an unknown name',
				SEED.defaultApiKey,
				'?instanceName=nobody',
				404,
				['Instance "nobody" not found'],
			],
			[
				'a token for another name',
				connected.token,
				`?instanceName=${pairing.name}`,
				401,
				'Unauthorized',
			],
			['no key', null, '', 401, 'Unauthorized'],
		])('fetchInstances refuses %s', async (_case, key, query, status, message) => {
			const response = await gatewayClient(sim, key).get(`/instance/fetchInstances${query}`);
			expect(response.status).toBe(status);
			expect(response.data.response.message).toEqual(message);
		});

		it.each([
			[connected.name, 'open'],
			[pairing.name, 'connecting'],
		])('connectionState of %s is {instance:{instanceName, state: %s}}', async (name, state) => {
			const response = await api().get(`/instance/connectionState/${name}`);
			expect(response.status).toBe(200);
			expect(response.data).toEqual({ instance: { instanceName: name, state } });
		});

		it('connect: an open instance answers its state, a pairing one its QR code (no pairing code)', async () => {
			const open = await api().get(`/instance/connect/${connected.name}`);
			expect(open.data).toEqual({ instance: { instanceName: connected.name, state: 'open' } });
			const first = await api().get(`/instance/connect/${pairing.name}?number=5511987650099`);
			expect(first.status).toBe(200);
			expect(first.data).toEqual({
				pairingCode: null,
				code: expect.stringMatching(/^2@/),
				base64: expect.stringMatching(/^data:image\/png;base64,/),
				count: 1,
			});
			const again = await api().get(`/instance/connect/${pairing.name}`);
			expect(again.data).toEqual(first.data);
		});

		it('connect with ?number= starts a closed instance with a pairing code, announced', async () => {
			const receiver = await startWebhookReceiver();
			try {
				sim.setInstanceState(pairing.name, 'close');
				await api().post(`/webhook/set/${pairing.name}`, {
					webhook: {
						enabled: true,
						url: receiver.url,
						events: ['QRCODE_UPDATED', 'CONNECTION_UPDATE'],
					},
				});
				const response = await api().get(`/instance/connect/${pairing.name}?number=5511987650099`);
				expect(response.data).toEqual({
					pairingCode: expect.stringMatching(/^[A-Z0-9]{8}$/),
					code: expect.any(String),
					base64: expect.any(String),
					count: 1,
				});
				const deliveries = await sim.waitForDeliveries(2);
				expect(deliveries.map((delivery) => delivery.event)).toEqual([
					'connection.update',
					'qrcode.updated',
				]);
				expect(deliveries[0].body.data).toEqual({
					instance: pairing.name,
					state: 'connecting',
					statusReason: 200,
				});
				expect(deliveries[1].body.data).toEqual({
					qrcode: {
						instance: pairing.name,
						pairingCode: response.data.pairingCode,
						code: response.data.code,
						base64: response.data.base64,
					},
				});
			} finally {
				await receiver.stop();
			}
		});

		it.each([
			[
				'an open instance answers its state',
				connected.name,
				undefined,
				{ instance: { instanceName: connected.name, state: 'open' } },
			],
			[
				'a closed one is refused inside the controller, answered 200',
				pairing.name,
				'close' as const,
				{ error: true, message: '[object Object]' },
			],
		])('POST restart: %s', async (_case, name, state, body) => {
			if (state) sim.setInstanceState(name, state);
			const response = await api().post(`/instance/restart/${name}`);
			expect(response.status).toBe(200);
			expect(response.data).toEqual(body);
		});

		it('logout closes the instance; a closed one is not connected (400)', async () => {
			const first = await api().delete(`/instance/logout/${connected.name}`);
			expect(first.status).toBe(200);
			expect(first.data).toEqual({
				status: 'SUCCESS',
				error: false,
				response: { message: 'Instance logged out' },
			});
			expect(sim.getInstanceState(connected.name)).toBe('close');
			const second = await api().delete(`/instance/logout/${connected.name}`);
			expect(second.status).toBe(400);
			expect(second.data.response.message).toEqual([
				`The "${connected.name}" instance is not connected`,
			]);
		});

		it.each([
			[connected.name, 201, { presence: 'available' }],
			[
				pairing.name,
				400,
				{ status: 400, error: 'Bad Request', response: { message: ['Error: Connection Closed'] } },
			],
		])('setPresence on %s → %i', async (name, status, body) => {
			const response = await api().post(`/instance/setPresence/${name}`, { presence: 'available' });
			expect(response.status).toBe(status);
			expect(response.data).toEqual(body);
		});
	});

	describe('sends (/message/send*, flat bodies)', () => {
		const PNG_BASE64 =
			'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
		const send = (route: string, body: Record<string, unknown>, name = connected.name) =>
			api().post(`/message/${route}/${name}`, body);

		it.each([
			[
				'sendText',
				{ number: alice.number, text: 'Hello' },
				'conversation',
				{ conversation: 'Hello' },
			],
			[
				'sendMedia',
				{
					number: alice.number,
					mediatype: 'document',
					media: 'https://acme.example.com/menu.pdf',
					caption: 'Menu',
				},
				'documentMessage',
				{ documentMessage: expect.objectContaining({ fileName: 'menu', caption: 'Menu' }) },
			],
			[
				'sendMedia',
				{ number: alice.number, mediatype: 'image', media: PNG_BASE64 },
				'imageMessage',
				{ imageMessage: expect.objectContaining({ mimetype: 'image/jpeg' }) },
			],
			[
				'sendWhatsAppAudio',
				{ number: alice.number, audio: 'https://acme.example.com/note.mp3' },
				'audioMessage',
				{
					audioMessage: expect.objectContaining({ mimetype: 'audio/ogg; codecs=opus', ptt: true }),
				},
			],
			[
				'sendSticker',
				{ number: alice.number, sticker: PNG_BASE64 },
				'stickerMessage',
				{ stickerMessage: expect.objectContaining({ mimetype: 'image/webp' }) },
			],
			[
				'sendLocation',
				{
					number: alice.number,
					latitude: -23.5,
					longitude: -46.6,
					name: 'Store',
					address: 'Rua Augusta',
				},
				'locationMessage',
				{ locationMessage: expect.objectContaining({ degreesLatitude: -23.5, name: 'Store' }) },
			],
			[
				'sendContact',
				{
					number: alice.number,
					contact: [{ fullName: 'Bruno Costa', phoneNumber: '5511987650002' }],
				},
				'contactMessage',
				{ contactMessage: expect.objectContaining({ displayName: 'Bruno Costa' }) },
			],
			[
				'sendList',
				{
					number: alice.number,
					title: 'Menu',
					footerText: 'Acme',
					buttonText: 'Open',
					sections: [{ title: 'Bread', rows: [{ title: 'Baguette', rowId: 'b1' }] }],
				},
				'listMessage',
				{ listMessage: expect.objectContaining({ title: 'Menu', listType: 2 }) },
			],
			[
				'sendPoll',
				{ number: alice.number, name: 'Pickup?', selectableCount: 1, values: ['9am', '5pm'] },
				'pollCreationMessageV3',
				{
					pollCreationMessageV3: {
						name: 'Pickup?',
						options: [{ optionName: '9am' }, { optionName: '5pm' }],
						selectableOptionsCount: 1,
					},
				},
			],
			[
				'sendButtons',
				{
					number: alice.number,
					title: 'Order',
					description: 'Ready?',
					footer: 'Acme',
					buttons: [{ type: 'reply', displayText: 'Yes', id: 'yes' }],
				},
				'viewOnceMessage',
				{
					viewOnceMessage: {
						message: {
							interactiveMessage: expect.objectContaining({
								body: { text: '*Order*\n\nReady?\n' },
								nativeFlowMessage: expect.objectContaining({
									buttons: [
										{ name: 'quick_reply', buttonParamsJson: '{"display_text":"Yes","id":"yes"}' },
									],
								}),
							}),
						},
					},
				},
			],
		])(
			'%s answers 201 with the stored message, as prepareMessage renders it (%s)',
			async (route, body, messageType, message) => {
				const response = await send(route, body);
				expect(response.status).toBe(201);
				expect(response.data).toEqual({
					key: {
						remoteJid: alice.jid,
						fromMe: true,
						id: expect.stringMatching(/^3EB0[0-9A-F]{16}$/),
					},
					pushName: 'Você',
					status: 'PENDING',
					message,
					contextInfo: expect.objectContaining({
						mentionedJid: [],
						disappearingMode: { initiator: 0 },
					}),
					messageType,
					messageTimestamp: expect.any(Number),
					instanceId: connected.instanceId,
					source: 'unknown',
				});
				expect(sim.findMessage(connected.name, response.data.key.id)?.evolution).toEqual(
					response.data,
				);
			},
		);

		it('quotes by key.id and mentions group members; in a group there is no contextInfo of its own', async () => {
			const response = await send('sendText', {
				number: hikers.id,
				text: 'Trail at 7',
				quoted: { key: { id: SEED.messages.hikersQuestion.shortId } },
				mentioned: [alice.number],
			});
			expect(response.status).toBe(201);
			expect(response.data.key).toEqual({
				remoteJid: hikers.id,
				fromMe: true,
				id: expect.any(String),
				participant: connected.ownerJid,
			});
			expect(response.data.contextInfo).toEqual({
				stanzaId: SEED.messages.hikersQuestion.shortId,
				participant: SEED.contacts.carla.jid,
				quotedMessage: expect.any(Object),
				mentionedJid: [alice.jid],
			});
		});

		it('sendReaction answers and announces a reactionMessage', async () => {
			const key = { remoteJid: alice.jid, fromMe: false, id: SEED.messages.aliceText.shortId };
			const response = await send('sendReaction', { key, reaction: '👍' });
			expect(response.status).toBe(201);
			expect(response.data).toMatchObject({
				key: { remoteJid: alice.jid, fromMe: true },
				message: { reactionMessage: { key, text: '👍' } },
				messageType: 'reactionMessage',
				status: 'PENDING',
			});
		});

		it.each([
			['sendText', { number: alice.number, text: '   ' }, 400, ['Text is required']],
			[
				'sendMedia',
				{ number: alice.number, mediatype: 'image', media: 'not media' },
				400,
				['Owned media must be a url or base64'],
			],
			[
				'sendMedia',
				{ number: alice.number, mediatype: 'document', media: PNG_BASE64 },
				400,
				['For base64 the file name must be informed.'],
			],
			[
				'sendWhatsAppAudio',
				{ number: alice.number, audioMessage: { audio: PNG_BASE64 } },
				400,
				['Owned media must be a url, base64, or valid file with buffer'],
			],
			[
				'sendSticker',
				{ number: alice.number, stickerMessage: { image: PNG_BASE64 } },
				400,
				['Owned media must be a url or base64'],
			],
			[
				'sendReaction',
				{ key: { remoteJid: alice.jid, fromMe: false, id: 'x' }, reaction: 'ok' },
				400,
				['Reaction must be a single emoji or empty string'],
			],
			[
				'sendButtons',
				{ number: alice.number, title: 'T', buttons: [] },
				400,
				['At least one button is required'],
			],
			[
				'sendButtons',
				{
					number: alice.number,
					title: 'T',
					buttons: [
						{ type: 'reply', displayText: 'a', id: 'a' },
						{ type: 'url', displayText: 'b', url: 'https://b.example.com' },
					],
				},
				400,
				['Reply buttons cannot be mixed with other button types'],
			],
			[
				'sendText',
				{ number: SEED.unregisteredNumber, text: 'Hi' },
				400,
				[
					{
						jid: `${SEED.unregisteredNumber}@s.whatsapp.net`,
						exists: false,
						number: SEED.unregisteredNumber,
					},
				],
			],
			['sendText', { number: '120363000000000000@g.us', text: 'Hi' }, 400, ['[object Object]']],
		])(
			'%s refuses %j as its controller or service does (%i)',
			async (route, body, status, message) => {
				const response = await send(route, body);
				expect(response.status).toBe(status);
				expect(response.data.response.message).toEqual(message);
			},
		);

		it('a send while the instance is not open fails with "Connection Closed" (500)', async () => {
			const response = await send('sendText', { number: alice.number, text: 'Hi' }, pairing.name);
			expect(response.status).toBe(500);
			expect(response.data.response.message).toBe('Connection Closed');
		});
	});

	describe('chats, messages and profiles (/chat/*)', () => {
		const m = SEED.messages;
		const { bruno, bakery } = SEED.contacts;
		const chat = (method: string, route: string, data?: unknown, name = connected.name) =>
			api().request({ method, url: `/chat/${route}/${name}`, data });

		it('whatsappNumbers answers OnWhatsAppDto rows; a group it cannot read is exists:false', async () => {
			const response = await chat('POST', 'whatsappNumbers', {
				numbers: [alice.number, SEED.unregisteredNumber, hikers.id, '120363000000000000@g.us'],
			});
			expect(response.status).toBe(200);
			expect(response.data).toEqual([
				{ jid: hikers.id, exists: true, number: hikers.id, name: hikers.subject },
				{ jid: '120363000000000000@g.us', exists: false, number: '120363000000000000@g.us' },
				{ jid: alice.jid, exists: true, number: alice.number, name: 'Alice' },
				{
					jid: `${SEED.unregisteredNumber}@s.whatsapp.net`,
					exists: false,
					number: SEED.unregisteredNumber,
				},
			]);
		});

		it('whatsappNumbers answers what it caught as 400: the Boom of a closed socket', async () => {
			const response = await chat(
				'POST',
				'whatsappNumbers',
				{ numbers: [alice.number] },
				pairing.name,
			);
			expect(response.status).toBe(400);
			expect(response.data.output.payload).toEqual({
				statusCode: 428,
				error: 'Precondition Required',
				message: 'Connection Closed',
			});
		});

		it('markMessageAsRead takes readMessages (POST, 201)', async () => {
			const response = await chat('POST', 'markMessageAsRead', {
				readMessages: [{ id: m.aliceText.shortId, fromMe: false, remoteJid: alice.jid }],
			});
			expect(response.status).toBe(201);
			expect(response.data).toEqual({ message: 'Read messages', read: 'success' });
		});

		it.each([
			["the account's own text", m.thanksToBruno, bruno.number, 200, undefined],
			[
				'a message of someone else',
				m.aliceText,
				alice.number,
				400,
				['You cannot edit others messages'],
			],
			[
				'a location (not a text or caption)',
				m.brunoLocation,
				bruno.number,
				400,
				['Message not compatible'],
			],
			[
				'a message in another chat',
				m.thanksToBruno,
				alice.number,
				400,
				['RemoteJid does not match'],
			],
		])('updateMessage (POST) of %s → %i', async (_case, seed, number, status, message) => {
			const response = await chat('POST', 'updateMessage', {
				number,
				text: 'Edited',
				key: { id: seed.shortId, remoteJid: seed.remoteJid, fromMe: seed.fromMe },
			});
			expect(response.status).toBe(status);
			if (message) expect(response.data.response.message).toEqual(message);
			else
				expect(response.data).toMatchObject({
					message: {
						protocolMessage: { type: 'MESSAGE_EDIT', editedMessage: { conversation: 'Edited' } },
					},
					status: 'PENDING',
				});
		});

		it('deleteMessageForEveryone answers the revoke and announces the deleted row', async () => {
			const receiver = await startWebhookReceiver();
			try {
				await api().post(`/webhook/set/${connected.name}`, {
					webhook: { enabled: true, url: receiver.url, events: ['MESSAGES_DELETE'] },
				});
				const key = { id: m.thanksToBruno.shortId, remoteJid: bruno.jid, fromMe: true };
				const response = await chat('DELETE', 'deleteMessageForEveryone', key);
				expect(response.status).toBe(201);
				expect(response.data.message.protocolMessage).toEqual({ key, type: 'REVOKE' });
				const [delivery] = await sim.waitForDeliveries(1);
				expect(delivery.body.data).toMatchObject({
					id: expect.any(String),
					instanceId: connected.instanceId,
					key: { ...key, deleted: true },
					status: 'DELETED',
					messageType: 'conversation',
				});
				expect(sim.findMessage(connected.name, key.id)).toBeUndefined();
			} finally {
				await receiver.stop();
			}
		});

		it('getBase64FromMediaMessage answers the file with v2 size and buffer fields (201)', async () => {
			const response = await chat('POST', 'getBase64FromMediaMessage', {
				message: { key: { id: m.aliceImage.shortId } },
			});
			expect(response.status).toBe(201);
			expect(response.data).toEqual({
				mediaType: 'imageMessage',
				fileName: expect.any(String),
				caption: expect.any(String),
				size: {
					fileLength: expect.stringMatching(/^\d+$/),
					height: expect.any(Number),
					width: expect.any(Number),
				},
				mimetype: 'image/png',
				base64: expect.stringMatching(/^iVBORw0KGgo/),
				buffer: null,
			});
		});

		it.each([
			[
				'fetchProfilePictureUrl',
				{ number: alice.number },
				{ wuid: alice.jid, profilePictureUrl: expect.stringContaining('/api/files/') },
			],
			[
				'fetchProfilePictureUrl',
				{ number: bruno.number },
				{ wuid: bruno.jid, profilePictureUrl: null },
			],
			[
				'fetchBusinessProfile',
				{ number: bakery.number },
				expect.objectContaining({ isBusiness: true, email: expect.any(String) }),
			],
			[
				'fetchProfile',
				{ number: connected.ownerNumber },
				expect.objectContaining({
					wuid: connected.ownerJid,
					numberExists: true,
					picture: expect.stringContaining('/api/files/'),
					status: { status: expect.any(String), setAt: expect.any(String) },
					isBusiness: false,
				}),
			],
			[
				'fetchProfile',
				{ number: bakery.number },
				expect.objectContaining({
					wuid: bakery.jid,
					isBusiness: true,
					website: expect.any(String),
				}),
			],
			[
				'updateProfilePicture',
				{ picture: 'https://acme.example.com/logo.png' },
				{ update: 'success' },
			],
		])('%s with %j answers 200', async (route, body, expected) => {
			const response = await chat('POST', route, body);
			expect(response.status).toBe(200);
			expect(response.data).toEqual(expected);
		});

		it('removeProfilePicture (DELETE, no body) answers 200 and the picture is gone', async () => {
			const response = await chat('DELETE', 'removeProfilePicture');
			expect(response.status).toBe(200);
			expect(response.data).toEqual({ update: 'success' });
			const rows = await api().get(`/instance/fetchInstances?instanceName=${connected.name}`);
			expect(rows.data[0].profilePicUrl).toBeNull();
		});

		it.each([
			['no filter', {}, 4],
			['where.remoteJid', { where: { remoteJid: alice.jid } }, 1],
			['where.remoteJid as a number', { where: { remoteJid: bruno.number } }, 1],
			['where.id (allowed by the schema, read by nothing)', { where: { id: alice.jid } }, 4],
		])('findContacts with %s → %i rows', async (_case, body, count) => {
			const response = await chat('POST', 'findContacts', body);
			expect(response.status).toBe(200);
			expect(response.data).toHaveLength(count);
			expect(Object.keys(response.data[0])).toEqual([
				'id',
				'remoteJid',
				'pushName',
				'profilePicUrl',
				'createdAt',
				'updatedAt',
				'instanceId',
				'isGroup',
				'isSaved',
				'type',
			]);
			expect(response.data[0]).toMatchObject({
				remoteJid: expect.stringMatching(/@s\.whatsapp\.net$/),
				instanceId: connected.instanceId,
				isGroup: false,
				type: 'contact',
			});
		});

		it('findMessages searches by key and answers a page of rows', async () => {
			const response = await chat('POST', 'findMessages', {
				where: { key: { id: m.aliceText.shortId } },
			});
			expect(response.status).toBe(200);
			expect(response.data).toEqual({
				messages: {
					total: 1,
					pages: 1,
					currentPage: 1,
					records: [
						{
							id: expect.any(String),
							key: { remoteJid: alice.jid, fromMe: false, id: m.aliceText.shortId },
							pushName: 'Alice',
							messageType: 'conversation',
							message: { conversation: 'Hi! Is order #1042 ready for pickup?' },
							messageTimestamp: expect.any(Number),
							instanceId: connected.instanceId,
							source: 'ios',
							contextInfo: null,
							MessageUpdate: [],
						},
					],
				},
			});
			const all = await chat('POST', 'findMessages', {
				where: { key: { remoteJid: alice.jid } },
				offset: 2,
			});
			expect(all.data.messages).toMatchObject({ total: 3, pages: 2, currentPage: 1 });
			expect(all.data.messages.records).toHaveLength(2);
		});

		it('findChats answers one row per chat with its last message, newest first', async () => {
			const response = await chat('POST', 'findChats', {});
			expect(response.status).toBe(200);
			const remoteJids = response.data.map((row: { remoteJid: string }) => row.remoteJid);
			expect(remoteJids).toEqual(expect.arrayContaining([alice.jid, bruno.jid, hikers.id]));
			const aliceChat = response.data.find(
				(row: { remoteJid: string }) => row.remoteJid === alice.jid,
			);
			expect(aliceChat).toEqual({
				id: expect.any(String),
				remoteJid: alice.jid,
				pushName: expect.any(String),
				profilePicUrl: expect.any(String),
				updatedAt: expect.stringMatching(ISO_DATE),
				windowStart: expect.stringMatching(ISO_DATE),
				windowExpires: expect.stringMatching(ISO_DATE),
				windowActive: false,
				lastMessage: expect.objectContaining({
					key: expect.objectContaining({ remoteJid: alice.jid }),
					sessionId: null,
				}),
				unreadCount: expect.any(Number),
				isSaved: true,
			});
			const one = await chat('POST', 'findChats', { where: { remoteJid: bruno.number } });
			expect(one.data.map((row: { remoteJid: string }) => row.remoteJid)).toEqual([bruno.jid]);
		});

		it('findStatusMessage answers MessageUpdate rows of a message', async () => {
			const response = await chat('POST', 'findStatusMessage', {
				where: { id: m.replyToAlice.shortId },
			});
			expect(response.status).toBe(200);
			expect(response.data.map((row: { status: string }) => row.status)).toEqual([
				'SERVER_ACK',
				'DELIVERY_ACK',
				'READ',
			]);
			expect(response.data[0]).toEqual({
				id: expect.any(String),
				keyId: m.replyToAlice.shortId,
				remoteJid: alice.jid,
				fromMe: true,
				participant: null,
				pollUpdates: null,
				status: 'SERVER_ACK',
				messageId: expect.any(String),
				instanceId: connected.instanceId,
			});
		});

		it.each([
			[
				'updateProfilePicture',
				{ picture: 'not a picture' },
				['Error updating profile picture', '[object Object]'],
			],
			[
				'deleteMessageForEveryone',
				{ id: 'x', remoteJid: alice.jid, fromMe: true },
				['Error while deleting message for everyone', 'Error: Connection Closed'],
			],
		])('%s fails as its service wraps the error (500)', async (route, body, message) => {
			const name = route === 'updateProfilePicture' ? connected.name : pairing.name;
			const method = route === 'deleteMessageForEveryone' ? 'DELETE' : 'POST';
			const response = await chat(method, route, body, name);
			expect(response.status).toBe(500);
			expect(response.data.response.message).toEqual(message);
		});
	});

	describe('groups (/group/*)', () => {
		const team = SEED.groups.team;
		const { bruno, bakery } = SEED.contacts;
		const group = (method: string, url: string, data?: unknown) =>
			api().request({ method, url: `/group/${url}`, data });

		it.each([
			[
				'POST',
				`create/${connected.name}`,
				{ subject: 'Bakers', participants: [bakery.number] },
				201,
				expect.objectContaining({ subject: 'Bakers', size: 2 }),
			],
			[
				'GET',
				`findGroupInfos/${connected.name}?groupJid=${hikers.id}`,
				undefined,
				200,
				expect.objectContaining({
					id: hikers.id,
					subject: hikers.subject,
					isCommunity: false,
					isCommunityAnnounce: false,
				}),
			],
			[
				'GET',
				`fetchAllGroups/${connected.name}?getParticipants=false`,
				undefined,
				200,
				expect.arrayContaining([expect.objectContaining({ id: team.id, isCommunity: false })]),
			],
			[
				'GET',
				`participants/${connected.name}?groupJid=${hikers.id}`,
				undefined,
				200,
				{ participants: expect.any(Array) },
			],
			[
				'POST',
				`updateParticipant/${connected.name}?groupJid=${hikers.id}`,
				{ action: 'add', participants: [bakery.number] },
				201,
				{ updateParticipants: [expect.objectContaining({ status: '200', jid: bakery.jid })] },
			],
			[
				'POST',
				`sendInvite/${connected.name}`,
				{ groupJid: hikers.id, description: 'Join us', numbers: [bruno.number] },
				200,
				{ send: true, inviteUrl: expect.stringContaining(SEED.groups.hikers.inviteCode) },
			],
			[
				'DELETE',
				`leaveGroup/${connected.name}?groupJid=${team.id}`,
				undefined,
				200,
				{ groupJid: team.id, leave: true },
			],
		])('%s /group/%s → %i', async (method, url, body, status, expected) => {
			const response = await group(method, url, body);
			expect(response.status).toBe(status);
			expect(response.data).toEqual(expected);
		});

		it.each([
			[
				'GET',
				`participants/${connected.name}`,
				undefined,
				['The group id needs to be informed in the query', 'ex: "groupJid=120362@g.us"'],
			],
			[
				'GET',
				`fetchAllGroups/${connected.name}`,
				undefined,
				['The getParticipants needs to be informed in the query'],
			],
			[
				'DELETE',
				`leaveGroup/${connected.name}?groupJid=120363000000000000@g.us`,
				undefined,
				['Unable to leave the group', 'Error: item-not-found'],
			],
			[
				'POST',
				`create/${connected.name}`,
				{ subject: 'x', participants: ['123'] },
				[['"participants" must be an array of numeric strings']],
			],
		])('%s /group/%s is refused (400)', async (method, url, body, message) => {
			const response = await group(method, url, body);
			expect(response.status).toBe(400);
			expect(response.data.response.message).toEqual(message);
		});

		it("announces GROUP_PARTICIPANTS_UPDATE with 2.3.6's participantsData", async () => {
			const receiver = await startWebhookReceiver();
			try {
				await api().post(`/webhook/set/${connected.name}`, {
					webhook: { enabled: true, url: receiver.url, events: ['GROUP_PARTICIPANTS_UPDATE'] },
				});
				await group('POST', `updateParticipant/${connected.name}?groupJid=${hikers.id}`, {
					action: 'promote',
					participants: [bruno.number],
				});
				const [delivery] = await sim.waitForDeliveries(1);
				expect(delivery.body.data).toEqual({
					id: hikers.id,
					participants: [bruno.jid],
					action: 'promote',
					participantsData: [
						{ jid: bruno.jid, phoneNumber: bruno.number, name: 'Bruno', imgUrl: null },
					],
				});
			} finally {
				await receiver.stop();
			}
		});
	});

	describe("v1's bodies, refused as 2.3.6's validators and controllers refuse them", () => {
		const requires = (...names: string[]) => [
			names.map((name) => `instance requires property "${name}"`),
		];
		const v1Key = { id: SEED.messages.aliceText.shortId, remoteJid: alice.jid, fromMe: false };

		it.each([
			[
				'POST',
				'message/sendText',
				{ number: alice.number, textMessage: { text: 'Hi' } },
				400,
				requires('text'),
			],
			[
				'POST',
				'message/sendMedia',
				{
					number: alice.number,
					mediaMessage: { mediatype: 'image', media: 'https://acme.example.com/a.png' },
				},
				400,
				requires('mediatype'),
			],
			[
				'POST',
				'message/sendLocation',
				{ number: alice.number, locationMessage: { latitude: -23.5, longitude: -46.6 } },
				400,
				requires('latitude', 'longitude', 'name', 'address'),
			],
			[
				'POST',
				'message/sendContact',
				{
					number: alice.number,
					contactMessage: [{ fullName: 'Bruno', phoneNumber: '5511987650002' }],
				},
				400,
				requires('contact'),
			],
			[
				'POST',
				'message/sendList',
				{ number: alice.number, listMessage: { title: 'Menu', buttonText: 'Open', sections: [] } },
				400,
				requires('title', 'footerText', 'buttonText', 'sections'),
			],
			['POST', 'chat/markMessageAsRead', { read_messages: [v1Key] }, 400, requires('readMessages')],
			[
				'POST',
				'webhook/set',
				{ url: 'http://127.0.0.1:9/hooks', enabled: true, events: [] },
				400,
				requires('webhook'),
			],
			['POST', 'instance/setPresence', {}, 400, requires('presence')],
			// The schema takes these (nothing required but number); the controllers refuse them.
			[
				'POST',
				'message/sendWhatsAppAudio',
				{
					number: alice.number,
					options: { encoding: true },
					audioMessage: { audio: 'https://acme.example.com/a.mp3' },
				},
				400,
				['Owned media must be a url, base64, or valid file with buffer'],
			],
			[
				'POST',
				'message/sendSticker',
				{ number: alice.number, stickerMessage: { image: 'https://acme.example.com/s.png' } },
				400,
				['Owned media must be a url or base64'],
			],
		])('%s /%s with %j → %i', async (method, route, body, status, message) => {
			const response = await api().request({
				method,
				url: `/${route}/${connected.name}`,
				data: body,
			});
			expect(response.status).toBe(status);
			expect(response.data).toEqual({ status, error: 'Bad Request', response: { message } });
		});
	});

	describe('webhook configuration', () => {
		const url = 'http://127.0.0.1:9/hooks';

		it('find answers null before any set', async () => {
			const response = await api().get(`/webhook/find/${connected.name}`);
			expect(response.status).toBe(200);
			expect(response.data).toBeNull();
		});

		it('set takes the wrapped body with headers and answers the stored row, as find does', async () => {
			const set = await api().post(`/webhook/set/${connected.name}`, {
				webhook: {
					enabled: true,
					url,
					events: ['MESSAGES_UPSERT', 'SEND_MESSAGE'],
					byEvents: true,
					base64: false,
					headers: { authorization: 'Bearer n8n', 'x-team': 'sales' },
				},
			});
			expect(set.status).toBe(201);
			expect(set.data).toEqual({
				id: expect.any(String),
				url,
				headers: { authorization: 'Bearer n8n', 'x-team': 'sales' },
				enabled: true,
				events: ['MESSAGES_UPSERT', 'SEND_MESSAGE'],
				webhookByEvents: true,
				webhookBase64: false,
				createdAt: expect.stringMatching(ISO_DATE),
				updatedAt: expect.stringMatching(ISO_DATE),
				instanceId: connected.instanceId,
			});
			const found = await api().get(`/webhook/find/${connected.name}`);
			expect(found.data).toEqual(set.data);
			expect(sim.getWebhook(connected.name)).toEqual({
				enabled: true,
				url,
				events: ['MESSAGES_UPSERT', 'SEND_MESSAGE'],
				webhook_by_events: true,
				webhook_base64: false,
				headers: { authorization: 'Bearer n8n', 'x-team': 'sales' },
			});
		});

		it.each([
			[
				'an empty event list means every event',
				{ enabled: true, url, events: [] },
				{ enabled: true, eventCount: 31 },
			],
			[
				'disabled keeps the url and clears the events',
				{ enabled: false, url, events: ['CALL'] },
				{ enabled: false, eventCount: 0 },
			],
		])('set: %s', async (_case, webhook, expected) => {
			const response = await api().post(`/webhook/set/${connected.name}`, { webhook });
			expect(response.status).toBe(201);
			expect(response.data).toMatchObject({ enabled: expected.enabled, url, headers: null });
			expect(response.data.events).toHaveLength(expected.eventCount);
		});

		it('set keeps what a later body leaves out (byEvents, base64, headers), as its upsert does', async () => {
			await api().post(`/webhook/set/${connected.name}`, {
				webhook: { enabled: true, url, events: ['CALL'], byEvents: true, headers: { 'x-a': '1' } },
			});
			const second = await api().post(`/webhook/set/${connected.name}`, {
				webhook: { enabled: true, url, events: ['MESSAGES_UPSERT'] },
			});
			expect(second.data).toMatchObject({
				events: ['MESSAGES_UPSERT'],
				webhookByEvents: true,
				webhookBase64: false,
				headers: { 'x-a': '1' },
			});
		});
	});

	describe('webhook deliveries (v2 envelope, configured headers)', () => {
		const receiver = useWebhookReceiver();

		async function subscribe(webhook: Record<string, unknown>) {
			const response = await api().post(`/webhook/set/${connected.name}`, {
				webhook: { enabled: true, url: receiver.url, ...webhook },
			});
			expect(response.status).toBe(201);
		}

		it('delivers an inbound message with the headers and the v2 envelope', async () => {
			await subscribe({ events: ['MESSAGES_UPSERT'], headers: { 'x-team': 'sales' } });
			const injected = await sim.injectInboundMessage({ from: alice.number, text: 'Ready?' });
			const [delivery] = await sim.waitForDeliveries(1);
			expect(delivery.status).toBe(200);
			expect(delivery.body).toEqual({
				event: 'messages.upsert',
				instance: connected.name,
				data: {
					key: { remoteJid: alice.jid, fromMe: false, id: injected.shortId },
					pushName: 'Alice',
					status: 'DELIVERY_ACK',
					message: { conversation: 'Ready?' },
					messageType: 'conversation',
					messageTimestamp: injected.timestamp,
					instanceId: connected.instanceId,
					source: 'unknown',
				},
				destination: receiver.url,
				date_time: expect.stringMatching(ISO_DATE),
				sender: connected.ownerJid,
				server_url: sim.url,
				apikey: connected.token,
			});
			expect(delivery.body.data).toEqual(injected.evolution);
			expect(receiver.received[0].headers['x-team']).toBe('sales');
		});

		it('announces an API send with SEND_MESSAGE only (2.3.6 runs Baileys without its own events)', async () => {
			await subscribe({ events: [] });
			const sent = await api().post(`/message/sendText/${connected.name}`, {
				number: alice.number,
				text: 'Shipped',
			});
			const [delivery] = await sim.waitForDeliveries(1);
			await sleep(100);
			expect(sim.deliveries.map((each) => each.event)).toEqual(['send.message']);
			expect(delivery.body.data).toEqual(sent.data);
		});

		it('signs a jwt_key header into Authorization: Bearer <HS256 token>', async () => {
			await subscribe({ events: ['MESSAGES_UPSERT'], headers: { jwt_key: 'n8n-secret' } });
			await sim.injectInboundMessage({ from: alice.number, text: 'Signed?' });
			await sim.waitForDeliveries(1);
			const headers = receiver.received[0].headers;
			expect(headers.jwt_key).toBeUndefined();
			const [header, payload, signature] = String(headers.authorization)
				.replace(/^Bearer /, '')
				.split('.');
			const expected = createHmac('sha256', 'n8n-secret')
				.update(`${header}.${payload}`)
				.digest('base64url');
			expect(signature).toBe(expected);
			expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toMatchObject({
				app: 'evolution',
				action: 'webhook',
			});
		});

		it('appends /<kebab-event> with byEvents and adds base64 to media with base64', async () => {
			await subscribe({ events: ['MESSAGES_UPSERT'], byEvents: true, base64: true });
			await sim.injectInboundMessage({ from: alice.number, media: { caption: 'Receipt' } });
			const [delivery] = await sim.waitForDeliveries(1);
			expect(delivery.url).toBe(`${receiver.url}/messages-upsert`);
			expect(delivery.body.destination).toBe(receiver.url);
			expect(delivery.body.data.messageType).toBe('imageMessage');
			expect(delivery.body.data.message.base64).toEqual(expect.any(String));
		});

		it('announces a connection change in v2 words: open names the account, close is a logout', async () => {
			await subscribe({ events: ['CONNECTION_UPDATE'] });
			sim.setInstanceState(pairing.name, 'open');
			sim.setInstanceState(connected.name, 'close');
			sim.setInstanceState(connected.name, 'open');
			const deliveries = await sim.waitForDeliveries(2);
			expect(deliveries.map((delivery) => delivery.body.data)).toEqual([
				{ instance: connected.name, state: 'close', statusReason: 401 },
				{
					instance: connected.name,
					wuid: connected.ownerJid,
					profileName: connected.profileName,
					profilePictureUrl: expect.stringContaining('/api/files/'),
					state: 'open',
					statusReason: 200,
				},
			]);
		});
	});
});
