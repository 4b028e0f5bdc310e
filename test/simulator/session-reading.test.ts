import { SEED } from './index.cts';
import { gatewayClient, messagePath, useSimulator } from './testing.cts';

const connected = SEED.instances.connected;
const { alice, bruno, bakery, carla } = SEED.contacts;
const messages = SEED.messages;
const hikers = SEED.groups.hikers;

describe('session family: messages, chats and contacts', () => {
	const sim = useSimulator();

	describe('GET /api/{session}/chats/{chatId}/messages/{messageId}', () => {
		it('returns a text message in WAHA shape', async () => {
			const response = await gatewayClient(sim).get(
				messagePath(connected.name, alice.chatId, messages.aliceText.id),
			);
			expect(response.status).toBe(200);
			expect(response.data).toEqual({
				id: messages.aliceText.id,
				timestamp: 1767261600,
				from: alice.chatId,
				fromMe: false,
				source: 'app',
				to: connected.ownerChatId,
				participant: null,
				body: 'Hi! Is order #1042 ready for pickup?',
				hasMedia: false,
				ack: 1,
				ackName: 'SERVER',
				_data: {
					key: { remoteJid: alice.jid, fromMe: false, id: messages.aliceText.shortId },
					message: { conversation: 'Hi! Is order #1042 ready for pickup?' },
					messageTimestamp: 1767261600,
					pushName: 'Alice',
				},
			});
		});

		it('returns a reply with replyTo, and accepts an unencoded @ in the path', async () => {
			const response = await gatewayClient(sim).get(
				`/api/${connected.name}/chats/${alice.chatId}/messages/${messages.replyToAlice.id}`,
			);
			expect(response.status).toBe(200);
			expect(response.data).toMatchObject({
				id: messages.replyToAlice.id,
				fromMe: true,
				source: 'api',
				from: connected.ownerChatId,
				to: alice.chatId,
				ack: 3,
				ackName: 'READ',
				replyTo: {
					id: messages.aliceText.shortId,
					participant: alice.chatId,
					body: 'Hi! Is order #1042 ready for pickup?',
				},
			});
		});

		it('returns media with a downloadable URL, or media null without download', async () => {
			const withMedia = await gatewayClient(sim).get(
				messagePath(connected.name, alice.chatId, messages.aliceImage.id),
			);
			expect(withMedia.status).toBe(200);
			expect(withMedia.data).toMatchObject({
				hasMedia: true,
				body: 'The trail map',
				media: {
					url: `${sim.url}/api/files/${connected.name}/${messages.aliceImage.shortId}.png`,
					mimetype: 'image/png',
					filename: 'trail-map.png',
					error: null,
				},
			});
			const file = await gatewayClient(sim).get(withMedia.data.media.url, {
				responseType: 'arraybuffer',
			});
			expect(file.status).toBe(200);
			expect(file.headers['content-type']).toBe('image/png');

			const withoutMedia = await gatewayClient(sim).get(
				messagePath(connected.name, alice.chatId, messages.aliceImage.id),
				{
					params: { downloadMedia: false },
				},
			);
			expect(withoutMedia.status).toBe(200);
			expect(withoutMedia.data.hasMedia).toBe(true);
			expect(withoutMedia.data.media).toBeNull();
		});

		it('returns location, vCard, document and group messages', async () => {
			const location = await gatewayClient(sim).get(
				messagePath(connected.name, bruno.chatId, messages.brunoLocation.id),
			);
			expect(location.data.location).toEqual({
				latitude: '-23.5874',
				longitude: '-46.6576',
				live: false,
				name: 'Ibirapuera Park, Gate 3',
				address: 'Av. Pedro Alvares Cabral, Sao Paulo',
				description: 'Ibirapuera Park, Gate 3\nAv. Pedro Alvares Cabral, Sao Paulo',
			});
			const vcard = await gatewayClient(sim).get(
				messagePath(connected.name, bruno.chatId, messages.brunoVcard.id),
			);
			expect(vcard.data.vCards).toEqual([expect.stringContaining('FN:Diego Ramos')]);
			const document = await gatewayClient(sim).get(
				messagePath(connected.name, bakery.chatId, messages.bakeryDocument.id),
			);
			expect(document.data.media).toMatchObject({
				mimetype: 'application/pdf',
				filename: 'invoice-1042.pdf',
			});
			const group = await gatewayClient(sim).get(
				messagePath(connected.name, hikers.id, messages.hikersQuestion.id),
			);
			expect(group.data).toMatchObject({
				from: hikers.id,
				participant: carla.chatId,
				author: carla.chatId,
			});
		});

		it('answers 404 for an unknown message or a message of another chat', async () => {
			for (const path of [
				messagePath(connected.name, alice.chatId, `false_${alice.chatId}_3A0000000000000000000`),
				messagePath(connected.name, bruno.chatId, messages.aliceText.id),
			]) {
				const response = await gatewayClient(sim).get(path);
				expect(response.status).toBe(404);
				expect(response.data).toEqual({
					statusCode: 404,
					message: 'Message not found',
					error: 'Not Found',
				});
			}
		});

		it("accepts WAHA's group message id with a trailing participant", async () => {
			const id = `${messages.hikersQuestion.id}_${carla.chatId}`;
			const response = await gatewayClient(sim).get(messagePath(connected.name, hikers.id, id));
			expect(response.status).toBe(200);
			expect(response.data.id).toBe(messages.hikersQuestion.id);
		});

		it('answers 400 for a malformed downloadMedia flag', async () => {
			const response = await gatewayClient(sim).get(
				messagePath(connected.name, alice.chatId, messages.aliceText.id),
				{
					params: { downloadMedia: 'maybe' },
				},
			);
			expect(response.status).toBe(400);
			expect(response.data.message).toEqual(['downloadMedia must be a boolean value']);
		});
	});

	describe('GET /api/{session}/chats/overview', () => {
		it('lists chats by latest message with the default limit', async () => {
			const response = await gatewayClient(sim).get(`/api/${connected.name}/chats/overview`);
			expect(response.status).toBe(200);
			expect(response.data.map((chat: { id: string }) => chat.id)).toEqual([
				hikers.id,
				bruno.chatId,
				bakery.chatId,
				alice.chatId,
				SEED.groups.team.id,
			]);
			expect(response.data[3]).toMatchObject({
				id: alice.chatId,
				name: 'Alice Martins',
				picture: `${sim.url}/api/files/${connected.name}/avatar-${alice.number}.png`,
				lastMessage: { id: messages.aliceImage.id, media: null },
				_chat: { id: alice.chatId, unreadCount: 2, isGroup: false },
			});
			expect(response.data[4]).toMatchObject({
				name: 'Acme Team',
				picture: null,
				lastMessage: null,
			});
		});

		it('filters by repeated ids and applies limit and offset', async () => {
			const filtered = await gatewayClient(sim).get(
				`/api/${connected.name}/chats/overview?ids=${alice.chatId}&ids=${bruno.chatId}`,
			);
			expect(filtered.data.map((chat: { id: string }) => chat.id)).toEqual([
				bruno.chatId,
				alice.chatId,
			]);
			const paged = await gatewayClient(sim).get(`/api/${connected.name}/chats/overview`, {
				params: { limit: 2, offset: 1 },
			});
			expect(paged.data.map((chat: { id: string }) => chat.id)).toEqual([
				bruno.chatId,
				bakery.chatId,
			]);
			const invalid = await gatewayClient(sim).get(`/api/${connected.name}/chats/overview`, {
				params: { limit: 0 },
			});
			expect(invalid.status).toBe(400);
			expect(invalid.data.message).toEqual(['limit must not be less than 1']);
		});
	});

	describe('GET /api/contacts', () => {
		it('lists contacts with jid, name, notify, verifiedName and businessName', async () => {
			const response = await gatewayClient(sim).get('/api/contacts', {
				params: { sessionId: connected.name },
			});
			expect(response.status).toBe(200);
			expect(response.data.contacts).toHaveLength(4);
			expect(response.data.contacts[0]).toEqual({
				jid: alice.jid,
				name: 'Alice Martins',
				notify: 'Alice',
				verifiedName: 'Alice Martins',
				businessName: '',
			});
			expect(response.data.contacts[2]).toEqual({
				jid: bakery.jid,
				name: 'Padaria Aurora',
				notify: 'Padaria Aurora',
				verifiedName: 'Padaria Aurora',
				businessName: 'Padaria Aurora Ltda',
			});
		});

		it('filters by jid (or contactId), pages with limit and offset', async () => {
			const byJid = await gatewayClient(sim).get('/api/contacts', {
				params: { sessionId: connected.name, jid: bruno.jid },
			});
			expect(byJid.data.contacts.map((contact: { jid: string }) => contact.jid)).toEqual([
				bruno.jid,
			]);
			const byContactId = await gatewayClient(sim).get('/api/contacts', {
				params: { sessionId: connected.name, contactId: bruno.chatId },
			});
			expect(byContactId.data.contacts).toHaveLength(1);
			const paged = await gatewayClient(sim).get('/api/contacts', {
				params: { sessionId: connected.name, limit: 1, offset: 3 },
			});
			expect(paged.data.contacts.map((contact: { jid: string }) => contact.jid)).toEqual([
				carla.jid,
			]);
		});

		it('answers 400 without sessionId and 404 for an unknown session', async () => {
			const missing = await gatewayClient(sim).get('/api/contacts');
			expect(missing.status).toBe(400);
			expect(missing.data).toEqual({
				statusCode: 400,
				message: ['sessionId should not be empty'],
				error: 'Bad Request',
			});
			const unknown = await gatewayClient(sim).get('/api/contacts', {
				params: { sessionId: 'ghost' },
			});
			expect(unknown.status).toBe(404);
		});
	});
});
