/**
 * The account operations (Profile Get / Set Picture / Delete Picture, Request Pairing Code, Webhook
 * Get / Set) with the credential's Gateway set to Evolution API v2: v2's own routes and bodies, each
 * judged by 2.3.6's validation, read into the outputs these operations document, with no secret in
 * an output or an error. Run in n8n's engine over real HTTP, against a scripted server (exact
 * requests, odd answers) and the simulator playing 2.3.6 (real round trips).
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { SEED } from '../simulator/index.cts';
import { avatarPng } from '../simulator/png.cts';
import { gatewayClient, useSimulator } from '../simulator/testing.cts';
import { binaryItem, runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';
import { EVOLUTION_V2_KEY, useScriptedEvolutionV2 } from '../support/scripted-evolution-v2.cts';
import type { ScriptedResponse } from '../support/scripted-server.cts';

/** An instance's token and a trigger's token (test values). */
const INSTANCE_TOKEN = ['instance', 'token', '7c41'].join('-');
const TRIGGER_TOKEN = ['trigger', 'token', '93ab'].join('-');
/** A name with a space: every name in a path is one encoded segment. */
const SESSION = 'sales desk';
const SESSION_PATH = 'sales%20desk';
const OWNER = '5511987650000';
const PNG_BASE64 = avatarPng([200, 40, 40]).toString('base64');
const TRIGGER_URL = `https://n8n.example.com/webhook/0b1c/webhook?token=${TRIGGER_TOKEN}`;

/** The instance's row as 2.3.6's fetchInstances answers it (a token included). */
const INSTANCE_ROW = {
	id: 'c2b8a7e0-0000-4000-8000-000000000001',
	name: SESSION,
	connectionStatus: 'open',
	ownerJid: `${OWNER}@s.whatsapp.net`,
	profileName: 'Acme Sales',
	profilePicUrl: 'https://pps.whatsapp.net/v/t61/own-stored.jpg',
	integration: 'WHATSAPP-BAILEYS',
	token: INSTANCE_TOKEN,
};
/** The stored webhook row as 2.3.6's find and set answer it. */
const WEBHOOK_ROW = {
	id: 'cmwebhook000000000000000001',
	url: TRIGGER_URL,
	headers: {
		'x-messaging-gateway-token': TRIGGER_TOKEN,
		authorization: `Bearer ${EVOLUTION_V2_KEY}`,
	},
	enabled: true,
	events: ['MESSAGES_UPSERT', 'QRCODE_UPDATED'],
	webhookByEvents: false,
	webhookBase64: true,
	createdAt: '2026-01-01T09:00:00.000Z',
	updatedAt: '2026-01-02T09:00:00.000Z',
	instanceId: INSTANCE_ROW.id,
};
/** The row as Webhook → Get and Set output it: secrets hidden, the documented names added. */
const WEBHOOK_OUTPUT = {
	session: SESSION,
	...WEBHOOK_ROW,
	url: 'https://n8n.example.com/webhook/0b1c/webhook?token=***',
	headers: { 'x-messaging-gateway-token': '***', authorization: '***' },
	webhook_by_events: false,
	webhook_base64: true,
};
const NO_WEBHOOK = {
	session: SESSION,
	enabled: false,
	url: '',
	events: [],
	webhook_by_events: false,
	webhook_base64: false,
};

const scripted = useScriptedEvolutionV2(SESSION);

/** No secret of the test anywhere in what the run gave back. */
function expectNoSecret(result: unknown) {
	const shown = JSON.stringify(result);
	for (const secret of [EVOLUTION_V2_KEY, INSTANCE_TOKEN, TRIGGER_TOKEN])
		expect(shown).not.toContain(secret);
}

interface RequestCase {
	name: string;
	parameters: INodeParameters;
	items?: INodeExecutionData[];
	answers: ScriptedResponse[];
	requests: Array<{ method: string; url: string; body: unknown }>;
	endpoints: string[];
	output: Record<string, unknown>;
}

/** Profile → Get's two requests: the instance's row (its own number), then that number's profile. */
const PROFILE_GET_REQUESTS: Pick<RequestCase, 'requests' | 'endpoints'> = {
	requests: [
		{
			method: 'GET',
			url: `/instance/fetchInstances?instanceName=${SESSION_PATH}`,
			body: undefined,
		},
		{ method: 'POST', url: `/chat/fetchProfile/${SESSION_PATH}`, body: { number: OWNER } },
	],
	endpoints: ['GET /instance/fetchInstances', 'POST /chat/fetchProfile/{instanceName}'],
};

/** Webhook → Set's one request, `webhook` being what v2's body wraps. */
const webhookSetRequest = (webhook: object): Pick<RequestCase, 'requests' | 'endpoints'> => ({
	requests: [{ method: 'POST', url: `/webhook/set/${SESSION_PATH}`, body: { webhook } }],
	endpoints: ['POST /webhook/set/{instanceName}'],
});

const REQUEST_CASES: RequestCase[] = [
	{
		name: 'Profile → Get: own number from fetchInstances, then fetchProfile',
		parameters: { resource: 'profile', operation: 'get' },
		answers: [
			{ status: 200, body: [INSTANCE_ROW] },
			{
				status: 200,
				body: {
					wuid: `${OWNER}@s.whatsapp.net`,
					numberExists: true,
					picture: 'https://pps.whatsapp.net/v/t61/own-live.jpg',
					status: { status: 'Sales desk', setAt: '2026-01-01T09:00:00.000Z' },
					isBusiness: false,
				},
			},
		],
		...PROFILE_GET_REQUESTS,
		output: {
			wuid: `${OWNER}@s.whatsapp.net`,
			numberExists: true,
			isBusiness: false,
			id: `${OWNER}@c.us`,
			name: 'Acme Sales',
			picture: 'https://pps.whatsapp.net/v/t61/own-live.jpg',
			status: 'Sales desk',
		},
	},
	{
		name: 'Profile → Get: name and picture from the instance row when the profile has none',
		parameters: { resource: 'profile', operation: 'get' },
		answers: [
			{ status: 200, body: [{ ...INSTANCE_ROW, name: 'other' }, INSTANCE_ROW] },
			{
				status: 200,
				body: { wuid: `${OWNER}@s.whatsapp.net`, name: null, picture: null, status: null },
			},
		],
		...PROFILE_GET_REQUESTS,
		output: {
			wuid: `${OWNER}@s.whatsapp.net`,
			id: `${OWNER}@c.us`,
			name: 'Acme Sales',
			picture: INSTANCE_ROW.profilePicUrl,
			status: null,
		},
	},
	{
		name: 'Profile → Set Picture from a URL',
		parameters: {
			resource: 'profile',
			operation: 'setPicture',
			pictureSource: 'url',
			pictureUrl: 'https://cdn.example.com/avatars/me.jpg',
		},
		answers: [{ status: 200, body: { update: 'success' } }],
		requests: [
			{
				method: 'POST',
				url: `/chat/updateProfilePicture/${SESSION_PATH}`,
				body: { picture: 'https://cdn.example.com/avatars/me.jpg' },
			},
		],
		endpoints: ['POST /chat/updateProfilePicture/{instanceName}'],
		output: { success: true, update: 'success' },
	},
	{
		name: 'Profile → Set Picture from a binary field, as plain base64',
		parameters: {
			resource: 'profile',
			operation: 'setPicture',
			pictureSource: 'binary',
			pictureBinaryProperty: 'data',
		},
		items: [binaryItem(PNG_BASE64, 'image/png', 'me.png')],
		answers: [{ status: 200, body: { update: 'success' } }],
		requests: [
			{
				method: 'POST',
				url: `/chat/updateProfilePicture/${SESSION_PATH}`,
				body: { picture: PNG_BASE64 },
			},
		],
		endpoints: ['POST /chat/updateProfilePicture/{instanceName}'],
		output: { success: true, update: 'success' },
	},
	{
		name: 'Profile → Delete Picture, no body',
		parameters: { resource: 'profile', operation: 'deletePicture' },
		answers: [{ status: 200, body: { update: 'success' } }],
		requests: [
			{ method: 'DELETE', url: `/chat/removeProfilePicture/${SESSION_PATH}`, body: undefined },
		],
		endpoints: ['DELETE /chat/removeProfilePicture/{instanceName}'],
		output: { success: true, update: 'success' },
	},
	{
		name: 'Session → Request Pairing Code: connect with the number; the QR code is left out',
		parameters: {
			resource: 'session',
			operation: 'requestPairingCode',
			phoneNumber: '+55 (11) 98765-0099',
		},
		answers: [
			{
				status: 200,
				body: {
					pairingCode: 'WZYEH1YY',
					code: '2@y8eK+bjtEjUWy9/FOM',
					base64: 'data:image/png;base64,iVBORw0KGgo=',
					count: 1,
				},
			},
		],
		requests: [
			{
				method: 'GET',
				url: `/instance/connect/${SESSION_PATH}?number=5511987650099`,
				body: undefined,
			},
		],
		endpoints: ['GET /instance/connect/{instanceName}'],
		output: {
			session: SESSION,
			phoneNumber: '5511987650099',
			pairingCode: 'WZYEH1YY',
			count: 1,
			code: 'WZYEH1YY',
		},
	},
	{
		name: 'Webhook → Get: the row, its token and headers hidden',
		parameters: { resource: 'webhook', operation: 'get' },
		answers: [{ status: 200, body: WEBHOOK_ROW }],
		requests: [{ method: 'GET', url: `/webhook/find/${SESSION_PATH}`, body: undefined }],
		endpoints: ['GET /webhook/find/{instanceName}'],
		output: WEBHOOK_OUTPUT,
	},
	{
		name: 'Webhook → Get: null is no webhook, not an error',
		parameters: { resource: 'webhook', operation: 'get' },
		answers: [{ status: 200, body: 'null', headers: { 'content-type': 'application/json' } }],
		requests: [{ method: 'GET', url: `/webhook/find/${SESSION_PATH}`, body: undefined }],
		endpoints: ['GET /webhook/find/{instanceName}'],
		output: NO_WEBHOOK,
	},
	{
		name: 'Webhook → Set: v2 names, headers replaced, the stored row out',
		parameters: {
			resource: 'webhook',
			operation: 'set',
			url: TRIGGER_URL,
			events: ['MESSAGES_UPSERT', 'qrcode.updated'],
			enabled: true,
			webhookByEvents: false,
			webhookBase64: true,
		},
		answers: [{ status: 201, body: WEBHOOK_ROW }],
		...webhookSetRequest({
			enabled: true,
			url: TRIGGER_URL,
			events: ['MESSAGES_UPSERT', 'QRCODE_UPDATED'],
			byEvents: false,
			base64: true,
			headers: {},
		}),
		output: WEBHOOK_OUTPUT,
	},
	{
		name: 'Webhook → Set: enabled with no events sends [] (all events on v2)',
		parameters: {
			resource: 'webhook',
			operation: 'set',
			url: 'https://crm.example.com/hooks',
			events: [],
		},
		answers: [{ status: 201, body: { ...WEBHOOK_ROW, url: 'https://crm.example.com/hooks' } }],
		...webhookSetRequest({
			enabled: true,
			url: 'https://crm.example.com/hooks',
			events: [],
			byEvents: false,
			base64: false,
			headers: {},
		}),
		output: { ...WEBHOOK_OUTPUT, url: 'https://crm.example.com/hooks' },
	},
	{
		name: 'Webhook → Set: disabled sends no events',
		parameters: {
			resource: 'webhook',
			operation: 'set',
			url: 'https://crm.example.com/hooks',
			events: ['MESSAGES_UPSERT'],
			enabled: false,
		},
		answers: [
			{
				status: 201,
				body: { ...WEBHOOK_ROW, enabled: false, events: [], headers: {} },
			},
		],
		...webhookSetRequest({
			enabled: false,
			url: 'https://crm.example.com/hooks',
			events: [],
			byEvents: false,
			base64: false,
			headers: {},
		}),
		output: { ...WEBHOOK_OUTPUT, enabled: false, events: [], headers: {} },
	},
];

describe('the account operations on Evolution API v2: requests and outputs', () => {
	it.each(REQUEST_CASES.map((testCase) => [testCase.name, testCase] as const))(
		'%s',
		async (_name, { parameters, items, answers, requests, endpoints, output }) => {
			scripted.server.respondWith(...answers);

			const result = await scripted.run(parameters, items ? { items } : {});

			expect(result.error?.message).toBeUndefined();
			expect(scripted.sent()).toEqual(requests);
			expect(
				scripted.server.requests.every((request) => request.headers.apikey === EVOLUTION_V2_KEY),
			).toBe(true);
			expect(scripted.verdicts()).toEqual(
				endpoints.map((endpoint) => ({ outcome: 'accepted', endpoint })),
			);
			expect(result.outputs[0].map((item) => item.json)).toEqual([output]);
			expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
			expectNoSecret(result.outputs);
		},
	);
});

describe('bad input is refused before any request', () => {
	it.each<[string, INodeParameters, INodeExecutionData[] | undefined, RegExp]>([
		[
			'a picture URL that is not http(s)',
			{
				resource: 'profile',
				operation: 'setPicture',
				pictureSource: 'url',
				pictureUrl: 'ftp://cdn.example.com/me.png',
			},
			undefined,
			/^Picture URL must be an http\(s\) URL/,
		],
		[
			'a picture that is not JPEG or PNG',
			{
				resource: 'profile',
				operation: 'setPicture',
				pictureSource: 'binary',
				pictureBinaryProperty: 'data',
			},
			[binaryItem(PNG_BASE64, 'image/gif', 'me.gif')],
			/^Picture must be image\/jpeg or image\/png/,
		],
		[
			'a phone number that is no number',
			{ resource: 'session', operation: 'requestPairingCode', phoneNumber: 'call me' },
			undefined,
			/Phone Number/,
		],
		[
			'an event the node knows but v2 has not',
			{
				resource: 'webhook',
				operation: 'set',
				url: 'https://crm.example.com/hooks',
				events: ['MESSAGES_UPSERT', 'NEW_JWT_TOKEN'],
			},
			undefined,
			/^Evolution API v2 has no event NEW_JWT_TOKEN$/,
		],
		[
			'a webhook URL that is not http(s)',
			{ resource: 'webhook', operation: 'set', url: 'crm.example.com/hooks' },
			undefined,
			/^URL must be an http\(s\) address/,
		],
	])('%s', async (_name, parameters, items, message) => {
		const result = await scripted.run(parameters, items ? { items } : {});

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(message);
		expect(scripted.server.requests).toEqual([]);
	});
});

describe('a 2xx that is not what the operation expects fails with the gateway words, no secret', () => {
	it.each<[string, INodeParameters, ScriptedResponse[], RegExp, RegExp | undefined]>([
		[
			'Profile → Get of a session that never connected (no ownerJid)',
			{ resource: 'profile', operation: 'get' },
			[{ status: 200, body: [{ ...INSTANCE_ROW, connectionStatus: 'close', ownerJid: null }] }],
			/^Gateway error: the answer has no number for session "sales desk" \(got an object \(\{"name":"sales desk","connectionStatus":"close","ownerJid":null\}\)\)$/,
			/Session → Connect/,
		],
		[
			'Profile → Get when fetchInstances lists no such instance',
			{ resource: 'profile', operation: 'get' },
			[{ status: 200, body: [{ ...INSTANCE_ROW, name: 'other' }] }],
			/^Gateway error: the answer has no number for session "sales desk"/,
			undefined,
		],
		[
			'Profile → Get when fetchInstances answers an object',
			{ resource: 'profile', operation: 'get' },
			[{ status: 200, body: { instance: INSTANCE_ROW } }],
			/^Gateway error: the answer is not a list of records/,
			undefined,
		],
		[
			'Profile → Get when fetchProfile answers a list',
			{ resource: 'profile', operation: 'get' },
			[
				{ status: 200, body: [INSTANCE_ROW] },
				{ status: 200, body: [] },
			],
			/^Gateway error: the answer is not an object \(got a list \(\[\]\)\)/,
			undefined,
		],
		[
			'Set Picture answered without update: "success"',
			{
				resource: 'profile',
				operation: 'setPicture',
				pictureSource: 'url',
				pictureUrl: 'https://cdn.example.com/me.png',
			},
			[{ status: 200, body: { update: 'pending' } }],
			/^Gateway error: the answer has no update: "success" \(got an object \(\{"update":"pending"\}\)\)/,
			/Profile → Get/,
		],
		[
			'Delete Picture answered with nothing',
			{ resource: 'profile', operation: 'deletePicture' },
			[{ status: 200, body: '' }],
			/^Gateway error: the answer is not an object \(got nothing\)/,
			undefined,
		],
		[
			'Request Pairing Code of a connected session',
			{ resource: 'session', operation: 'requestPairingCode', phoneNumber: '5511987650099' },
			[{ status: 200, body: { instance: { instanceName: SESSION, state: 'open' } } }],
			/^Gateway error: the answer has no pairing code \(got an object \(\{"instance":\{"instanceName":"sales desk","state":"open"\}\}\)\)/,
			/Log the session out/,
		],
		[
			'Request Pairing Code of a session already pairing with a QR code',
			{ resource: 'session', operation: 'requestPairingCode', phoneNumber: '5511987650099' },
			[{ status: 200, body: { pairingCode: null, code: '2@qr', base64: 'data:,', count: 3 } }],
			/^Gateway error: the answer has no pairing code \(got an object \(\{"pairingCode":null,"count":3\}\)\)/,
			/keeps the QR code it started with/,
		],
		[
			'Request Pairing Code answered with v2 error object',
			{ resource: 'session', operation: 'requestPairingCode', phoneNumber: '5511987650099' },
			[{ status: 200, body: { error: true, message: 'Error: Connection Closed' } }],
			/Error: Connection Closed/,
			undefined,
		],
		[
			'Webhook → Get answered with something that is no webhook row',
			{ resource: 'webhook', operation: 'get' },
			[{ status: 200, body: { ...WEBHOOK_ROW, enabled: 'yes' } }],
			/^Gateway error: the answer has no webhook configuration/,
			/Evolution API v2 answers its webhook row or null/,
		],
		[
			'Webhook → Get answered with a list',
			{ resource: 'webhook', operation: 'get' },
			[{ status: 200, body: [WEBHOOK_ROW] }],
			/^Gateway error: the answer is not an object/,
			undefined,
		],
		[
			'Webhook → Set answered with null',
			{ resource: 'webhook', operation: 'set', url: 'https://crm.example.com/hooks' },
			[{ status: 201, body: 'null', headers: { 'content-type': 'application/json' } }],
			/^Gateway error: the answer is not an object \(got null\)/,
			undefined,
		],
	])('%s', async (_name, parameters, answers, message, description) => {
		scripted.server.respondWith(...answers);

		const result = await scripted.run(parameters);

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(message);
		if (description) expect(result.error?.description).toMatch(description);
		expect(scripted.server.requests).toHaveLength(answers.length);
		expectNoSecret(result.error);
	});
});

describe('the account operations against the simulator playing Evolution API 2.3.6', () => {
	const v2 = useSimulator({ gateway: 'evolution-v2' });
	const CONNECTED = SEED.instances.connected;
	const PAIRING = SEED.instances.pairing;

	const run = async (parameters: INodeParameters, options: RunGatewayOptions = {}) =>
		await runGateway(
			v2,
			{ session: CONNECTED.name, ...parameters },
			{ gateway: 'evolutionV2', ...options },
		);
	/** The API requests (not picture downloads: those stand in for WhatsApp's servers). */
	const apiRequests = () =>
		v2.requests.filter((request) => !request.path.startsWith('/api/files/'));
	/** Every API request the runs sent, as 2.3.6 judges it. */
	const outcomes = () => apiRequests().map((request) => checkEvolutionV2(request).outcome);

	it('Webhook → Get of a session that never had one: the documented "none", no error', async () => {
		const result = await run({ resource: 'webhook', operation: 'get' });

		expect(result.error?.message).toBeUndefined();
		expect(result.outputs[0][0].json).toEqual({ ...NO_WEBHOOK, session: CONNECTED.name });
		expect(outcomes()).toEqual(['accepted']);
	});

	it('a trigger-style webhook is shown without its token, then Set replaces it, headers included', async () => {
		const trigger = await gatewayClient(v2).post(`/webhook/set/${CONNECTED.name}`, {
			webhook: {
				enabled: true,
				url: TRIGGER_URL,
				events: ['MESSAGES_UPSERT'],
				headers: { 'x-messaging-gateway-token': TRIGGER_TOKEN },
			},
		});
		expect(trigger.status).toBe(201);
		v2.clearLogs();

		const shown = await run({ resource: 'webhook', operation: 'get' });
		expect(shown.outputs[0][0].json).toMatchObject({
			session: CONNECTED.name,
			enabled: true,
			url: 'https://n8n.example.com/webhook/0b1c/webhook?token=***',
			events: ['MESSAGES_UPSERT'],
			headers: { 'x-messaging-gateway-token': '***' },
			webhook_by_events: false,
			webhook_base64: false,
		});
		expectNoSecret(shown.outputs);

		const set = await run({
			resource: 'webhook',
			operation: 'set',
			url: 'https://crm.example.com/hooks',
			events: ['MESSAGES_UPSERT', 'MESSAGES_DELETE'],
			webhookByEvents: true,
		});
		expect(set.error?.message).toBeUndefined();
		const again = await run({ resource: 'webhook', operation: 'get' });

		const expected = {
			session: CONNECTED.name,
			enabled: true,
			url: 'https://crm.example.com/hooks',
			events: ['MESSAGES_UPSERT', 'MESSAGES_DELETE'],
			headers: {},
			webhook_by_events: true,
			webhook_base64: false,
		};
		expect(set.outputs[0][0].json).toMatchObject(expected);
		expect(again.outputs[0][0].json).toMatchObject(expected);
		expect(v2.getWebhook(CONNECTED.name)).toMatchObject({
			url: 'https://crm.example.com/hooks',
			headers: {},
		});
		expect(outcomes()).toEqual(['accepted', 'accepted', 'accepted']);
	});

	it('Set Picture from a binary field, then Profile → Get shows that picture; Delete removes it', async () => {
		const picture = avatarPng([20, 90, 200]);
		const set = await run(
			{
				resource: 'profile',
				operation: 'setPicture',
				pictureSource: 'binary',
				pictureBinaryProperty: 'data',
			},
			{ items: [binaryItem(picture.toString('base64'), 'image/png', 'me.png')] },
		);
		expect(set.error?.message).toBeUndefined();
		expect(set.outputs[0][0].json).toEqual({ success: true, update: 'success' });

		const profile = await run({ resource: 'profile', operation: 'get' });
		expect(profile.error?.message).toBeUndefined();
		const json = profile.outputs[0][0].json;
		expect(json).toMatchObject({
			id: `${CONNECTED.ownerNumber}@c.us`,
			name: CONNECTED.profileName,
			status: CONNECTED.profileStatus,
			picture: expect.stringMatching(/^http/),
		});
		const served = await gatewayClient(v2).get(String(json.picture), {
			responseType: 'arraybuffer',
		});
		expect(Buffer.from(served.data as ArrayBuffer).equals(picture)).toBe(true);

		const deleted = await run({ resource: 'profile', operation: 'deletePicture' });
		expect(deleted.outputs[0][0].json).toEqual({ success: true, update: 'success' });
		const after = await run({ resource: 'profile', operation: 'get' });
		expect(after.outputs[0][0].json.picture).toBeNull();

		expect(outcomes()).toEqual(apiRequests().map(() => 'accepted'));
		expect(apiRequests().map((request) => `${request.method} ${request.path}`)).toEqual([
			`POST /chat/updateProfilePicture/${CONNECTED.name}`,
			'GET /instance/fetchInstances',
			`POST /chat/fetchProfile/${CONNECTED.name}`,
			`DELETE /chat/removeProfilePicture/${CONNECTED.name}`,
			'GET /instance/fetchInstances',
			`POST /chat/fetchProfile/${CONNECTED.name}`,
		]);
	});

	it('Request Pairing Code of a closed session: the code to enter, once', async () => {
		v2.setInstanceState(PAIRING.name, 'close');
		v2.clearLogs();

		const result = await run({
			resource: 'session',
			operation: 'requestPairingCode',
			session: PAIRING.name,
			phoneNumber: `+${PAIRING.ownerNumber}`,
		});

		expect(result.error?.message).toBeUndefined();
		const json = result.outputs[0][0].json;
		expect(json).toEqual({
			session: PAIRING.name,
			phoneNumber: PAIRING.ownerNumber,
			pairingCode: expect.stringMatching(/^[A-Z0-9]{8}$/),
			count: 1,
			code: json.pairingCode,
		});
		expect(v2.requests.map((request) => request.query)).toEqual([{ number: PAIRING.ownerNumber }]);
		expect(outcomes()).toEqual(['accepted']);
	});

	it.each([
		['connected', CONNECTED.name],
		['already pairing with a QR code', PAIRING.name],
	])('Request Pairing Code of a session %s fails with what to do', async (_state, session) => {
		const result = await run({
			resource: 'session',
			operation: 'requestPairingCode',
			session,
			phoneNumber: '5511987650099',
		});

		expect(result.error?.message).toMatch(/^Gateway error: the answer has no pairing code/);
		expect(result.error?.description).toMatch(/Log the session out/);
	});

	it('Profile → Get of a session that never connected says to connect it', async () => {
		const result = await run({ resource: 'profile', operation: 'get', session: PAIRING.name });

		expect(result.error?.message).toMatch(
			/^Gateway error: the answer has no number for session "acme-support"/,
		);
		expect(result.error?.description).toMatch(/Session → Connect/);
		expectNoSecret(result.error);
		expect(JSON.stringify(result.error)).not.toContain(PAIRING.token);
	});
});
