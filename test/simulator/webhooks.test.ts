import { sleep } from 'n8n-workflow';

import { SEED } from './index.cts';
import {
	gatewayClient,
	startWebhookReceiver,
	unusedUrl,
	useSimulator,
	type WebhookReceiver,
} from './testing.cts';

const connected = SEED.instances.connected;
const pairing = SEED.instances.pairing;
const { alice, carla } = SEED.contacts;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('webhook deliveries (Evolution v1 envelope)', () => {
	const sim = useSimulator();
	let receiver: WebhookReceiver;

	beforeAll(async () => {
		receiver = await startWebhookReceiver();
	});
	afterAll(async () => {
		await receiver.stop();
	});
	afterEach(() => {
		receiver.received.length = 0;
		receiver.respondWith(200);
	});

	async function subscribe(instance: string, config: Record<string, unknown>) {
		const response = await gatewayClient(sim).post(`/webhook/set/${instance}`, {
			url: receiver.url,
			...config,
		});
		expect(response.status).toBe(201);
	}

	it('delivers MESSAGES_UPSERT for an API send with the full envelope', async () => {
		await subscribe(connected.name, { events: ['MESSAGES_UPSERT'] });
		const sent = await gatewayClient(sim).post(`/message/sendText/${connected.name}`, {
			number: alice.number,
			textMessage: { text: 'Order shipped' },
		});
		const [delivery] = await sim.waitForDeliveries(1);
		expect(delivery).toMatchObject({ url: receiver.url, event: 'messages.upsert', status: 200 });
		expect(delivery.body).toEqual({
			event: 'messages.upsert',
			instance: connected.name,
			data: {
				key: { remoteJid: alice.jid, fromMe: true, id: sent.data.key.id },
				pushName: connected.profileName,
				message: { extendedTextMessage: { text: 'Order shipped' } },
				messageType: 'extendedTextMessage',
				messageTimestamp: Number(sent.data.messageTimestamp),
				owner: connected.name,
				source: 'api',
			},
			destination: receiver.url,
			date_time: expect.stringMatching(ISO_DATE),
			sender: connected.ownerJid,
			server_url: sim.url,
			apikey: connected.token,
		});
		expect(receiver.received).toHaveLength(1);
		expect(receiver.received[0]).toMatchObject({
			method: 'POST',
			path: '/hooks',
			body: delivery.body,
		});
		expect(receiver.received[0].headers['content-type']).toBe('application/json');
	});

	it('delivers only subscribed events', async () => {
		await subscribe(connected.name, { events: ['CONNECTION_UPDATE'] });
		await gatewayClient(sim).post(`/message/sendText/${connected.name}`, {
			number: alice.number,
			textMessage: { text: 'x' },
		});
		sim.setInstanceState(connected.name, 'close');
		await sim.waitForDeliveries(1);
		await sleep(150);
		expect(sim.deliveries.map((delivery) => delivery.event)).toEqual(['connection.update']);
		expect(sim.deliveries[0].body.data).toEqual({
			instance: connected.name,
			state: 'close',
			statusReason: 428,
		});
	});

	it('appends /<kebab-event> with webhook_by_events, keeping the base URL as destination', async () => {
		await subscribe(connected.name, { events: ['MESSAGES_UPSERT'], webhook_by_events: true });
		await sim.injectInboundMessage({ from: alice.number, text: 'Hello there' });
		const [delivery] = await sim.waitForDeliveries(1);
		expect(delivery.url).toBe(`${receiver.url}/messages-upsert`);
		expect(delivery.body.destination).toBe(receiver.url);
		expect(receiver.received[0].path).toBe('/hooks/messages-upsert');
	});

	it('delivers inbound messages with fromMe false and no source', async () => {
		await subscribe(connected.name, { events: ['MESSAGES_UPSERT'] });
		const injected = await sim.injectInboundMessage({
			from: alice.chatId,
			text: 'Are you open today?',
		});
		const [delivery] = await sim.waitForDeliveries(1);
		expect(delivery.body.data).toEqual({
			key: { remoteJid: alice.jid, fromMe: false, id: injected.shortId },
			pushName: 'Alice',
			message: { conversation: 'Are you open today?' },
			messageType: 'conversation',
			messageTimestamp: injected.timestamp,
			owner: connected.name,
		});
		expect(delivery.body.data).toEqual(injected.evolution);
	});

	it('adds data.message.base64 for media only with webhook_base64', async () => {
		await subscribe(connected.name, { events: ['MESSAGES_UPSERT'], webhook_base64: true });
		const media = await sim.injectInboundMessage({
			from: alice.number,
			media: { caption: 'Receipt' },
		});
		await sim.injectInboundMessage({ from: alice.number, text: 'and a text' });
		const deliveries = await sim.waitForDeliveries(2);
		const mediaDelivery = deliveries.find(
			(delivery) => delivery.body.data.key.id === media.shortId,
		);
		const file = await gatewayClient(sim).get(`/api/files/${connected.name}/${media.shortId}.png`, {
			responseType: 'arraybuffer',
		});
		expect(mediaDelivery?.body.data.messageType).toBe('imageMessage');
		expect(mediaDelivery?.body.data.message.base64).toBe(Buffer.from(file.data).toString('base64'));
		expect(mediaDelivery?.body.data.message.imageMessage).toMatchObject({
			mimetype: 'image/png',
			caption: 'Receipt',
		});
		const textDelivery = deliveries.find((delivery) => delivery.body.data.key.id !== media.shortId);
		expect(textDelivery?.body.data.message).toEqual({ conversation: 'and a text' });
	});

	it('omits base64 without webhook_base64', async () => {
		await subscribe(connected.name, { events: ['MESSAGES_UPSERT'] });
		await sim.injectInboundMessage({
			from: alice.number,
			media: { mimetype: 'application/pdf', fileName: 'menu.pdf' },
		});
		const [delivery] = await sim.waitForDeliveries(1);
		expect(delivery.body.data.messageType).toBe('documentMessage');
		expect(delivery.body.data.message.documentMessage).toMatchObject({
			fileName: 'menu.pdf',
			mimetype: 'application/pdf',
		});
		expect(delivery.body.data.message.base64).toBeUndefined();
	});

	it('subscribes to every event for an empty list: API sends also emit SEND_MESSAGE', async () => {
		await subscribe(connected.name, { events: [] });
		await gatewayClient(sim).post('/api/sendPoll', {
			session: connected.name,
			chatId: alice.chatId,
			poll: { name: 'Pickup time?', options: ['9am', '5pm'] },
		});
		const deliveries = await sim.waitForDeliveries(2);
		expect(deliveries.map((delivery) => delivery.event).sort()).toEqual([
			'messages.upsert',
			'send.message',
		]);
		expect(deliveries[0].body.data.message.pollCreationMessage.name).toBe('Pickup time?');
	});

	it('delivers group messages with key.participant', async () => {
		await subscribe(connected.name, { events: ['MESSAGES_UPSERT'] });
		await sim.injectInboundMessage({
			from: carla.number,
			groupId: SEED.groups.hikers.id,
			text: 'I have the map',
		});
		const [delivery] = await sim.waitForDeliveries(1);
		expect(delivery.body.data.key).toEqual({
			remoteJid: SEED.groups.hikers.id,
			fromMe: false,
			id: expect.any(String),
			participant: carla.jid,
		});
	});

	it('emits CONNECTION_UPDATE and QRCODE_UPDATED (real PNG) when a disconnected instance restarts', async () => {
		await subscribe(pairing.name, { events: ['QRCODE_UPDATED', 'CONNECTION_UPDATE'] });
		const restart = await gatewayClient(sim).put(`/instance/restart/${pairing.name}`);
		expect(restart.status).toBe(200);
		const deliveries = await sim.waitForDeliveries(2);
		const connection = deliveries.find((delivery) => delivery.event === 'connection.update');
		const qr = deliveries.find((delivery) => delivery.event === 'qrcode.updated');
		expect(connection?.body.data).toEqual({
			instance: pairing.name,
			state: 'connecting',
			statusReason: 200,
		});
		expect(qr?.body.data).toEqual({
			qrcode: {
				instance: pairing.name,
				pairingCode: expect.stringMatching(/^[A-Z0-9]{8}$/),
				code: expect.stringMatching(/^2@/),
				base64: expect.stringMatching(/^data:image\/png;base64,/),
			},
		});
		const png = Buffer.from(qr?.body.data.qrcode.base64.split(',')[1], 'base64');
		expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
		expect(png.toString('ascii', 12, 16)).toBe('IHDR');
		// Never connected: the envelope has no sender.
		expect(qr?.body).not.toHaveProperty('sender');
		expect(qr?.body.apikey).toBe(pairing.token);
	});

	it('uses the pairing code requested through the session family in QRCODE_UPDATED', async () => {
		await subscribe(pairing.name, { events: ['QRCODE_UPDATED'] });
		const requested = await gatewayClient(sim).post(`/api/${pairing.name}/auth/request-code`, {
			phone: pairing.ownerNumber,
		});
		await gatewayClient(sim).put(`/instance/restart/${pairing.name}`);
		const [delivery] = await sim.waitForDeliveries(1);
		expect(delivery.body.data.qrcode.pairingCode).toBe(requested.data.code.replace('-', ''));
	});

	it('does not emit pairing events when a connected instance restarts', async () => {
		await subscribe(connected.name, { events: ['QRCODE_UPDATED', 'CONNECTION_UPDATE'] });
		await gatewayClient(sim).put(`/instance/restart/${connected.name}`);
		await sleep(150);
		expect(sim.deliveries).toEqual([]);
	});

	it('emits MESSAGES_DELETE for an injected deletion; the message is then gone', async () => {
		await subscribe(connected.name, { events: ['MESSAGES_DELETE'] });
		await sim.injectDeletion({
			instance: connected.name,
			chatId: alice.chatId,
			messageId: SEED.messages.aliceText.id,
		});
		const [delivery] = await sim.waitForDeliveries(1);
		expect(delivery.event).toBe('messages.delete');
		expect(delivery.body.data).toEqual({
			remoteJid: alice.jid,
			fromMe: false,
			id: SEED.messages.aliceText.shortId,
		});
		const read = await gatewayClient(sim).get(
			`/api/${connected.name}/chats/${alice.chatId}/messages/${SEED.messages.aliceText.id}`,
		);
		expect(read.status).toBe(404);
		const statuses = await gatewayClient(sim).post(`/chat/findStatusMessage/${connected.name}`, {
			where: { id: SEED.messages.aliceText.shortId },
		});
		expect(statuses.data).toEqual([expect.objectContaining({ status: 'DELETED', fromMe: false })]);
	});

	it('delivers nothing once the webhook is disabled', async () => {
		await subscribe(connected.name, { events: ['MESSAGES_UPSERT'] });
		await subscribe(connected.name, { enabled: false, events: ['MESSAGES_UPSERT'] });
		await sim.injectInboundMessage({ from: alice.number, text: 'anyone?' });
		await sleep(150);
		expect(sim.deliveries).toEqual([]);
		expect(receiver.received).toEqual([]);
	});

	it("records the receiver's status and connection errors, without retrying", async () => {
		receiver.respondWith(500);
		await subscribe(connected.name, { events: ['MESSAGES_UPSERT'] });
		await sim.injectInboundMessage({ from: alice.number, text: 'one' });
		const [failed] = await sim.waitForDeliveries(1);
		expect(failed.status).toBe(500);
		expect(failed.responseBody).toBe('{"received":true}');

		const deadUrl = await unusedUrl();
		await gatewayClient(sim).post(`/webhook/set/${connected.name}`, {
			url: deadUrl,
			events: ['MESSAGES_UPSERT'],
		});
		await sim.injectInboundMessage({ from: alice.number, text: 'two' });
		const deliveries = await sim.waitForDeliveries(2);
		expect(deliveries[1]).toMatchObject({ url: deadUrl, event: 'messages.upsert' });
		expect(deliveries[1].status).toBeUndefined();
		expect(deliveries[1].error).toMatch(/ECONNREFUSED/);
		await sleep(150);
		expect(receiver.received).toHaveLength(1);
	});

	it('keeps webhooks per instance', async () => {
		await subscribe(pairing.name, { events: ['MESSAGES_UPSERT'] });
		await sim.injectInboundMessage({ from: alice.number, text: 'for the connected instance' });
		await sleep(150);
		expect(sim.deliveries).toEqual([]);
	});

	it('rejects waitForDeliveries after its timeout', async () => {
		await expect(sim.waitForDeliveries(1, 50)).rejects.toThrow(
			'Expected 1 webhook deliveries within 50 ms, got 0: none',
		);
	});
});
