/**
 * People addressed by LID in the waha gateway, engine by engine (`wahaEngine`): the routes that take
 * a LID chat id or message id, and the LID ↔ phone routes (and NOWEB without its store). What each
 * engine delivers is in lid-waha-deliveries.test.ts.
 */
import { SEED, type WahaEngine } from './index.cts';
import { useSimulator, useWebhookReceiver } from './testing.cts';
import { subscribeWebhook, wahaClient } from './waha-testing.cts';

const connected = SEED.instances.connected;
const SESSION = connected.name;
const { dora, eli } = SEED.lidPeople;
const { hikers } = SEED.groups;
const DORA_PN = `${dora.number}@c.us`;
const DORA_PHONE_JID = `${dora.number}@s.whatsapp.net`;
const ENGINES: WahaEngine[] = ['NOWEB', 'GOWS', 'WEBJS'];
const lidPath = (value: string) => `/api/${SESSION}/lids/${encodeURIComponent(value)}`;

describe.each(ENGINES)('WAHA %s and LID people', (engine) => {
	const sim = useSimulator({ gateway: 'waha', wahaEngine: engine });
	const receiver = useWebhookReceiver();
	const api = () => wahaClient(sim);

	const subscribe = (events: string[]) => subscribeWebhook(sim, SESSION, receiver.url, events);

	async function sendText(chatId: string, text = 'Hi') {
		const response = await api().post('/api/sendText', { session: SESSION, chatId, text });
		expect(response.status).toBe(201);
		return response.data as { id: string };
	}

	it('sends to X@lid (a device suffix dropped) and answers the id under the LID chat', async () => {
		for (const [chatId, lid] of [
			[dora.lid, dora.lid],
			['176543210987654:12@lid', eli.lid],
		]) {
			const sent = await sendText(chatId);
			expect(sent.id).toMatch(new RegExp(`^true_${lid}_3EB0[0-9A-F]{16}$`));
			expect(sim.findMessage(SESSION, sent.id)?.chatId).toBe(lid);
		}
	});

	it("lists a LID chat's messages (GET /api/{session}/chats/{LID}/messages)", async () => {
		const received = await sim.injectInboundMessage({ from: dora.lid, text: 'Question' });
		const sent = await sendText(dora.lid, 'Answer');
		const response = await api().get(
			`/api/${SESSION}/chats/${encodeURIComponent(dora.lid)}/messages`,
		);
		expect(response.status).toBe(200);
		expect(response.data.map((message: { id: string }) => message.id)).toEqual([
			sent.id,
			received.id,
		]);
	});

	it('sendSeen with a LID chat id reads the LID chat', async () => {
		const received = await sim.injectInboundMessage({ from: dora.lid, text: 'Seen?' });
		const unread = async () => {
			const chats = await api().get(`/api/${SESSION}/chats`);
			return chats.data.find((chat: { id: string }) => chat.id === dora.lid).unreadCount;
		};
		expect(await unread()).toBe(1);
		const response = await api().post('/api/sendSeen', {
			session: SESSION,
			chatId: dora.lid,
			messageIds: [received.id],
		});
		expect(response.status).toBe(201);
		expect(await unread()).toBe(0);
		expect(sim.findMessage(SESSION, received.id)?.waha).toMatchObject({ ack: 3 });
	});

	it('sets presence in a LID chat', async () => {
		const response = await api().post(`/api/${SESSION}/presence`, {
			chatId: dora.lid,
			presence: 'typing',
		});
		expect(response.status).toBe(201);
	});

	it('reacts to false_<LID>_<id>; message.reaction carries no _data (so no phone)', async () => {
		const received = await sim.injectInboundMessage({ from: dora.lid, text: 'Deal?' });
		expect(received.id).toBe(`false_${dora.lid}_${received.shortId}`);
		await subscribe(['message.reaction']);
		const response = await api().put('/api/reaction', {
			session: SESSION,
			messageId: received.id,
			reaction: '🤝',
		});
		expect(response.status).toBe(200);
		const [delivery] = await sim.waitForDeliveries(1);
		expect(delivery.body.payload).toMatchObject({
			to: dora.lid,
			reaction: { text: '🤝', messageId: received.id },
		});
		expect(delivery.body.payload).not.toHaveProperty('_data');
	});

	it('edits and deletes a message of a LID chat by its path ids', async () => {
		const sent = await sendText(dora.lid, 'Typo');
		const path = `/api/${SESSION}/chats/${encodeURIComponent(dora.lid)}/messages/${encodeURIComponent(sent.id)}`;
		const edited = await api().put(path, { text: 'Fixed' });
		expect([edited.status, edited.data.body]).toEqual([200, 'Fixed']);
		expect((await api().delete(path)).status).toBe(200);
		expect((await api().get(path)).status).toBe(404);
	});

	it.each([
		[
			"a LID's digits (read as a phone, not on the network)",
			dora.lid.split('@')[0],
			{ numberExists: false },
		],
		['a LID (only its digits are read)', dora.lid, { numberExists: false }],
		["Dora's phone", dora.number, { numberExists: true, chatId: DORA_PN }],
	])('check-exists with %s', async (_what, phone, expected) => {
		const response = await api().get('/api/contacts/check-exists', {
			params: { session: SESSION, phone },
		});
		expect([response.status, response.data]).toEqual([200, expected]);
	});

	it('answers a LID contact by its LID', async () => {
		const response = await api().get('/api/contacts', {
			params: { session: SESSION, contactId: dora.lid },
		});
		expect(response.data).toMatchObject({ id: dora.lid, pushname: 'Dora', isWAContact: true });
	});

	it('adds LID members to a group; participants/v2 gives their phone as the engine does', async () => {
		const group = `/api/${SESSION}/groups/${encodeURIComponent(hikers.id)}`;
		const added = await api().post(`${group}/participants/add`, {
			participants: [{ id: dora.lid }, { id: eli.lid }],
		});
		expect(added.data).toEqual([
			{ status: '200', jid: dora.lid },
			{ status: '200', jid: eli.lid },
		]);
		const members = (await api().get(`${group}/participants/v2`)).data;
		const memberOf = (id: string) => members.find((member: { id: string }) => member.id === id);
		const phones: Record<WahaEngine, [unknown, unknown]> = {
			NOWEB: [{ pn: DORA_PN }, {}],
			GOWS: [{ pn: DORA_PN }, { pn: '' }],
			WEBJS: [{ pn: null }, { pn: null }],
		};
		const [doraPhone, eliPhone] = phones[engine];
		expect(memberOf(dora.lid)).toEqual({
			id: dora.lid,
			...(doraPhone as object),
			role: 'participant',
		});
		expect(memberOf(eli.lid)).toEqual({
			id: eli.lid,
			...(eliPhone as object),
			role: 'participant',
		});
	});

	it.each<[string, string, number, unknown]>([
		['all known pairs', `/api/${SESSION}/lids`, 200, [{ lid: dora.lid, pn: DORA_PN }]],
		['a page past them', `/api/${SESSION}/lids?limit=1&offset=1`, 200, []],
		['their count', `/api/${SESSION}/lids/count`, 200, { count: 1 }],
		["Dora's LID (%40-encoded)", lidPath(dora.lid), 200, { lid: dora.lid, pn: DORA_PN }],
		[
			"Dora's LID digits alone",
			lidPath(dora.lid.split('@')[0]),
			200,
			{ lid: dora.lid, pn: DORA_PN },
		],
		["Eli's LID (phone unknown: 200, not 404)", lidPath(eli.lid), 200, { lid: eli.lid, pn: null }],
		[
			'a LID with a device suffix (looked up as given)',
			lidPath('198765432101234:12@lid'),
			200,
			{ lid: '198765432101234:12@lid', pn: null },
		],
		[
			'another suffix',
			lidPath(DORA_PN),
			422,
			{
				statusCode: 422,
				message: 'Invalid LID - it must end with @lid',
				error: 'Unprocessable Entity',
			},
		],
		["Dora's phone", `/api/${SESSION}/lids/pn/${dora.number}`, 200, { lid: dora.lid, pn: DORA_PN }],
		[
			"Dora's phone as @c.us",
			`/api/${SESSION}/lids/pn/${encodeURIComponent(DORA_PN)}`,
			200,
			{ lid: dora.lid, pn: DORA_PN },
		],
		[
			"Dora's phone as @s.whatsapp.net",
			`/api/${SESSION}/lids/pn/${encodeURIComponent(DORA_PHONE_JID)}`,
			200,
			{ lid: dora.lid, pn: DORA_PN },
		],
		[
			"Eli's phone (LID unknown)",
			`/api/${SESSION}/lids/pn/${eli.number}`,
			200,
			{ lid: null, pn: `${eli.number}@c.us` },
		],
		[
			'a LID given as the phone',
			`/api/${SESSION}/lids/pn/${encodeURIComponent(eli.lid)}`,
			200,
			{ lid: eli.lid, pn: null },
		],
	])('GET lids: %s', async (_what, path, status, body) => {
		const response = await api().get(path);
		expect([response.status, response.data]).toEqual([status, body]);
	});
});

describe('WAHA NOWEB without its store: the LID routes answer 400', () => {
	const sim = useSimulator({ gateway: 'waha', wahaStore: false });
	const api = () => wahaClient(sim);
	const NO_STORE = {
		statusCode: 400,
		message:
			'Enable NOWEB store "config.noweb.store.enabled=True" and "config.noweb.store.full_sync=True" when starting a new session. ' +
			'Read more: https://waha.devlike.pro/docs/engines/noweb#store',
		error: 'Bad Request',
	};

	it.each<[string, string, number, unknown]>([
		['all pairs', `/api/${SESSION}/lids`, 400, NO_STORE],
		['the count', `/api/${SESSION}/lids/count`, 400, NO_STORE],
		['a LID', lidPath(dora.lid), 400, NO_STORE],
		['a phone', `/api/${SESSION}/lids/pn/${dora.number}`, 400, NO_STORE],
		[
			'a LID given as the phone (answered before the store)',
			`/api/${SESSION}/lids/pn/${encodeURIComponent(dora.lid)}`,
			200,
			{ lid: dora.lid, pn: null },
		],
		[
			'another suffix (422 before the store)',
			lidPath(DORA_PN),
			422,
			expect.objectContaining({ statusCode: 422 }),
		],
	])('%s', async (_what, path, status, body) => {
		const response = await api().get(path);
		expect([response.status, response.data]).toEqual([status, body]);
	});
});

describe('WAHA GOWS has no NOWEB store to miss', () => {
	const sim = useSimulator({ gateway: 'waha', wahaEngine: 'GOWS', wahaStore: false });

	it('answers the LID routes', async () => {
		const response = await wahaClient(sim).get(`/api/${SESSION}/lids/count`);
		expect([response.status, response.data]).toEqual([200, { count: 1 }]);
	});
});
