import { SEED } from './index.cts';
import { gatewayClient, useSimulator } from './testing.cts';

const connected = SEED.instances.connected;
const pairing = SEED.instances.pairing;
const { alice, bruno, bakery } = SEED.contacts;
const messages = SEED.messages;
const hikers = SEED.groups.hikers;
const SHORT_ID = /^3EB0[0-9A-F]{16}$/;
const CONNECTION_CLOSED = {
	status: 500,
	error: 'Internal Server Error',
	response: { message: 'Connection Closed' },
};

describe('instance family (Evolution v1): messages and chats', () => {
	const sim = useSimulator();

	describe('POST /message/sendText/{instance}', () => {
		it('sends to a normalised number and answers 201 with the pending message', async () => {
			const response = await gatewayClient(sim).post(`/message/sendText/${connected.name}`, {
				number: '+55 (11) 98765-0001',
				options: { delay: 10, presence: 'composing', linkPreview: false },
				textMessage: { text: 'Your order is ready' },
			});
			expect(response.status).toBe(201);
			expect(response.data).toEqual({
				key: { remoteJid: alice.jid, fromMe: true, id: expect.stringMatching(SHORT_ID) },
				message: { extendedTextMessage: { text: 'Your order is ready' } },
				messageTimestamp: expect.stringMatching(/^\d{10}$/),
				status: 'PENDING',
			});
			// The same message is found through the session family by its full id.
			const fullId = `true_${alice.chatId}_${response.data.key.id}`;
			const stored = await gatewayClient(sim).get(
				`/api/${connected.name}/chats/${alice.chatId}/messages/${fullId}`,
			);
			expect(stored.status).toBe(200);
			expect(stored.data).toMatchObject({
				id: fullId,
				body: 'Your order is ready',
				fromMe: true,
				source: 'api',
			});
		});

		it('accepts a @c.us or @s.messenger.net number and a group id', async () => {
			for (const number of [bruno.chatId, bruno.jid, hikers.id]) {
				const response = await gatewayClient(sim).post(`/message/sendText/${connected.name}`, {
					number,
					textMessage: { text: 'Hello' },
				});
				expect(response.status).toBe(201);
				expect(response.data.key.remoteJid).toBe(number === hikers.id ? hikers.id : bruno.jid);
			}
		});

		it('quotes a stored message and mentions numbers', async () => {
			const response = await gatewayClient(sim).post(`/message/sendText/${connected.name}`, {
				number: hikers.id,
				options: {
					quoted: { key: { id: messages.hikersQuestion.shortId } },
					mentions: { mentioned: [SEED.contacts.carla.number] },
				},
				textMessage: { text: 'I will, @Carla' },
			});
			expect(response.status).toBe(201);
			expect(response.data.message.extendedTextMessage).toEqual({
				text: 'I will, @Carla',
				contextInfo: {
					stanzaId: messages.hikersQuestion.shortId,
					participant: SEED.contacts.carla.jid,
					quotedMessage: { conversation: 'Who is bringing the map on Saturday?' },
					mentionedJid: [SEED.contacts.carla.jid],
				},
			});
		});

		it('waits options.delay milliseconds and mentions every group member with everyOne', async () => {
			const started = Date.now();
			const response = await gatewayClient(sim).post(`/message/sendText/${connected.name}`, {
				number: hikers.id,
				options: { delay: 250, mentions: { everyOne: true } },
				textMessage: { text: 'Meeting point changed!' },
			});
			expect(Date.now() - started).toBeGreaterThanOrEqual(240);
			expect(response.status).toBe(201);
			expect(response.data.key).toEqual({
				remoteJid: hikers.id,
				fromMe: true,
				id: expect.stringMatching(SHORT_ID),
				participant: connected.ownerJid,
			});
			expect(response.data.message.extendedTextMessage.contextInfo.mentionedJid).toEqual([
				connected.ownerJid,
				alice.jid,
				bruno.jid,
				SEED.contacts.carla.jid,
			]);
		});

		it('answers 400 [{exists:false}] for a number that is not registered', async () => {
			const response = await gatewayClient(sim).post(`/message/sendText/${connected.name}`, {
				number: SEED.unregisteredNumber,
				textMessage: { text: 'Hello?' },
			});
			expect(response.status).toBe(400);
			expect(response.data).toEqual({
				status: 400,
				error: 'Bad Request',
				response: {
					message: [
						{
							exists: false,
							jid: `${SEED.unregisteredNumber}@s.messenger.net`,
							number: SEED.unregisteredNumber,
						},
					],
				},
			});
		});

		it('answers 400 "Group not found" for a group the instance is not in', async () => {
			const response = await gatewayClient(sim).post(`/message/sendText/${connected.name}`, {
				number: '120363000000000000@g.us',
				textMessage: { text: 'Hi' },
			});
			expect(response.status).toBe(400);
			expect(response.data.response.message).toEqual(['Group not found']);
		});

		it('reports schema violations the way Evolution does', async () => {
			const empty = await gatewayClient(sim).post(`/message/sendText/${connected.name}`, {});
			expect(empty.status).toBe(400);
			expect(empty.data.response.message).toEqual([
				['instance requires property "textMessage"', 'instance requires property "number"'],
			]);
			const wrongTypes = await gatewayClient(sim).post(`/message/sendText/${connected.name}`, {
				number: 5511987650001,
				options: { delay: 'soon' },
				textMessage: { text: '' },
			});
			expect(wrongTypes.data.response.message).toEqual([
				[
					'Invalid format',
					'options.delay is not of a type(s) integer',
					'The "text" cannot be empty',
				],
			]);
		});

		it('fails with "Connection Closed" on an instance that is not connected', async () => {
			const response = await gatewayClient(sim).post(`/message/sendText/${pairing.name}`, {
				number: alice.number,
				textMessage: { text: 'Hi' },
			});
			expect(response.status).toBe(500);
			expect(response.data).toEqual(CONNECTION_CLOSED);
		});
	});

	describe('POST /message/sendLocation/{instance}', () => {
		it('answers 201 with a locationMessage', async () => {
			const response = await gatewayClient(sim).post(`/message/sendLocation/${connected.name}`, {
				number: bruno.number,
				options: { delay: 0 },
				locationMessage: {
					name: 'Store',
					address: 'Rua Augusta 1500',
					latitude: -23.5558,
					longitude: -46.6621,
				},
			});
			expect(response.status).toBe(201);
			expect(response.data).toEqual({
				key: { remoteJid: bruno.jid, fromMe: true, id: expect.stringMatching(SHORT_ID) },
				message: {
					locationMessage: {
						degreesLatitude: -23.5558,
						degreesLongitude: -46.6621,
						name: 'Store',
						address: 'Rua Augusta 1500',
						contextInfo: {},
					},
				},
				messageTimestamp: expect.any(String),
				status: 'PENDING',
			});
		});

		it('answers 400 when latitude or longitude is missing', async () => {
			const response = await gatewayClient(sim).post(`/message/sendLocation/${connected.name}`, {
				number: bruno.number,
				locationMessage: { latitude: '-23.5' },
			});
			expect(response.status).toBe(400);
			expect(response.data.response.message).toEqual([
				[
					'locationMessage.latitude is not of a type(s) number',
					'locationMessage requires property "longitude"',
				],
			]);
		});
	});

	describe('POST /chat/findStatusMessage/{instance}', () => {
		it('returns status records newest first, filtered and limited', async () => {
			const response = await gatewayClient(sim).post(`/chat/findStatusMessage/${connected.name}`, {
				where: { id: messages.replyToAlice.shortId, remoteJid: alice.chatId, fromMe: true },
				limit: 2,
			});
			expect(response.status).toBe(200);
			expect(response.data).toEqual([
				{
					_id: expect.stringMatching(/^[0-9a-f]{24}$/),
					remoteJid: alice.jid,
					id: messages.replyToAlice.shortId,
					fromMe: true,
					participant: null,
					status: 'READ',
					datetime: expect.any(Number),
					owner: connected.name,
				},
				expect.objectContaining({ status: 'DELIVERY_ACK' }),
			]);
		});

		it('records SERVER_ACK for an API send and returns [] when nothing matches', async () => {
			const sent = await gatewayClient(sim).post(`/message/sendText/${connected.name}`, {
				number: alice.number,
				textMessage: { text: 'ping' },
			});
			const found = await gatewayClient(sim).post(`/chat/findStatusMessage/${connected.name}`, {
				where: { id: sent.data.key.id },
			});
			expect(found.data).toEqual([
				expect.objectContaining({ id: sent.data.key.id, status: 'SERVER_ACK' }),
			]);
			const none = await gatewayClient(sim).post(`/chat/findStatusMessage/${connected.name}`, {
				where: { id: 'NOPE' },
			});
			expect(none.status).toBe(200);
			expect(none.data).toEqual([]);
		});

		it('answers 400 for an unknown status', async () => {
			const response = await gatewayClient(sim).post(`/chat/findStatusMessage/${connected.name}`, {
				where: { status: 'LOST' },
			});
			expect(response.status).toBe(400);
			expect(response.data.response.message).toEqual([
				[
					'where.status is not one of enum values: ERROR,PENDING,SERVER_ACK,DELIVERY_ACK,READ,PLAYED',
				],
			]);
		});
	});

	describe('POST /chat/getBase64FromMediaMessage/{instance}', () => {
		it('returns the media of an image message by short id (201)', async () => {
			const response = await gatewayClient(sim).post(
				`/chat/getBase64FromMediaMessage/${connected.name}`,
				{
					message: { key: { id: messages.aliceImage.shortId } },
					convertToMp4: false,
				},
			);
			expect(response.status).toBe(201);
			expect(response.data).toEqual({
				mediaType: 'imageMessage',
				fileName: null,
				caption: 'The trail map',
				size: { fileLength: expect.stringMatching(/^\d+$/), height: 32, width: 48 },
				mimetype: 'image/png',
				base64: expect.stringMatching(/^iVBORw0KGgo/),
			});
			const file = await gatewayClient(sim).get(
				`/api/files/${connected.name}/${messages.aliceImage.shortId}.png`,
				{
					responseType: 'arraybuffer',
				},
			);
			expect(Buffer.from(file.data).toString('base64')).toBe(response.data.base64);
		});

		it('returns a document with its file name', async () => {
			const response = await gatewayClient(sim).post(
				`/chat/getBase64FromMediaMessage/${connected.name}`,
				{
					message: { key: { id: messages.bakeryDocument.shortId } },
				},
			);
			expect(response.data).toMatchObject({
				mediaType: 'documentMessage',
				fileName: 'invoice-1042.pdf',
				mimetype: 'application/pdf',
			});
			expect(Buffer.from(response.data.base64, 'base64').toString('latin1')).toMatch(/^%PDF-1\.4/);
		});

		it('answers 400 for an unknown message, a text message, or a missing message', async () => {
			const unknown = await gatewayClient(sim).post(
				`/chat/getBase64FromMediaMessage/${connected.name}`,
				{
					message: { key: { id: 'NOPE' } },
				},
			);
			expect(unknown.status).toBe(400);
			expect(unknown.data.response.message).toEqual(['Message not found']);
			const text = await gatewayClient(sim).post(
				`/chat/getBase64FromMediaMessage/${connected.name}`,
				{
					message: { key: { id: messages.aliceText.shortId } },
				},
			);
			expect(text.data.response.message).toEqual(['The message is not of the media type']);
			const missing = await gatewayClient(sim).post(
				`/chat/getBase64FromMediaMessage/${connected.name}`,
				{},
			);
			expect(missing.data.response.message).toEqual([['instance requires property "message"']]);
		});
	});

	describe('POST /chat/fetchProfilePictureUrl/{instance}', () => {
		it('returns the picture URL, or null when there is none', async () => {
			const withPicture = await gatewayClient(sim).post(
				`/chat/fetchProfilePictureUrl/${connected.name}`,
				{ number: alice.number },
			);
			expect(withPicture.status).toBe(200);
			expect(withPicture.data).toEqual({
				wuid: alice.jid,
				profilePictureUrl: `${sim.url}/api/files/${connected.name}/avatar-${alice.number}.png`,
			});
			const without = await gatewayClient(sim).post(
				`/chat/fetchProfilePictureUrl/${connected.name}`,
				{ number: bruno.chatId },
			);
			expect(without.data).toEqual({ wuid: bruno.jid, profilePictureUrl: null });
		});

		it('answers 400 without a number', async () => {
			const response = await gatewayClient(sim).post(
				`/chat/fetchProfilePictureUrl/${connected.name}`,
				{},
			);
			expect(response.data.response.message).toEqual([['instance requires property "number"']]);
		});
	});

	describe('POST /chat/fetchBusinessProfile/{instance}', () => {
		it('returns the business profile of a business account', async () => {
			const response = await gatewayClient(sim).post(
				`/chat/fetchBusinessProfile/${connected.name}`,
				{ number: bakery.number },
			);
			expect(response.status).toBe(200);
			expect(response.data).toMatchObject({
				isBusiness: true,
				wid: bakery.jid,
				description: expect.any(String),
				website: ['https://padaria-aurora.example.com'],
				email: 'orders@padaria-aurora.example.com',
				category: 'Bakery',
				business_hours: { timezone: 'America/Sao_Paulo' },
			});
		});

		it("falls back to the account's own number", async () => {
			const response = await gatewayClient(sim).post(
				`/chat/fetchBusinessProfile/${connected.name}`,
				{},
			);
			expect(response.status).toBe(200);
			expect(response.data).toEqual({
				isBusiness: false,
				message: 'Not is business profile',
				exists: true,
				jid: connected.ownerJid,
				number: connected.ownerNumber,
			});
		});

		it('explains when the account is not a business', async () => {
			const response = await gatewayClient(sim).post(
				`/chat/fetchBusinessProfile/${connected.name}`,
				{ number: alice.number },
			);
			expect(response.status).toBe(200);
			expect(response.data).toEqual({
				isBusiness: false,
				message: 'Not is business profile',
				exists: true,
				jid: alice.jid,
				number: alice.number,
				name: 'Alice Martins',
			});
		});
	});
});
