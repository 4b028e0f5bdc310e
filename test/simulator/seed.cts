// Seed data: what a fresh (or reset) simulator holds. Tests refer to it through SEED.
import {
	assertShortIdLength,
	contactChatId,
	contactJid,
	fullMessageId,
	chatIdToJid,
} from './ids.cts';
import { samplePdf, samplePhoto, fileFromBuffer, extensionFor } from './media.cts';
import type { StoredFile } from './media.cts';
import { avatarPng } from './png.cts';
import type { Rgb } from './png.cts';
import {
	ACK_STATUSES,
	REGISTERED_NUMBER_PREFIX,
	addMessage,
	labelChat,
	labelsOf,
	recordStatus,
	type Channel,
	type Contact,
	type Group,
	type Instance,
	type MessageContent,
	type SimState,
	type StoredMessage,
} from './state.cts';
import { CHANNEL_DIRECTORY } from './seed-channels.cts';

/** The key `npm run simulator` and `startSimulator()` use when none is given. */
export const DEFAULT_API_KEY = 'sim-dev-api-key-0000';

/** 2026-01-01T10:00:00Z: seed messages are spread over the minutes after it. */
const SEED_EPOCH = 1767261600;

function contactSeed(number: string, name: string, pushName: string) {
	return { number, name, pushName, chatId: contactChatId(number), jid: contactJid(number) };
}

function messageSeed(fromMe: boolean, chatId: string, shortId: string) {
	assertShortIdLength(shortId);
	return {
		id: fullMessageId(fromMe, chatId, shortId),
		shortId,
		chatId,
		remoteJid: chatIdToJid(chatId),
		fromMe,
	};
}

const alice = contactSeed('5511987650001', 'Alice Martins', 'Alice');
const bruno = contactSeed('5511987650002', 'Bruno Costa', 'Bruno');
const bakery = contactSeed('5511987650003', 'Padaria Aurora', 'Padaria Aurora');
const carla = contactSeed('5511987650004', '', 'Carla');
const hikersId = '120363041234567890@g.us';
const teamId = '120363049876543210@g.us';

function deepFreeze<T>(value: T): T {
	if (typeof value === 'object' && value !== null) {
		for (const child of Object.values(value)) deepFreeze(child);
		Object.freeze(value);
	}
	return value;
}

/** Frozen, so one test cannot change the ids another test relies on. */
export const SEED = deepFreeze({
	defaultApiKey: DEFAULT_API_KEY,
	/** Unknown numbers starting with this prefix are treated as registered (instance-family sends work). */
	registeredNumberPrefix: REGISTERED_NUMBER_PREFIX,
	/** A well-formed number that is not on the network: instance-family sends answer 400 exists:false. */
	unregisteredNumber: '4915123456789',
	instances: {
		/** Connected (`open` / WORKING) and holding all the seed data below. */
		connected: {
			name: 'acme-sales',
			token: 'acme-sales-instance-token',
			instanceId: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
			ownerNumber: '5511987650000',
			ownerChatId: contactChatId('5511987650000'),
			ownerJid: contactJid('5511987650000'),
			profileName: 'Acme Sales',
			profileStatus: 'Sales desk, weekdays 9am to 6pm',
			/** The account's own LID: WAHA's `me.lid`. */
			lid: '100000000000001@lid',
		},
		/** Waiting for a QR scan or pairing code (`connecting` / SCAN_QR_CODE); no data yet. */
		pairing: {
			name: 'acme-support',
			token: 'acme-support-instance-token',
			instanceId: '0b9a8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d',
			/** The number the account gets once it is connected. */
			ownerNumber: '5511987650099',
			profileName: 'Acme Support',
		},
	},
	contacts: {
		/** Saved contact with a profile picture. */
		alice,
		/** Saved contact without a profile picture. */
		bruno,
		/** Business account (fetchBusinessProfile returns a business profile). */
		bakery,
		/** Not in the address book; member of the hikers group. */
		carla,
	},
	groups: {
		/** Owner is superadmin, Alice admin, Bruno and Carla members. */
		hikers: { id: hikersId, subject: 'Weekend Hikers', inviteCode: 'Hk7Q2mXv9LpR4tYc8WnB3s' },
		/** Alice is superadmin, the owner admin; announce and restrict on. */
		team: { id: teamId, subject: 'Acme Team', inviteCode: 'Tm3N8bVc1XzQ6pLk0JhG5d' },
	},
	channels: {
		updates: { id: '120363150000000001@newsletter', name: 'Acme Updates' },
	},
	/**
	 * People WhatsApp addresses by LID. Not in the address book, any group or any count above; both
	 * are on the network (sends to their LID or their number succeed).
	 */
	lidPeople: {
		/** The gateway knows her phone: deliveries carry it where the product does, lookups answer it. */
		dora: { lid: '198765432101234@lid', number: '5511987650005', name: 'Dora' },
		/** The gateway does not know his phone: deliveries carry only the LID, lookups answer null. */
		eli: { lid: '176543210987654@lid', number: '5511987650006', name: 'Eli' },
	},
	/**
	 * The connected instance's WhatsApp Business labels (`color` is WhatsApp's colour number,
	 * `colorHex` the colour WAHA gives it): "New customer" is one of WhatsApp Business' own
	 * (`predefinedId`), "Paid" the account's. Alice's chat has "Paid".
	 */
	labels: {
		newCustomer: {
			id: '1',
			name: 'New customer',
			color: 1,
			colorHex: '#64c4ff',
			predefinedId: '1',
		},
		paid: { id: '2', name: 'Paid', color: 5, colorHex: '#55ccb3' },
	},
	messages: {
		/** Alice: "Hi! Is order #1042 ready for pickup?" */
		aliceText: messageSeed(false, alice.chatId, '3A1F0C2B9D8E7A6B5C40'),
		/** Our reply to aliceText (quoted), read by Alice. */
		replyToAlice: messageSeed(true, alice.chatId, '3EB0C1D2E3F405162738'),
		/** Alice sends a PNG photo with a caption. */
		aliceImage: messageSeed(false, alice.chatId, '3A9B8C7D6E5F40312A1B'),
		/** The bakery sends a PDF invoice. */
		bakeryDocument: messageSeed(false, bakery.chatId, '3A2B4C6D8E0F1A3B5C7D'),
		/** Bruno shares a location. */
		brunoLocation: messageSeed(false, bruno.chatId, '3A5E6F7A8B9C0D1E2F3A'),
		/** Bruno shares a contact card (vCard). */
		brunoVcard: messageSeed(false, bruno.chatId, '3A0A1B2C3D4E5F6A7B8C'),
		/** We thank Bruno (delivered, not read). */
		thanksToBruno: messageSeed(true, bruno.chatId, '3EB0A1B2C3D4E5F60718'),
		/** Carla writes in the hikers group. */
		hikersQuestion: messageSeed(false, hikersId, '3AC4D5E6F708192A3B4C'),
	},
});

const COLOURS: Record<string, Rgb> = {
	owner: [37, 99, 235],
	alice: [219, 39, 119],
	bakery: [234, 88, 12],
	carla: [124, 58, 237],
	hikers: [22, 163, 74],
};

function avatar(colour: Rgb): StoredFile {
	return fileFromBuffer('image/png', avatarPng(colour));
}

/** An instance with no contacts, groups or messages (also what WAHA's POST /api/sessions makes). */
export function emptyInstance(
	fields: Pick<Instance, 'name' | 'instanceId' | 'token' | 'state' | 'ownerNumber' | 'profileName'>,
): Instance {
	return {
		...fields,
		wuid: null,
		profileStatus: '',
		profilePictureFile: null,
		presence: 'available',
		pairingCode: null,
		webhook: null,
		contacts: new Map(),
		lidPeople: new Map(),
		groups: new Map(),
		channels: new Map(),
		chats: new Map(),
		messages: new Map(),
		files: new Map(),
	};
}

function seedContacts(instance: Instance): void {
	const bakeryProfile = {
		description: 'Artisan bakery. Fresh bread every morning, cakes to order.',
		website: ['https://padaria-aurora.example.com'],
		email: 'orders@padaria-aurora.example.com',
		category: 'Bakery',
		address: 'Rua Augusta 1200, São Paulo, SP',
		business_hours: {
			timezone: 'America/Sao_Paulo',
			business_config: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((day) => ({
				day_of_week: day,
				mode: 'specific_hours',
				open_time: 420,
				close_time: 1140,
			})),
		},
	};
	const contacts: Contact[] = [
		{
			...pick(alice),
			verifiedName: '',
			businessName: '',
			pictureFile: `avatar-${alice.number}.png`,
		},
		{ ...pick(bruno), verifiedName: '', businessName: '' },
		{
			...pick(bakery),
			verifiedName: 'Padaria Aurora',
			businessName: 'Padaria Aurora Ltda',
			pictureFile: `avatar-${bakery.number}.png`,
			business: bakeryProfile,
		},
		{
			...pick(carla),
			verifiedName: '',
			businessName: '',
			pictureFile: `avatar-${carla.number}.png`,
		},
	];
	for (const contact of contacts) instance.contacts.set(contact.number, contact);
	instance.files.set(`avatar-${alice.number}.png`, avatar(COLOURS.alice));
	instance.files.set(`avatar-${bakery.number}.png`, avatar(COLOURS.bakery));
	instance.files.set(`avatar-${carla.number}.png`, avatar(COLOURS.carla));
}

function seedLidPeople(instance: Instance): void {
	const { dora, eli } = SEED.lidPeople;
	instance.lidPeople.set(dora.lid, { lid: dora.lid, phone: dora.number, pushName: dora.name });
	instance.lidPeople.set(eli.lid, { lid: eli.lid, phone: null, pushName: eli.name });
}

function pick(seed: { number: string; name: string; pushName: string }) {
	return { number: seed.number, name: seed.name, pushName: seed.pushName };
}

function seedGroups(instance: Instance): void {
	const owner = instance.ownerNumber;
	const hikers: Group = {
		id: SEED.groups.hikers.id,
		subject: SEED.groups.hikers.subject,
		subjectOwner: owner,
		subjectTime: SEED_EPOCH - 86400 * 30,
		creation: SEED_EPOCH - 86400 * 60,
		owner,
		desc: 'Trail plans for every Saturday. Meet at 7am.',
		descId: 'BAE57E16498982ED',
		restrict: false,
		announce: false,
		pictureFile: 'group-hikers.png',
		participants: [
			{ number: owner, admin: 'superadmin' },
			{ number: alice.number, admin: 'admin' },
			{ number: bruno.number, admin: null },
			{ number: carla.number, admin: null },
		],
		inviteCode: SEED.groups.hikers.inviteCode,
	};
	const team: Group = {
		id: SEED.groups.team.id,
		subject: SEED.groups.team.subject,
		subjectOwner: alice.number,
		subjectTime: SEED_EPOCH - 86400 * 10,
		creation: SEED_EPOCH - 86400 * 90,
		owner: alice.number,
		desc: 'Announcements for the Acme team.',
		descId: 'BAE5F0A1B2C3D4E5',
		restrict: true,
		announce: true,
		participants: [
			{ number: alice.number, admin: 'superadmin' },
			{ number: owner, admin: 'admin' },
			{ number: bruno.number, admin: null },
		],
		inviteCode: SEED.groups.team.inviteCode,
	};
	instance.groups.set(hikers.id, hikers);
	instance.groups.set(team.id, team);
	instance.files.set('group-hikers.png', avatar(COLOURS.hikers));
	for (const group of [hikers, team])
		instance.chats.set(group.id, { id: group.id, archived: false, pinned: false, unreadCount: 0 });
}

/** The labels the account has, and Alice's chat labelled "Paid". */
function seedLabels(instance: Instance): void {
	for (const label of Object.values(SEED.labels)) {
		const { id, name, color } = label;
		const predefined = 'predefinedId' in label ? { predefinedId: label.predefinedId } : {};
		labelsOf(instance).set(id, { id, name, color, ...predefined });
	}
	labelChat(instance, alice.chatId, SEED.labels.paid.id, true);
}

function seedChannels(instance: Instance): void {
	const updates: Channel = {
		id: SEED.channels.updates.id,
		name: SEED.channels.updates.name,
		description: 'Product news and opening hours from Acme.',
		invite: 'https://www.messenger.net/channel/0029VaAcmeUpdates00000000',
		role: 'OWNER',
		verified: false,
		subscribersCount: 1280,
	};
	instance.channels.set(updates.id, updates);
}

type SeedMessage = ReturnType<typeof messageSeed>;

function seedMessage(
	instance: Instance,
	seed: SeedMessage,
	minute: number,
	content: MessageContent,
	extra: Partial<StoredMessage> = {},
): StoredMessage {
	const number = seed.fromMe ? instance.ownerNumber : (extra.author ?? seed.chatId.split('@')[0]);
	const message: StoredMessage = {
		shortId: seed.shortId,
		chatId: seed.chatId,
		fromMe: seed.fromMe,
		timestamp: SEED_EPOCH + minute * 60,
		content,
		source: seed.fromMe ? 'api' : 'app',
		pushName: seed.fromMe ? instance.profileName : (instance.contacts.get(number)?.pushName ?? ''),
		ack: seed.fromMe ? 3 : 1,
		statusLog: [],
		reactions: {},
		...extra,
	};
	if (message.fromMe) {
		for (let ack = 1; ack <= message.ack; ack++) {
			recordStatus(message, ACK_STATUSES[ack], (message.timestamp + ack * 5) * 1000);
		}
	}
	return addMessage(instance, message);
}

function mediaContent(
	instance: Instance,
	shortId: string,
	file: StoredFile,
	fileName: string,
	caption: string,
): MessageContent {
	const key = `${shortId}.${extensionFor(file.mimetype)}`;
	instance.files.set(key, file);
	const mediaType = file.mimetype.startsWith('image/') ? 'imageMessage' : 'documentMessage';
	return { type: 'media', mediaType, file: key, fileName, mimetype: file.mimetype, caption };
}

function seedMessages(instance: Instance): void {
	const m = SEED.messages;
	seedMessage(instance, m.aliceText, 0, {
		type: 'text',
		text: 'Hi! Is order #1042 ready for pickup?',
	});
	seedMessage(
		instance,
		m.replyToAlice,
		2,
		{ type: 'text', text: 'Yes, it is ready. See you at 5 pm!' },
		{
			quotedId: m.aliceText.shortId,
		},
	);
	seedMessage(
		instance,
		m.aliceImage,
		4,
		mediaContent(instance, m.aliceImage.shortId, samplePhoto(), 'trail-map.png', 'The trail map'),
	);
	seedMessage(
		instance,
		m.bakeryDocument,
		6,
		mediaContent(
			instance,
			m.bakeryDocument.shortId,
			samplePdf('Invoice #1042 - Padaria Aurora'),
			'invoice-1042.pdf',
			'Invoice for order #1042',
		),
	);
	seedMessage(instance, m.brunoLocation, 8, {
		type: 'location',
		latitude: -23.5874,
		longitude: -46.6576,
		name: 'Ibirapuera Park, Gate 3',
		address: 'Av. Pedro Alvares Cabral, Sao Paulo',
	});
	seedMessage(instance, m.brunoVcard, 9, {
		type: 'vcard',
		displayName: 'Diego Ramos',
		vcard:
			'BEGIN:VCARD\nVERSION:3.0\nFN:Diego Ramos\nTEL;type=CELL;waid=5511987650042:+55 11 98765-0042\nEND:VCARD',
	});
	seedMessage(
		instance,
		m.thanksToBruno,
		10,
		{ type: 'text', text: 'Thanks for the location!' },
		{ ack: 2 },
	);
	seedMessage(
		instance,
		m.hikersQuestion,
		12,
		{ type: 'text', text: 'Who is bringing the map on Saturday?' },
		{
			author: carla.number,
		},
	);
}

export function buildSeedState(): SimState {
	const connectedSeed = SEED.instances.connected;
	const connected = emptyInstance({
		name: connectedSeed.name,
		instanceId: connectedSeed.instanceId,
		token: connectedSeed.token,
		state: 'open',
		ownerNumber: connectedSeed.ownerNumber,
		profileName: connectedSeed.profileName,
	});
	connected.wuid = connectedSeed.ownerJid;
	connected.profileStatus = connectedSeed.profileStatus;
	connected.lid = connectedSeed.lid;
	connected.profilePictureFile = 'profile-picture.png';
	connected.files.set('profile-picture.png', avatar(COLOURS.owner));
	seedContacts(connected);
	seedLidPeople(connected);
	seedGroups(connected);
	seedChannels(connected);
	seedMessages(connected);
	seedLabels(connected);

	const pairingSeed = SEED.instances.pairing;
	const pairing = emptyInstance({
		name: pairingSeed.name,
		instanceId: pairingSeed.instanceId,
		token: pairingSeed.token,
		state: 'connecting',
		ownerNumber: pairingSeed.ownerNumber,
		profileName: pairingSeed.profileName,
	});

	return {
		instances: new Map([
			[connected.name, connected],
			[pairing.name, pairing],
		]),
		channelDirectory: CHANNEL_DIRECTORY.map((channel) => ({ ...channel })),
	};
}
