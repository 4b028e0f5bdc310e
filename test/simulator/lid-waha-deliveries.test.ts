/**
 * What each WAHA engine delivers for people addressed by LID (`wahaEngine`): the exact shape for
 * Dora (phone known) and Eli (phone unknown), direct and in a group, and the envelope's `me`.
 */
import { SEED, type InboundMessageInput, type WahaEngine } from './index.cts';
import { useSimulator, useWebhookReceiver } from './testing.cts';
import { subscribeWebhook, wahaClient } from './waha-testing.cts';

const connected = SEED.instances.connected;
const SESSION = connected.name;
const ME = connected.ownerChatId;
const { dora, eli } = SEED.lidPeople;
const { hikers } = SEED.groups;
const DORA_PHONE_JID = `${dora.number}@s.whatsapp.net`;
const ENGINES: WahaEngine[] = ['NOWEB', 'GOWS', 'WEBJS'];

type Case = 'dora direct' | 'eli direct' | 'dora in a group' | 'eli in a group' | 'owner to dora';
const INPUTS: Record<Case, InboundMessageInput> = {
	'dora direct': { from: dora.lid, text: 'Hi' },
	'eli direct': { from: eli.lid, text: 'Hi' },
	'dora in a group': { from: dora.lid, groupId: hikers.id, text: 'Hi' },
	'eli in a group': { from: eli.lid, groupId: hikers.id, text: 'Hi' },
	'owner to dora': { from: dora.lid, fromMe: true, text: 'Hi' },
};

interface Expected {
	/** Top-level WAMessage fields. */
	top: Record<string, unknown>;
	/** The engine's raw part, compared exactly: NOWEB `_data.key`, GOWS `_data.Info`, WEBJS `_data`. */
	raw: Record<string, unknown>;
}

/** What each engine delivers for each case (research: waha-lid §1); `id` is the message's short id. */
const DELIVERIES: Record<WahaEngine, Record<Case, (id: string) => Expected>> = {
	NOWEB: {
		'dora direct': (id) => ({
			top: { from: dora.lid, participant: null },
			raw: {
				remoteJid: dora.lid,
				remoteJidAlt: DORA_PHONE_JID,
				fromMe: false,
				id,
				addressingMode: 'lid',
			},
		}),
		'eli direct': (id) => ({
			top: { from: eli.lid, participant: null },
			raw: { remoteJid: eli.lid, fromMe: false, id, addressingMode: 'lid' },
		}),
		'dora in a group': (id) => ({
			top: { from: hikers.id, participant: dora.lid },
			raw: {
				remoteJid: hikers.id,
				fromMe: false,
				id,
				participant: dora.lid,
				participantAlt: DORA_PHONE_JID,
				addressingMode: 'lid',
			},
		}),
		'eli in a group': (id) => ({
			top: { from: hikers.id, participant: eli.lid },
			raw: { remoteJid: hikers.id, fromMe: false, id, participant: eli.lid, addressingMode: 'lid' },
		}),
		'owner to dora': (id) => ({
			top: { to: dora.lid, fromMe: true },
			raw: {
				remoteJid: dora.lid,
				remoteJidAlt: DORA_PHONE_JID,
				fromMe: true,
				id,
				addressingMode: 'lid',
			},
		}),
	},
	GOWS: {
		'dora direct': (id) => ({
			top: { from: dora.lid, to: null, participant: null },
			raw: gowsInfo(id, {
				Chat: dora.lid,
				Sender: '198765432101234:12@lid',
				SenderAlt: '5511987650005:12@s.whatsapp.net',
				PushName: 'Dora',
			}),
		}),
		'eli direct': (id) => ({
			top: { from: eli.lid, to: null, participant: null },
			raw: gowsInfo(id, { Chat: eli.lid, Sender: '176543210987654:12@lid', PushName: 'Eli' }),
		}),
		'dora in a group': (id) => ({
			top: { from: hikers.id, to: dora.lid, participant: dora.lid },
			raw: gowsInfo(id, {
				Chat: hikers.id,
				Sender: '198765432101234:12@lid',
				SenderAlt: '5511987650005:12@s.whatsapp.net',
				IsGroup: true,
				PushName: 'Dora',
			}),
		}),
		'eli in a group': (id) => ({
			top: { from: hikers.id, to: eli.lid, participant: eli.lid },
			raw: gowsInfo(id, {
				Chat: hikers.id,
				Sender: '176543210987654:12@lid',
				IsGroup: true,
				PushName: 'Eli',
			}),
		}),
		'owner to dora': (id) => ({
			top: { from: dora.lid, to: null, fromMe: true },
			raw: gowsInfo(id, {
				Chat: dora.lid,
				Sender: connected.lid,
				RecipientAlt: DORA_PHONE_JID,
				IsFromMe: true,
				PushName: connected.profileName,
			}),
		}),
	},
	WEBJS: {
		'dora direct': webjsDirect(dora, 'Dora'),
		'eli direct': webjsDirect(eli, 'Eli'),
		'dora in a group': webjsInGroup(dora, 'Dora'),
		'eli in a group': webjsInGroup(eli, 'Eli'),
		'owner to dora': (id) => ({
			top: { from: ME, to: dora.lid, fromMe: true },
			raw: webjsData(id, {
				fromMe: true,
				remote: dora.lid,
				from: ME,
				to: dora.lid,
				notifyName: connected.profileName,
			}),
		}),
	},
};

function gowsInfo(id: string, fields: Record<string, unknown>) {
	return {
		ID: id,
		IsFromMe: false,
		IsGroup: false,
		AddressingMode: 'lid',
		Timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
		...fields,
	};
}

/** WEBJS's delivery of a person's message in their direct chat: `from` is the LID, no phone. */
function webjsDirect(person: { lid: string }, notifyName: string) {
	return (id: string) => ({
		top: { from: person.lid, to: ME, participant: null },
		raw: webjsData(id, { fromMe: false, remote: person.lid, from: person.lid, to: ME, notifyName }),
	});
}

/** WEBJS's delivery of a person's message in a group: the group is `from`, the LID the author. */
function webjsInGroup(person: { lid: string }, notifyName: string) {
	return (id: string) => ({
		top: { from: hikers.id, participant: person.lid, author: person.lid },
		raw: webjsData(id, {
			fromMe: false,
			remote: hikers.id,
			from: hikers.id,
			to: ME,
			author: person.lid,
			notifyName,
		}),
	});
}

function webjsData(
	id: string,
	fields: {
		fromMe: boolean;
		remote: string;
		from: string;
		to: string;
		notifyName: string;
		author?: string;
	},
) {
	const { fromMe, remote, ...rest } = fields;
	return {
		id: { fromMe, remote, id, _serialized: `${fromMe}_${remote}_${id}` },
		body: 'Hi',
		type: 'chat',
		t: expect.any(Number),
		...rest,
	};
}

function rawOf(engine: WahaEngine, payload: unknown) {
	const data = (payload as { _data: Record<string, unknown> })._data;
	if (engine === 'NOWEB') return data.key;
	return engine === 'GOWS' ? data.Info : data;
}

const DELIVERY_ROWS = ENGINES.flatMap((engine) =>
	(Object.keys(INPUTS) as Case[]).map((name) => [engine, name] as const),
);

describe.each(ENGINES)('WAHA %s and LID people', (engine) => {
	const sim = useSimulator({ gateway: 'waha', wahaEngine: engine });
	const receiver = useWebhookReceiver();
	const api = () => wahaClient(sim);

	const subscribe = (events: string[]) => subscribeWebhook(sim, SESSION, receiver.url, events);

	it.each(DELIVERY_ROWS.filter(([rowEngine]) => rowEngine === engine))(
		'%s delivers %s as that engine does',
		async (_engine, name) => {
			const input = INPUTS[name];
			await subscribe([input.fromMe ? 'message.any' : 'message']);
			const stored = await sim.injectInboundMessage(input);
			const [delivery] = await sim.waitForDeliveries(1);
			const expected = DELIVERIES[engine][name](stored.shortId);
			expect(delivery.body.payload).toMatchObject({ id: stored.id, ...expected.top });
			expect(rawOf(engine, delivery.body.payload)).toEqual(expected.raw);
			expect(rawOf(engine, stored.waha)).toEqual(expected.raw);
		},
	);

	if (engine === 'WEBJS') {
		it("WEBJS never carries Dora's phone", async () => {
			await subscribe(['message']);
			await sim.injectInboundMessage({ from: dora.lid, groupId: hikers.id, text: 'Hi' });
			await sim.injectInboundMessage({ from: dora.lid, text: 'Hi' });
			const deliveries = await sim.waitForDeliveries(2);
			for (const delivery of deliveries)
				expect(JSON.stringify(delivery.body.payload)).not.toContain(dora.number);
		});
	}

	it("puts the account's LID in the envelope's `me`, and names the engine", async () => {
		await subscribe(['message']);
		await sim.injectInboundMessage({ from: eli.lid, text: 'Hi' });
		const [delivery] = await sim.waitForDeliveries(1);
		expect(delivery.body).toMatchObject({
			me: { id: ME, pushName: connected.profileName, lid: connected.lid },
			engine,
			environment: { engine },
		});
		const version = await api().get('/api/server/version');
		expect(version.data.engine).toBe(engine);
		const session = await api().get(`/api/sessions/${SESSION}`);
		expect(session.data).toMatchObject({ engine: { engine }, me: { lid: connected.lid } });
	});
});
