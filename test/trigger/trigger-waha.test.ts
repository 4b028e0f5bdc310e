/**
 * The trigger on WAHA 2026.x: WAHA keeps several webhooks per session, so activation adds the
 * trigger's own entry (with a fresh HMAC key) to the session's config and deactivation removes
 * only it, every other webhook and setting written back as read; each delivery's X-Webhook-Hmac
 * is checked over the exact body bytes before anything runs; WAHA's envelopes become the same
 * simplified items as on the other gateways. Against a scripted WAHA (trigger-waha-gateway.cts),
 * every request judged by WAHA 2026.7.1's OpenAPI (checkWaha).
 */
import axios from 'axios';

import { checkWaha } from '../compatibility/waha.cts';
import { SEED, startSimulator } from '../simulator/index.cts';
import { startTriggerHarness } from '../support/trigger-harness.cts';
import type { TriggerHarness } from '../support/trigger-harness.cts';
import { startScriptedWaha, wahaSignature } from './trigger-waha-gateway.cts';
import type { ScriptedWaha, WahaSession } from './trigger-waha-gateway.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;
const ME = { id: '5511900000000@c.us', pushName: 'Shop' };

/** Another tool's webhook on the session (a CRM), with its own key and settings. */
const CRM_WEBHOOK = {
	url: 'https://crm.example.com/hooks/waha',
	events: ['message', 'session.status'],
	hmac: { key: ['crm', 'hmac', 'value'].join('-') },
	retries: { policy: 'exponential', delaySeconds: 2, attempts: 15 },
	customHeaders: [{ name: 'X-Crm-Tenant', value: 'acme' }],
};

/** The session's other settings, which every write must keep as they were. */
const OTHER_SETTINGS = {
	metadata: { 'user.id': '123' },
	proxy: { server: 'proxy.example.com:3128' },
	debug: false,
	ignore: { status: true, groups: false, channels: true },
	noweb: { markOnline: true, store: { enabled: true, fullSync: false } },
};

const SEEDED: WahaSession[] = [
	{
		name: SESSION,
		status: 'WORKING',
		me: ME,
		config: { ...OTHER_SETTINGS, webhooks: [CRM_WEBHOOK] },
	},
];

/**
 * checkWaha's verdict, but for one habit of WAHA's published document: `WebhookConfig.events`
 * declares its items as objects (Nest's swagger module on `@IsEnum(WAHAEvents, {each: true})`),
 * while WAHA validates them as its event names (text). Only that reason is set aside.
 */
function wahaVerdict(request: Parameters<typeof checkWaha>[0]) {
	const verdict = checkWaha(request);
	if (verdict.outcome !== 'rejected') return verdict;
	const reasons = verdict.reasons.filter(
		(reason) => !/^body\.config\.webhooks\.\d+\.events\.\d+ must be object$/.test(reason),
	);
	return reasons.length === 0
		? { outcome: 'accepted' as const, endpoint: verdict.endpoint }
		: { ...verdict, reasons };
}

let waha: ScriptedWaha;
const triggers: TriggerHarness[] = [];

beforeAll(async () => {
	waha = await startScriptedWaha();
});
afterAll(async () => {
	await waha.stop();
});
beforeEach(() => waha.reset(SEEDED));
afterEach(async () => {
	await Promise.all(triggers.splice(0).map((trigger) => trigger.stop()));
});

async function start(
	parameters: Record<string, unknown> = {},
	gateway: { url: string; apiKey: string } = waha,
): Promise<TriggerHarness> {
	const trigger = await startTriggerHarness({
		gateway,
		parameters: { session: SESSION, events: ['MESSAGES_UPSERT'], ...parameters } as never,
		credentialGateway: gateway === waha ? 'waha' : undefined,
	});
	triggers.push(trigger);
	return trigger;
}

function keyOf(trigger: TriggerHarness): string {
	return (trigger.staticData().registration as { token: string }).token;
}

function webhooksOf(session = SESSION): Array<Record<string, unknown>> {
	return (waha.sessions.get(session)?.config?.webhooks ?? []) as Array<Record<string, unknown>>;
}

/** A WAMessage from Alice, as NOWEB delivers it. */
function aliceMessage(text: string, extra: Record<string, unknown> = {}) {
	return {
		id: `false_${ALICE.chatId}_3A0000000000000000A1`,
		timestamp: 1764000000,
		from: ALICE.chatId,
		fromMe: false,
		source: 'app',
		to: ME.id,
		participant: null,
		body: text,
		hasMedia: false,
		media: null,
		ack: 1,
		ackName: 'SERVER',
		_data: { pushName: 'Alice', message: { conversation: text } },
		...extra,
	};
}

describe('activation on WAHA', () => {
	it("adds the trigger's entry beside the other webhook, keeping every other setting", async () => {
		const trigger = await start();

		await trigger.activate();

		const key = keyOf(trigger);
		expect(key).toMatch(/^[0-9a-f]{64}$/);
		const puts = waha.requests.filter((request) => request.method === 'PUT');
		expect(puts.map((request) => request.body)).toEqual([
			{
				config: {
					...OTHER_SETTINGS,
					webhooks: [
						CRM_WEBHOOK,
						{
							url: trigger.webhookUrl,
							events: ['message', 'message.reaction'],
							hmac: { key },
							// A try every 10 s for 15 minutes: WAHA's own 15 tries 2 s apart outlast no restart.
							retries: { policy: 'constant', delaySeconds: 10, attempts: 90 },
						},
					],
				},
			},
		]);
		expect(waha.sessions.get(SESSION)?.config).toEqual({
			...OTHER_SETTINGS,
			webhooks: [CRM_WEBHOOK, expect.objectContaining({ url: trigger.webhookUrl })],
		});
		expect(await trigger.checkExists()).toBe(true);
		// The key is kept in static data only: never in n8n's log.
		expect(trigger.logLines().join('\n')).not.toContain(key);
	});

	it.each([
		{ redeliverMinutes: 1, attempts: 6 },
		{ redeliverMinutes: 60, attempts: 360 },
		{ redeliverMinutes: '30', attempts: 180 },
		{ redeliverMinutes: 1440, attempts: 8640 },
	])(
		'Redeliver For (Minutes) $redeliverMinutes: WAHA tries every 10 s, $attempts times after the first',
		async ({ redeliverMinutes, attempts }) => {
			const trigger = await start({ options: { redeliverMinutes } });

			await trigger.activate();

			expect(webhooksOf()[1].retries).toEqual({ policy: 'constant', delaySeconds: 10, attempts });
			expect(await trigger.checkExists()).toBe(true);
		},
	);

	it.each([0, -5, 2.5, 1441, 'soon', '', true, { minutes: 5 }])(
		'Redeliver For (Minutes) %j is refused by name before any request',
		async (redeliverMinutes) => {
			const trigger = await start({ options: { redeliverMinutes } });

			await expect(trigger.create()).rejects.toThrow(
				/^Redeliver For \(Minutes\) must be a whole number of minutes from 1 to 1440 \(got /,
			);
			expect(waha.requests).toEqual([]);
		},
	);

	it.each([
		['registered without retries (an older version of the trigger)', undefined],
		['with other retries', { policy: 'constant', delaySeconds: 2, attempts: 15 }],
	])(
		'checkExists says false for our entry %s, so activation registers it again',
		async (_name, retries) => {
			const trigger = await start();
			await trigger.activate();
			const ours = webhooksOf()[1];
			waha.sessions.get(SESSION)!.config!.webhooks = [CRM_WEBHOOK, { ...ours, retries }];

			expect(await trigger.checkExists()).toBe(false);
			await trigger.activate();
			expect(webhooksOf()[1].retries).toEqual({
				policy: 'constant',
				delaySeconds: 10,
				attempts: 90,
			});
		},
	);

	it('checkExists says false once our entry is gone from the session', async () => {
		const trigger = await start();
		await trigger.activate();

		waha.sessions.get(SESSION)!.config!.webhooks = [CRM_WEBHOOK];

		expect(await trigger.checkExists()).toBe(false);
	});

	it.each([
		[['MESSAGES_UPSERT'], true, ['message', 'message.reaction']],
		[['MESSAGES_UPSERT'], false, ['message.any', 'message.reaction']],
		[['MESSAGES_UPSERT', 'SEND_MESSAGE'], true, ['message.reaction', 'message.any']],
		[['MESSAGES_UPDATE'], true, ['message.ack', 'message.ack.group', 'message.edited']],
		[['MESSAGES_DELETE'], true, ['message.revoked']],
		[['QRCODE_UPDATED', 'CONNECTION_UPDATE'], true, ['session.status']],
		[
			['CALL', 'PRESENCE_UPDATE'],
			true,
			['call.received', 'call.accepted', 'call.rejected', 'presence.update'],
		],
		[
			['GROUPS_UPSERT', 'GROUP_UPDATE', 'GROUP_PARTICIPANTS_UPDATE'],
			true,
			['group.v2.join', 'group.v2.update', 'group.v2.participants'],
		],
		[['LABELS_EDIT', 'CHATS_UPDATE'], true, ['label.upsert', 'label.deleted', 'chat.archive']],
	])(
		'%j (Ignore Own Messages %s) subscribes to WAHA events %j',
		async (events, ignoreOwn, expected) => {
			const trigger = await start({ events, filters: { ignoreOwnMessages: ignoreOwn } });

			await trigger.activate();

			expect(webhooksOf()[1]).toMatchObject({ url: trigger.webhookUrl, events: expected });
		},
	);

	it.each([['CONTACTS_UPSERT'], ['MESSAGES_SET'], ['NEW_JWT_TOKEN']])(
		'%s, an event WAHA has not, is refused by name and nothing is sent',
		async (missing) => {
			const trigger = await start({ events: ['MESSAGES_UPSERT', missing] });

			await expect(trigger.create()).rejects.toThrow(
				`WAHA has no event ${missing}: the trigger was not registered`,
			);
			expect(waha.requests).toEqual([]);
		},
	);

	it('every request of activation, checkExists and deactivation is accepted by WAHA 2026.7.1', async () => {
		const trigger = await start({ events: ['MESSAGES_UPSERT', 'QRCODE_UPDATED'] });
		await trigger.activate();
		await trigger.checkExists();
		await trigger.delete();

		const judged = waha.requests.map((request) => ({
			request: `${request.method} ${request.path}`,
			verdict: wahaVerdict(request),
			apiKey: request.apiKey,
		}));
		expect(judged.map((entry) => entry.request)).toEqual([
			`GET /api/sessions/${SESSION}`,
			`PUT /api/sessions/${SESSION}`,
			`GET /api/sessions/${SESSION}`,
			`GET /api/sessions/${SESSION}`,
			`PUT /api/sessions/${SESSION}`,
		]);
		expect(judged.map((entry) => entry.verdict)).toEqual(
			judged.map(() => expect.objectContaining({ outcome: 'accepted' })),
		);
		expect(judged.every((entry) => entry.apiKey === waha.apiKey)).toBe(true);
	});
});

describe('two workflows and deactivation on WAHA', () => {
	it('two triggers on one session both receive a message; deactivating one removes only its entry', async () => {
		// Two workflows: two n8n webhook URLs (each harness listens on its own port).
		const first = await start();
		const second = await start();
		await first.activate();
		await second.activate();
		expect(webhooksOf().map((webhook) => webhook.url)).toEqual([
			CRM_WEBHOOK.url,
			first.webhookUrl,
			second.webhookUrl,
		]);

		const answers = await waha.deliver(SESSION, 'message', aliceMessage('Both of you?'));

		expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
		expect(first.executions()).toHaveLength(1);
		expect(second.executions()).toHaveLength(1);

		await first.delete();

		expect(webhooksOf()).toEqual([
			CRM_WEBHOOK,
			expect.objectContaining({ url: second.webhookUrl }),
		]);
		expect(waha.sessions.get(SESSION)?.config).toMatchObject(OTHER_SETTINGS);
		expect(first.staticData()).toEqual({});
		// Another message (its own ID: the same ID again would be a redelivery, which starts nothing).
		await waha.deliver(
			SESSION,
			'message',
			aliceMessage('Only you now', { id: `false_${ALICE.chatId}_3A0000000000000000A2` }),
		);
		expect(first.executions()).toHaveLength(1);
		expect(second.executions()).toHaveLength(2);
	});

	it('after the last trigger stops, the session is exactly as it was', async () => {
		const trigger = await start({ events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'] });
		await trigger.activate();

		await trigger.delete();

		expect(waha.sessions.get(SESSION)?.config).toEqual(SEEDED[0].config);
	});

	it('an entry already removed by someone else is left alone: no write', async () => {
		const trigger = await start();
		await trigger.activate();
		waha.sessions.get(SESSION)!.config!.webhooks = [CRM_WEBHOOK];
		waha.requests.length = 0;

		await trigger.delete();

		expect(waha.requests.map((request) => request.method)).toEqual(['GET']);
		expect(trigger.staticData()).toEqual({});
	});
});

describe('HMAC of WAHA deliveries', () => {
	async function activeTrigger() {
		const trigger = await start();
		await trigger.activate();
		return trigger;
	}

	function post(trigger: TriggerHarness, body: string, headers: Record<string, string>) {
		return axios.post(trigger.webhookUrl, body, {
			headers: { 'content-type': 'application/json', ...headers },
			validateStatus: () => true,
			transformRequest: (data: string) => data,
		});
	}

	it('a delivery signed with our key over its exact bytes starts an execution', async () => {
		const trigger = await activeTrigger();
		// Spaces and key order as WAHA never writes them: the bytes are what is signed.
		const body = `{ "session": "${SESSION}", "event": "message", "payload": ${JSON.stringify(aliceMessage('Hi'))} }`;

		const answer = await post(trigger, body, {
			'x-webhook-hmac': wahaSignature(body, keyOf(trigger)),
			'x-webhook-hmac-algorithm': 'sha512',
		});

		expect(answer.status).toBe(200);
		expect(trigger.executions()).toHaveLength(1);
	});

	const body = () =>
		JSON.stringify(waha.envelope(SESSION, 'message', aliceMessage('Send me the money')));
	const otherKey = 'f'.repeat(64);
	it.each<[string, (trigger: TriggerHarness, sent: string) => Record<string, string>]>([
		['no signature', () => ({ 'x-webhook-hmac-algorithm': 'sha512' })],
		[
			'a signature made with another key',
			(_trigger, sent) => ({
				'x-webhook-hmac': wahaSignature(sent, otherKey),
				'x-webhook-hmac-algorithm': 'sha512',
			}),
		],
		[
			'the signature of another body (a replayed header)',
			(trigger) => ({
				'x-webhook-hmac': wahaSignature(
					JSON.stringify(waha.envelope(SESSION, 'message', aliceMessage('Hi'))),
					keyOf(trigger),
				),
				'x-webhook-hmac-algorithm': 'sha512',
			}),
		],
		[
			'the right signature with another algorithm named',
			(trigger, sent) => ({
				'x-webhook-hmac': wahaSignature(sent, keyOf(trigger)),
				'x-webhook-hmac-algorithm': 'sha256',
			}),
		],
		[
			'the right signature without the algorithm',
			(trigger, sent) => ({ 'x-webhook-hmac': wahaSignature(sent, keyOf(trigger)) }),
		],
		[
			'the right signature, one byte of the body changed after signing',
			(trigger, sent) => ({
				'x-webhook-hmac': wahaSignature(sent.replace('money', 'monex'), keyOf(trigger)),
				'x-webhook-hmac-algorithm': 'sha512',
			}),
		],
	])('%s: 401, nothing runs', async (_name, headersFor) => {
		const trigger = await activeTrigger();
		const sent = body();

		const answer = await post(trigger, sent, headersFor(trigger, sent));

		expect(answer.status).toBe(401);
		expect(answer.data).toEqual({ message: 'Unknown or missing signature' });
		expect(trigger.executions()).toEqual([]);
	});
});

describe('WAHA deliveries become the same items as on the other gateways', () => {
	/** The item the Messaging Gateway API's trigger makes of Alice's message. */
	async function evolutionItem(text: string) {
		const simulator = await startSimulator();
		try {
			const trigger = await start({}, simulator);
			await trigger.activate();
			await simulator.injectInboundMessage({ instance: SESSION, from: ALICE.number, text });
			await trigger.waitForDeliveries(1);
			return trigger.executions()[0][0];
		} finally {
			await simulator.stop();
		}
	}

	/** Every simplified field but the message's own ID, time and the raw envelope. */
	function comparable(json: Record<string, unknown>) {
		return Object.fromEntries(
			Object.entries(json).filter(
				([name]) => !['messageId', 'timestamp', 'time', 'raw'].includes(name),
			),
		);
	}

	it('a message from Alice: the same simplified fields, in the same order, WAHA envelope under raw', async () => {
		const expected = await evolutionItem('Is my order ready?');
		const trigger = await start();
		await trigger.activate();

		await waha.deliver(SESSION, 'message', aliceMessage('Is my order ready?'));

		const item = trigger.executions()[0][0];
		expect(Object.keys(item.json)).toEqual(Object.keys(expected.json));
		expect(comparable(item.json)).toEqual(comparable(expected.json));
		expect(item.json).toMatchObject({
			messageId: `false_${ALICE.chatId}_3A0000000000000000A1`,
			timestamp: 1764000000,
			time: '2025-11-24T16:00:00.000Z',
			raw: expect.objectContaining({ event: 'message', session: SESSION, me: ME }),
		});
	});

	it('a QR code: the same fields, and the PNG fetched from WAHA as binary "data"', async () => {
		const trigger = await start({ events: ['QRCODE_UPDATED'] });
		await trigger.activate();

		await waha.deliver(SESSION, 'session.status', { name: SESSION, status: 'SCAN_QR_CODE' });

		const [item] = trigger.executions()[0];
		expect(item.json).toEqual({
			event: 'QRCODE_UPDATED',
			eventName: 'QR Code Updated',
			session: SESSION,
			pairingCode: null,
			qrCode: null,
			raw: expect.objectContaining({ event: 'session.status' }),
		});
		expect(item.binary?.data).toMatchObject({ mimeType: 'image/png', fileName: 'qrcode.png' });
		expect(Buffer.from(item.binary!.data.data, 'base64')).toEqual(waha.qrPng);
		const qrRequest = waha.requests.find((request) => request.path.endsWith('/auth/qr'));
		expect(qrRequest).toMatchObject({ query: { format: 'image' }, apiKey: waha.apiKey });
		expect(checkWaha(qrRequest!).outcome).toBe('accepted');
	});

	it.each([
		['WORKING', 'open'],
		['STARTING', 'connecting'],
		['FAILED', 'close'],
		['SCAN_QR_CODE', 'connecting'],
	])('session.status %s is Connection Changed with state %s', async (status, state) => {
		const trigger = await start({ events: ['CONNECTION_UPDATE'] });
		await trigger.activate();

		await waha.deliver(SESSION, 'session.status', { name: SESSION, status });

		expect(trigger.executions()[0][0].json).toMatchObject({
			event: 'CONNECTION_UPDATE',
			session: SESSION,
			state,
			statusReason: null,
		});
	});

	it('with Include Media, the media WAHA stored becomes binary "data"', async () => {
		const trigger = await start({ options: { includeMedia: true } });
		await trigger.activate();
		const mediaUrl = `${waha.url}/api/files/${SESSION}/3A0000000000000000A1.jpeg`;

		await waha.deliver(
			SESSION,
			'message',
			aliceMessage('the receipt', {
				hasMedia: true,
				media: { url: mediaUrl, mimetype: 'image/jpeg', filename: null },
				_data: { pushName: 'Alice', message: { imageMessage: { caption: 'the receipt' } } },
			}),
		);

		const [item] = trigger.executions()[0];
		expect(item.json).toMatchObject({ text: 'the receipt', messageType: 'imageMessage' });
		expect(item.binary?.data).toMatchObject({
			mimeType: 'image/jpeg',
			fileName: '3A0000000000000000A1.jpg',
		});
		expect(Buffer.from(item.binary!.data.data, 'base64')).toEqual(waha.mediaBytes);
		// The key went to WAHA's own file route only.
		expect(waha.requests.find((request) => request.path.startsWith('/api/files/'))?.apiKey).toBe(
			waha.apiKey,
		);
	});

	it.each<[string, Record<string, unknown>, string, Record<string, unknown>]>([
		[
			'own message (Ignore Own Messages on)',
			{},
			'message.any',
			{ fromMe: true, id: `true_${ALICE.chatId}_3EB0AA`, source: 'app' },
		],
		[
			'a group message (Direct Chats Only)',
			{ filters: { chatType: 'direct' } },
			'message',
			{
				id: 'false_120363012345678901@g.us_3A01_5511987650001@c.us',
				from: '120363012345678901@g.us',
				participant: ALICE.chatId,
			},
		],
		['a chat not listed', { filters: { onlyChats: '+55 11 90000-0001' } }, 'message', {}],
		['an event not chosen', {}, 'message.ack', {}],
	])('%s is ignored: 200, nothing runs', async (_name, parameters, event, changes) => {
		const trigger = await start({
			events: ['MESSAGES_UPSERT', 'MESSAGES_UPDATE'].slice(0, event === 'message.ack' ? 1 : 2),
			...parameters,
		});
		await trigger.activate();

		const envelope = waha.envelope(SESSION, event, aliceMessage('hello', changes));
		const sent = JSON.stringify(envelope);
		const answer = await axios.post(trigger.webhookUrl, sent, {
			headers: {
				'content-type': 'application/json',
				'x-webhook-hmac': wahaSignature(sent, keyOf(trigger)),
				'x-webhook-hmac-algorithm': 'sha512',
			},
			validateStatus: () => true,
		});

		expect(answer.status).toBe(200);
		expect(answer.data).toMatchObject({ received: true, ignored: expect.any(String) });
		expect(trigger.executions()).toEqual([]);
	});
});
