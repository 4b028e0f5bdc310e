import { SEED } from './index.cts';
import { gatewayClient, messagePath, useSimulator } from './testing.cts';

const connected = SEED.instances.connected;
const pairing = SEED.instances.pairing;
const { alice, bruno } = SEED.contacts;
const messages = SEED.messages;
const hikers = SEED.groups.hikers;
const FULL_ID = /^true_\d+@(c\.us|g\.us)_3EB0[0-9A-F]{16}$/;

describe('session family: buttons, link previews, polls, reactions', () => {
	const sim = useSimulator();

	describe('POST /api/sendButtons', () => {
		const buttons = [
			{ type: 'reply', text: 'Yes' },
			{ type: 'call', text: 'Call us', phoneNumber: '+5511987650000' },
			{ type: 'copy', text: 'Copy code', copyCode: 'SAVE10' },
			{ type: 'url', text: 'Open shop', url: 'https://shop.example.com' },
		];

		it('sends buttons and stores the message', async () => {
			const response = await gatewayClient(sim).post('/api/sendButtons', {
				session: connected.name,
				chatId: alice.chatId,
				header: 'Order #1042',
				body: 'Ready for pickup?',
				footer: 'Acme Sales',
				buttons,
				headerImage: {
					mimetype: 'image/png',
					url: 'https://example.com/header.png',
					filename: 'header.png',
				},
			});
			expect(response.status).toBe(201);
			expect(response.data).toEqual({ success: true, messageId: expect.stringMatching(FULL_ID) });
			const stored = await gatewayClient(sim).get(
				messagePath(connected.name, alice.chatId, response.data.messageId),
			);
			expect(stored.status).toBe(200);
			expect(stored.data).toMatchObject({
				fromMe: true,
				source: 'api',
				body: 'Ready for pickup?',
				ack: 1,
			});
		});

		it('validates required fields and the extra field of each button type', async () => {
			const response = await gatewayClient(sim).post('/api/sendButtons', {
				session: connected.name,
				chatId: alice.chatId,
				body: 'Pick one',
				buttons: [
					{ type: 'call', text: 'Call' },
					{ type: 'fax', text: 'Fax' },
				],
			});
			expect(response.status).toBe(400);
			expect(response.data.message).toEqual([
				'header should not be empty',
				'footer should not be empty',
				'buttons.0.phoneNumber should not be empty',
				'buttons.1.type must be one of the following values: reply, call, copy, url',
			]);
		});
	});

	describe('POST /api/send/link-custom-preview', () => {
		it('sends with shape A (chatId + session)', async () => {
			const response = await gatewayClient(sim).post('/api/send/link-custom-preview', {
				session: connected.name,
				chatId: alice.chatId,
				text: 'Our new menu: https://acme.example.com/menu',
				preview: {
					url: 'https://acme.example.com/menu',
					title: 'Menu',
					image: { url: 'https://acme.example.com/menu.jpg' },
				},
				linkPreviewHighQuality: true,
				reply_to: messages.aliceText.id,
			});
			expect(response.status).toBe(201);
			expect(response.data).toEqual({ success: true, messageId: expect.stringMatching(FULL_ID) });
			const stored = sim.findMessage(connected.name, response.data.messageId);
			expect(stored?.waha).toMatchObject({
				body: 'Our new menu: https://acme.example.com/menu',
				replyTo: { id: messages.aliceText.shortId },
			});
		});

		it('sends with shape B (jid + sessionId) and requires title and description there', async () => {
			const ok = await gatewayClient(sim).post('/api/send/link-custom-preview', {
				sessionId: connected.name,
				jid: alice.jid,
				text: 'See https://acme.example.com',
				preview: { url: 'https://acme.example.com', title: 'Acme', description: 'Home page' },
			});
			expect(ok.status).toBe(201);
			expect(ok.data.messageId).toMatch(new RegExp(`^true_${alice.chatId}_`));
			const incomplete = await gatewayClient(sim).post('/api/send/link-custom-preview', {
				sessionId: connected.name,
				jid: alice.jid,
				text: 'See https://acme.example.com',
				preview: { url: 'https://acme.example.com' },
			});
			expect(incomplete.status).toBe(400);
			expect(incomplete.data.message).toEqual([
				'preview.title should not be empty',
				'preview.description should not be empty',
			]);
		});

		it('answers 400 when the text does not contain preview.url', async () => {
			const response = await gatewayClient(sim).post('/api/send/link-custom-preview', {
				session: connected.name,
				chatId: alice.chatId,
				text: 'No link here',
				preview: { url: 'https://acme.example.com' },
			});
			expect(response.status).toBe(400);
			expect(response.data).toEqual({
				statusCode: 400,
				message: ['text must include the URL given in preview.url'],
				error: 'Bad Request',
			});
		});

		it('answers 404 for an unknown session and 400 for a malformed chat id', async () => {
			const body = { text: 'x https://a.example', preview: { url: 'https://a.example' } };
			const unknown = await gatewayClient(sim).post('/api/send/link-custom-preview', {
				...body,
				session: 'ghost',
				chatId: alice.chatId,
			});
			expect(unknown.status).toBe(404);
			const malformed = await gatewayClient(sim).post('/api/send/link-custom-preview', {
				...body,
				session: connected.name,
				chatId: 'alice',
			});
			expect(malformed.status).toBe(400);
			expect(malformed.data.message).toEqual([
				'chatId must be a chat ID such as 5511999999999@c.us, 5511999999999@s.messenger.net or 120363000000000000@g.us',
			]);
		});
	});

	describe('POST /api/sendPoll', () => {
		it('sends a poll with shape A to a group', async () => {
			const response = await gatewayClient(sim).post('/api/sendPoll', {
				session: connected.name,
				chatId: hikers.id,
				poll: {
					name: 'Which trail?',
					options: ['Pico do Jaragua', 'Serra do Mar'],
					multipleAnswers: false,
				},
			});
			expect(response.status).toBe(201);
			expect(response.data.messageId).toMatch(new RegExp(`^true_${hikers.id}_3EB0`));
			const stored = await gatewayClient(sim).get(
				messagePath(connected.name, hikers.id, response.data.messageId),
			);
			expect(stored.data).toMatchObject({
				body: 'Which trail?',
				participant: connected.ownerChatId,
				_data: {
					message: {
						pollCreationMessage: {
							name: 'Which trail?',
							options: [{ optionName: 'Pico do Jaragua' }, { optionName: 'Serra do Mar' }],
							selectableOptionsCount: 1,
						},
					},
				},
			});
		});

		it('takes the session from the sessionId query parameter', async () => {
			const response = await gatewayClient(sim).post(
				'/api/sendPoll',
				{
					chatId: alice.chatId,
					poll: { name: 'Coffee?', options: ['Yes', 'No'], multipleAnswers: true },
				},
				{ params: { sessionId: connected.name } },
			);
			expect(response.status).toBe(201);
			const stored = sim.findMessage(connected.name, response.data.messageId);
			expect(stored?.evolution).toMatchObject({
				message: { pollCreationMessage: { selectableOptionsCount: 0 } },
			});
		});

		it('sends a poll with shape B', async () => {
			const response = await gatewayClient(sim).post('/api/sendPoll', {
				sessionId: connected.name,
				jid: bruno.jid,
				poll: { name: 'Lunch?', options: ['Yes', 'No'] },
			});
			expect(response.status).toBe(201);
			expect(response.data).toEqual({ success: true, messageId: expect.stringMatching(FULL_ID) });
		});

		it('answers 400 for fewer than 2 options or a missing poll', async () => {
			const oneOption = await gatewayClient(sim).post('/api/sendPoll', {
				session: connected.name,
				chatId: alice.chatId,
				poll: { name: 'Only one?', options: ['Yes'] },
			});
			expect(oneOption.status).toBe(400);
			expect(oneOption.data).toEqual({
				statusCode: 400,
				message: ['poll.options must contain at least 2 elements'],
				error: 'Bad Request',
			});
			const noPoll = await gatewayClient(sim).post('/api/sendPoll', { sessionId: connected.name });
			expect(noPoll.status).toBe(400);
			expect(noPoll.data.message).toEqual(['jid should not be empty', 'poll should not be empty']);
		});

		it('answers 404 for a group the session is not in', async () => {
			const response = await gatewayClient(sim).post('/api/sendPoll', {
				session: connected.name,
				chatId: '120363000000000000@g.us',
				poll: { name: 'Q', options: ['A', 'B'] },
			});
			expect(response.status).toBe(404);
			expect(response.data).toEqual({
				statusCode: 404,
				message: 'Group not found',
				error: 'Not Found',
			});
		});

		it('answers 422 on a session that is not connected', async () => {
			const response = await gatewayClient(sim).post('/api/sendPoll', {
				session: pairing.name,
				chatId: alice.chatId,
				poll: { name: 'Q', options: ['A', 'B'] },
			});
			expect(response.status).toBe(422);
			expect(response.data).toMatchObject({
				session: pairing.name,
				status: 'SCAN_QR_CODE',
				expected: ['WORKING'],
			});
		});
	});

	describe('PUT /api/reaction', () => {
		it('adds and removes a reaction with shape A', async () => {
			const added = await gatewayClient(sim).put('/api/reaction', {
				session: connected.name,
				messageId: messages.aliceText.id,
				reaction: '👍',
			});
			expect(added.status).toBe(200);
			expect(added.data).toEqual({ success: true });
			const removed = await gatewayClient(sim).put('/api/reaction', {
				session: connected.name,
				messageId: messages.aliceText.id,
				reaction: '',
			});
			expect(removed.status).toBe(200);
			expect(removed.data).toEqual({ success: true });
		});

		it('reacts with shape B (jid, sender, short id)', async () => {
			const response = await gatewayClient(sim).put('/api/reaction', {
				sessionId: connected.name,
				jid: alice.jid,
				messageId: messages.aliceText.shortId,
				sender: alice.jid,
				reaction: '❤️',
			});
			expect(response.status).toBe(200);
			expect(response.data).toEqual({ success: true });
		});

		it('answers 400 for missing fields and 404 for an unknown message', async () => {
			const missing = await gatewayClient(sim).put('/api/reaction', {
				sessionId: connected.name,
				jid: alice.jid,
			});
			expect(missing.status).toBe(400);
			expect(missing.data.message).toEqual([
				'messageId should not be empty',
				'sender should not be empty',
				'reaction should not be empty',
			]);
			const unknown = await gatewayClient(sim).put('/api/reaction', {
				session: connected.name,
				messageId: `false_${alice.chatId}_3A9999999999999999999`,
				reaction: '👍',
			});
			expect(unknown.status).toBe(404);
			expect(unknown.data).toEqual({
				statusCode: 404,
				message: 'Message not found',
				error: 'Not Found',
			});
		});
	});
});
