import axios from 'axios';

import { SEED } from '../simulator/index.cts';
import { registeredUrl, useTriggerTestbed } from './trigger-testbed.cts';

const SESSION = SEED.instances.connected.name;
const PAIRING_SESSION = SEED.instances.pairing.name;
const ALICE = SEED.contacts.alice;

const testbed = useTriggerTestbed(SESSION);
const startTrigger = testbed.start.bind(testbed);

const api = () =>
	axios.create({
		baseURL: testbed.simulator.url,
		headers: { apikey: testbed.simulator.apiKey },
		validateStatus: () => true,
	});

async function setForeignWebhook(session = SESSION) {
	const response = await api().post(`/webhook/set/${session}`, {
		url: 'https://crm.example.com/hooks/messages',
		events: ['MESSAGES_UPSERT', 'MESSAGES_UPDATE'],
		webhook_by_events: true,
	});
	expect(response.status).toBe(201);
}

describe('activation registers the trigger with the gateway', () => {
	it('create sets the session webhook to our URL with a secret token and the selected events', async () => {
		const harness = await startTrigger({
			events: ['MESSAGES_UPSERT', 'QRCODE_UPDATED'],
			options: { includeMedia: true },
		});

		await harness.activate();

		const setRequests = testbed.simulator.requestsTo('/webhook/set/', 'POST');
		expect(setRequests).toHaveLength(1);
		expect(setRequests[0].auth).toBe('valid');
		const body = setRequests[0].body as Record<string, unknown>;
		expect(body).toEqual({
			enabled: true,
			url: expect.stringMatching(
				new RegExp(`^${harness.webhookUrl.replace(/[.?]/g, '\\$&')}\\?token=[0-9a-f]{48}$`),
			),
			events: ['MESSAGES_UPSERT', 'QRCODE_UPDATED'],
			webhook_by_events: false,
			webhook_base64: true,
		});
		expect(testbed.simulator.getWebhook(SESSION)).toEqual(
			expect.objectContaining({
				enabled: true,
				url: body.url,
				events: ['MESSAGES_UPSERT', 'QRCODE_UPDATED'],
			}),
		);
		expect(registeredUrl(harness)).toBe(body.url);
		expect(harness.webhookUrl).toMatch(
			/^http:\/\/127\.0\.0\.1:\d+\/webhook\/c0ffee00-0000-4000-8000-000000000001\/webhook$/,
		);
	});

	it('checkExists is true for the same registration and false when the events change or someone replaced it', async () => {
		const harness = await startTrigger();
		expect(await harness.checkExists()).toBe(false);
		await harness.create();
		expect(await harness.checkExists()).toBe(true);

		harness.setParameters({ session: SESSION, events: ['MESSAGES_UPSERT', 'MESSAGES_DELETE'] });
		expect(await harness.checkExists()).toBe(false);

		harness.setParameters({ session: SESSION, events: ['MESSAGES_UPSERT'] });
		await setForeignWebhook();
		expect(await harness.checkExists()).toBe(false);
	});

	it('activating twice with nothing changed does not register again', async () => {
		const harness = await startTrigger();
		await harness.activate();
		await harness.activate();

		expect(testbed.simulator.requestsTo('/webhook/set/', 'POST')).toHaveLength(1);
	});

	it('refuses an Only These Chats entry that is no chat before registering anything', async () => {
		const harness = await startTrigger({ filters: { onlyChats: 'alice, 5511987650002' } });

		await expect(harness.activate()).rejects.toThrow('Only These Chats must list phone numbers');
		expect(testbed.simulator.requestsTo('/webhook/set/')).toHaveLength(0);
	});

	it('reports an unknown session as the gateway error', async () => {
		const harness = await startTrigger({ session: 'no-such-session' });

		await expect(harness.activate()).rejects.toThrow(
			'Gateway error 404: The "no-such-session" instance does not exist',
		);
		expect(testbed.simulator.requestsTo('/webhook/set/')).toHaveLength(0);
	});
});

describe('deactivation puts things back', () => {
	it('restores the registration that was there before', async () => {
		await setForeignWebhook();
		const harness = await startTrigger();
		await harness.activate();

		await harness.delete();

		expect(testbed.simulator.getWebhook(SESSION)).toEqual({
			enabled: true,
			url: 'https://crm.example.com/hooks/messages',
			events: ['MESSAGES_UPSERT', 'MESSAGES_UPDATE'],
			webhook_by_events: true,
			webhook_base64: false,
		});
		expect(harness.staticData()).toEqual({});
	});

	it('disables the webhook when there was none before', async () => {
		const harness = await startTrigger();
		await harness.activate();
		const ourUrl = registeredUrl(harness);

		await harness.delete();

		expect(testbed.simulator.getWebhook(SESSION)).toEqual(
			expect.objectContaining({ enabled: false, url: '', events: [] }),
		);
		const disable = testbed.simulator.requestsTo('/webhook/set/', 'POST').pop();
		// The real gateway validates the URL even when disabling: ours goes along, without its token.
		expect(ourUrl).toMatch(/\?token=[0-9a-f]{48}$/);
		expect(disable?.body).toEqual({
			enabled: false,
			url: ourUrl.replace(/\?token=[0-9a-f]{48}$/, ''),
			events: [],
		});
	});

	it('never clobbers a registration that is no longer ours', async () => {
		const harness = await startTrigger();
		await harness.activate();
		await setForeignWebhook();
		const setCallsBefore = testbed.simulator.requestsTo('/webhook/set/', 'POST').length;

		await harness.delete();

		expect(testbed.simulator.requestsTo('/webhook/set/', 'POST')).toHaveLength(setCallsBefore);
		expect(testbed.simulator.getWebhook(SESSION)?.url).toBe(
			'https://crm.example.com/hooks/messages',
		);
		expect(harness.staticData()).toEqual({});
	});
});

describe('deliveries', () => {
	it('an inbound message yields exactly one item with the simplified fields', async () => {
		const harness = await startTrigger();
		await harness.activate();

		const message = await testbed.simulator.injectInboundMessage({
			instance: SESSION,
			from: ALICE.number,
			text: 'Is my order ready?',
		});
		await harness.waitForDeliveries(1);

		expect(harness.deliveries[0].status).toBe(200);
		expect(harness.deliveries[0].responseBody).toEqual({ received: true });
		const executions = harness.executions();
		expect(executions).toHaveLength(1);
		expect(executions[0]).toHaveLength(1);
		const item = executions[0][0].json;
		expect(item).toEqual({
			event: 'MESSAGES_UPSERT',
			eventName: 'Message Received',
			session: SESSION,
			chatId: ALICE.chatId,
			phone: ALICE.number,
			lid: null,
			messageId: `false_${ALICE.chatId}_${message.shortId}`,
			fromMe: false,
			ownMessageFrom: null,
			sender: ALICE.chatId,
			senderPhone: ALICE.number,
			senderLid: null,
			pushName: ALICE.pushName,
			text: 'Is my order ready?',
			messageType: 'conversation',
			timestamp: message.timestamp,
			time: new Date(Number(message.timestamp) * 1000).toISOString(),
			isGroup: false,
			raw: expect.objectContaining({
				event: 'messages.upsert',
				instance: SESSION,
				data: expect.any(Object),
			}),
		});
		expect(JSON.stringify(executions)).not.toContain(SEED.instances.connected.token);
	});

	it.each([
		{ failures: 2, status: 200, executions: 1, logged: 'trying again' },
		{ failures: 3, status: 500, executions: 0, logged: 'could not be turned into an item' },
	])(
		'a delivery whose item fails $failures time(s) in a row (n8n starved) is tried up to 3 times: $status',
		async ({ failures, status, executions, logged }) => {
			const harness = await startTrigger();
			await harness.activate();
			harness.failNextCredentialReads(failures);

			await testbed.simulator.injectInboundMessage({
				instance: SESSION,
				from: ALICE.number,
				text: 'Is my order ready?',
			});
			await harness.waitForDeliveries(1);

			expect(harness.deliveries[0].status).toBe(status);
			expect(harness.executions()).toHaveLength(executions);
			expect(harness.logLines().join('\n')).toContain(logged);
		},
	);

	it.each([
		{
			case: 'a delivery that starts an execution',
			query: 'registered',
			body: { data: { key: { remoteJid: ALICE.jid, fromMe: false, id: 'E1' } } },
			answer: { status: 200, answeredBy: 'n8n', execution: true },
		},
		{
			case: 'a filtered delivery (own message)',
			query: 'registered',
			body: { data: { key: { remoteJid: ALICE.jid, fromMe: true, id: 'E2' } } },
			answer: { status: 200, answeredBy: 'node', execution: false },
		},
		{
			case: 'a body that is no envelope',
			query: 'registered',
			body: { data: 'text' },
			answer: { status: 400, answeredBy: 'node', execution: false },
		},
		{
			case: 'a wrong token',
			query: 'wrong token',
			body: { data: { key: { remoteJid: ALICE.jid, fromMe: false, id: 'E3' } } },
			answer: { status: 401, answeredBy: 'node', execution: false },
		},
	])(
		'$case: answered by $answer.answeredBy ("received" comes from n8n only once it stored the execution)',
		async ({ query, body, answer }) => {
			const harness = await startTrigger();
			await harness.activate();
			const url =
				query === 'registered' ? registeredUrl(harness) : `${harness.webhookUrl}?token=wrong`;

			await axios.post(
				url,
				{ event: 'messages.upsert', instance: SESSION, ...body },
				{ validateStatus: () => true },
			);
			await harness.waitForDeliveries(1);

			const [delivery] = harness.deliveries;
			expect({
				status: delivery.status,
				answeredBy: delivery.answeredBy,
				execution: delivery.execution !== undefined,
			}).toEqual(answer);
		},
	);

	it('ignores our own sent messages by default, so a bot cannot answer itself', async () => {
		const harness = await startTrigger();
		await harness.activate();

		const sent = await api().post(`/message/sendText/${SESSION}`, {
			number: ALICE.number,
			textMessage: { text: 'Your order is ready' },
		});
		expect(sent.status).toBe(201);
		await harness.waitForDeliveries(1);

		expect(harness.deliveries[0]).toEqual({
			status: 200,
			responseBody: { received: true, ignored: 'own message' },
			answeredBy: 'node',
		});
		expect(harness.executions()).toHaveLength(0);
	});

	it('emits own messages when Ignore Own Messages is off', async () => {
		const harness = await startTrigger({ filters: { ignoreOwnMessages: false } });
		await harness.activate();

		await api().post(`/message/sendText/${SESSION}`, {
			number: ALICE.number,
			textMessage: { text: 'Hello' },
		});
		await harness.waitForDeliveries(1);

		const [item] = harness.executions()[0];
		expect(item.json).toEqual(
			expect.objectContaining({
				fromMe: true,
				chatId: ALICE.chatId,
				text: 'Hello',
				sender: SEED.instances.connected.ownerChatId,
				phone: ALICE.number,
				senderPhone: SEED.instances.connected.ownerNumber,
			}),
		);
	});

	// Version 3 has Ignore Own Messages and Simplify as fields of their own; 1 and 2 in the collections.
	it.each([
		{
			version: 2,
			parameters: { filters: { ignoreOwnMessages: false } },
			emitted: true,
			simple: true,
		},
		{ version: 3, parameters: { ignoreOwnMessages: false }, emitted: true, simple: true },
		{ version: 3, parameters: {}, emitted: false, simple: true },
		// A collection value a version-3 node does not show is not read.
		{
			version: 3,
			parameters: { filters: { ignoreOwnMessages: false } },
			emitted: false,
			simple: true,
		},
		{
			version: 2,
			parameters: { filters: { ignoreOwnMessages: false }, options: { simplify: false } },
			emitted: true,
			simple: false,
		},
		{
			version: 3,
			parameters: { ignoreOwnMessages: false, simplify: false },
			emitted: true,
			simple: false,
		},
		{
			version: 3,
			parameters: { ignoreOwnMessages: false, options: { simplify: false } },
			emitted: true,
			simple: true,
		},
	])(
		'version $version with $parameters: own message emitted $emitted, simplified $simple',
		async ({ version, parameters, emitted, simple }) => {
			const harness = await startTrigger(parameters, undefined, version);
			await harness.activate();

			await api().post(`/message/sendText/${SESSION}`, {
				number: ALICE.number,
				textMessage: { text: 'Hello' },
			});
			await harness.waitForDeliveries(1);

			const items = harness.executions().flat();
			expect(items.length).toBe(emitted ? 1 : 0);
			if (emitted) expect('raw' in items[0].json).toBe(simple);
		},
	);

	it('rejects a delivery with a wrong or missing token with 401 and runs nothing', async () => {
		const harness = await startTrigger();
		await harness.activate();
		const envelope = {
			event: 'messages.upsert',
			instance: SESSION,
			data: { key: { remoteJid: ALICE.jid, fromMe: false, id: 'X' } },
		};

		const wrong = await axios.post(`${harness.webhookUrl}?token=${'0'.repeat(48)}`, envelope, {
			validateStatus: () => true,
		});
		const missing = await axios.post(harness.webhookUrl, envelope, { validateStatus: () => true });
		const shorter = await axios.post(`${harness.webhookUrl}?token=abc`, envelope, {
			validateStatus: () => true,
		});

		expect([wrong.status, missing.status, shorter.status]).toEqual([401, 401, 401]);
		expect(wrong.data).toEqual({ message: 'Unknown or missing token' });
		expect(harness.executions()).toHaveLength(0);
	});

	it('ignores deliveries for another session and events that are not selected', async () => {
		const harness = await startTrigger();
		await harness.activate();
		const url = registeredUrl(harness);

		const otherSession = await axios.post(url, {
			event: 'messages.upsert',
			instance: 'someone-else',
			data: { key: { remoteJid: ALICE.jid, fromMe: false, id: 'A' } },
		});
		const otherEvent = await axios.post(url, {
			event: 'contacts.update',
			instance: SESSION,
			data: { id: ALICE.jid },
		});

		expect(otherSession.data).toEqual({ received: true, ignored: 'other session' });
		expect(otherEvent.data).toEqual({ received: true, ignored: 'event not selected' });
		expect(harness.executions()).toHaveLength(0);
	});

	it('filters by chat type and by the listed chats', async () => {
		const harness = await startTrigger({
			filters: { chatType: 'groups', onlyChats: `${SEED.groups.hikers.id}` },
		});
		await harness.activate();

		await testbed.simulator.injectInboundMessage({
			instance: SESSION,
			from: ALICE.number,
			text: 'direct',
		});
		await testbed.simulator.injectInboundMessage({
			instance: SESSION,
			from: SEED.contacts.carla.number,
			groupId: SEED.groups.team.id,
			text: 'other group',
		});
		await testbed.simulator.injectInboundMessage({
			instance: SESSION,
			from: SEED.contacts.carla.number,
			groupId: SEED.groups.hikers.id,
			text: 'hikers',
		});
		await harness.waitForDeliveries(3);

		expect(harness.deliveries.map((delivery) => delivery.responseBody)).toEqual([
			{ received: true, ignored: 'direct chat' },
			{ received: true, ignored: 'chat not listed' },
			{ received: true },
		]);
		const [item] = harness.executions()[0];
		expect(item.json).toEqual(
			expect.objectContaining({
				chatId: SEED.groups.hikers.id,
				isGroup: true,
				sender: SEED.contacts.carla.chatId,
				phone: null,
				lid: null,
				senderPhone: SEED.contacts.carla.number,
				senderLid: null,
				text: 'hikers',
				messageId: expect.stringMatching(
					new RegExp(`^false_${SEED.groups.hikers.id}_[A-Z0-9]{20}_${SEED.contacts.carla.chatId}$`),
				),
			}),
		);
	});

	it('turns QR code events into a PNG binary with the pairing code in JSON', async () => {
		const trigger = await startTrigger({ session: PAIRING_SESSION, events: ['QRCODE_UPDATED'] });
		await trigger.activate();

		const restart = await api().put(`/instance/restart/${PAIRING_SESSION}`);
		expect(restart.status).toBe(200);
		await trigger.waitForDeliveries(1);

		const [item] = trigger.executions()[0];
		expect(item.json).toEqual(
			expect.objectContaining({
				event: 'QRCODE_UPDATED',
				session: PAIRING_SESSION,
				pairingCode: expect.any(String),
			}),
		);
		expect(item.binary?.data.mimeType).toBe('image/png');
		expect(item.binary?.data.fileName).toBe('qrcode.png');
		expect(Buffer.from(item.binary!.data.data, 'base64').subarray(0, 8)).toEqual(
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		);
	});

	it('with Include Media, turns the media of a message into a binary and keeps base64 out of the JSON', async () => {
		const harness = await startTrigger({ options: { includeMedia: true } });
		await harness.activate();

		await testbed.simulator.injectInboundMessage({
			instance: SESSION,
			from: ALICE.number,
			media: { mimetype: 'image/png', caption: 'the receipt' },
		});
		await harness.waitForDeliveries(1);

		const [item] = harness.executions()[0];
		expect(item.json).toEqual(
			expect.objectContaining({ text: 'the receipt', messageType: 'imageMessage' }),
		);
		expect(JSON.stringify(item.json)).not.toContain('"base64"');
		expect(item.binary?.data.mimeType).toBe('image/png');
		expect(Buffer.from(item.binary!.data.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
	});

	it('with Simplify off, outputs the delivered envelope without the instance token', async () => {
		const harness = await startTrigger({ options: { simplify: false } });
		await harness.activate();

		await testbed.simulator.injectInboundMessage({
			instance: SESSION,
			from: ALICE.number,
			text: 'raw please',
		});
		await harness.waitForDeliveries(1);

		const [item] = harness.executions()[0];
		expect(item.json).toEqual(
			expect.objectContaining({
				event: 'messages.upsert',
				instance: SESSION,
				destination: expect.any(String),
				data: expect.objectContaining({ pushName: ALICE.pushName }),
			}),
		);
		expect(item.json).not.toHaveProperty('apikey');
	});

	it('emits message deletions', async () => {
		const harness = await startTrigger({ events: ['MESSAGES_DELETE'] });
		await harness.activate();

		await testbed.simulator.injectDeletion({
			instance: SESSION,
			chatId: ALICE.chatId,
			messageId: SEED.messages.aliceText.id,
		});
		await harness.waitForDeliveries(1);

		const [item] = harness.executions()[0];
		expect(item.json).toEqual(
			expect.objectContaining({
				event: 'MESSAGES_DELETE',
				chatId: ALICE.chatId,
				messageId: SEED.messages.aliceText.id,
				fromMe: false,
			}),
		);
	});

	it('listens for a test event on the test webhook URL', async () => {
		const harness = await startTrigger({}, 'manual');
		await harness.activate();

		expect(registeredUrl(harness)).toMatch(
			/\/webhook-test\/c0ffee00-0000-4000-8000-000000000001\/webhook\?token=/,
		);
		await testbed.simulator.injectInboundMessage({
			instance: SESSION,
			from: ALICE.number,
			text: 'test event',
		});
		await harness.waitForDeliveries(1);
		expect(harness.executions()[0][0].json.text).toBe('test event');
	});
});
