/**
 * People WhatsApp addresses by a LID (`<digits>@lid`) in the spec gateway: both families take a LID
 * wherever Evolution and WAHA do (a device suffix dropped, bare LID digits read as a phone number),
 * and messages that came through a LID are delivered with Evolution 2.3.6's key fields, in the
 * spec's JIDs. Dora's phone is known to the gateway; Eli's is not.
 */
import type { AxiosResponse } from 'axios';

import { SEED, type InboundMessageInput } from './index.cts';
import { gatewayClient, useSimulator, useWebhookReceiver } from './testing.cts';

const connected = SEED.instances.connected;
const { dora, eli } = SEED.lidPeople;
const { hikers, team } = SEED.groups;
const INSTANCE = connected.name;
const DORA_PHONE_JID = `${dora.number}@s.messenger.net`;
const BARE_LID_DIGITS = dora.lid.split('@')[0];

describe('LID people in the spec gateway', () => {
	const sim = useSimulator();
	const receiver = useWebhookReceiver();
	const api = () => gatewayClient(sim);

	async function subscribe(events: string[]) {
		const response = await api().post(`/webhook/set/${INSTANCE}`, { url: receiver.url, events });
		expect(response.status).toBe(201);
	}

	describe('sending to a LID', () => {
		it.each<[string, () => Promise<AxiosResponse>, string]>([
			[
				'instance family, number X@lid',
				() =>
					api().post(`/message/sendText/${INSTANCE}`, {
						number: dora.lid,
						textMessage: { text: 'Hi Dora' },
					}),
				dora.lid,
			],
			[
				'instance family, a device suffix dropped',
				() =>
					api().post(`/message/sendText/${INSTANCE}`, {
						number: '176543210987654:12@lid',
						textMessage: { text: 'Hi Eli' },
					}),
				eli.lid,
			],
			[
				'session family, chatId X@lid',
				() =>
					api().post('/api/sendPoll', {
						session: INSTANCE,
						chatId: dora.lid,
						poll: { name: 'Which day?', options: ['Sat', 'Sun'] },
					}),
				dora.lid,
			],
			[
				'session family, jid X:3@lid (shape B)',
				() =>
					api().post('/api/sendPoll', {
						sessionId: INSTANCE,
						jid: '176543210987654:3@lid',
						poll: { name: 'Which day?', options: ['Sat', 'Sun'] },
					}),
				eli.lid,
			],
		])(
			'%s: stored under the LID chat, announced with remoteJid = the LID',
			async (_name, send, lid) => {
				await subscribe(['SEND_MESSAGE']);
				const response = await send();
				expect(response.status).toBe(201);
				const id: string = response.data.key?.id ?? response.data.messageId;
				const stored = sim.findMessage(INSTANCE, id);
				expect(stored).toMatchObject({ chatId: lid, remoteJid: lid, fromMe: true });
				const [delivery] = await sim.waitForDeliveries(1);
				expect(delivery.body.data.key).toEqual({
					remoteJid: lid,
					fromMe: true,
					id: stored?.shortId,
				});
			},
		);

		it('answers an instance-family send with key.remoteJid = the LID', async () => {
			const response = await api().post(`/message/sendText/${INSTANCE}`, {
				number: dora.lid,
				textMessage: { text: 'Hi Dora' },
			});
			expect(response.data.key).toEqual({
				remoteJid: dora.lid,
				fromMe: true,
				id: expect.stringMatching(/^3EB0[0-9A-F]{16}$/),
			});
			expect(sim.findMessage(INSTANCE, response.data.key.id)?.id).toBe(
				`true_${dora.lid}_${response.data.key.id}`,
			);
		});

		it('reads bare LID digits as a phone number, which is not on the network (400)', async () => {
			const response = await api().post(`/message/sendText/${INSTANCE}`, {
				number: BARE_LID_DIGITS,
				textMessage: { text: 'Hi' },
			});
			expect(response.status).toBe(400);
			expect(response.data.response.message).toEqual([
				{ exists: false, jid: `${BARE_LID_DIGITS}@s.messenger.net`, number: BARE_LID_DIGITS },
			]);
		});

		it('stores a session-family send to bare LID digits under a phone chat, not the LID', async () => {
			const response = await api().post('/api/sendPoll', {
				session: INSTANCE,
				chatId: BARE_LID_DIGITS,
				poll: { name: 'Q', options: ['A', 'B'] },
			});
			expect(response.status).toBe(201);
			expect(sim.findMessage(INSTANCE, response.data.messageId)?.chatId).toBe(
				`${BARE_LID_DIGITS}@c.us`,
			);
		});
	});

	describe('looking LIDs up', () => {
		it.each([
			[dora.lid, { exists: true, jid: dora.lid, number: dora.lid }],
			[eli.lid, { exists: true, jid: eli.lid, number: eli.lid }],
			[
				BARE_LID_DIGITS,
				{ exists: false, jid: `${BARE_LID_DIGITS}@s.messenger.net`, number: BARE_LID_DIGITS },
			],
		])('chat/whatsappNumbers answers %s with %j', async (number, expected) => {
			const response = await api().post(`/chat/whatsappNumbers/${INSTANCE}`, {
				numbers: [number],
			});
			expect([response.status, response.data]).toEqual([200, [expected]]);
		});

		it.each([
			[dora.lid, [{ jid: dora.lid, name: '', notify: 'Dora', verifiedName: '', businessName: '' }]],
			[eli.lid, [{ jid: eli.lid, name: '', notify: 'Eli', verifiedName: '', businessName: '' }]],
			['100000000000099@lid', []],
		])('GET /api/contacts?jid=%s answers %j', async (jid, contacts) => {
			const response = await api().get('/api/contacts', { params: { sessionId: INSTANCE, jid } });
			expect([response.status, response.data]).toEqual([200, { contacts }]);
		});

		it('chat/fetchProfilePictureUrl takes a LID (no picture)', async () => {
			const response = await api().post(`/chat/fetchProfilePictureUrl/${INSTANCE}`, {
				number: dora.lid,
			});
			expect([response.status, response.data]).toEqual([
				200,
				{ wuid: dora.lid, profilePictureUrl: null },
			]);
		});

		it('keeps the LID people out of the address book', async () => {
			const response = await api().get('/api/contacts', { params: { sessionId: INSTANCE } });
			const jids = response.data.contacts.map((contact: { jid: string }) => contact.jid);
			expect(jids).not.toContain(dora.lid);
			expect(jids).not.toContain(`${dora.number}@s.messenger.net`);
		});
	});

	describe('reading, groups and invites', () => {
		it('chat/markMessageAsRead with a LID remoteJid marks the LID chat read', async () => {
			const inbound = await sim.injectInboundMessage({ from: dora.lid, text: 'Still open?' });
			const unread = async () =>
				(await api().get(`/api/${INSTANCE}/chats/overview`, { params: { ids: dora.lid } })).data[0]
					._chat.unreadCount;
			expect(await unread()).toBe(1);
			const response = await api().put(`/chat/markMessageAsRead/${INSTANCE}`, {
				read_messages: [{ id: inbound.shortId, fromMe: false, remoteJid: dora.lid }],
			});
			expect([response.status, response.data]).toEqual([
				201,
				{ message: 'Read messages', read: 'success' },
			]);
			expect(await unread()).toBe(0);
		});

		it('group/updateParticipant adds a LID and announces it by its LID', async () => {
			await subscribe(['GROUP_PARTICIPANTS_UPDATE']);
			const response = await api().put(
				`/group/updateParticipant/${INSTANCE}?groupJid=${hikers.id}`,
				{ action: 'add', participants: [dora.lid] },
			);
			expect(response.status).toBe(201);
			expect(response.data.updateParticipants).toEqual([
				{ status: '200', jid: dora.lid, content: { tag: 'participant', attrs: { jid: dora.lid } } },
			]);
			const info = await api().get(`/group/findGroupInfos/${INSTANCE}`, {
				params: { groupJid: hikers.id },
			});
			expect(info.data.participants).toContainEqual({ id: dora.lid, admin: null });
			const [delivery] = await sim.waitForDeliveries(1);
			expect(delivery.body.data).toEqual({
				id: hikers.id,
				participants: [dora.lid],
				action: 'add',
			});
		});

		it('group/create takes LIDs as participants', async () => {
			const response = await api().post(`/group/create/${INSTANCE}`, {
				subject: 'LID friends',
				participants: [dora.lid, '176543210987654:2@lid'],
			});
			expect(response.status).toBe(201);
			expect(response.data.participants).toEqual([
				{ id: connected.ownerJid, admin: 'superadmin' },
				{ id: dora.lid, admin: null },
				{ id: eli.lid, admin: null },
			]);
		});

		it('group/sendInvite sends the invite to a LID chat', async () => {
			const response = await api().post(`/group/sendInvite/${INSTANCE}`, {
				groupJid: hikers.id,
				description: 'Join us',
				numbers: [eli.lid],
			});
			expect(response.status).toBe(200);
			const overview = await api().get(`/api/${INSTANCE}/chats/overview`, {
				params: { ids: eli.lid },
			});
			expect(overview.data[0].lastMessage).toMatchObject({
				to: eli.lid,
				body: `Join us\n\nhttps://chat.messenger.net/${hikers.inviteCode}`,
			});
		});
	});

	describe('messages that came through a LID are delivered as Evolution 2.3.6 keys them', () => {
		const key = (id: string, fields: Record<string, unknown>) => ({ ...fields, id });
		it.each<[string, InboundMessageInput, Record<string, unknown>]>([
			[
				'Dora, direct',
				{ from: dora.lid, text: 'Hi' },
				{
					remoteJid: dora.lid,
					remoteJidAlt: DORA_PHONE_JID,
					fromMe: false,
					addressingMode: 'lid',
				},
			],
			[
				'Eli, direct (no phone known)',
				{ from: eli.lid, text: 'Hi' },
				{ remoteJid: eli.lid, fromMe: false, addressingMode: 'lid' },
			],
			[
				'Dora, in a group she is not a member of (allowed)',
				{ from: dora.lid, groupId: hikers.id, text: 'Hi' },
				{
					remoteJid: hikers.id,
					fromMe: false,
					participant: dora.lid,
					participantAlt: DORA_PHONE_JID,
					addressingMode: 'lid',
				},
			],
			[
				'Eli, in a group (no phone known)',
				{ from: eli.lid, groupId: team.id, text: 'Hi' },
				{ remoteJid: team.id, fromMe: false, participant: eli.lid, addressingMode: 'lid' },
			],
			[
				'the owner typing to Dora on the phone',
				{ from: dora.lid, fromMe: true, text: 'On my way' },
				{
					remoteJid: dora.lid,
					remoteJidAlt: DORA_PHONE_JID,
					fromMe: true,
					addressingMode: 'lid',
				},
			],
			[
				'the owner typing to Eli on the phone',
				{ from: eli.lid, fromMe: true, text: 'On my way' },
				{ remoteJid: eli.lid, fromMe: true, addressingMode: 'lid' },
			],
		])('%s', async (_who, input, fields) => {
			await subscribe(['MESSAGES_UPSERT']);
			const stored = await sim.injectInboundMessage(input);
			const [delivery] = await sim.waitForDeliveries(1);
			expect(delivery.body.data.key).toEqual(key(stored.shortId, fields));
			expect(stored.evolution.key).toEqual(key(stored.shortId, fields));
			expect(stored.chatId).toBe(input.groupId ?? input.from);
		});

		it('takes a LID over POST /__sim/inbound and delivers it with the push name given', async () => {
			await subscribe(['MESSAGES_UPSERT']);
			const response = await gatewayClient(sim, null).post('/__sim/inbound', {
				from: dora.lid,
				text: 'Hello from the LID',
				pushName: 'Dora M.',
			});
			expect(response.status).toBe(201);
			expect(response.data).toMatchObject({ chatId: dora.lid, remoteJid: dora.lid });
			const [delivery] = await sim.waitForDeliveries(1);
			expect(delivery.body.data).toMatchObject({
				key: { remoteJid: dora.lid, remoteJidAlt: DORA_PHONE_JID },
				pushName: 'Dora M.',
				message: { conversation: 'Hello from the LID' },
			});
		});

		it('a deletion by the sender names the LID (MESSAGES_DELETE)', async () => {
			const stored = await sim.injectInboundMessage({
				from: dora.lid,
				groupId: hikers.id,
				text: 'Oops',
			});
			await subscribe(['MESSAGES_DELETE']);
			const response = await gatewayClient(sim, null).post('/__sim/deletion', {
				instance: INSTANCE,
				chatId: hikers.id,
				messageId: stored.id,
			});
			expect(response.status).toBe(200);
			const [delivery] = await sim.waitForDeliveries(1);
			expect(delivery.body.data).toEqual({
				remoteJid: hikers.id,
				fromMe: false,
				id: stored.shortId,
				participant: dora.lid,
				participantAlt: DORA_PHONE_JID,
				addressingMode: 'lid',
			});
			expect(sim.findMessage(INSTANCE, stored.id)).toBeUndefined();
		});

		it('a reaction and an ack find a message of a LID chat by its full id', async () => {
			const stored = await sim.injectInboundMessage({ from: eli.lid, text: 'Thanks' });
			expect(stored.id).toBe(`false_${eli.lid}_${stored.shortId}`);
			const reaction = await api().put('/api/reaction', {
				session: INSTANCE,
				messageId: stored.id,
				reaction: '👍',
			});
			expect([reaction.status, reaction.data]).toEqual([200, { success: true }]);
			const sent = await api().post(`/message/sendText/${INSTANCE}`, {
				number: eli.lid,
				textMessage: { text: 'You are welcome' },
			});
			sim.injectAck({
				instance: INSTANCE,
				messageId: `true_${eli.lid}_${sent.data.key.id}`,
				ack: 3,
			});
			expect(sim.findMessage(INSTANCE, sent.data.key.id)?.waha).toMatchObject({
				ack: 3,
				ackName: 'READ',
			});
		});
	});
});
