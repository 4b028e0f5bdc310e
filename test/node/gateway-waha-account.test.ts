/**
 * Contacts, chats, groups, sessions, the profile, channels and webhooks with the credential's
 * Gateway set to WAHA: WAHA's own routes and bodies, each judged by WAHA's published OpenAPI
 * (2026.7.1) and carrying the key in X-Api-Key, read into the outputs these operations document,
 * with no secret in an output or an error. Run in n8n's engine over real HTTP against a scripted
 * server (exact requests, odd answers).
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { checkWaha } from '../compatibility/waha.cts';
import { SEED } from '../simulator/index.cts';
import { avatarPng } from '../simulator/png.cts';
import { useSimulator } from '../simulator/testing.cts';
import { binaryItem, byId, outputJson, runGateway } from '../support/gateway-node.cts';
import { WAHA_KEY, useScriptedWaha, wahaRequestOf } from '../support/scripted-waha.cts';
import type { ScriptedResponse } from '../support/scripted-server.cts';

/** A webhook's HMAC key, a custom header's value and a proxy password (test values). */
const HMAC_KEY = ['hmac', 'key', '51d0'].join('-');
const HEADER_VALUE = ['header', 'value', '8e2a'].join('-');
const PROXY_PASSWORD = ['proxy', 'password', '77c3'].join('-');
const TRIGGER_TOKEN = ['trigger', 'token', '93ab'].join('-');
/** A name with a space: every name in a path is one encoded segment. */
const SESSION = 'sales desk';
const SESSION_PATH = 'sales%20desk';
const GROUP = '120363012345678901@g.us';
const GROUP_PATH = '120363012345678901%40g.us';
const ALICE = '5511987650001';
const BRUNO = '5521987650002';
const PNG_BASE64 = avatarPng([40, 200, 40]).toString('base64');
const TRIGGER_URL = `https://n8n.example.com/webhook/0b1c/webhook?token=${TRIGGER_TOKEN}`;

/** Two webhooks as WAHA keeps them in a session's config: one with an HMAC key and a header. */
const SIGNED_WEBHOOK = {
	url: TRIGGER_URL,
	events: ['message', 'session.status'],
	hmac: { key: HMAC_KEY },
	retries: { policy: 'constant', delaySeconds: 2, attempts: 3 },
	customHeaders: [{ name: 'X-Team', value: HEADER_VALUE }],
};
const PLAIN_WEBHOOK = { url: 'https://crm.example.com/hooks/waha', events: ['*'] };
/** A session's config with secrets: the webhooks above and a proxy with a password. */
const CONFIG = {
	metadata: { 'user.id': '42' },
	proxy: { server: 'proxy.example.com:3128', username: 'acme', password: PROXY_PASSWORD },
	webhooks: [SIGNED_WEBHOOK, PLAIN_WEBHOOK],
};
const REDACTED_CONFIG = {
	...CONFIG,
	proxy: { ...CONFIG.proxy, password: '***' },
	webhooks: [
		{
			...SIGNED_WEBHOOK,
			url: 'https://n8n.example.com/webhook/0b1c/webhook?token=***',
			hmac: { key: '***' },
			customHeaders: [{ name: 'X-Team', value: '***' }],
		},
		PLAIN_WEBHOOK,
	],
};
const ME = { id: `${ALICE}@c.us`, pushName: 'Acme Sales' };
/** The session's row as GET /api/sessions/{session} answers it. */
const sessionRow = (status: string, config: object | null = CONFIG) => ({
	name: SESSION,
	status,
	me: status === 'WORKING' ? ME : null,
	presence: null,
	timestamps: { activity: 1764000000000 },
	config,
});

const scripted = useScriptedWaha(SESSION);

/** No secret of the test anywhere in what the run gave back. */
function expectNoSecret(result: unknown) {
	const shown = JSON.stringify(result);
	for (const secret of [WAHA_KEY, HMAC_KEY, HEADER_VALUE, PROXY_PASSWORD, TRIGGER_TOKEN])
		expect(shown).not.toContain(secret);
}

/** The requests received, as WAHA's OpenAPI judges them: method, raw path, query, JSON body. */
function received() {
	return scripted.server.requests.map(wahaRequestOf);
}

/** Every request reached an endpoint of WAHA's OpenAPI, was accepted, and carried the key in X-Api-Key. */
function expectAcceptedByWaha(endpoints: string[]) {
	const verdicts = scripted.verdicts();
	expect(verdicts).toEqual(endpoints.map((endpoint) => ({ outcome: 'accepted', endpoint })));
	expect(scripted.keyHeaders()).toEqual(endpoints.map(() => 'X-Api-Key'));
}

interface SentRequest {
	method: string;
	path: string;
	query?: Record<string, unknown>;
	body?: unknown;
}

interface RequestCase {
	name: string;
	parameters: INodeParameters;
	items?: INodeExecutionData[];
	answers: ScriptedResponse[];
	requests: SentRequest[];
	endpoints: string[];
	output: IDataObject[];
}

const request = ({ method, path, query = {}, body }: SentRequest) => ({
	method,
	path,
	query,
	body,
});

const CONTACT_ALICE = {
	id: `${ALICE}@c.us`,
	number: ALICE,
	name: 'Alice',
	pushname: 'Ali',
	isMyContact: true,
};
const HUNDRED_CONTACTS = Array.from({ length: 100 }, (_, index) => ({
	id: `55119876${String(index).padStart(5, '0')}@c.us`,
	name: `Contact ${index}`,
}));
const NOWEB_GROUP = {
	id: GROUP,
	subject: 'Weekend Hikers',
	owner: `${ALICE}@s.whatsapp.net`,
	desc: 'Trails',
	participants: [{ id: `${ALICE}@s.whatsapp.net`, admin: 'superadmin' }],
};
const WEBJS_GROUP = {
	id: { server: 'g.us', user: '120363099999999999', _serialized: '120363099999999999@g.us' },
	name: 'Acme Team',
	groupMetadata: { subject: 'Acme Team' },
};

const REQUEST_CASES: RequestCase[] = [
	{
		name: 'Contact → Check Number: check-exists once per number, in order',
		parameters: {
			resource: 'contact',
			operation: 'checkNumber',
			numbers: `+55 11 98765-0001, ${BRUNO}`,
		},
		answers: [
			{ status: 200, body: { numberExists: true, chatId: `${ALICE}@c.us` } },
			{ status: 200, body: { numberExists: false } },
		],
		requests: [
			{
				method: 'GET',
				path: '/api/contacts/check-exists',
				query: { phone: ALICE, session: SESSION },
			},
			{
				method: 'GET',
				path: '/api/contacts/check-exists',
				query: { phone: BRUNO, session: SESSION },
			},
		],
		endpoints: ['GET /api/contacts/check-exists', 'GET /api/contacts/check-exists'],
		output: [
			{ exists: true, jid: `${ALICE}@c.us`, number: '+55 11 98765-0001' },
			{ exists: false, jid: null, number: BRUNO },
		],
	},
	{
		name: 'Contact → Get: /api/contacts by contactId, with jid, name and notify',
		parameters: { resource: 'contact', operation: 'get', contact: byId(`+${ALICE}`) },
		answers: [{ status: 200, body: CONTACT_ALICE }],
		requests: [
			{
				method: 'GET',
				path: '/api/contacts',
				query: { contactId: `${ALICE}@c.us`, session: SESSION },
			},
		],
		endpoints: ['GET /api/contacts'],
		output: [{ jid: `${ALICE}@c.us`, notify: 'Ali', ...CONTACT_ALICE }],
	},
	{
		name: 'Contact → Get Many: one page of /api/contacts/all up to Limit',
		parameters: { resource: 'contact', operation: 'getMany', limit: 1 },
		answers: [{ status: 200, body: [CONTACT_ALICE] }],
		requests: [
			{
				method: 'GET',
				path: '/api/contacts/all',
				query: { session: SESSION, limit: '1', offset: '0' },
			},
		],
		endpoints: ['GET /api/contacts/all'],
		output: [{ jid: `${ALICE}@c.us`, notify: 'Ali', ...CONTACT_ALICE }],
	},
	{
		name: 'Contact → Get Many, Return All: pages of 100 until a short one',
		parameters: { resource: 'contact', operation: 'getMany', returnAll: true },
		answers: [
			{ status: 200, body: HUNDRED_CONTACTS },
			{ status: 200, body: [CONTACT_ALICE] },
		],
		requests: [
			{
				method: 'GET',
				path: '/api/contacts/all',
				query: { session: SESSION, limit: '100', offset: '0' },
			},
			{
				method: 'GET',
				path: '/api/contacts/all',
				query: { session: SESSION, limit: '100', offset: '100' },
			},
		],
		endpoints: ['GET /api/contacts/all', 'GET /api/contacts/all'],
		output: [...HUNDRED_CONTACTS, CONTACT_ALICE].map((contact) => ({
			jid: contact.id,
			notify: (contact as IDataObject).pushname ?? null,
			...contact,
		})),
	},
	{
		name: 'Contact → Get Profile Picture: profilePictureURL as profilePictureUrl, wuid the chat ID',
		parameters: { resource: 'contact', operation: 'getProfilePicture', contact: byId(ALICE) },
		answers: [
			{ status: 200, body: { profilePictureURL: 'https://pps.whatsapp.net/v/t61/alice.jpg' } },
		],
		requests: [
			{
				method: 'GET',
				path: '/api/contacts/profile-picture',
				query: { contactId: `${ALICE}@c.us`, session: SESSION },
			},
		],
		endpoints: ['GET /api/contacts/profile-picture'],
		output: [
			{
				wuid: `${ALICE}@c.us`,
				profilePictureURL: 'https://pps.whatsapp.net/v/t61/alice.jpg',
				profilePictureUrl: 'https://pps.whatsapp.net/v/t61/alice.jpg',
			},
		],
	},
	{
		name: 'Contact → Get Profile Picture: a hidden picture is null',
		parameters: { resource: 'contact', operation: 'getProfilePicture', contact: byId(ALICE) },
		answers: [{ status: 200, body: { profilePictureURL: null } }],
		requests: [
			{
				method: 'GET',
				path: '/api/contacts/profile-picture',
				query: { contactId: `${ALICE}@c.us`, session: SESSION },
			},
		],
		endpoints: ['GET /api/contacts/profile-picture'],
		output: [{ wuid: `${ALICE}@c.us`, profilePictureURL: null, profilePictureUrl: null }],
	},
	{
		name: 'Chat → Get Many: the chats overview, as on the Messaging Gateway API',
		parameters: { resource: 'chat', operation: 'getMany', limit: 1 },
		answers: [{ status: 200, body: [{ id: `${ALICE}@c.us`, name: 'Alice', picture: null }] }],
		requests: [
			{
				method: 'GET',
				path: `/api/${SESSION_PATH}/chats/overview`,
				query: { limit: '1', offset: '0' },
			},
		],
		endpoints: ['GET /api/{session}/chats/overview'],
		output: [{ id: `${ALICE}@c.us`, name: 'Alice', picture: null }],
	},
	{
		name: 'Group → Create: name and participants, then the description and the admins',
		parameters: {
			resource: 'group',
			operation: 'create',
			subject: 'Weekend Hikers',
			participants: `${ALICE}, ${BRUNO}`,
			options: { description: 'Trails', promoteParticipants: true },
		},
		answers: [
			{ status: 201, body: NOWEB_GROUP },
			{ status: 200, body: true },
			{ status: 200, body: [{ status: '200', jid: `${ALICE}@s.whatsapp.net` }] },
		],
		requests: [
			{
				method: 'POST',
				path: `/api/${SESSION_PATH}/groups`,
				body: {
					name: 'Weekend Hikers',
					participants: [{ id: `${ALICE}@c.us` }, { id: `${BRUNO}@c.us` }],
				},
			},
			{
				method: 'PUT',
				path: `/api/${SESSION_PATH}/groups/${GROUP_PATH}/description`,
				body: { description: 'Trails' },
			},
			{
				method: 'POST',
				path: `/api/${SESSION_PATH}/groups/${GROUP_PATH}/admin/promote`,
				body: { participants: [{ id: `${ALICE}@c.us` }, { id: `${BRUNO}@c.us` }] },
			},
		],
		endpoints: [
			'POST /api/{session}/groups',
			'PUT /api/{session}/groups/{id}/description',
			'POST /api/{session}/groups/{id}/admin/promote',
		],
		output: [
			{
				...NOWEB_GROUP,
				description: 'Trails',
				promoted: [{ status: '200', jid: `${ALICE}@s.whatsapp.net` }],
			},
		],
	},
	{
		name: 'Group → Create: a WEBJS answer, its ID and name read',
		parameters: {
			resource: 'group',
			operation: 'create',
			subject: 'Acme Team',
			participants: ALICE,
		},
		answers: [{ status: 201, body: WEBJS_GROUP }],
		requests: [
			{
				method: 'POST',
				path: `/api/${SESSION_PATH}/groups`,
				body: { name: 'Acme Team', participants: [{ id: `${ALICE}@c.us` }] },
			},
		],
		endpoints: ['POST /api/{session}/groups'],
		output: [{ ...WEBJS_GROUP, id: '120363099999999999@g.us', subject: 'Acme Team' }],
	},
	{
		name: 'Group → Get: the group by ID in the path',
		parameters: { resource: 'group', operation: 'get', groupId: byId(GROUP) },
		answers: [{ status: 200, body: NOWEB_GROUP }],
		requests: [{ method: 'GET', path: `/api/${SESSION_PATH}/groups/${GROUP_PATH}` }],
		endpoints: ['GET /api/{session}/groups/{id}'],
		output: [NOWEB_GROUP],
	},
	{
		name: 'Group → Get Many: without participants, NOWEB groups keyed by ID, filtered by name',
		parameters: {
			resource: 'group',
			operation: 'getMany',
			returnAll: true,
			filters: { subject: 'HIKERS' },
		},
		answers: [
			{ status: 200, body: { [GROUP]: NOWEB_GROUP, [WEBJS_GROUP.id._serialized]: WEBJS_GROUP } },
		],
		requests: [
			{
				method: 'GET',
				path: `/api/${SESSION_PATH}/groups`,
				query: { exclude: 'participants' },
			},
		],
		endpoints: ['GET /api/{session}/groups'],
		output: [NOWEB_GROUP],
	},
	{
		name: 'Group → Get Many: with participants, a list, up to Limit',
		parameters: {
			resource: 'group',
			operation: 'getMany',
			limit: 1,
			options: { includeParticipants: true },
		},
		answers: [{ status: 200, body: [WEBJS_GROUP, NOWEB_GROUP] }],
		requests: [{ method: 'GET', path: `/api/${SESSION_PATH}/groups` }],
		endpoints: ['GET /api/{session}/groups'],
		output: [{ ...WEBJS_GROUP, id: '120363099999999999@g.us', subject: 'Acme Team' }],
	},
	{
		name: 'Group → Get Participants: participants/v2, admin from the role',
		parameters: { resource: 'group', operation: 'getParticipants', groupId: byId(GROUP) },
		answers: [
			{
				status: 200,
				body: [
					{ id: '123456789@lid', pn: `${ALICE}@c.us`, role: 'superadmin' },
					{ id: `${BRUNO}@c.us`, role: 'participant' },
				],
			},
		],
		requests: [
			{ method: 'GET', path: `/api/${SESSION_PATH}/groups/${GROUP_PATH}/participants/v2` },
		],
		endpoints: ['GET /api/{session}/groups/{id}/participants/v2'],
		output: [
			{
				id: '123456789@lid',
				pn: `${ALICE}@c.us`,
				role: 'superadmin',
				admin: 'superadmin',
				phone: ALICE,
				lid: '123456789@lid',
				groupId: GROUP,
			},
			{
				id: `${BRUNO}@c.us`,
				role: 'participant',
				admin: null,
				phone: BRUNO,
				lid: null,
				groupId: GROUP,
			},
		],
	},
	{
		name: 'Group → Send Invite: the invite code, then the text and link to each number',
		parameters: {
			resource: 'group',
			operation: 'sendInvite',
			groupId: byId(GROUP),
			numbers: `${ALICE}, ${BRUNO}`,
			description: 'Join us!',
		},
		answers: [
			{ status: 200, body: 'DgQvyfXzY01B6rGrpZpYze' },
			{ status: 201, body: { id: `true_${ALICE}@c.us_3EB0A1` } },
			{ status: 201, body: { id: `true_${BRUNO}@c.us_3EB0A2` } },
		],
		requests: [
			{ method: 'GET', path: `/api/${SESSION_PATH}/groups/${GROUP_PATH}/invite-code` },
			...[ALICE, BRUNO].map((number) => ({
				method: 'POST',
				path: '/api/sendText',
				body: {
					session: SESSION,
					chatId: `${number}@c.us`,
					text: 'Join us!\n\nhttps://chat.whatsapp.com/DgQvyfXzY01B6rGrpZpYze',
				},
			})),
		],
		endpoints: [
			'GET /api/{session}/groups/{id}/invite-code',
			'POST /api/sendText',
			'POST /api/sendText',
		],
		output: [
			{
				send: true,
				inviteUrl: 'https://chat.whatsapp.com/DgQvyfXzY01B6rGrpZpYze',
				groupId: GROUP,
				messages: [
					{ chatId: `${ALICE}@c.us`, id: `true_${ALICE}@c.us_3EB0A1` },
					{ chatId: `${BRUNO}@c.us`, id: `true_${BRUNO}@c.us_3EB0A2` },
				],
			},
		],
	},
	{
		name: 'Group → Leave: as on the Messaging Gateway API',
		parameters: { resource: 'group', operation: 'leave', groupId: byId(GROUP) },
		answers: [{ status: 200, body: '' }],
		requests: [{ method: 'POST', path: `/api/${SESSION_PATH}/groups/${GROUP_PATH}/leave` }],
		endpoints: ['POST /api/{session}/groups/{id}/leave'],
		output: [{ success: true, groupId: GROUP }],
	},
	{
		name: 'Group → Refresh: as on the Messaging Gateway API',
		parameters: { resource: 'group', operation: 'refresh' },
		answers: [{ status: 200, body: true }],
		requests: [{ method: 'POST', path: `/api/${SESSION_PATH}/groups/refresh` }],
		endpoints: ['POST /api/{session}/groups/refresh'],
		output: [{ success: true, session: SESSION }],
	},
	{
		name: 'Session → Get Many: every session (all=true), state from the status, secrets hidden',
		parameters: { resource: 'session', operation: 'getMany' },
		answers: [{ status: 200, body: [sessionRow('WORKING'), { name: 'spare', status: 'STOPPED' }] }],
		requests: [{ method: 'GET', path: '/api/sessions', query: { all: 'true' } }],
		endpoints: ['GET /api/sessions'],
		output: [
			{ session: SESSION, state: 'open', ...sessionRow('WORKING'), config: REDACTED_CONFIG },
			{ session: 'spare', state: 'close', name: 'spare', status: 'STOPPED' },
		],
	},
	{
		name: 'Session → Get Connection State: the session row',
		parameters: { resource: 'session', operation: 'getConnectionState' },
		answers: [{ status: 200, body: sessionRow('SCAN_QR_CODE', null) }],
		requests: [{ method: 'GET', path: `/api/sessions/${SESSION_PATH}` }],
		endpoints: ['GET /api/sessions/{session}'],
		output: [{ session: SESSION, state: 'connecting', ...sessionRow('SCAN_QR_CODE', null) }],
	},
	{
		name: 'Session → Connect, connected: nothing to scan',
		parameters: { resource: 'session', operation: 'connect' },
		answers: [{ status: 200, body: sessionRow('WORKING', null) }],
		requests: [{ method: 'GET', path: `/api/sessions/${SESSION_PATH}` }],
		endpoints: ['GET /api/sessions/{session}'],
		output: [{ session: SESSION, state: 'open', ...sessionRow('WORKING', null), qrCode: false }],
	},
	{
		name: 'Session → Log Out: POST …/logout, the documented fields and the row',
		parameters: { resource: 'session', operation: 'logout' },
		answers: [{ status: 201, body: { name: SESSION, status: 'STARTING' } }],
		requests: [{ method: 'POST', path: `/api/sessions/${SESSION_PATH}/logout` }],
		endpoints: ['POST /api/sessions/{session}/logout'],
		output: [
			{
				session: SESSION,
				state: 'connecting',
				name: SESSION,
				status: 'STARTING',
				loggedOut: true,
				message: 'Logged out',
			},
		],
	},
	{
		name: 'Session → Restart: POST …/restart, its state',
		parameters: { resource: 'session', operation: 'restart' },
		answers: [{ status: 201, body: { name: SESSION, status: 'STARTING', config: CONFIG } }],
		requests: [{ method: 'POST', path: `/api/sessions/${SESSION_PATH}/restart` }],
		endpoints: ['POST /api/sessions/{session}/restart'],
		output: [
			{
				session: SESSION,
				state: 'connecting',
				name: SESSION,
				status: 'STARTING',
				config: REDACTED_CONFIG,
			},
		],
	},
	...(
		[
			['available', 'online'],
			['unavailable', 'offline'],
		] as const
	).map(
		([presence, wahaPresence]): RequestCase => ({
			name: `Session → Set Presence ${presence}: WAHA's ${wahaPresence}`,
			parameters: { resource: 'session', operation: 'setPresence', presence },
			answers: [{ status: 201, body: '' }],
			requests: [
				{
					method: 'POST',
					path: `/api/${SESSION_PATH}/presence`,
					body: { presence: wahaPresence },
				},
			],
			endpoints: ['POST /api/{session}/presence'],
			output: [{ success: true, session: SESSION, presence }],
		}),
	),
	{
		name: 'Session → Request Pairing Code: as on the Messaging Gateway API',
		parameters: {
			resource: 'session',
			operation: 'requestPairingCode',
			phoneNumber: '+55 11 98765-0001',
		},
		answers: [{ status: 201, body: { code: 'ABCD-EFGH' } }],
		requests: [
			{
				method: 'POST',
				path: `/api/${SESSION_PATH}/auth/request-code`,
				body: { phoneNumber: ALICE },
			},
		],
		endpoints: ['POST /api/{session}/auth/request-code'],
		output: [{ session: SESSION, phoneNumber: ALICE, code: 'ABCD-EFGH' }],
	},
	{
		name: 'Profile → Get: as on the Messaging Gateway API',
		parameters: { resource: 'profile', operation: 'get' },
		answers: [{ status: 200, body: { id: `${ALICE}@c.us`, name: 'Acme Sales', picture: null } }],
		requests: [{ method: 'GET', path: `/api/${SESSION_PATH}/profile` }],
		endpoints: ['GET /api/{session}/profile'],
		output: [{ id: `${ALICE}@c.us`, name: 'Acme Sales', picture: null }],
	},
	{
		name: 'Profile → Set Picture from a binary field: a BinaryFile',
		parameters: {
			resource: 'profile',
			operation: 'setPicture',
			pictureSource: 'binary',
			pictureBinaryProperty: 'data',
		},
		items: [binaryItem(PNG_BASE64, 'image/png', 'me.png')],
		answers: [{ status: 200, body: { success: true } }],
		requests: [
			{
				method: 'PUT',
				path: `/api/${SESSION_PATH}/profile/picture`,
				body: { file: { mimetype: 'image/png', data: PNG_BASE64, filename: 'me.png' } },
			},
		],
		endpoints: ['PUT /api/{session}/profile/picture'],
		output: [{ success: true }],
	},
	{
		name: 'Profile → Delete Picture',
		parameters: { resource: 'profile', operation: 'deletePicture' },
		answers: [{ status: 200, body: { success: true } }],
		requests: [{ method: 'DELETE', path: `/api/${SESSION_PATH}/profile/picture` }],
		endpoints: ['DELETE /api/{session}/profile/picture'],
		output: [{ success: true }],
	},
	...[
		{
			variant: 'with a binary picture: a BinaryFile',
			parameters: { pictureSource: 'binary', pictureBinaryProperty: 'data' },
			picture: { mimetype: 'image/png', data: PNG_BASE64, filename: 'logo.png' },
		},
		{
			variant: 'with a picture URL: a RemoteFile',
			parameters: { pictureSource: 'url', pictureUrl: 'https://cdn.example.com/logo.jpg' },
			picture: {
				mimetype: 'image/jpeg',
				url: 'https://cdn.example.com/logo.jpg',
				filename: 'logo.jpg',
			},
		},
	].map(
		({ variant, parameters, picture }): RequestCase => ({
			name: `Channel → Create ${variant}`,
			parameters: {
				resource: 'channel',
				operation: 'create',
				name: 'Acme Updates',
				description: 'News',
				...parameters,
			},
			items: [binaryItem(PNG_BASE64, 'image/png', 'logo.png')],
			answers: [
				{ status: 201, body: { id: '120363098765432101@newsletter', name: 'Acme Updates' } },
			],
			requests: [
				{
					method: 'POST',
					path: `/api/${SESSION_PATH}/channels`,
					body: { name: 'Acme Updates', description: 'News', picture },
				},
			],
			endpoints: ['POST /api/{session}/channels'],
			output: [{ id: '120363098765432101@newsletter', name: 'Acme Updates' }],
		}),
	),
	{
		name: 'Channel → Search: as on the Messaging Gateway API',
		parameters: { resource: 'channel', operation: 'search', countries: 'br', limit: 1 },
		answers: [
			{
				status: 200,
				body: {
					page: { endCursor: null, hasNextPage: false },
					channels: [{ id: '1@newsletter', name: 'News' }],
				},
			},
		],
		requests: [
			{
				method: 'POST',
				path: `/api/${SESSION_PATH}/channels/search/by-view`,
				body: { view: 'RECOMMENDED', countries: ['BR'], categories: [], limit: 1, startCursor: '' },
			},
		],
		endpoints: ['POST /api/{session}/channels/search/by-view'],
		output: [{ id: '1@newsletter', name: 'News' }],
	},
];

describe('WAHA: what each operation sends and outputs', () => {
	it.each(REQUEST_CASES)('$name', async (testCase) => {
		scripted.server.respondWith(...testCase.answers);

		const result = await scripted.run(testCase.parameters, { items: testCase.items });

		expect(result.error).toBeUndefined();
		expect(received()).toEqual(testCase.requests.map(request));
		expectAcceptedByWaha(testCase.endpoints);
		expect(outputJson(result)).toEqual(testCase.output);
		expectNoSecret(result);
	});

	it.each([
		['add', 'participants/add'],
		['remove', 'participants/remove'],
		['promote', 'admin/promote'],
		['demote', 'admin/demote'],
	])('Group → Update Participants %s: POST …/%s, one item per result', async (action, route) => {
		scripted.server.respondWith({
			status: 200,
			body: [
				{ status: '200', jid: `${ALICE}@s.whatsapp.net`, content: {} },
				{ status: '403', jid: `${BRUNO}@s.whatsapp.net`, content: {} },
			],
		});

		const result = await scripted.run({
			resource: 'group',
			operation: 'updateParticipants',
			groupId: byId(GROUP),
			participantAction: action,
			participants: `${ALICE}, ${BRUNO}`,
		});

		expect(received()).toEqual([
			request({
				method: 'POST',
				path: `/api/${SESSION_PATH}/groups/${GROUP_PATH}/${route}`,
				body: { participants: [{ id: `${ALICE}@c.us` }, { id: `${BRUNO}@c.us` }] },
			}),
		]);
		expectAcceptedByWaha([`POST /api/{session}/groups/{id}/${route}`]);
		expect(outputJson(result)).toEqual([
			{ status: '200', jid: `${ALICE}@s.whatsapp.net`, updated: true, groupId: GROUP, action },
			{ status: '403', jid: `${BRUNO}@s.whatsapp.net`, updated: false, groupId: GROUP, action },
		]);
	});

	it('Group → Update Participants: an empty answer gives one item per number sent', async () => {
		scripted.server.respondWith({ status: 200, body: '' });

		const result = await scripted.run({
			resource: 'group',
			operation: 'updateParticipants',
			groupId: byId(GROUP),
			participantAction: 'add',
			participants: ALICE,
		});

		expect(outputJson(result)).toEqual([
			{ jid: `${ALICE}@c.us`, status: null, updated: true, groupId: GROUP, action: 'add' },
		]);
	});

	it.each([
		['STOPPED', 'start'],
		['FAILED', 'restart'],
	])(
		'Session → Connect, %s: POST …/%s, then the QR code as a PNG in the binary field',
		async (status, action) => {
			scripted.server.respondWith(
				{ status: 200, body: sessionRow(status, null) },
				{ status: 201, body: { name: SESSION, status: 'STARTING' } },
				{ status: 200, body: { mimetype: 'image/png', data: PNG_BASE64 } },
			);

			const result = await scripted.run({
				resource: 'session',
				operation: 'connect',
				binaryPropertyName: 'qr',
			});

			expect(received()).toEqual([
				request({ method: 'GET', path: `/api/sessions/${SESSION_PATH}` }),
				request({ method: 'POST', path: `/api/sessions/${SESSION_PATH}/${action}` }),
				request({
					method: 'GET',
					path: `/api/${SESSION_PATH}/auth/qr`,
					query: { format: 'image' },
				}),
			]);
			expectAcceptedByWaha([
				'GET /api/sessions/{session}',
				`POST /api/sessions/{session}/${action}`,
				'GET /api/{session}/auth/qr',
			]);
			// WAHA answers the QR code as {mimetype, data} only to a request that accepts exactly JSON.
			expect(scripted.server.requests[2].headers.accept).toBe('application/json');
			const [item] = result.outputs[0];
			expect(item.json).toEqual({
				session: SESSION,
				state: 'connecting',
				name: SESSION,
				status: 'SCAN_QR_CODE',
				qrCode: true,
			});
			expect(item.binary?.qr).toMatchObject({
				mimeType: 'image/png',
				fileName: `qrcode-${SESSION}.png`,
			});
			expect(Buffer.from(item.binary!.qr.data, 'base64').toString('base64')).toBe(PNG_BASE64);
		},
	);

	it('Session → Connect, waiting for a scan: the QR code without starting anything', async () => {
		scripted.server.respondWith(
			{ status: 200, body: sessionRow('SCAN_QR_CODE', null) },
			{ status: 200, body: { mimetype: 'image/png', data: PNG_BASE64 } },
		);

		const result = await scripted.run({ resource: 'session', operation: 'connect' });

		expect(received().map(({ method, path }) => `${method} ${path}`)).toEqual([
			`GET /api/sessions/${SESSION_PATH}`,
			`GET /api/${SESSION_PATH}/auth/qr`,
		]);
		expect(result.outputs[0][0].json.qrCode).toBe(true);
		expect(Object.keys(result.outputs[0][0].binary ?? {})).toEqual(['data']);
	});
});

describe('WAHA: Webhook Get and Set keep every other webhook, secrets hidden', () => {
	const SIGNED_OUTPUT = {
		session: SESSION,
		...REDACTED_CONFIG.webhooks[0],
		enabled: true,
		webhook_by_events: false,
		webhook_base64: false,
	};
	const PLAIN_OUTPUT = {
		session: SESSION,
		...PLAIN_WEBHOOK,
		enabled: true,
		webhook_by_events: false,
		webhook_base64: false,
	};
	const SET = { resource: 'webhook', operation: 'set' };

	it('Get: one item per webhook of the session, read from GET /api/sessions/{session}', async () => {
		scripted.server.respondWith({ status: 200, body: sessionRow('WORKING') });

		const result = await scripted.run({ resource: 'webhook', operation: 'get' });

		expect(received()).toEqual([request({ method: 'GET', path: `/api/sessions/${SESSION_PATH}` })]);
		expectAcceptedByWaha(['GET /api/sessions/{session}']);
		expect(outputJson(result)).toEqual([SIGNED_OUTPUT, PLAIN_OUTPUT]);
		expectNoSecret(result);
	});

	it.each([null, { metadata: {} }])(
		'Get: no webhook (config %j) is one item saying so',
		async (config) => {
			scripted.server.respondWith({ status: 200, body: sessionRow('WORKING', config) });

			const result = await scripted.run({ resource: 'webhook', operation: 'get' });

			expect(outputJson(result)).toEqual([
				{
					session: SESSION,
					enabled: false,
					url: '',
					events: [],
					webhook_by_events: false,
					webhook_base64: false,
				},
			]);
		},
	);

	/** The PUT's body: the whole config read, with these webhooks. */
	const putWith = (webhooks: object[]) =>
		request({
			method: 'PUT',
			path: `/api/sessions/${SESSION_PATH}`,
			body: { config: { ...CONFIG, webhooks } },
		});

	it.each([
		{
			name: 'a new URL is added after the others, its events in WAHA names',
			parameters: {
				url: 'https://example.com/hook',
				events: ['MESSAGES_UPSERT', 'MESSAGES_DELETE', 'CONNECTION_UPDATE'],
			},
			webhooks: [
				SIGNED_WEBHOOK,
				PLAIN_WEBHOOK,
				{
					url: 'https://example.com/hook',
					events: ['message.any', 'message.reaction', 'message.revoked', 'session.status'],
				},
			],
			action: 'added',
		},
		{
			name: 'the same URL is replaced in its place, keeping its HMAC key, retries and headers',
			parameters: { url: TRIGGER_URL, events: ['MESSAGES_UPDATE'] },
			webhooks: [
				{ ...SIGNED_WEBHOOK, events: ['message.ack', 'message.ack.group', 'message.edited'] },
				PLAIN_WEBHOOK,
			],
			action: 'replaced',
		},
		{
			name: 'no events means all of them',
			parameters: { url: PLAIN_WEBHOOK.url, events: [] },
			webhooks: [SIGNED_WEBHOOK, PLAIN_WEBHOOK],
			action: 'replaced',
		},
		{
			name: 'Enabled off removes the entry with that URL, and only it',
			parameters: { url: TRIGGER_URL, enabled: false },
			webhooks: [PLAIN_WEBHOOK],
			action: 'removed',
		},
	])('Set: $name', async ({ parameters, webhooks, action }) => {
		scripted.server.respondWith(
			{ status: 200, body: sessionRow('WORKING') },
			{ status: 200, body: { name: SESSION, status: 'STARTING', config: { ...CONFIG, webhooks } } },
		);

		const result = await scripted.run({ ...SET, ...parameters });

		expect(received()).toEqual([
			request({ method: 'GET', path: `/api/sessions/${SESSION_PATH}` }),
			putWith(webhooks),
		]);
		expectAcceptedByWaha(['GET /api/sessions/{session}', 'PUT /api/sessions/{session}']);
		const [json] = outputJson(result);
		expect(json).toMatchObject({
			session: SESSION,
			enabled: action !== 'removed',
			action,
			webhook_by_events: false,
			webhook_base64: false,
		});
		expect((json.webhooks as IDataObject[]).map((entry) => entry.url)).toEqual(
			webhooks.map((entry) => (entry.url === TRIGGER_URL ? SIGNED_OUTPUT.url : entry.url)),
		);
		expectNoSecret(result);
	});

	it('Set: turning off a URL the session does not have writes nothing', async () => {
		scripted.server.respondWith({ status: 200, body: sessionRow('WORKING') });

		const result = await scripted.run({ ...SET, url: 'https://example.com/none', enabled: false });

		expect(received()).toEqual([request({ method: 'GET', path: `/api/sessions/${SESSION_PATH}` })]);
		expect(outputJson(result)[0]).toMatchObject({ enabled: false, action: 'none' });
	});

	it('Set: WAHA answering without the URL is an error, not a success', async () => {
		scripted.server.respondWith(
			{ status: 200, body: sessionRow('WORKING') },
			{ status: 200, body: { name: SESSION, status: 'WORKING', config: CONFIG } },
		);

		const result = await scripted.run({ ...SET, url: 'https://example.com/hook' });

		expect(result.error?.message).toBe(
			`Gateway error: WAHA's answer for session "${SESSION}" does not list the webhook URL`,
		);
	});

	it("Set: WAHA's 500 quoting the request names none of the session's secrets", async () => {
		scripted.server.respondWith(
			{ status: 200, body: sessionRow('WORKING') },
			{
				status: 500,
				body: {
					statusCode: 500,
					exception: { message: `cannot save ${HMAC_KEY}` },
					request: { body: { config: CONFIG } },
				},
			},
		);

		const result = await scripted.run({ ...SET, url: 'https://example.com/hook' });

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(/^Gateway error 500/);
		expectNoSecret(result);
	});

	it.each([
		[{ webhooks: { url: TRIGGER_URL } }, 'config.webhooks is a object'],
		['not a config', 'config is a string'],
	])('Get: config %j is no webhook list (%s), its contents unquoted', async (config, what) => {
		scripted.server.respondWith({ status: 200, body: { ...sessionRow('WORKING'), config } });

		const result = await scripted.run({ resource: 'webhook', operation: 'get' });

		expect(result.error?.message).toBe(
			`Gateway error: WAHA's answer for session "${SESSION}" has no webhook list (${what})`,
		);
		expectNoSecret(result);
	});
});

describe('WAHA: bad input and what WAHA has not, refused before any request', () => {
	it.each<[string, INodeParameters, string | RegExp]>([
		[
			'a presence WAHA has only per chat',
			{ resource: 'session', operation: 'setPresence', presence: 'composing' },
			'WAHA shows the presence "composing" only in one chat, not for the whole account',
		],
		[
			'Webhook by Events',
			{
				resource: 'webhook',
				operation: 'set',
				url: 'https://example.com/h',
				webhookByEvents: true,
			},
			'WAHA posts every event of a webhook to its one URL: it has no Webhook by Events',
		],
		[
			'media as base64 in deliveries',
			{ resource: 'webhook', operation: 'set', url: 'https://example.com/h', webhookBase64: true },
			'WAHA does not put media in webhook deliveries: it has no Include Media as Base64',
		],
		[
			'an event WAHA has not',
			{
				resource: 'webhook',
				operation: 'set',
				url: 'https://example.com/h',
				events: ['MESSAGES_UPSERT', 'CONTACTS_UPSERT'],
			},
			'WAHA has no event CONTACTS_UPSERT',
		],
		[
			'the business profile',
			{ resource: 'contact', operation: 'getBusinessProfile', contact: byId(ALICE) },
			/^Contact → Get Business Profile is not available on WAHA: WAHA has no route/,
		],
		[
			'a member number without country code',
			{
				resource: 'group',
				operation: 'sendInvite',
				groupId: byId(GROUP),
				numbers: '987650001',
				description: 'Join',
			},
			/^Numbers must have at least 10 digits with the country code/,
		],
		[
			'a contact that is a group',
			{ resource: 'contact', operation: 'get', contact: byId(GROUP) },
			/^Contact must be a phone number/,
		],
	])('%s', async (_what, parameters, message) => {
		const result = await scripted.run(parameters);

		expect(result.error?.name).toBe('NodeOperationError');
		if (typeof message === 'string') expect(result.error?.message).toBe(message);
		else expect(result.error?.message).toMatch(message);
		expect(scripted.server.requests).toEqual([]);
	});
});

describe("WAHA: answers that are not what the operation expects fail with WAHA's words", () => {
	it.each<[string, INodeParameters, ScriptedResponse[], string]>([
		[
			'Check Number without numberExists',
			{ resource: 'contact', operation: 'checkNumber', numbers: ALICE },
			[{ status: 200, body: { chatId: `${ALICE}@c.us` } }],
			`Gateway error: the answer has no "numberExists" field (got an object ({"chatId":"${ALICE}@c.us"}))`,
		],
		[
			'Contact → Get of a contact WAHA does not know (null)',
			{ resource: 'contact', operation: 'get', contact: byId(ALICE) },
			[{ status: 200, body: 'null' }],
			`Contact ${ALICE}@c.us not found in session ${SESSION}`,
		],
		[
			'Group → Create without a group ID',
			{ resource: 'group', operation: 'create', subject: 'X', participants: ALICE },
			[{ status: 201, body: { subject: 'X' } }],
			'Gateway error: the answer has no group ID (got an object ({"subject":"X"}))',
		],
		[
			'Group → Get of a group the account is not in (empty)',
			{ resource: 'group', operation: 'get', groupId: byId(GROUP) },
			[{ status: 200, body: '' }],
			`Group ${GROUP} not found in session ${SESSION}`,
		],
		[
			'Group → Get Many answered with a text',
			{ resource: 'group', operation: 'getMany' },
			[{ status: 200, body: '"groups"' }],
			'Gateway error: the answer is not a list of groups (got a string (groups))',
		],
		[
			'Send Invite without an invite code',
			{
				resource: 'group',
				operation: 'sendInvite',
				groupId: byId(GROUP),
				numbers: ALICE,
				description: 'Join',
			},
			[{ status: 200, body: '<html>login</html>' }],
			'Gateway error: the answer has no invite code (got an object ({"answer":"<html>login</html>"}))',
		],
		[
			'Get Connection State with a status WAHA does not have',
			{ resource: 'session', operation: 'getConnectionState' },
			[{ status: 200, body: { name: SESSION, status: 'ASLEEP', config: CONFIG } }],
			'Gateway error: the answer has no session status',
		],
		[
			'Connect without a QR code',
			{ resource: 'session', operation: 'connect' },
			[
				{ status: 200, body: sessionRow('SCAN_QR_CODE', null) },
				{ status: 200, body: { mimetype: 'image/png' } },
			],
			'Gateway error: the answer has no QR code (got an object ({"mimetype":"image/png"}))',
		],
		[
			'Channel → Create without a channel ID',
			{ resource: 'channel', operation: 'create', name: 'A', pictureSource: 'none' },
			[{ status: 201, body: { name: 'A' } }],
			'Gateway error: the answer has no channel ID (got an object ({"name":"A"}))',
		],
	])('%s', async (_what, parameters, answers, message) => {
		scripted.server.respondWith(...answers);

		const result = await scripted.run(parameters);

		expect(result.error?.name).toBe(
			message.startsWith('Gateway') ? 'NodeApiError' : 'NodeOperationError',
		);
		expect(result.error?.message.slice(0, message.length)).toBe(message);
		expectNoSecret(result);
	});

	it('Group → Create: a failed follow-up says the group exists', async () => {
		scripted.server.respondWith(
			{ status: 201, body: NOWEB_GROUP },
			{ status: 422, body: { statusCode: 422, message: 'Not an admin', error: 'Unprocessable' } },
		);

		const result = await scripted.run({
			resource: 'group',
			operation: 'create',
			subject: 'Weekend Hikers',
			participants: ALICE,
			options: { description: 'Trails' },
		});

		expect(result.error?.message).toBe(
			`Group ${GROUP} was created, but setting its description failed: Gateway error 422: Not an admin`,
		);
		expect(scripted.server.requests).toHaveLength(2);
	});

	it('Send Invite: a failed send says who already got the link', async () => {
		scripted.server.respondWith(
			{ status: 200, body: 'DgQvyfXzY01B6rGrpZpYze' },
			{ status: 201, body: { id: 'sent' } },
			{ status: 422, body: { statusCode: 422, message: 'Session stopped', error: 'x' } },
		);

		const result = await scripted.run({
			resource: 'group',
			operation: 'sendInvite',
			groupId: byId(GROUP),
			numbers: `${ALICE}, ${BRUNO}`,
			description: 'Join',
		});

		expect(result.error?.description).toContain(
			`The invite was not sent to ${BRUNO}@c.us; it was sent to ${ALICE}@c.us.`,
		);
	});
});

describe('on the WAHA simulator: real answers read into the outputs', () => {
	const sim = useSimulator({ gateway: 'waha' });
	const CONNECTED = SEED.instances.connected.name;
	const PAIRING = SEED.instances.pairing.name;
	const { alice, carla } = SEED.contacts;
	const { hikers } = SEED.groups;

	async function onSim(parameters: INodeParameters, session = CONNECTED) {
		const result = await runGateway(sim, { session, ...parameters }, { gateway: 'waha' });
		expect(result.error?.message).toBeUndefined();
		// Every request is WAHA's (its OpenAPI accepts it) and carried the key where WAHA reads it.
		expect(sim.requests.length).toBeGreaterThan(0);
		expect(sim.requests.map((request) => checkWaha(request).outcome)).toEqual(
			sim.requests.map(() => 'accepted'),
		);
		expect(sim.requests.map((request) => request.auth)).toEqual(sim.requests.map(() => 'valid'));
		return result;
	}

	it('Check Number: a number on WhatsApp has its chat ID, one that is not has none', async () => {
		const result = await onSim({
			resource: 'contact',
			operation: 'checkNumber',
			numbers: `${alice.number}, ${SEED.unregisteredNumber}`,
		});

		expect(outputJson(result)).toEqual([
			{ exists: true, jid: alice.chatId, number: alice.number },
			{ exists: false, jid: null, number: SEED.unregisteredNumber },
		]);
	});

	it('Contact → Get and Get Many: the contacts the session keeps', async () => {
		const got = await onSim({ resource: 'contact', operation: 'get', contact: byId(alice.number) });
		sim.clearLogs();
		const many = await onSim({ resource: 'contact', operation: 'getMany', returnAll: true });

		expect(outputJson(got)).toEqual([
			expect.objectContaining({ jid: alice.chatId, name: alice.name, id: alice.chatId }),
		]);
		expect(outputJson(many).map((contact) => contact.jid)).toEqual(
			expect.arrayContaining([alice.chatId, carla.chatId]),
		);
	});

	it("Group → Get Participants: the hikers' members with their roles", async () => {
		const result = await onSim({
			resource: 'group',
			operation: 'getParticipants',
			groupId: byId(hikers.id),
		});

		expect(outputJson(result)).toContainEqual(
			expect.objectContaining({
				id: alice.chatId,
				role: 'admin',
				admin: 'admin',
				groupId: hikers.id,
			}),
		);
		expect(outputJson(result)).toContainEqual(
			expect.objectContaining({ id: carla.chatId, admin: null }),
		);
	});

	it('Group → Create, then Get Many finds it by name and Send Invite sends its link', async () => {
		const created = await onSim({
			resource: 'group',
			operation: 'create',
			subject: 'Night Riders',
			participants: alice.number,
			// The simulator has no PUT …/groups/{id}/description yet: the scripted cases check it.
			options: { promoteParticipants: true },
		});
		const groupId = String(outputJson(created)[0].id);
		sim.clearLogs();
		const found = await onSim({
			resource: 'group',
			operation: 'getMany',
			returnAll: true,
			filters: { subject: 'night' },
		});
		sim.clearLogs();
		const invited = await onSim({
			resource: 'group',
			operation: 'sendInvite',
			groupId: byId(groupId),
			numbers: alice.number,
			description: 'Ride with us',
		});

		expect(groupId).toMatch(/@g\.us$/);
		expect(outputJson(found).map((group) => [group.id, group.subject])).toEqual([
			[groupId, 'Night Riders'],
		]);
		expect(outputJson(invited)[0]).toMatchObject({
			send: true,
			inviteUrl: expect.stringMatching(/^https:\/\/chat\.whatsapp\.com\/[\w-]+$/),
		});
	});

	it('Session → Get Many and Get Connection State: WAHA statuses as states', async () => {
		const many = await onSim({ resource: 'session', operation: 'getMany' });
		sim.clearLogs();
		const pairing = await onSim({ resource: 'session', operation: 'getConnectionState' }, PAIRING);

		expect(outputJson(many)).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ session: CONNECTED, state: 'open', status: 'WORKING' }),
				expect.objectContaining({ session: PAIRING, state: 'connecting' }),
			]),
		);
		expect(outputJson(pairing)[0]).toMatchObject({ session: PAIRING, state: 'connecting' });
	});

	it('Session → Connect on a session waiting for a scan: the QR code as a PNG', async () => {
		const result = await onSim({ resource: 'session', operation: 'connect' }, PAIRING);

		const [item] = result.outputs[0];
		expect(item.json).toMatchObject({ session: PAIRING, state: 'connecting', qrCode: true });
		const png = Buffer.from(item.binary!.data.data, 'base64');
		expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
	});

	it('Webhook → Set adds beside the webhooks there; Get lists them all; Set off removes only it', async () => {
		const before = sim.getWebhooks(CONNECTED).length;
		await onSim({
			resource: 'webhook',
			operation: 'set',
			url: 'https://example.com/hooks/n8n',
			events: ['MESSAGES_UPSERT'],
		});
		sim.clearLogs();
		const got = await onSim({ resource: 'webhook', operation: 'get' });
		sim.clearLogs();
		await onSim({
			resource: 'webhook',
			operation: 'set',
			url: 'https://example.com/hooks/n8n',
			enabled: false,
		});

		expect(outputJson(got)).toHaveLength(before + 1);
		expect(outputJson(got)[before]).toMatchObject({
			url: 'https://example.com/hooks/n8n',
			events: ['message.any', 'message.reaction'],
			enabled: true,
		});
		expect(sim.getWebhooks(CONNECTED)).toHaveLength(before);
	});
});
