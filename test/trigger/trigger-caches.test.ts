/**
 * The trigger keeps what it computes from text (the chats of Only These Chats, the redaction
 * pattern of a set of secrets) so that events do not compute it again. These tests prove that a
 * changed parameter or secret takes effect on the very next event: nothing kept goes stale.
 */
import axios from 'axios';

import { SEED } from '../simulator/index.cts';
import { Redactor } from '../../nodes/MessagingGatewayTrigger/secrets';
import { registeredUrl, useTriggerTestbed } from './trigger-testbed.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;
const BRUNO = SEED.contacts.bruno;

const testbed = useTriggerTestbed(SESSION);

describe('a changed parameter takes effect on the next event', () => {
	it('Only These Chats: the new list decides the next delivery, not the list parsed before', async () => {
		const harness = await testbed.start({ filters: { onlyChats: ALICE.number } });
		await harness.activate();
		const inject = async (from: string, text: string) =>
			await testbed.simulator.injectInboundMessage({ instance: SESSION, from, text });

		await inject(ALICE.number, 'listed');
		await harness.waitForDeliveries(1);
		// What n8n does when the workflow is saved with another list (the registration is the same).
		harness.setParameters({
			session: SESSION,
			events: ['MESSAGES_UPSERT'],
			filters: { onlyChats: BRUNO.number },
		});
		await inject(ALICE.number, 'no longer listed');
		await harness.waitForDeliveries(2);
		await inject(BRUNO.number, 'listed now');
		await harness.waitForDeliveries(3);

		expect(harness.deliveries.map((delivery) => delivery.responseBody)).toEqual([
			{ received: true },
			{ received: true, ignored: 'chat not listed' },
			{ received: true },
		]);
		expect(harness.executions().map((execution) => execution[0].json.text)).toEqual([
			'listed',
			'listed now',
		]);
	});

	it('Only These Chats: a list that became unusable ignores the next delivery', async () => {
		const harness = await testbed.start({ filters: { onlyChats: ALICE.number } });
		await harness.activate();
		harness.setParameters({
			session: SESSION,
			events: ['MESSAGES_UPSERT'],
			filters: { onlyChats: `${ALICE.number}, alice` },
		});

		const response = await axios.post(registeredUrl(harness), {
			event: 'messages.upsert',
			instance: SESSION,
			data: { key: { remoteJid: ALICE.jid, fromMe: false, id: 'A' } },
		});

		expect(response.data).toEqual({
			received: true,
			ignored: 'unusable settings',
			reason: expect.stringContaining('Only These Chats must list phone numbers'),
		});
		expect(harness.executions()).toHaveLength(0);
	});
});

describe('redaction patterns are kept per set of secrets', () => {
	const text = 'first-secret-value and second-secret-value';

	it('a Redactor with other secrets redacts its own, never those of the one before', () => {
		expect(new Redactor(['first-secret-value']).text(text)).toBe(
			'[redacted] and second-secret-value',
		);
		expect(new Redactor(['second-secret-value']).text(text)).toBe(
			'first-secret-value and [redacted]',
		);
	});

	it('two secrets are not one secret that contains a comma', () => {
		expect(new Redactor(['first-secret-value', 'second']).text(text)).toBe(
			'[redacted] and [redacted]-secret-value',
		);
		expect(new Redactor(['first-secret-value,second']).text(text)).toBe(text);
	});

	it('still copies names of Object.prototype as plain data and drops API key fields', () => {
		const copied = new Redactor(['first-secret-value']).data(
			JSON.parse(
				'{"__proto__": {"polluted": "first-secret-value"}, "toString": "x", "apiKey": "k", "kept": 1}',
			) as Record<string, unknown>,
		);

		expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
		expect(Object.keys(copied)).toEqual(['__proto__', 'toString', 'kept']);
		expect(Object.getOwnPropertyDescriptor(copied, '__proto__')?.value).toEqual({
			polluted: '[redacted]',
		});
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});
});
