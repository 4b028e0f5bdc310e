/**
 * The evolution-v2 gateway against what a real Evolution API 2.3.6 answered from its database
 * (/tmp/real-evo/report.md: D1, D2, D4, D5) and what the releases' source says of the same code
 * (research §2.2, §2.6, §3.3): searches compare JIDs exactly as sent, findContacts lists the rows a
 * message from someone addressed by LID writes, and whatsappNumbers reads the IsOnWhatsapp cache.
 */
import { EVOLUTION_V2_SEED, SEED, type EvolutionVersion } from './index.cts';
import { gatewayClient, useSimulator } from './testing.cts';

const INSTANCE = SEED.instances.connected.name;
const { alice, bruno, bakery, carla } = EVOLUTION_V2_SEED.contacts;
const { dora, eli } = SEED.lidPeople;
const hikers = SEED.groups.hikers;
const DORA_PHONE = `${dora.number}@s.whatsapp.net`;
/** The spec's spelling of a contact JID, which no Evolution row holds. */
const specJid = (number: string) => `${number}@s.messenger.net`;
const VERSIONS: EvolutionVersion[] = ['2.3.0', '2.3.6', '2.3.7', '2.4.0'];
const SEED_CONTACTS = [alice.jid, bruno.jid, bakery.jid, carla.jid];

type Body = Record<string, unknown>;

/** How many rows a search answered (findMessages: its total). */
function countOf(route: string, data: unknown): number {
	if (route === 'findMessages') return (data as { messages: { total: number } }).messages.total;
	return (data as unknown[]).length;
}

/**
 * Searches by a JID: WhatsApp's spelling (or a LID) finds the rows, the spec's `@s.messenger.net`
 * none (report D1). `found` is how many the first finds; the second always finds 0.
 */
const EXACT_ROWS: Array<[string, string, string, string, number, (jid: string) => Body]> = [
	[
		'findStatusMessage',
		'where.remoteJid',
		alice.jid,
		specJid(alice.number),
		4,
		(jid) => ({ where: { remoteJid: jid } }),
	],
	[
		'findMessages',
		'where.key.remoteJid',
		alice.jid,
		specJid(alice.number),
		4,
		(jid) => ({ where: { key: { remoteJid: jid } } }),
	],
	[
		'findMessages',
		'where.key.remoteJidAlt',
		DORA_PHONE,
		specJid(dora.number),
		1,
		(jid) => ({ where: { key: { remoteJidAlt: jid } } }),
	],
	[
		'findMessages',
		'where.key.participant',
		carla.jid,
		specJid(carla.number),
		1,
		(jid) => ({ where: { key: { participant: jid } } }),
	],
	[
		'findContacts',
		'where.remoteJid',
		alice.jid,
		specJid(alice.number),
		1,
		(jid) => ({ where: { remoteJid: jid } }),
	],
	[
		'findChats',
		'where.remoteJid',
		alice.jid,
		specJid(alice.number),
		1,
		(jid) => ({ where: { remoteJid: jid } }),
	],
];

describe.each(VERSIONS)('Evolution API %s searches compare JIDs exactly as sent', (version) => {
	const sim = useSimulator({ gateway: 'evolution-v2', evolutionVersion: version });
	const api = () => gatewayClient(sim);

	// 2.3.0 reads no remoteJidAlt (every message is found either way).
	const rows = EXACT_ROWS.filter(
		([, field]) => version !== '2.3.0' || field !== 'where.key.remoteJidAlt',
	);

	it.each(rows)(
		'%s %s: %s finds its rows, %s none',
		async (route, _field, whatsapp, spec, found, bodyOf) => {
			// Alice: 3 seed messages and this send, with 4 status rows; Dora's message with her phone beside it.
			expect(
				(await api().post(`/message/sendText/${INSTANCE}`, { number: alice.number, text: 'Hi' }))
					.status,
			).toBe(201);
			await sim.injectInboundMessage({ from: dora.lid, text: 'Hi' });
			const search = (jid: string) => api().post(`/chat/${route}/${INSTANCE}`, bodyOf(jid));
			const [byWhatsapp, bySpec] = [await search(whatsapp), await search(spec)];
			expect([byWhatsapp.status, bySpec.status]).toEqual([200, 200]);
			expect(countOf(route, byWhatsapp.data)).toBe(found);
			expect(countOf(route, bySpec.data)).toBe(0);
		},
	);

	it.each([
		['a LID', { where: { key: { remoteJid: dora.lid } } }, 'findMessages', 1],
		['a LID', { where: { remoteJid: dora.lid } }, 'findChats', 1],
		['a group', { where: { key: { remoteJid: hikers.id } } }, 'findMessages', 1],
	])('%s is found as now (%j on %s)', async (_what, body, route, found) => {
		await sim.injectInboundMessage({ from: dora.lid, text: 'Hi' });
		const response = await api().post(`/chat/${route}/${INSTANCE}`, body);
		expect(countOf(route, response.data)).toBe(found);
	});

	it.each([
		['the spec spelling', specJid(alice.number)],
		['WhatsApp spelling', alice.jid],
		['digits', alice.number],
	])(
		'a send still reaches the phone by %s (createJid makes digits of any suffix)',
		async (_how, number) => {
			const response = await api().post(`/message/sendText/${INSTANCE}`, { number, text: 'Hi' });
			expect(response.status).toBe(201);
			expect(response.data.key.remoteJid).toBe(alice.jid);
		},
	);
});

type Writer = 'dora' | 'eli' | 'owner to dora';
const WRITES: Record<Writer, { from: string; fromMe?: boolean; pushName?: string }> = {
	dora: { from: dora.lid },
	eli: { from: eli.lid },
	'owner to dora': { from: dora.lid, fromMe: true },
};
interface Played {
	version: EvolutionVersion;
	cache: boolean;
}
const PLAYED: Played[] = [
	{ version: '2.3.0', cache: true },
	{ version: '2.3.6', cache: true },
	{ version: '2.3.6', cache: false },
	{ version: '2.3.7', cache: true },
	{ version: '2.3.7', cache: false },
	{ version: '2.4.0', cache: true },
	{ version: '2.4.0', cache: false },
];
const playedName = ({ version, cache }: Played) =>
	`Evolution API ${version}, number cache ${cache ? 'on' : 'off'}`;

/**
 * The Contact row a message writes (report D2, D5; research §2.6, §3.3): `remoteJid`, `pushName`,
 * or null for none. Under the LID; under the phone on 2.3.7 when the phone is known; none for Eli
 * on 2.3.6 with the cache on (saveOnWhatsappCache crashes on his missing phone). The owner typing
 * to Dora writes her row with no push name (`isSaved: false`, `type: 'group_member'`).
 */
const CONTACT_ROWS: Array<[string, Writer, [string, string] | null]> = [
	['2.3.0 on', 'dora', [dora.lid, 'Dora']],
	['2.3.0 on', 'eli', [eli.lid, 'Eli']],
	['2.3.6 on', 'dora', [dora.lid, 'Dora']],
	['2.3.6 on', 'eli', null],
	['2.3.6 on', 'owner to dora', [dora.lid, '']],
	['2.3.6 off', 'dora', [dora.lid, 'Dora']],
	['2.3.6 off', 'eli', [eli.lid, 'Eli']],
	['2.3.7 on', 'dora', [DORA_PHONE, 'Dora']],
	['2.3.7 on', 'eli', [eli.lid, 'Eli']],
	['2.3.7 on', 'owner to dora', [DORA_PHONE, '']],
	['2.3.7 off', 'dora', [DORA_PHONE, 'Dora']],
	['2.4.0 on', 'dora', [dora.lid, 'Dora']],
	['2.4.0 on', 'eli', [eli.lid, 'Eli']],
	['2.4.0 off', 'eli', [eli.lid, 'Eli']],
];

/**
 * whatsappNumbers (report D3, D4; research §2.2, §2.3): before anyone wrote, and after Dora's
 * (or Eli's) direct message. `asked first` asks the same numbers once before the message too.
 */
type When = 'before' | 'after dora' | 'after eli' | 'asked first, after dora';
const LID_ENTRY = { jid: dora.lid, exists: true, number: dora.lid, lid: 'lid' };
const PHONE_ENTRY = { jid: DORA_PHONE, exists: true, number: dora.number };
const NUMBER_ROWS: Array<[string, When, string[], Body[]]> = [
	// Before any message: as before this change, in every release that caches.
	['2.3.6 on', 'before', [dora.lid, dora.number], [LID_ENTRY, PHONE_ENTRY]],
	['2.3.7 on', 'before', [dora.lid, dora.number], [LID_ENTRY, PHONE_ENTRY]],
	['2.4.0 on', 'before', [dora.lid, dora.number], [LID_ENTRY, PHONE_ENTRY]],
	// 2.3.6: the LID's row gives the name; the cache holds the phone only, flagged `lid`.
	['2.3.6 on', 'after dora', [dora.lid], [{ ...LID_ENTRY, name: 'Dora' }]],
	['2.3.6 on', 'after dora', [dora.number], [{ ...PHONE_ENTRY, lid: 'lid' }]],
	['2.3.6 on', 'asked first, after dora', [dora.lid], [{ ...LID_ENTRY, name: 'Dora' }]],
	[
		'2.3.6 off',
		'after dora',
		[dora.lid, dora.number],
		[{ ...LID_ENTRY, name: 'Dora' }, PHONE_ENTRY],
	],
	[
		'2.3.6 on',
		'after eli',
		[eli.lid],
		[{ jid: eli.lid, exists: true, number: eli.lid, lid: 'lid' }],
	],
	[
		'2.3.6 off',
		'after eli',
		[eli.lid],
		[{ jid: eli.lid, exists: true, number: eli.lid, name: 'Eli', lid: 'lid' }],
	],
	// 2.3.7: the row is under the phone, so the phone gets the name; the cache as 2.3.6's.
	['2.3.7 on', 'after dora', [dora.lid], [LID_ENTRY]],
	['2.3.7 on', 'after dora', [dora.number], [{ ...PHONE_ENTRY, name: 'Dora', lid: 'lid' }]],
	['2.3.7 off', 'after dora', [dora.number], [{ ...PHONE_ENTRY, name: 'Dora' }]],
	[
		'2.3.7 on',
		'after eli',
		[eli.lid],
		[{ jid: eli.lid, exists: true, number: eli.lid, name: 'Eli', lid: 'lid' }],
	],
	// 2.4.0: the cache holds the LID beside the phone: the LID is answered as the phone, no `lid`.
	['2.4.0 on', 'after dora', [dora.lid], [{ jid: DORA_PHONE, exists: true, number: dora.lid }]],
	[
		'2.4.0 on',
		'after dora',
		[dora.lid, dora.number],
		[{ jid: DORA_PHONE, exists: true, number: dora.lid }, PHONE_ENTRY],
	],
	[
		'2.4.0 on',
		'asked first, after dora',
		[dora.lid],
		[{ jid: DORA_PHONE, exists: true, number: dora.lid }],
	],
	['2.4.0 off', 'after dora', [dora.lid], [{ ...LID_ENTRY, name: 'Dora' }]],
	// 2.3.0 is unchanged: a known phone gets its LID, LIDs come last.
	[
		'2.3.0 on',
		'after dora',
		[dora.lid, dora.number],
		[{ ...PHONE_ENTRY, lid: dora.lid }, LID_ENTRY],
	],
];

describe.each(PLAYED)('$version, number cache $cache', (played) => {
	const sim = useSimulator({
		gateway: 'evolution-v2',
		evolutionVersion: played.version,
		evolutionNumberCache: played.cache,
	});
	const api = () => gatewayClient(sim);
	const mine = ([name]: [string, ...unknown[]]) =>
		name === `${played.version} ${played.cache ? 'on' : 'off'}`;
	const contactRows = CONTACT_ROWS.filter(mine);
	const numberRows = NUMBER_ROWS.filter(mine);

	it(`plays ${playedName(played)}`, async () => {
		expect((await gatewayClient(sim, null).get('/')).data.version).toBe(played.version);
	});

	it.each(contactRows)(
		'%s: findContacts {} and {page, offset} list the row %s wrote: %j',
		async (_played, writer, written) => {
			const write = WRITES[writer];
			await sim.injectInboundMessage({ ...write, text: 'Hi' });
			const list = async (body: Body) => {
				const response = await api().post(`/chat/findContacts/${INSTANCE}`, body);
				expect(response.status).toBe(200);
				return response.data as Array<Record<string, unknown>>;
			};
			for (const body of [{}, { page: 1, offset: 100 }]) {
				const rows = await list(body);
				const expected = written ? [...SEED_CONTACTS, written[0]] : SEED_CONTACTS;
				expect(rows.map((row) => row.remoteJid)).toEqual(expected);
				if (!written) continue;
				const saved = written[1] !== '';
				expect(rows.at(-1)).toEqual({
					id: `cmc${written[0].split('@')[0]}`,
					remoteJid: written[0],
					pushName: written[1],
					profilePicUrl: null,
					createdAt: expect.any(String),
					updatedAt: expect.any(String),
					instanceId: SEED.instances.connected.instanceId,
					isGroup: false,
					isSaved: saved,
					type: saved ? 'contact' : 'group_member',
				});
			}
			if (written) {
				const found = await list({ where: { remoteJid: written[0] } });
				expect(found.map((row) => [row.remoteJid, row.pushName])).toEqual([written]);
			}
		},
	);

	it.each(numberRows)(
		'%s: whatsappNumbers %s, %j → %j',
		async (_played, when, numbers, expected) => {
			const ask = () => api().post(`/chat/whatsappNumbers/${INSTANCE}`, { numbers });
			if (when === 'asked first, after dora') expect((await ask()).status).toBe(200);
			if (when !== 'before')
				await sim.injectInboundMessage({
					from: when === 'after eli' ? eli.lid : dora.lid,
					text: 'Hi',
				});
			const response = await ask();
			expect(response.status).toBe(200);
			expect(response.data).toEqual(expected);
		},
	);

	it('a LID asked for is cached as itself, and asking again answers the same', async () => {
		const ask = () =>
			api().post(`/chat/whatsappNumbers/${INSTANCE}`, { numbers: [eli.lid, alice.number] });
		const first = await ask();
		expect((await ask()).data).toEqual(first.data);
	});

	it('sends to a LID still go to the LID (the cache is read by whatsappNumbers only)', async () => {
		await sim.injectInboundMessage({ from: dora.lid, text: 'Hi' });
		const response = await api().post(`/message/sendText/${INSTANCE}`, {
			number: dora.lid,
			text: 'Hi',
		});
		expect(response.data.key.remoteJid).toBe(dora.lid);
	});
});

describe('findContacts rows written by messages', () => {
	const sim = useSimulator({ gateway: 'evolution-v2' });

	it.each([
		['a group message from Dora', { from: dora.lid, groupId: hikers.id }],
		['a message from a phone contact', { from: alice.number }],
	])('%s writes no LID row', async (_case, input) => {
		await sim.injectInboundMessage({ ...input, text: 'Hi' });
		const response = await gatewayClient(sim).post(`/chat/findContacts/${INSTANCE}`, {});
		expect(response.data.map((row: { remoteJid: string }) => row.remoteJid)).toEqual(SEED_CONTACTS);
	});

	it('reset() forgets the rows and the cache', async () => {
		await sim.injectInboundMessage({ from: dora.lid, text: 'Hi' });
		sim.reset();
		const contacts = await gatewayClient(sim).post(`/chat/findContacts/${INSTANCE}`, {});
		expect(contacts.data).toHaveLength(SEED_CONTACTS.length);
		const numbers = await gatewayClient(sim).post(`/chat/whatsappNumbers/${INSTANCE}`, {
			numbers: [dora.lid],
		});
		expect(numbers.data).toEqual([LID_ENTRY]);
	});
});
