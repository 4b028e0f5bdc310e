/**
 * No secret reaches an execution: the trigger's token (in the URL the gateway posts to), the
 * credential's API key and the instances' own API keys are kept out of every item (JSON, binary
 * metadata and contents), every answer to the gateway, every log line and every error, for every
 * kind of delivery the simulator sends and for hand-made deliveries that hide them anywhere.
 */
import axios from 'axios';
import type { INodeExecutionData } from 'n8n-workflow';

import { SEED } from '../simulator/index.cts';
import type { TriggerHarness } from '../support/trigger-harness.cts';
import { registeredUrl, tokenOf, useTriggerTestbed } from './trigger-testbed.cts';

const SESSION = SEED.instances.connected.name;
const PAIRING_SESSION = SEED.instances.pairing.name;
const ALICE = SEED.contacts.alice;
const CARLA = SEED.contacts.carla;

const testbed = useTriggerTestbed(SESSION);
const startTrigger = testbed.start.bind(testbed);

/** Stand-ins for the per-instance API keys a hand-made envelope carries. */
const INSTANCE_KEYS = ['dummy-instance-key-1', 'dummy-instance-key-2', 'dummy-instance-key-3'];

function secretsOf(harness: TriggerHarness): string[] {
	return [
		tokenOf(harness),
		testbed.simulator.apiKey,
		SEED.instances.connected.token,
		SEED.instances.pairing.token,
		...INSTANCE_KEYS,
	];
}

function describeError(error: unknown): unknown {
	if (!(error instanceof Error)) return error;
	return {
		...error,
		message: error.message,
		stack: error.stack,
		cause: describeError(error.cause),
	};
}

/**
 * Everything that leaves the trigger, as lower-case text: the items (JSON with the binary data as
 * stored), binary metadata and decoded contents, the answers, the log lines and `errors`.
 */
function everythingFrom(harness: TriggerHarness, errors: unknown[] = []): string {
	const items: INodeExecutionData[] = harness.executions().flat();
	const binaries = items.flatMap((item) => Object.values(item.binary ?? {}));
	return JSON.stringify({
		items,
		binaryMetadata: binaries.map((binary) => ({ ...binary, data: undefined })),
		binaryContents: binaries.map((binary) => Buffer.from(binary.data, 'base64').toString('latin1')),
		answers: harness.deliveries.map((delivery) => delivery.responseBody),
		logs: harness.logLines(),
		errors: errors.map(describeError),
	}).toLowerCase();
}

function expectNoSecretIn(text: string, harness: TriggerHarness): void {
	for (const secret of secretsOf(harness)) {
		// Lower case on both sides: an upper-case token is the token all the same.
		expect(text).not.toContain(secret.toLowerCase());
	}
}

async function postEnvelope(harness: TriggerHarness, envelope: Record<string, unknown>) {
	return await axios.post(registeredUrl(harness), envelope, { validateStatus: () => true });
}

/** A document message with its file inline (as with webhook_base64). */
async function postDocument(harness: TriggerHarness, fileName: string, base64: string) {
	return await postEnvelope(harness, {
		event: 'messages.upsert',
		instance: SESSION,
		data: {
			key: { remoteJid: ALICE.jid, fromMe: false, id: 'A1' },
			messageType: 'documentMessage',
			message: { documentMessage: { fileName, mimetype: 'text/plain' }, base64 },
		},
	});
}

/** An envelope as the global webhook sends it, with secrets hidden in every way a gateway could. */
function envelopeHidingSecrets(harness: TriggerHarness, event: string, data: unknown) {
	const url = registeredUrl(harness);
	const token = tokenOf(harness);
	return {
		event,
		instance: SESSION,
		data,
		destination: url,
		server_url: url,
		date_time: '2024-06-05T14:10:20.494Z',
		// The global webhook sends the global key, which is the credential's.
		apikey: testbed.simulator.apiKey,
		apiKey: INSTANCE_KEYS[0],
		api_key: INSTANCE_KEYS[1],
		'X-Api-Key': INSTANCE_KEYS[2],
		notes: [
			`upper case ${token.toUpperCase()}`,
			`encoded ${encodeURIComponent(url)}`,
			`the instance keys again: ${INSTANCE_KEYS.join(' ')}`,
			{ [token]: `a key named after the token, the credential key ${testbed.simulator.apiKey}` },
		],
	};
}

type Deliver = (harness: TriggerHarness) => Promise<void>;

const inboundText: Deliver = async () => {
	await testbed.simulator.injectInboundMessage({
		instance: SESSION,
		from: ALICE.number,
		text: 'hi',
	});
};

const inboundMedia: Deliver = async () => {
	await testbed.simulator.injectInboundMessage({
		instance: SESSION,
		from: ALICE.number,
		media: { mimetype: 'image/png', caption: 'receipt', fileName: 'receipt.png' },
	});
};

const qrCode: Deliver = async () => {
	await axios.put(`${testbed.simulator.url}/instance/restart/${PAIRING_SESSION}`, undefined, {
		headers: { apikey: testbed.simulator.apiKey },
	});
};

describe('no secret reaches an execution, an answer or a log line', () => {
	// [kind, parameters, deliver, deliveries it makes]
	const kinds: Array<[string, Record<string, unknown>, Deliver, number]> = [
		['an inbound message, simplified', {}, inboundText, 1],
		['an inbound message, not simplified', { options: { simplify: false } }, inboundText, 1],
		[
			'a group message',
			{},
			async () => {
				await testbed.simulator.injectInboundMessage({
					instance: SESSION,
					from: CARLA.number,
					groupId: SEED.groups.hikers.id,
					text: 'hikers',
				});
			},
			1,
		],
		['a media message with Include Media', { options: { includeMedia: true } }, inboundMedia, 1],
		['a media message without Include Media', {}, inboundMedia, 1],
		[
			'a message sent through the API (upsert and send)',
			{ events: ['MESSAGES_UPSERT', 'SEND_MESSAGE'], filters: { ignoreOwnMessages: false } },
			async () => {
				await axios.post(
					`${testbed.simulator.url}/message/sendText/${SESSION}`,
					{ number: ALICE.number, textMessage: { text: 'sent' } },
					{ headers: { apikey: testbed.simulator.apiKey } },
				);
			},
			2,
		],
		[
			'a message deletion',
			{ events: ['MESSAGES_DELETE'] },
			async () => {
				await testbed.simulator.injectDeletion({
					instance: SESSION,
					chatId: ALICE.chatId,
					messageId: SEED.messages.aliceText.id,
				});
			},
			1,
		],
		[
			'a connection update',
			{ events: ['CONNECTION_UPDATE'] },
			async () => {
				testbed.simulator.setInstanceState(SESSION, 'close');
			},
			1,
		],
		['a QR code as binary', { session: PAIRING_SESSION, events: ['QRCODE_UPDATED'] }, qrCode, 1],
		[
			'a QR code as text',
			{
				session: PAIRING_SESSION,
				events: ['QRCODE_UPDATED'],
				options: { qrCodeAsBinary: false, simplify: false },
			},
			qrCode,
			1,
		],
		[
			'a hand-made event hiding secrets everywhere, simplified',
			{ events: ['CONTACTS_UPDATE'] },
			async (harness) => {
				await postEnvelope(
					harness,
					envelopeHidingSecrets(harness, 'contacts.update', {
						id: ALICE.jid,
						note: `see ${registeredUrl(harness)}`,
						nested: [{ apiKey: 'dummy-instance-key-9', deeper: { token: tokenOf(harness) } }],
					}),
				);
			},
			1,
		],
		[
			'a hand-made sync event (a list) hiding secrets everywhere, not simplified',
			{ events: ['CONTACTS_UPSERT'], options: { simplify: false } },
			async (harness) => {
				await postEnvelope(
					harness,
					envelopeHidingSecrets(harness, 'contacts.upsert', [
						{ id: ALICE.jid, pushName: `Alice ${tokenOf(harness)}` },
						{ id: CARLA.jid, profilePictureUrl: registeredUrl(harness) },
					]),
				);
			},
			1,
		],
		[
			'a hand-made media message whose file name, type and caption hold the token',
			{ options: { includeMedia: true } },
			async (harness) => {
				const token = tokenOf(harness);
				await postEnvelope(
					harness,
					envelopeHidingSecrets(harness, 'messages.upsert', {
						key: { remoteJid: ALICE.jid, fromMe: false, id: `ID${token}` },
						messageType: 'documentMessage',
						message: {
							documentMessage: {
								fileName: `invoice-${token}.pdf`,
								mimetype: `application/pdf; note=${testbed.simulator.apiKey}`,
								caption: `see ${registeredUrl(harness)}`,
							},
							base64: Buffer.from('%PDF-1.4 plain file').toString('base64'),
						},
					}),
				);
			},
			1,
		],
	];

	it.each(kinds)('%s', async (_kind, parameters, deliver, deliveries) => {
		const harness = await startTrigger(parameters);
		await harness.activate();

		await deliver(harness);
		await harness.waitForDeliveries(deliveries);

		expect(harness.executions()).toHaveLength(deliveries);
		expectNoSecretIn(everythingFrom(harness), harness);
	});

	it('still shows where the delivery went, with the token redacted', async () => {
		const harness = await startTrigger();
		await harness.activate();

		await inboundText(harness);
		await harness.waitForDeliveries(1);

		const raw = harness.executions()[0][0].json.raw as { destination: string };
		expect(raw.destination).toBe(`${harness.webhookUrl}?token=[redacted]`);
	});

	it('keeps the file of a message, named from the cleaned envelope', async () => {
		const harness = await startTrigger({ options: { includeMedia: true } });
		await harness.activate();

		await postDocument(
			harness,
			`invoice-${tokenOf(harness)}.pdf`,
			Buffer.from('plain file').toString('base64'),
		);
		await harness.waitForDeliveries(1);

		const [item] = harness.executions()[0];
		expect(item.binary?.data.fileName).toBe('invoice-[redacted].pdf');
		expect(Buffer.from(item.binary!.data.data, 'base64').toString()).toBe('plain file');
		expect(JSON.stringify(item.json)).not.toContain('"base64"');
	});

	it.each([
		['the token as text', (harness: TriggerHarness) => `token ${tokenOf(harness)}`],
		['the API key as text', () => `key ${testbed.simulator.apiKey}`],
		// Hex is base64 too: the base64 text itself is the token.
		['the token as the base64 text itself', (harness: TriggerHarness) => tokenOf(harness)],
	])('leaves out a file that holds %s rather than pass it on', async (_name, content) => {
		const harness = await startTrigger({ options: { includeMedia: true } });
		await harness.activate();
		const text = content(harness);

		await postDocument(
			harness,
			'notes.txt',
			text === tokenOf(harness) ? text : Buffer.from(text).toString('base64'),
		);
		await harness.waitForDeliveries(1);

		const [item] = harness.executions()[0];
		expect(item.binary).toBeUndefined();
		expect(item.json.binaryLeftOut).toBe('The file contained a secret of this trigger');
		expectNoSecretIn(everythingFrom(harness), harness);
	});
});

describe('no secret reaches an error', () => {
	it.each([
		['checkExists', async (harness: TriggerHarness) => await harness.checkExists()],
		['delete', async (harness: TriggerHarness) => await harness.delete()],
	])('%s: a /webhook/find failure that quotes our URL', async (_method, call) => {
		const harness = await startTrigger();
		await harness.activate();
		testbed.simulator.injectFault({
			match: { path: '/webhook/find/' },
			status: 500,
			body: { status: 500, error: 'Internal', response: { message: [registeredUrl(harness)] } },
		});

		const error = await call(harness).then(
			() => undefined,
			(thrown: unknown) => thrown,
		);

		expect(error).toBeInstanceOf(Error);
		expectNoSecretIn(everythingFrom(harness, [error]), harness);
	});

	it.each([
		['a failure that quotes the URL', { status: 400, times: 1 }],
		['an answer that echoes another URL', { status: 201, times: 1 }],
	])('registering again: %s', async (_name, fault) => {
		const harness = await startTrigger();
		await harness.activate();
		const url = registeredUrl(harness);
		testbed.simulator.injectFault({
			match: { path: '/webhook/set/' },
			...fault,
			body: { webhook: { instance: SESSION, webhook: { url: `${url}&again` } }, message: [url] },
		});
		harness.setParameters({ session: SESSION, events: ['MESSAGES_UPSERT', 'MESSAGES_DELETE'] });

		const error = await harness.activate().then(
			() => undefined,
			(thrown: unknown) => thrown,
		);

		expect(error).toBeInstanceOf(Error);
		expect(everythingFrom(harness, [error])).not.toContain(url.split('token=')[1].toLowerCase());
	});
});

describe('QR Code as Binary, where each version of the trigger has it', () => {
	it.each([
		{ version: 3, parameters: {}, binary: true },
		{ version: 3, parameters: { qrCodeAsBinary: false }, binary: false },
		// Version 3 shows it as a field of its own and reads it there only.
		{ version: 3, parameters: { options: { qrCodeAsBinary: false } }, binary: true },
		{ version: 2, parameters: {}, binary: true },
		{ version: 2, parameters: { options: { qrCodeAsBinary: false } }, binary: false },
	])('version $version with $parameters: a binary QR code $binary', async (row) => {
		const harness = await testbed.start(
			{ session: PAIRING_SESSION, events: ['QRCODE_UPDATED'], ...row.parameters },
			undefined,
			row.version,
		);
		await harness.activate();
		await qrCode(harness);
		await harness.waitForDeliveries(1);
		const [item] = harness.executions()[0];
		expect(item.binary?.data !== undefined).toBe(row.binary);
	});
});
