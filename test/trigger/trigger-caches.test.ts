/**
 * The trigger keeps what it computes from text (the chats of Only These Chats, the redaction
 * pattern of a set of secrets) so that events do not compute it again. These tests prove that a
 * changed parameter or secret takes effect on the very next event: nothing kept goes stale.
 */
import axios from 'axios';

import { SEED } from '../simulator/index.cts';
import { API_KEY_MAX_AGE_MS } from '../../nodes/MessagingGatewayTrigger/credential-key';
import { Redactor } from '../../nodes/shared/secrets';
import type { TriggerHarness } from '../support/trigger-harness.cts';
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

describe("the credential's API key is read once a minute, not once per delivery", () => {
	const deliver = async (harness: TriggerHarness, id: string, text: string) =>
		await axios.post(registeredUrl(harness), {
			event: 'messages.upsert',
			instance: SESSION,
			data: { key: { remoteJid: ALICE.jid, fromMe: false, id }, message: { conversation: text } },
		});
	const texts = (harness: TriggerHarness) =>
		harness.executions().map((execution) => execution[0].json.text);

	it('40 deliveries at once share one read, and each has the key redacted', async () => {
		const harness = await testbed.start();
		await harness.activate();
		const readsBefore = harness.credentialReads();
		const key = testbed.simulator.apiKey;

		const answers = await Promise.all(
			Array.from({ length: 40 }, (_, index) => deliver(harness, `B${index}`, `key ${key}`)),
		);

		expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
		expect(harness.credentialReads() - readsBefore).toBe(1);
		expect(texts(harness)).toEqual(answers.map(() => 'key [redacted]'));
	});

	it('a key changed in the credential is redacted once the kept one is older than a minute', async () => {
		const harness = await testbed.start();
		await harness.activate();
		await deliver(harness, 'C1', 'first');
		const rotated = `rotated-${testbed.simulator.apiKey.split('').reverse().join('')}`;
		harness.changeApiKey(rotated);
		const realNow = Date.now.bind(Date);
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + API_KEY_MAX_AGE_MS);
		try {
			await deliver(harness, 'C2', `new ${rotated}`);
		} finally {
			clock.mockRestore();
		}

		expect(texts(harness)).toEqual(['first', 'new [redacted]']);
	});

	it('a failed read is not kept: the next delivery reads again', async () => {
		const harness = await testbed.start();
		await harness.activate();
		// Three failures exhaust the tries of the first delivery (500); the second reads anew.
		harness.failNextCredentialReads(3);
		const refused = await axios.post(
			registeredUrl(harness),
			{
				event: 'messages.upsert',
				instance: SESSION,
				data: { key: { remoteJid: ALICE.jid, fromMe: false, id: 'D1' } },
			},
			{ validateStatus: () => true },
		);
		const accepted = await deliver(harness, 'D2', 'second');

		expect([refused.status, accepted.status]).toEqual([500, 200]);
		expect(texts(harness)).toEqual(['second']);
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
