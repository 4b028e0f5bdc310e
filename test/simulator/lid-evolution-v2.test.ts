/**
 * People addressed by LID in the evolution-v2 gateway, release by release (`evolutionVersion`):
 * what each accepts (sends, lookups, read receipts) and the exact message keys it stores and
 * delivers for Dora (phone known) and Eli (phone unknown), directly and in groups.
 */
import { EVOLUTION_V2_SEED as SEED, type EvolutionVersion } from './index.cts';
import { gatewayClient, useSimulator, useWebhookReceiver } from './testing.cts';

const INSTANCE = SEED.instances.connected.name;
const { dora, eli } = SEED.lidPeople;
const hikers = SEED.groups.hikers;
const DORA_PHONE = `${dora.number}@s.whatsapp.net`;
const VERSIONS: EvolutionVersion[] = ['2.3.0', '2.3.6', '2.3.7', '2.4.0'];

type Key = Record<string, unknown>;
type Case = 'dora direct' | 'eli direct' | 'dora in a group' | 'eli in a group' | 'owner to dora';

const INPUTS: Record<Case, { from: string; groupId?: string; fromMe?: boolean }> = {
	'dora direct': { from: dora.lid },
	'eli direct': { from: eli.lid },
	'dora in a group': { from: dora.lid, groupId: hikers.id },
	'eli in a group': { from: eli.lid, groupId: hikers.id },
	'owner to dora': { from: dora.lid, fromMe: true },
};

/** The key messages.upsert delivers (besides `id`), per case and release (research §3.3). */
const UPSERT_KEYS: Record<Case, Record<EvolutionVersion, Key>> = {
	'dora direct': {
		'2.3.0': { remoteJid: dora.lid, fromMe: false, senderPn: DORA_PHONE },
		'2.3.6': {
			remoteJid: dora.lid,
			remoteJidAlt: DORA_PHONE,
			fromMe: false,
			addressingMode: 'lid',
		},
		'2.3.7': {
			remoteJid: DORA_PHONE,
			remoteJidAlt: DORA_PHONE,
			fromMe: false,
			addressingMode: 'lid',
		},
		'2.4.0': { remoteJid: DORA_PHONE, remoteJidAlt: dora.lid, fromMe: false, addressingMode: 'pn' },
	},
	'eli direct': {
		'2.3.0': { remoteJid: eli.lid, fromMe: false },
		'2.3.6': { remoteJid: eli.lid, fromMe: false, addressingMode: 'lid' },
		'2.3.7': { remoteJid: eli.lid, fromMe: false, addressingMode: 'lid' },
		'2.4.0': { remoteJid: eli.lid, fromMe: false, addressingMode: 'lid' },
	},
	'dora in a group': {
		'2.3.0': { remoteJid: hikers.id, fromMe: false, participant: dora.lid },
		'2.3.6': {
			remoteJid: hikers.id,
			fromMe: false,
			participant: dora.lid,
			participantAlt: DORA_PHONE,
			addressingMode: 'lid',
		},
		'2.3.7': {
			remoteJid: hikers.id,
			fromMe: false,
			participant: dora.lid,
			participantAlt: DORA_PHONE,
			addressingMode: 'lid',
		},
		'2.4.0': {
			remoteJid: hikers.id,
			fromMe: false,
			participant: dora.lid,
			participantAlt: DORA_PHONE,
			addressingMode: 'lid',
		},
	},
	'eli in a group': {
		'2.3.0': { remoteJid: hikers.id, fromMe: false, participant: eli.lid },
		'2.3.6': { remoteJid: hikers.id, fromMe: false, participant: eli.lid, addressingMode: 'lid' },
		'2.3.7': { remoteJid: hikers.id, fromMe: false, participant: eli.lid, addressingMode: 'lid' },
		'2.4.0': { remoteJid: hikers.id, fromMe: false, participant: eli.lid, addressingMode: 'lid' },
	},
	'owner to dora': {
		'2.3.0': { remoteJid: dora.lid, fromMe: true },
		'2.3.6': { remoteJid: dora.lid, remoteJidAlt: DORA_PHONE, fromMe: true, addressingMode: 'lid' },
		'2.3.7': {
			remoteJid: DORA_PHONE,
			remoteJidAlt: DORA_PHONE,
			fromMe: true,
			addressingMode: 'lid',
		},
		'2.4.0': { remoteJid: DORA_PHONE, remoteJidAlt: dora.lid, fromMe: true, addressingMode: 'pn' },
	},
};

const UPSERT_ROWS = VERSIONS.flatMap((version) =>
	(Object.keys(UPSERT_KEYS) as Case[]).map(
		(name) => [version, name, UPSERT_KEYS[name][version]] as const,
	),
);

/** What messages.delete carries for Dora's direct message: the stored key, never rewritten. */
const DELETE_KEYS: Record<EvolutionVersion, Key> = {
	'2.3.0': { remoteJid: dora.lid, fromMe: false, senderPn: DORA_PHONE },
	'2.3.6': { remoteJid: dora.lid, remoteJidAlt: DORA_PHONE, fromMe: false, addressingMode: 'lid' },
	'2.3.7': {
		remoteJid: dora.lid,
		remoteJidAlt: DORA_PHONE,
		fromMe: false,
		addressingMode: 'lid',
		status: 'DELETED',
	},
	'2.4.0': {
		remoteJid: dora.lid,
		remoteJidAlt: DORA_PHONE,
		fromMe: false,
		addressingMode: 'lid',
		status: 'DELETED',
	},
};

/** Which of Dora's messages a findMessages `where.key` finds (research §2.5). */
type Found = 'received' | 'sent to LID' | 'sent to phone';
const FIND_ROWS: Array<[EvolutionVersion, string, Key, Found[] | 'every message']> = [
	['2.3.0', 'remoteJid: LID', { remoteJid: dora.lid }, ['received', 'sent to LID']],
	['2.3.0', 'remoteJidAlt: phone (not read)', { remoteJidAlt: DORA_PHONE }, 'every message'],
	[
		'2.3.0',
		'remoteJid + remoteJidAlt: phone',
		{ remoteJid: DORA_PHONE, remoteJidAlt: DORA_PHONE },
		['sent to phone'],
	],
	['2.3.6', 'remoteJid: LID', { remoteJid: dora.lid }, ['received', 'sent to LID']],
	['2.3.6', 'remoteJidAlt: phone', { remoteJidAlt: DORA_PHONE }, ['received']],
	[
		'2.3.6',
		'remoteJid + remoteJidAlt: phone (AND)',
		{ remoteJid: DORA_PHONE, remoteJidAlt: DORA_PHONE },
		['sent to phone'],
	],
	['2.3.7', 'remoteJid: LID', { remoteJid: dora.lid }, ['received', 'sent to LID']],
	['2.3.7', 'remoteJidAlt: phone', { remoteJidAlt: DORA_PHONE }, ['received']],
	[
		'2.3.7',
		'remoteJid + remoteJidAlt: phone (OR)',
		{ remoteJid: DORA_PHONE, remoteJidAlt: DORA_PHONE },
		['received', 'sent to phone'],
	],
	['2.4.0', 'remoteJid: LID', { remoteJid: dora.lid }, ['received', 'sent to LID']],
	['2.4.0', 'remoteJidAlt: phone', { remoteJidAlt: DORA_PHONE }, ['received']],
	[
		'2.4.0',
		'remoteJid + remoteJidAlt: phone (OR)',
		{ remoteJid: DORA_PHONE, remoteJidAlt: DORA_PHONE },
		['received', 'sent to phone'],
	],
];

describe.each(VERSIONS)('Evolution API %s and LID people', (version) => {
	const sim = useSimulator({ gateway: 'evolution-v2', evolutionVersion: version });
	const receiver = useWebhookReceiver();
	const api = () => gatewayClient(sim);

	async function subscribe(events: string[]) {
		const response = await api().post(`/webhook/set/${INSTANCE}`, {
			webhook: { enabled: true, url: receiver.url, events },
		});
		expect(response.status).toBe(201);
	}

	it(`says at its root that ${version} answers`, async () => {
		const response = await gatewayClient(sim, null).get('/');
		expect(response.data).toMatchObject({ status: 200, version });
	});

	it.each([
		['X@lid', dora.lid, dora.lid],
		['X:12@lid (device dropped)', '176543210987654:12@lid', eli.lid],
	])(
		'sends to %s: stored under the LID, answered and sent (send.message) with it',
		async (_form, number, lid) => {
			await subscribe(['SEND_MESSAGE', 'MESSAGES_UPSERT']);
			const response = await api().post(`/message/sendText/${INSTANCE}`, { number, text: 'Hi' });
			expect(response.status).toBe(201);
			const key = { remoteJid: lid, fromMe: true, id: response.data.key.id };
			expect(response.data.key).toEqual(key);
			expect(sim.findMessage(INSTANCE, key.id)?.chatId).toBe(lid);
			const [delivery] = await sim.waitForDeliveries(1);
			expect([delivery.event, delivery.body.data.key]).toEqual(['send.message', key]);
		},
	);

	it('refuses bare LID digits, read as a phone number that is not on the network (400)', async () => {
		const digits = dora.lid.split('@')[0];
		const response = await api().post(`/message/sendText/${INSTANCE}`, {
			number: digits,
			text: 'Hi',
		});
		expect(response.status).toBe(400);
		expect(response.data.response.message).toEqual([
			{ jid: `${digits}@s.whatsapp.net`, exists: false, number: digits },
		]);
	});

	it('reacts in a LID chat (sendReaction with key.remoteJid = the LID)', async () => {
		const received = await sim.injectInboundMessage({ from: eli.lid, text: 'Done?' });
		const response = await api().post(`/message/sendReaction/${INSTANCE}`, {
			key: { remoteJid: eli.lid, fromMe: false, id: received.shortId },
			reaction: '👍',
		});
		expect(response.status).toBe(201);
		expect(response.data.key).toMatchObject({ remoteJid: eli.lid, fromMe: true });
	});

	it('chat/whatsappNumbers: LIDs are valid as they are (flag lid: "lid"); only 2.3.0 gives a phone its LID', async () => {
		const response = await api().post(`/chat/whatsappNumbers/${INSTANCE}`, {
			numbers: [dora.lid, dora.number, eli.number],
		});
		const lidEntry = { jid: dora.lid, exists: true, number: dora.lid, lid: 'lid' };
		const doraPhone = { jid: DORA_PHONE, exists: true, number: dora.number };
		const eliPhone = { jid: `${eli.number}@s.whatsapp.net`, exists: true, number: eli.number };
		expect(response.status).toBe(200);
		expect(response.data).toEqual(
			version === '2.3.0'
				? [{ ...doraPhone, lid: dora.lid }, eliPhone, lidEntry]
				: [lidEntry, doraPhone, eliPhone],
		);
	});

	it(`chat/markMessageAsRead with a LID key ${version === '2.4.0' ? 'reads the LID chat' : 'answers success and reads nothing'}`, async () => {
		const received = await sim.injectInboundMessage({ from: dora.lid, text: 'Seen?' });
		const unread = async () => {
			const chats = await api().post(`/chat/findChats/${INSTANCE}`, {
				where: { remoteJid: dora.lid },
			});
			return chats.data[0].unreadCount;
		};
		expect(await unread()).toBe(1);
		const response = await api().post(`/chat/markMessageAsRead/${INSTANCE}`, {
			readMessages: [{ remoteJid: dora.lid, fromMe: false, id: received.shortId }],
		});
		expect([response.status, response.data]).toEqual([
			201,
			{ message: 'Read messages', read: 'success' },
		]);
		expect(await unread()).toBe(version === '2.4.0' ? 0 : 1);
	});

	it('chat/findContacts finds a LID person by their LID, and lists them nowhere before they write', async () => {
		const find = (where: Key) => api().post(`/chat/findContacts/${INSTANCE}`, { where });
		const byLid = await find({ remoteJid: eli.lid });
		expect(byLid.data).toEqual([
			expect.objectContaining({ remoteJid: eli.lid, pushName: 'Eli', profilePicUrl: null }),
		]);
		const all = (await find({})).data.map((row: { remoteJid: string }) => row.remoteJid);
		expect(all).not.toContain(eli.lid);
		expect((await find({ remoteJid: '176543210987654:12@lid' })).data).toEqual([]);
	});

	it('messages.delete names the message by its stored key (never rewritten)', async () => {
		const received = await sim.injectInboundMessage({ from: dora.lid, text: 'Oops' });
		await subscribe(['MESSAGES_DELETE']);
		await sim.injectDeletion({ instance: INSTANCE, chatId: dora.lid, messageId: received.id });
		const [delivery] = await sim.waitForDeliveries(1);
		expect(delivery.body.data).toEqual({ ...DELETE_KEYS[version], id: received.shortId });
	});
});

describe.each(VERSIONS)(
	'Evolution API %s: messages.upsert keys of LID-addressed messages',
	(version) => {
		const sim = useSimulator({ gateway: 'evolution-v2', evolutionVersion: version });
		const receiver = useWebhookReceiver();

		it.each(UPSERT_ROWS.filter(([rowVersion]) => rowVersion === version))(
			'%s, %s: %j',
			async (_version, name, fields) => {
				await gatewayClient(sim).post(`/webhook/set/${INSTANCE}`, {
					webhook: { enabled: true, url: receiver.url, events: ['MESSAGES_UPSERT'] },
				});
				const stored = await sim.injectInboundMessage({ ...INPUTS[name], text: 'Hi' });
				const [delivery] = await sim.waitForDeliveries(1);
				expect(delivery.body.data.key).toEqual({ ...fields, id: stored.shortId });
				expect(stored.evolution.key).toEqual({ ...fields, id: stored.shortId });
			},
		);
	},
);

describe.each(VERSIONS)('Evolution API %s: findMessages in a LID chat', (version) => {
	const sim = useSimulator({ gateway: 'evolution-v2', evolutionVersion: version });
	const api = () => gatewayClient(sim);

	it.each(FIND_ROWS.filter(([rowVersion]) => rowVersion === version))(
		'%s, where.key %s',
		async (_version, _query, key, expected) => {
			const received = await sim.injectInboundMessage({ from: dora.lid, text: 'Hi' });
			const toLid = await api().post(`/message/sendText/${INSTANCE}`, {
				number: dora.lid,
				text: 'A',
			});
			const toPhone = await api().post(`/message/sendText/${INSTANCE}`, {
				number: dora.number,
				text: 'B',
			});
			const ids: Record<Found, string> = {
				received: received.shortId,
				'sent to LID': toLid.data.key.id,
				'sent to phone': toPhone.data.key.id,
			};
			const find = (where: Key) => api().post(`/chat/findMessages/${INSTANCE}`, { where });
			const response = await find({ key });
			const found = response.data.messages.records.map((record: { key: Key }) => record.key.id);
			if (expected === 'every message') {
				expect(response.data.messages.total).toBe((await find({})).data.messages.total);
			} else {
				expect(found.sort()).toEqual(expected.map((which) => ids[which]).sort());
			}
		},
	);

	it('stores a received message under the LID, with the phone beside it', async () => {
		const received = await sim.injectInboundMessage({ from: dora.lid, text: 'Hi' });
		const response = await api().post(`/chat/findMessages/${INSTANCE}`, {
			where: { key: { id: received.shortId } },
		});
		expect(response.data.messages.records.map((record: { key: Key }) => record.key)).toEqual([
			version === '2.3.0'
				? { remoteJid: dora.lid, fromMe: false, id: received.shortId, senderPn: DORA_PHONE }
				: {
						remoteJid: dora.lid,
						remoteJidAlt: DORA_PHONE,
						fromMe: false,
						id: received.shortId,
						addressingMode: 'lid',
					},
		]);
	});
});
