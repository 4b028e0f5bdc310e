import type { IDataObject, INodeParameters, INodePropertyOptions } from 'n8n-workflow';

import { MessagingGateway } from '../../nodes/MessagingGateway/MessagingGateway.node';
import { MessagingGatewayTrigger } from '../../nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node';
import { INSTANCE_EVENTS } from '../../nodes/shared/events';
import { SEED, WEBHOOK_EVENTS } from '../simulator/index.cts';
import { useSimulator, startWebhookReceiver } from '../simulator/testing.cts';
import { expectOneRequest, outputJson, runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const HOOK_URL = 'https://hooks.example.com/messaging';
const MAIN_EVENTS = ['MESSAGES_UPSERT', 'QRCODE_UPDATED', 'MESSAGES_DELETE'];

const simulator = useSimulator();

async function runSet(parameters: INodeParameters, options: RunGatewayOptions = {}) {
	return await runGateway(
		simulator,
		{ resource: 'webhook', operation: 'set', session: SESSION, url: HOOK_URL, ...parameters },
		options,
	);
}

describe('the shared event list', () => {
	it('holds exactly the event names the gateway accepts, each with a lower.dotted payload name', () => {
		expect(INSTANCE_EVENTS.map((event) => event.name).sort()).toEqual([...WEBHOOK_EVENTS].sort());
		for (const event of INSTANCE_EVENTS) {
			expect(event.payloadEvent).toMatch(/^[a-z-]+(\.[a-z-]+)*$/);
			expect(event.description).not.toBe('');
		}
		expect(INSTANCE_EVENTS.find((event) => event.name === 'MESSAGES_UPSERT')?.payloadEvent).toBe(
			'messages.upsert',
		);
	});

	const eventFields = [
		[
			'Messaging Gateway Trigger',
			new MessagingGatewayTrigger().description.properties.find(
				(property) => property.name === 'events',
			),
		],
		[
			'Webhook → Set',
			new MessagingGateway().description.properties.find(
				(property) =>
					property.name === 'events' &&
					property.displayOptions?.show?.resource?.includes('webhook'),
			),
		],
	] as const;

	it.each(eventFields)(
		'%s offers every event by a plain name, the common ones first, storing the gateway name',
		(_node, field) => {
			const options = field?.options as INodePropertyOptions[];
			expect(options.slice(0, 6).map((option) => [option.name, option.value])).toEqual([
				['Message Received', 'MESSAGES_UPSERT'],
				['Message Status Changed', 'MESSAGES_UPDATE'],
				['Message Deleted', 'MESSAGES_DELETE'],
				['Message Sent Through the API', 'SEND_MESSAGE'],
				['QR Code Updated', 'QRCODE_UPDATED'],
				['Connection Changed', 'CONNECTION_UPDATE'],
			]);
			expect(options.map((option) => option.value).sort()).toEqual([...WEBHOOK_EVENTS].sort());
			for (const option of options) {
				// No raw gateway wording in the label nor in the description (each gateway's own name
				// for the event is in the operations reference).
				expect(option.name).not.toMatch(/Upsert|Update$|_|\bSet$/);
				const event = INSTANCE_EVENTS.find((known) => known.name === option.value);
				expect(option.description).not.toMatch(/Gateway event|\b[a-z]+\.[a-z]+\b|[A-Z]+_[A-Z]+/);
				expect(option.description?.startsWith(`${event?.description}.`)).toBe(true);
			}
		},
	);

	it('Webhook → Set says empty means all events and names the common ones by their labels', () => {
		const [, events] = eventFields[1];
		expect(events?.default).toEqual([]);
		expect(events?.description).toMatch(/Leave empty for all events/);
		expect(events?.description).toMatch(/Message Received.*QR Code Updated.*Message Deleted/);
	});
});

describe('Webhook > Set', () => {
	it('posts url, events and flags to the instance endpoint and outputs the saved configuration flat', async () => {
		const result = await runSet({
			events: MAIN_EVENTS,
			webhookByEvents: true,
			webhookBase64: true,
		});

		expect(result.status).toBe('success');
		expectOneRequest(simulator, {
			method: 'POST',
			path: `/webhook/set/${SESSION}`,
			query: {},
		});
		expect(simulator.requests[0].body).toEqual({
			enabled: true,
			url: HOOK_URL,
			events: MAIN_EVENTS,
			webhook_by_events: true,
			webhook_base64: true,
		});
		expect(outputJson(result)).toEqual([
			{
				session: SESSION,
				url: HOOK_URL,
				events: MAIN_EVENTS,
				enabled: true,
				webhook_by_events: true,
				webhook_base64: true,
			},
		]);
		expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
		expect(simulator.getWebhook(SESSION)).toEqual({
			enabled: true,
			url: HOOK_URL,
			events: MAIN_EVENTS,
			webhook_by_events: true,
			webhook_base64: true,
		});
	});

	it('sends an empty event list for "all events" and outputs the full list the gateway saved', async () => {
		const result = await runSet({});

		expect(simulator.requests[0].body).toEqual({
			enabled: true,
			url: HOOK_URL,
			events: [],
			webhook_by_events: false,
			webhook_base64: false,
		});
		expect(outputJson(result)[0]).toMatchObject({ session: SESSION, enabled: true });
		expect(outputJson(result)[0].events).toEqual(WEBHOOK_EVENTS);
	});

	it('turns the webhook off with Enabled false, still sending the URL', async () => {
		await runSet({ events: ['MESSAGES_UPSERT'] });
		const result = await runSet({ enabled: false, events: ['MESSAGES_UPSERT'] });

		expect(simulator.requests[1].body).toEqual({
			enabled: false,
			url: HOOK_URL,
			events: ['MESSAGES_UPSERT'],
			webhook_by_events: false,
			webhook_base64: false,
		});
		expect(outputJson(result)).toEqual([
			{
				session: SESSION,
				url: '',
				events: [],
				enabled: false,
				webhook_by_events: false,
				webhook_base64: false,
			},
		]);
		expect(simulator.getWebhook(SESSION)?.enabled).toBe(false);
	});

	it('makes the gateway deliver the chosen events to the URL (per-event addresses with Webhook by Events)', async () => {
		const receiver = await startWebhookReceiver('/hooks');
		try {
			await runSet({ url: receiver.url, events: ['MESSAGES_UPSERT'], webhookByEvents: true });

			await simulator.injectInboundMessage({ from: SEED.contacts.alice.number, text: 'Hello' });
			const [delivery] = await simulator.waitForDeliveries(1);

			expect(delivery.url).toBe(`${receiver.url}/messages-upsert`);
			expect(delivery.event).toBe(
				INSTANCE_EVENTS.find((event) => event.name === 'MESSAGES_UPSERT')?.payloadEvent,
			);
			expect(delivery.status).toBe(200);
			expect(receiver.received[0].path).toBe('/hooks/messages-upsert');
		} finally {
			await receiver.stop();
		}
	});

	it('takes events from an expression as a comma-separated string, also as delivered names or in lower case', async () => {
		await runSet(
			{ events: '={{ $json.events }}' },
			{ items: [{ json: { events: 'MESSAGES_UPSERT, call, messages.delete, qrcode_updated' } }] },
		);

		expect((simulator.requests[0].body as IDataObject).events).toEqual([
			'MESSAGES_UPSERT',
			'CALL',
			'MESSAGES_DELETE',
			'QRCODE_UPDATED',
		]);
	});

	it('rejects a URL that is not http(s) before any request', async () => {
		for (const url of ['not a url', 'ftp://files.example.com/hook', 'https://']) {
			const result = await runSet({ url });

			expect(result.status).toBe('error');
			expect(result.error?.name).toBe('NodeOperationError');
			expect(result.error?.message).toBe(
				`URL must be an http(s) address such as https://example.com/webhook (got "${url}")`,
			);
			expect(result.error?.description).toMatch(/even when Enabled is off/);
		}
		expect(simulator.requests).toEqual([]);
	});

	it('rejects unknown event names before any request', async () => {
		const result = await runSet(
			{ events: '={{ $json.events }}' },
			{ items: [{ json: { events: ['MESSAGES_UPSERT', 'MESSAGE_RECEIVED'] } }] },
		);

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe('Events has unknown event names: MESSAGE_RECEIVED');
		expect(simulator.requests).toEqual([]);
	});

	it('surfaces an unknown instance as the gateway error', async () => {
		const result = await runSet({ session: 'ghost-instance' });

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(
			'Gateway error 404: The "ghost-instance" instance does not exist',
		);
		expect(simulator.requests).toHaveLength(1);
	});

	it('sends one request per item with paired outputs; the last one is what the gateway keeps', async () => {
		const urls = [1, 2, 3].map((index) => `https://hooks.example.com/flow-${index}`);
		const result = await runSet(
			{ url: '={{ $json.url }}', events: ['CONNECTION_UPDATE'] },
			{ items: urls.map((url) => ({ json: { url } })) },
		);

		expect(simulator.requests.map((request) => (request.body as IDataObject).url)).toEqual(urls);
		expect(result.outputs[0].map((item) => [item.json.url, item.pairedItem])).toEqual([
			[urls[0], { item: 0 }],
			[urls[1], { item: 1 }],
			[urls[2], { item: 2 }],
		]);
		expect(simulator.getWebhook(SESSION)?.url).toBe(urls[2]);
	});

	it('with Continue On Fail, a bad item becomes an error item and the others are sent', async () => {
		const result = await runSet(
			{ url: '={{ $json.url }}', events: ['CALL'] },
			{
				items: [
					{ json: { url: 'https://hooks.example.com/a' } },
					{ json: { url: 'hooks.example.com/b' } },
					{ json: { url: 'https://hooks.example.com/c' } },
				],
				onError: 'continueRegularOutput',
			},
		);

		expect(result.status).toBe('success');
		expect(simulator.requests).toHaveLength(2);
		expect(result.outputs[0].map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(outputJson(result)[1]).toEqual({
			error:
				'URL must be an http(s) address such as https://example.com/webhook (got "hooks.example.com/b")',
			message: expect.stringMatching(/always give a valid address/),
		});
		expect(outputJson(result)[2]).toMatchObject({
			url: 'https://hooks.example.com/c',
			enabled: true,
		});
	});
});
