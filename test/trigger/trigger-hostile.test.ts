/**
 * The trigger under hostile conditions: its secret token and the API key never reach an
 * execution, any delivery body gets a clear answer and only well-formed events run, unusable
 * sessions fail before any request, and a gateway that cannot tell whose webhook is registered
 * keeps it.
 */
import axios from 'axios';
import type { INodeExecutionData } from 'n8n-workflow';

import { SEED } from '../simulator/index.cts';
import type { TriggerHarness } from '../support/trigger-harness.cts';
import { useTriggerTestbed } from './trigger-testbed.cts';

const SESSION = SEED.instances.connected.name;
const PAIRING_SESSION = SEED.instances.pairing.name;
const ALICE = SEED.contacts.alice;

const testbed = useTriggerTestbed(SESSION);
const startTrigger = testbed.start.bind(testbed);

function tokenOf(harness: TriggerHarness): string {
	return (harness.staticData().registration as { token: string }).token;
}

function registeredUrl(harness: TriggerHarness): string {
	return (harness.staticData().registration as { url: string }).url;
}

/** Everything an execution and the gateway's answers hold, as text: JSON, binary metadata and data. */
function everythingFrom(harness: TriggerHarness): string {
	const items: INodeExecutionData[] = harness.executions().flat();
	return JSON.stringify({
		items,
		answers: harness.deliveries.map((delivery) => delivery.responseBody),
		binaries: items.map((item) =>
			Object.values(item.binary ?? {}).map((binary) =>
				Buffer.from(binary.data, 'base64').toString('latin1'),
			),
		),
	});
}

describe('no secret reaches an execution', () => {
	const kinds: Array<
		[string, Record<string, unknown>, (harness: TriggerHarness) => Promise<void>]
	> = [
		[
			'an inbound message, simplified',
			{},
			async () => {
				await testbed.simulator.injectInboundMessage({
					instance: SESSION,
					from: ALICE.number,
					text: 'hi',
				});
			},
		],
		[
			'an inbound message, not simplified',
			{ options: { simplify: false } },
			async () => {
				await testbed.simulator.injectInboundMessage({
					instance: SESSION,
					from: ALICE.number,
					text: 'hi',
				});
			},
		],
		[
			'a media message with Include Media',
			{ options: { includeMedia: true } },
			async () => {
				await testbed.simulator.injectInboundMessage({
					instance: SESSION,
					from: ALICE.number,
					media: { mimetype: 'image/png', caption: 'receipt' },
				});
			},
		],
		[
			'a QR code',
			{ session: PAIRING_SESSION, events: ['QRCODE_UPDATED'] },
			async () => {
				await axios.put(`${testbed.simulator.url}/instance/restart/${PAIRING_SESSION}`, undefined, {
					headers: { apikey: testbed.simulator.apiKey },
				});
			},
		],
		[
			'an event that carries the token and the key deep inside',
			{ events: ['CONTACTS_UPDATE'] },
			async (harness) => {
				await axios.post(registeredUrl(harness), {
					event: 'contacts.update',
					instance: SESSION,
					destination: registeredUrl(harness),
					server_url: 'http://gateway.local',
					apikey: 'dummy-instance-token-1',
					data: {
						id: ALICE.jid,
						note: `see ${registeredUrl(harness)}`,
						nested: [
							{
								apiKey: 'dummy-instance-token-2',
								echo: testbed.simulator.apiKey,
								deeper: { token: tokenOf(harness) },
							},
						],
					},
				});
			},
		],
	];

	it.each(kinds)('%s', async (_kind, parameters, deliver) => {
		const harness = await startTrigger(parameters);
		await harness.activate();

		await deliver(harness);
		await harness.waitForDeliveries(1);

		expect(harness.executions()).toHaveLength(1);
		const everything = everythingFrom(harness);
		expect(everything).not.toContain(tokenOf(harness));
		expect(everything).not.toContain(testbed.simulator.apiKey);
		expect(everything).not.toContain('instance-token');
	});

	it('still shows where the delivery went, with the token redacted', async () => {
		const harness = await startTrigger();
		await harness.activate();

		await testbed.simulator.injectInboundMessage({
			instance: SESSION,
			from: ALICE.number,
			text: 'hi',
		});
		await harness.waitForDeliveries(1);

		const raw = harness.executions()[0][0].json.raw as { destination: string };
		expect(raw.destination).toMatch(/\?token=\[redacted\]$/);
	});
});

describe('any delivery body gets a clear answer', () => {
	it.each([
		['null', 'null', 'The body must be a JSON object (an event envelope)'],
		['a number', '42', 'The body must be a JSON object (an event envelope)'],
		['a string', '"hello"', 'The body must be a JSON object (an event envelope)'],
		[
			'a list',
			'[{"event":"messages.upsert"}]',
			'The body must be a JSON object (an event envelope)',
		],
		['an empty object', '{}', 'The body must name the event and the instance as text'],
		[
			'an envelope without instance',
			'{"event":"messages.upsert","data":{}}',
			'The body must name the event and the instance as text',
		],
		[
			'an event that is an object',
			`{"event":{"a":1},"instance":"${SESSION}"}`,
			'The body must name the event and the instance as text',
		],
		[
			'data as text',
			`{"event":"messages.upsert","instance":"${SESSION}","data":"x"}`,
			'The "data" of the event must be an object',
		],
		[
			'a message event with data null',
			`{"event":"messages.upsert","instance":"${SESSION}","data":null}`,
			'A message event must carry the message key (data.key.remoteJid)',
		],
		[
			'a message event without a key',
			`{"event":"messages.upsert","instance":"${SESSION}","data":{"message":{}}}`,
			'A message event must carry the message key (data.key.remoteJid)',
		],
		[
			'deeply nested junk',
			`{"event":"messages.upsert","instance":"${SESSION}","data":${'['.repeat(2000)}${']'.repeat(2000)}}`,
			'The "data" of the event must be an object',
		],
		[
			'a 5 MB string',
			JSON.stringify('x'.repeat(5 * 1024 * 1024)),
			'The body must be a JSON object (an event envelope)',
		],
	])('%s: 400 and no execution', async (_name, rawBody, error) => {
		const harness = await startTrigger();
		await harness.activate();

		const response = await axios.post(registeredUrl(harness), rawBody, {
			headers: { 'content-type': 'application/json' },
			validateStatus: () => true,
			maxBodyLength: Infinity,
		});

		expect(response.status).toBe(400);
		expect(response.data).toEqual({ received: false, error });
		expect(harness.executions()).toHaveLength(0);
	});

	it('a token given twice (a wrong one first) is refused', async () => {
		const harness = await startTrigger();
		await harness.activate();
		const token = tokenOf(harness);

		const response = await axios.post(
			`${harness.webhookUrl}?token=${'0'.repeat(48)}&token=${token}`,
			{
				event: 'messages.upsert',
				instance: SESSION,
				data: { key: { remoteJid: ALICE.jid, id: 'A' } },
			},
			{ validateStatus: () => true },
		);

		expect(response.status).toBe(401);
		expect(harness.executions()).toHaveLength(0);
	});
});

describe('sessions that are no name', () => {
	it.each([['..'], ['.'], ['  '], [{ name: SESSION }]])(
		'%j fails activation before any request',
		async (session) => {
			const harness = await startTrigger({ session: session as never });

			await expect(harness.activate()).rejects.toThrow(/^Session must (be a name|not be empty)/);
			expect(testbed.simulator.requests).toEqual([]);
		},
	);
});

describe('a gateway that cannot tell whose webhook it has', () => {
	it.each([
		[
			'has no /webhook/find',
			{
				status: 404,
				body: {
					status: 404,
					error: 'Not Found',
					response: { message: ['Cannot GET /webhook/find/acme-sales'] },
				},
			},
		],
		[
			'answers /webhook/find with a web page',
			{ status: 200, headers: { 'content-type': 'text/html' }, body: '<html>Login</html>' },
		],
		['answers /webhook/find with a list', { status: 200, body: [] }],
	])('%s: deactivation leaves the registration alone', async (_name, fault) => {
		testbed.simulator.injectFault({ match: { path: '/webhook/find/' }, times: 100, ...fault });
		const harness = await startTrigger();
		await harness.activate();
		// Someone else registers after us; we cannot see it.
		await axios.post(
			`${testbed.simulator.url}/webhook/set/${SESSION}`,
			{ url: 'https://crm.example.com/hooks', events: ['MESSAGES_UPSERT'] },
			{ headers: { apikey: testbed.simulator.apiKey } },
		);
		const setCalls = testbed.simulator.requestsTo('/webhook/set/', 'POST').length;

		await harness.delete();

		expect(testbed.simulator.requestsTo('/webhook/set/', 'POST')).toHaveLength(setCalls);
		expect(testbed.simulator.getWebhook(SESSION)?.url).toBe('https://crm.example.com/hooks');
		expect(harness.staticData()).toEqual({});
	});
});
