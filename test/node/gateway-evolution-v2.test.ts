/**
 * The credential's Gateway set to Evolution API v2: operations go out as v2's own routes and
 * bodies, answers are read in v2's shapes into the outputs the node documents, and what v2 does not
 * offer is refused before any request. A credential without the choice stays on the Messaging
 * Gateway API (the other suites run that way, unchanged). Run in n8n's engine over real HTTP.
 */
import type { INodeParameters } from 'n8n-workflow';

import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { SEED } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { byId, runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';
import { startScriptedServer } from '../support/scripted-server.cts';
import type { ScriptedServer } from '../support/scripted-server.cts';

/** The gateway's global key (a test value). */
const GLOBAL = ['evolution', 'v2', 'global'].join('-');
const SESSION = 'acme-sales';
const ALICE = '5511987650001';
const GROUP = '120363041234567890@g.us';
const QUOTED = `false_${ALICE}@c.us_3EB0C767D26A1D3BB2F1`;
/** What 2.3.6's sendText answers (its Baileys service: the sent message as stored). */
const SENT = {
	key: { remoteJid: `${ALICE}@s.whatsapp.net`, fromMe: true, id: '3EB0A1B2C3D4E5F60718' },
	pushName: '',
	status: 'PENDING',
	message: { conversation: 'Hello' },
	messageType: 'conversation',
	messageTimestamp: 1764000000,
	instanceId: 'c2b8a7e0-0000-4000-8000-000000000001',
	source: 'unknown',
};

let gateway: ScriptedServer;

beforeAll(async () => {
	gateway = await startScriptedServer();
});
afterAll(async () => {
	await gateway.stop();
});
beforeEach(() => {
	gateway.requests.length = 0;
});

async function onV2(parameters: INodeParameters, options: RunGatewayOptions = {}) {
	return await runGateway(
		{ url: gateway.url, apiKey: GLOBAL },
		{ session: SESSION, ...parameters },
		{ gateway: 'evolutionV2', ...options },
	);
}

const bodies = () => gateway.requests.map((request) => JSON.parse(request.body || 'null'));

/** What Evolution API 2.3.6's own validation says of every request the gateway received. */
const verdicts = () =>
	gateway.requests.map((request) => {
		const url = new URL(request.url, 'http://gateway');
		return checkEvolutionV2({
			method: request.method,
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			body: JSON.parse(request.body || 'null') ?? undefined,
		});
	});

describe('Message → Send Text on Evolution API v2', () => {
	it.each([
		['plain', {}, { number: ALICE, text: 'Hello' }],
		[
			'with delay, link preview off and a reply',
			{ delay: 1200, linkPreview: false, replyTo: QUOTED },
			{
				number: ALICE,
				text: 'Hello',
				delay: 1200,
				linkPreview: false,
				quoted: {
					key: { id: '3EB0C767D26A1D3BB2F1', remoteJid: `${ALICE}@s.whatsapp.net`, fromMe: false },
				},
			},
		],
	])(
		'%s: v2 flat body, apikey header, the full message ID in the output',
		async (_name, options, body) => {
			gateway.respondWith({ status: 201, body: SENT });

			const result = await onV2(
				{ resource: 'message', operation: 'sendText', chatId: byId(ALICE), text: 'Hello', options },
				// A header chosen for another gateway does not apply to Evolution API v2.
				{ keyHeader: 'X-Api-Key' },
			);

			expect(result.error?.message).toBeUndefined();
			expect(gateway.requests.map((request) => [request.method, request.url])).toEqual([
				['POST', `/message/sendText/${SESSION}`],
			]);
			expect(gateway.requests[0].headers.apikey).toBe(GLOBAL);
			expect(gateway.requests[0].headers['x-api-key']).toBeUndefined();
			expect(bodies()).toEqual([body]);
			expect(verdicts()).toEqual([
				{ outcome: 'accepted', endpoint: 'POST /message/sendText/{instanceName}' },
			]);
			expect(result.outputs[0][0].json).toEqual({
				...SENT,
				messageId: `true_${ALICE}@c.us_3EB0A1B2C3D4E5F60718`,
			});
		},
	);

	it('mentions in a group: mentioned numbers and mentionsEveryOne, as v2 names them', async () => {
		gateway.respondWith({ status: 201, body: { ...SENT, key: { ...SENT.key, remoteJid: GROUP } } });

		const result = await onV2({
			resource: 'message',
			operation: 'sendText',
			chatId: byId(GROUP),
			text: 'Hi @5511987650002',
			options: { mentionEveryone: true, mentionNumbers: '+55 11 98765-0002' },
		});

		expect(result.error?.message).toBeUndefined();
		expect(bodies()).toEqual([
			{
				number: GROUP,
				text: 'Hi @5511987650002',
				mentioned: ['5511987650002'],
				mentionsEveryOne: true,
			},
		]);
		expect(verdicts().map((verdict) => verdict.outcome)).toEqual(['accepted']);
	});

	it('Presence While Delaying is not sent: v2 has no such field and shows typing by itself', async () => {
		gateway.respondWith({ status: 201, body: SENT });

		const result = await onV2({
			resource: 'message',
			operation: 'sendText',
			chatId: byId(ALICE),
			text: 'Hello',
			options: { delay: 500, presence: 'recording' },
		});

		expect(result.error?.message).toBeUndefined();
		expect(bodies()).toEqual([{ number: ALICE, text: 'Hello', delay: 500 }]);
	});
});

describe('what Evolution API v2 does not offer is refused before any request, saying so', () => {
	it.each([
		[
			'channel',
			'create',
			{ name: 'News' },
			/^Channel → Create is not available on Evolution API v2: Evolution API v2 has no channels/,
		],
		[
			'channel',
			'search',
			{},
			/^Channel → Search is not available on Evolution API v2: Evolution API v2 has no channels/,
		],
		[
			'group',
			'refresh',
			{},
			/^Group → Refresh is not available on Evolution API v2: .*Group → Get Many reads the groups live/,
		],
	])('%s → %s', async (resource, operation, parameters, message) => {
		const result = await onV2({ resource, operation, ...parameters });

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toMatch(/The credential's Gateway is Evolution API v2/);
		expect(gateway.requests).toEqual([]);
	});

	it('with "Continue (using error output)" every item goes to the error output, paired', async () => {
		const result = await onV2(
			{ resource: 'channel', operation: 'create', name: 'News' },
			{ items: [{ json: {} }, { json: {} }], onError: 'continueErrorOutput' },
		);

		const [success, errors] = result.outputs;
		expect(success).toEqual([]);
		expect(errors.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(gateway.requests).toEqual([]);
	});
});

describe('a credential without the Gateway choice (saved before it existed)', () => {
	it('stays on the Messaging Gateway API: Send Text goes out as before', async () => {
		gateway.respondWith({ status: 201, body: SENT });

		const result = await runGateway(
			{ url: gateway.url, apiKey: GLOBAL },
			{
				session: SESSION,
				resource: 'message',
				operation: 'sendText',
				chatId: byId(ALICE),
				text: 'Hi',
			},
		);

		expect(result.error?.message).toBeUndefined();
		expect(bodies()).toEqual([{ number: ALICE, textMessage: { text: 'Hi' } }]);
	});
});

describe('every send, against the simulator playing Evolution API 2.3.6', () => {
	const v2 = useSimulator({ gateway: 'evolution-v2' });

	const PNG_BASE64 = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
	it.each<[string, string, INodeParameters]>([
		['text', 'sendText', { text: 'Hello', options: { delay: 100, linkPreview: false } }],
		[
			'location with name and address',
			'sendLocation',
			{ latitude: -23.55, longitude: -46.63, name: 'Office', address: 'Av. Paulista, 1000' },
		],
		['location without name or address', 'sendLocation', { latitude: -23.55, longitude: -46.63 }],
		[
			'contact card',
			'sendContact',
			{ contacts: { contact: [{ fullName: 'Acme Support', phoneNumber: '5511987650003' }] } },
		],
		[
			'list without a footer',
			'sendList',
			{
				title: 'Menu',
				description: 'Pick one',
				buttonText: 'Open',
				rows: { row: [{ title: 'Soup' }, { title: 'Salad' }] },
			},
		],
		[
			'image from a URL with a caption',
			'sendMedia',
			{ mediaSource: 'url', mediaUrl: 'https://cdn.example.com/a.png', caption: 'Our menu' },
		],
		['voice note from base64', 'sendAudio', { mediaSource: 'base64', mediaBase64: 'SUQzBAAAAAAA' }],
		[
			'poll, one answer',
			'sendPoll',
			{ question: 'Lunch?', pollOptions: ['Soup', 'Salad'], multipleAnswers: false },
		],
		[
			'poll, several answers',
			'sendPoll',
			{ question: 'Toppings?', pollOptions: ['Cheese', 'Ham', 'Olives'], multipleAnswers: true },
		],
		['sticker from base64', 'sendSticker', { mediaSource: 'base64', mediaBase64: PNG_BASE64 }],
	])(
		'%s: valid for 2.3.6, the full message ID in the output',
		async (_name, operation, parameters) => {
			const result = await runGateway(
				v2,
				{
					resource: 'message',
					operation,
					session: SEED.instances.connected.name,
					chatId: byId(ALICE),
					...parameters,
				},
				{ gateway: 'evolutionV2' },
			);

			expect(result.error?.message).toBeUndefined();
			expect(v2.requests.map((request) => checkEvolutionV2(request))).toEqual([
				expect.objectContaining({ outcome: 'accepted' }),
			]);
			expect(result.outputs[0][0].json.messageId).toMatch(
				new RegExp(`^true_${ALICE}@c\\.us_[A-Z0-9]+$`),
			);
		},
	);
});

describe('the routes v2 changed (PUT → POST, readMessages, WhatsApp JIDs), against the v2 simulator', () => {
	const v2 = useSimulator({ gateway: 'evolution-v2' });

	const SESSION_V2 = SEED.instances.connected.name;
	const sendOne = async () => {
		const sent = await runGateway(
			v2,
			{
				resource: 'message',
				operation: 'sendText',
				session: SESSION_V2,
				chatId: byId(ALICE),
				text: 'Hi',
			},
			{ gateway: 'evolutionV2' },
		);
		return String(sent.outputs[0][0].json.messageId);
	};

	it.each<[string, string, string, (own: string) => INodeParameters, string]>([
		[
			'Mark as Read',
			'message',
			'markAsRead',
			(own) => ({ messageIds: own }),
			'POST /chat/markMessageAsRead/{instanceName}',
		],
		[
			'Edit',
			'message',
			'edit',
			(own) => ({ messageId: own, text: 'Hi again' }),
			'POST /chat/updateMessage/{instanceName}',
		],
		[
			'Delete for Everyone',
			'message',
			'deleteForEveryone',
			(own) => ({ messageId: own }),
			'DELETE /chat/deleteMessageForEveryone/{instanceName}',
		],
		[
			'Update Participants',
			'group',
			'updateParticipants',
			() => ({
				groupId: byId(SEED.groups.hikers.id),
				participantAction: 'promote',
				participants: SEED.contacts.bruno.number,
			}),
			'POST /group/updateParticipant/{instanceName}',
		],
		[
			'React',
			'message',
			'react',
			(own) => ({ messageId: own, reaction: '👍' }),
			'POST /message/sendReaction/{instanceName}',
		],
		[
			'Leave',
			'group',
			'leave',
			() => ({ groupId: byId(SEED.groups.team.id) }),
			'DELETE /group/leaveGroup/{instanceName}',
		],
		['Restart', 'session', 'restart', () => ({}), 'POST /instance/restart/{instanceName}'],
	])(
		'%s: the route and body v2.3.6 validates, answered',
		async (_name, resource, operation, parameters, endpoint) => {
			const own = await sendOne();
			v2.clearLogs();

			const result = await runGateway(
				v2,
				{ resource, operation, session: SESSION_V2, ...parameters(own) },
				{ gateway: 'evolutionV2' },
			);

			expect(result.error?.message).toBeUndefined();
			expect(v2.requests.map((request) => checkEvolutionV2(request))).toEqual([
				{ outcome: 'accepted', endpoint },
			]);
			expect(JSON.stringify(v2.requests[0].body ?? {})).not.toContain('s.messenger.net');
		},
	);
});

describe('operations whose route and body v2 kept, against the v2 simulator', () => {
	const v2 = useSimulator({ gateway: 'evolution-v2' });
	const GROUP_ID = SEED.groups.hikers.id;

	it.each<[string, string, INodeParameters, Record<string, unknown>]>([
		['contact', 'checkNumber', { numbers: ALICE }, { exists: true, number: ALICE }],
		[
			'contact',
			'getProfilePicture',
			{ contact: byId(ALICE) },
			{ profilePictureUrl: expect.any(String) },
		],
		[
			'contact',
			'getBusinessProfile',
			{ contact: byId(SEED.contacts.bakery.number) },
			{ isBusiness: true },
		],
		['message', 'findStatus', { limit: 10 }, { status: expect.any(String) }],
		// v2 matches the chat as it stores it (WhatsApp's JID), never the spec's form.
		[
			'message',
			'findStatus',
			{ limit: 10, filters: { chat: ALICE } },
			{ remoteJid: `${ALICE}@s.whatsapp.net`, status: expect.any(String) },
		],
		['group', 'create', { subject: 'Crew', participants: ALICE }, { subject: 'Crew' }],
		['group', 'get', { groupId: byId(GROUP_ID) }, { id: GROUP_ID }],
		['group', 'getMany', {}, { id: expect.stringMatching(/@g\.us$/) }],
		['group', 'getParticipants', { groupId: byId(GROUP_ID) }, { groupId: GROUP_ID }],
		[
			'group',
			'sendInvite',
			{ groupId: byId(GROUP_ID), numbers: ALICE, description: 'Join us' },
			{ send: true },
		],
		['session', 'setPresence', { presence: 'available' }, { presence: 'available' }],
		['session', 'getConnectionState', {}, { state: 'open' }],
		['session', 'getMany', {}, { session: SEED.instances.connected.name }],
		['session', 'connect', {}, { state: 'open' }],
		['session', 'logout', {}, { loggedOut: true }],
	])(
		'%s → %s: valid for 2.3.6, read into the documented output',
		async (resource, operation, parameters, output) => {
			const result = await runGateway(
				v2,
				{ resource, operation, session: SEED.instances.connected.name, ...parameters },
				{ gateway: 'evolutionV2' },
			);

			expect(result.error?.message).toBeUndefined();
			expect(v2.requests.map((request) => checkEvolutionV2(request).outcome)).toEqual(
				v2.requests.map(() => 'accepted'),
			);
			expect(result.outputs[0][0].json).toMatchObject(output);
		},
	);
});
