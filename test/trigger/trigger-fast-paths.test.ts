/**
 * The shortcuts webhook() takes on every event give what the long way gives: the cleaned envelope
 * shares what needs no cleaning with the delivery instead of copying it (and still redacts a
 * secret anywhere, drops every API key field, never changes the delivery), the walk that checks
 * the depth of an envelope also finds its API keys, an item without a file is built without a
 * promise, a credential key already read is taken without one, and the helpers made cheaper (chat IDs, blank names, events, tokens) answer as before.
 */
import axios from 'axios';
import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { SEED } from '../simulator/index.cts';
import type {
	Delivery,
	DeliveryOutput,
} from '../../nodes/MessagingGatewayTrigger/webhook/deliveries';
import {
	deliveryToItem,
	tokensMatch,
} from '../../nodes/MessagingGatewayTrigger/webhook/deliveries';
import {
	envelopeProblem,
	MAX_DELIVERY_NESTING,
} from '../../nodes/MessagingGatewayTrigger/webhook/envelope';
import { credentialApiKey } from '../../nodes/MessagingGatewayTrigger/credential-key';
import { checkedEvents } from '../../nodes/MessagingGatewayTrigger/webhook/registration';
import { apiKeyValues, Redactor } from '../../nodes/shared/secrets';
import { classifyChat } from '../../nodes/shared/identifiers';
import { isBlank } from '../../nodes/shared/values';
import { registeredUrl, tokenOf, useTriggerTestbed } from './trigger-testbed.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;

const TOKEN = 'dummy0token0123456789abcdef0123456789abcdef0123';
const API_KEY = 'dummy-credential-key-0001';
const INSTANCE_KEY = 'dummy-instance-key-0002';
const SECRETS = [TOKEN, API_KEY, INSTANCE_KEY];

/** JSON text with the names in order: toEqual alone ignores the order of names. */
function inOrder(value: unknown): string {
	return JSON.stringify(value);
}

/** Deliveries with secrets and API key fields in every place the fast path must still see them. */
function envelopes(): Array<[string, () => Record<string, unknown>]> {
	return [
		['a clean envelope', () => ({ event: 'presence.update', instance: SESSION, data: { a: 1 } })],
		[
			'the token deep inside the text of a message',
			() => ({
				event: 'messages.upsert',
				instance: SESSION,
				data: {
					key: { remoteJid: ALICE.jid, fromMe: false, id: 'A1' },
					message: { extendedTextMessage: { text: `look: ${TOKEN.toUpperCase()} here`, n: 1 } },
					untouched: { deep: { list: ['x', 'y', { z: 'short' }] } },
				},
			}),
		],
		[
			'the API key field first, a secret after it',
			() => ({
				apikey: INSTANCE_KEY,
				event: 'presence.update',
				instance: SESSION,
				data: {},
				destination: `https://n8n.example/webhook?token=${TOKEN}`,
			}),
		],
		[
			'several API key fields on one level, and nested ones',
			() => ({
				event: 'x',
				instance: SESSION,
				apiKey: 'dummy-nested-key-0003',
				api_key: INSTANCE_KEY,
				'X-Api-Key': 'dummy-another-key-0004',
				data: { inner: { apikey: 'dummy-inner-key-0005', note: 'dummy-inner-key-0005 again' } },
				note: 'dummy-nested-key-0003 and dummy-another-key-0004',
			}),
		],
		[
			'a secret in a field name, URL-encoded and in a list',
			() => ({
				event: 'x',
				instance: SESSION,
				data: [
					{ [TOKEN]: 'named after the token' },
					`encoded ${encodeURIComponent(`a b ${API_KEY}`)}`,
					['plain', `again ${API_KEY}`],
				],
			}),
		],
		[
			'names of Object.prototype, with and without secrets',
			() =>
				JSON.parse(
					`{"event":"x","instance":"s","data":{"__proto__":{"polluted":"${TOKEN}"},"toString":"x","constructor":{"ok":1}},"valueOf":"${API_KEY}"}`,
				) as Record<string, unknown>,
		],
		[
			'only a value to redact (no field dropped)',
			() => ({
				event: 'x',
				instance: SESSION,
				data: { list: [1, 2] },
				server_url: `u?k=${API_KEY}`,
			}),
		],
		[
			'a sparse list',
			() => {
				const list: unknown[] = [];
				list[1] = `has ${TOKEN}`;
				list[3] = 'fine';
				return { event: 'x', instance: SESSION, data: { list } };
			},
		],
	];
}

describe('the cleaned envelope (shared where nothing changes) is what the full copy gives', () => {
	it.each(envelopes())('%s', (_name, make) => {
		const delivery = make();
		const before = inOrder(delivery);
		const envelopeKeys = apiKeyValues(delivery);
		const redactor = new Redactor([...SECRETS, ...envelopeKeys]);

		const cleaned = redactor.cleaned(delivery);
		const copied = redactor.data(make());

		expect(inOrder(cleaned)).toBe(inOrder(copied));
		expect(cleaned).toEqual(copied);
		// The delivery is never changed.
		expect(inOrder(delivery)).toBe(before);
		// Names of Object.prototype stay plain data in whatever was copied.
		expect(Object.getPrototypeOf(cleaned)).toBe(Object.prototype);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		const text = inOrder(cleaned).toLowerCase();
		for (const secret of [...SECRETS, ...envelopeKeys]) {
			expect(text).not.toContain(secret.toLowerCase());
		}
	});

	it('takes the fast path: what needs no change is the very object of the delivery', () => {
		const untouched = { deep: { list: ['x', { z: 'short' }] }, number: 5 };
		const message = { conversation: `the token ${TOKEN} inside` };
		const delivery = { event: 'x', instance: SESSION, data: { untouched, message } };

		const cleaned = new Redactor(SECRETS).cleaned(delivery);

		// Shared, not copied...
		expect(cleaned.data.untouched).toBe(untouched);
		// ...while the secret next to it, two levels down in a string, is redacted in a copy.
		expect(cleaned.data.message).not.toBe(message);
		expect(cleaned.data.message.conversation).toBe('the token [redacted] inside');
		expect(message.conversation).toContain(TOKEN);
		expect(cleaned).not.toBe(delivery);
	});

	it('gives the delivery itself back when nothing in it needs a change', () => {
		const delivery = { event: 'x', instance: SESSION, data: { text: 'short', list: [1, 'a'] } };

		expect(new Redactor(SECRETS).cleaned(delivery)).toBe(delivery);
	});

	it('copies objects that are not plain as data() does', () => {
		const odd = Object.assign(Object.create(null) as Record<string, unknown>, { a: `x ${TOKEN}` });
		const redactor = new Redactor(SECRETS);

		const cleaned = redactor.cleaned({ data: odd });

		expect(cleaned.data).toEqual(redactor.data({ data: odd }).data);
		expect(Object.getPrototypeOf(cleaned.data)).toBe(Object.prototype);
	});

	it('a Redactor made with other secrets in between, or from a list changed after, keeps its own', () => {
		const secrets = ['first-secret-value'];
		const first = new Redactor(secrets);
		secrets.push('second-secret-value');
		const both = new Redactor(secrets);
		const again = new Redactor(['first-secret-value']);
		const text = 'first-secret-value second-secret-value';

		expect(first.text(text)).toBe('[redacted] second-secret-value');
		expect(both.text(text)).toBe('[redacted] [redacted]');
		expect(again.text(text)).toBe('[redacted] second-secret-value');
		expect(again.contains('FIRST-SECRET-VALUE')).toBe(true);
		expect(again.contains('second-secret-value')).toBe(false);
	});
});

describe('the envelope check finds the API keys on the way', () => {
	it.each(envelopes())('%s: the same values as apiKeyValues', (_name, make) => {
		const delivery = make();
		const found: string[] = [];

		expect(envelopeProblem(delivery, found)).toBeUndefined();
		expect([...found].sort()).toEqual([...apiKeyValues(delivery)].sort());
	});

	function nested(levels: number): Record<string, unknown> {
		let data: Record<string, unknown> = { leaf: true };
		for (let level = 1; level < levels; level++) data = { inner: data };
		return data;
	}

	it('still allows the deepest envelope and refuses one level more, at any depth without overflow', () => {
		// The envelope is level 1 and its data level 2.
		const deepest = { event: 'x', instance: 's', data: nested(MAX_DELIVERY_NESTING - 1) };
		const tooDeep = { event: 'x', instance: 's', data: nested(MAX_DELIVERY_NESTING) };
		const huge = { event: 'x', instance: 's', data: nested(200_000) };
		const tooDeepList = { event: 'x', instance: 's', data: [nested(MAX_DELIVERY_NESTING - 1)] };

		expect(envelopeProblem(deepest)).toBeUndefined();
		expect(envelopeProblem(tooDeep)).toMatch(/must not nest deeper than 64 levels/);
		expect(envelopeProblem(huge)).toMatch(/must not nest deeper than 64 levels/);
		expect(envelopeProblem(tooDeepList)).toMatch(/must not nest deeper than 64 levels/);
	});
});

describe('an item without a file needs no promise', () => {
	const output: DeliveryOutput = {
		simplify: true,
		qrCodeAsBinary: true,
		includeMedia: true,
		lookUpPhoneNumbers: false,
	};
	const stored = { data: 'stored', mimeType: 'text/plain' };
	const context = {
		helpers: { prepareBinaryData: jest.fn(async () => await Promise.resolve(stored)) },
	} as unknown as IWebhookFunctions;
	const message = (extra: IDataObject = {}): Delivery => ({
		event: 'messages.upsert',
		instance: SESSION,
		data: { key: { remoteJid: ALICE.jid, fromMe: false, id: 'A1' }, ...extra },
		apikey: INSTANCE_KEY,
	});

	it('a text message: the item itself, simplified fields first and "raw" last', () => {
		const item = deliveryToItem.call(
			context,
			message({ message: { conversation: 'hi' }, messageType: 'conversation' }),
			output,
			SECRETS,
			[INSTANCE_KEY],
		);

		expect(item).not.toBeInstanceOf(Promise);
		const json = (item as INodeExecutionData).json;
		expect(Object.keys(json)).toEqual([
			'event',
			'eventName',
			'session',
			'chatId',
			'phone',
			'lid',
			'messageId',
			'fromMe',
			'ownMessageFrom',
			'sender',
			'senderPhone',
			'senderLid',
			'pushName',
			'text',
			'messageType',
			'timestamp',
			'time',
			'isGroup',
			'raw',
		]);
		expect(json.text).toBe('hi');
		expect((json.raw as IDataObject).apikey).toBeUndefined();
	});

	it('a message with its file: a promise of the item with the stored file', async () => {
		const item = deliveryToItem.call(
			context,
			message({
				messageType: 'documentMessage',
				message: {
					documentMessage: { fileName: 'a.txt', mimetype: 'text/plain' },
					base64: Buffer.from('hello').toString('base64'),
				},
			}),
			output,
			SECRETS,
			[INSTANCE_KEY],
		);

		expect(item).toBeInstanceOf(Promise);
		const resolved = await item;
		expect(resolved.binary).toEqual({ data: stored });
		expect(((resolved.json.raw as IDataObject).data as IDataObject).message).toEqual({
			documentMessage: { fileName: 'a.txt', mimetype: 'text/plain' },
		});
	});

	it('an event of other data: the data fields, then event and session, and "raw" where the data had it', () => {
		const delivery: Delivery = {
			event: 'presence.update',
			instance: SESSION,
			data: { raw: 'of the data', id: ALICE.jid, session: 'not this one' },
		};

		const item = deliveryToItem.call(context, delivery, output, SECRETS, []) as INodeExecutionData;

		expect(inOrder(item.json)).toBe(
			inOrder({
				raw: delivery,
				id: ALICE.jid,
				session: SESSION,
				event: 'PRESENCE_UPDATE',
				eventName: 'Presence Changed',
			}),
		);
	});
});

describe('a key already read needs no promise', () => {
	/** A context whose credential (a new ID each time: the kept keys live as long as the process) reads as `reads` says. */
	let credentialCount = 0;
	const contextReading = (reads: Array<() => Promise<IDataObject>>) => {
		const id = `fast-path-credential-${++credentialCount}`;
		return {
			getNode: () => ({ credentials: { messagingGatewayApi: { id, name: 'Gateway' } } }),
			getCredentials: jest.fn(async () => {
				const read = reads.shift();
				if (!read) throw new Error('The test scripted no further credential read');
				return await read();
			}),
		} as unknown as IWebhookFunctions;
	};

	it('the first delivery waits for the read; once it is read, the next takes the key itself', async () => {
		const context = contextReading([async () => await Promise.resolve({ apiKey: API_KEY })]);
		const first = credentialApiKey.call(context);

		expect(first).toBeInstanceOf(Promise);
		await expect(first).resolves.toBe(API_KEY);
		expect(credentialApiKey.call(context)).toBe(API_KEY);
		expect(context.getCredentials).toHaveBeenCalledTimes(1);
	});

	it('a failed read is not kept: the next delivery waits for a new read', async () => {
		const context = contextReading([
			async () => await Promise.reject(new Error('database busy')),
			async () => await Promise.resolve({ apiKey: API_KEY }),
		]);

		await expect(credentialApiKey.call(context)).rejects.toThrow('database busy');
		const second = credentialApiKey.call(context);
		expect(second).toBeInstanceOf(Promise);
		await expect(second).resolves.toBe(API_KEY);
		expect(context.getCredentials).toHaveBeenCalledTimes(2);
	});
});

describe('the helpers made cheaper answer as before', () => {
	/** classifyChat as it was, every expression tried in turn. */
	function classifiedBefore(raw: unknown) {
		const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
		if (/^\d+(-\d+)?@g\.us$/.test(text)) return { kind: 'group', value: text };
		if (/^\d+@newsletter$/.test(text)) return { kind: 'channel', value: text };
		const contactId = /^(\d{6,15})@(c\.us|s\.messenger\.net|s\.whatsapp\.net)$/.exec(text);
		if (contactId) return { kind: 'contact', value: contactId[1] };
		const digits = text.replace(/[\s()+\-.]/g, '');
		if (/^\d{8,15}$/.test(digits)) return { kind: 'contact', value: digits };
		return undefined;
	}

	it.each([
		'120363012345678901@g.us',
		' 5511999999999-1600000000@g.us ',
		'abc@g.us',
		'120363@g.us.x',
		'120363098765432101@newsletter',
		'x@newsletter',
		'5511987650001@s.messenger.net',
		'5511987650001@s.whatsapp.net',
		'5511987650001@c.us',
		'12345@c.us',
		'+55 (11) 99999-9999',
		'5511999999999',
		'alice',
		'',
		5511999999999,
		null,
	])('classifyChat(%p)', (raw) => {
		expect(classifyChat(raw)).toEqual(classifiedBefore(raw));
	});

	it.each([
		'',
		' ',
		'\u200B\uFEFF\u00AD',
		'\t\n',
		'a',
		' a ',
		'\u200Ba',
		'\uD800',
		'zero\u2060width',
	])('isBlank(%p)', (text) => {
		const before =
			text.replace(/[\s\u00AD\u180E\u200B-\u200F\u2028-\u202F\u2060-\u2064\uFEFF]/g, '') === '';
		expect(isBlank(text)).toBe(before);
	});

	it('checkedEvents gives a new list, each event once, and names unknown events', () => {
		const context = { getNode: () => ({ name: 'Trigger' }) } as unknown as IWebhookFunctions;
		const one = ['MESSAGES_UPSERT'];

		expect(checkedEvents.call(context, one)).toEqual(['MESSAGES_UPSERT']);
		expect(checkedEvents.call(context, one)).not.toBe(one);
		expect(
			checkedEvents.call(context, ['MESSAGES_UPSERT', 'SEND_MESSAGE', 'MESSAGES_UPSERT']),
		).toEqual(['MESSAGES_UPSERT', 'SEND_MESSAGE']);
		expect(() => checkedEvents.call(context, ['MESSAGES_UPSERT', 'NOPE', 3])).toThrow(
			'Events must be event names such as MESSAGES_UPSERT (got a string (NOPE), a number (3))',
		);
	});

	it('tokensMatch compares with the token it is given, not one it saw before', () => {
		const other = TOKEN.replace('dummy0', 'dummy1');

		expect(tokensMatch(TOKEN, TOKEN)).toBe(true);
		expect(tokensMatch(TOKEN, other)).toBe(false);
		expect(tokensMatch(other, other)).toBe(true);
		expect(tokensMatch(TOKEN, other)).toBe(false);
		expect(tokensMatch(`${TOKEN}0`, TOKEN)).toBe(false);
		expect(tokensMatch('', TOKEN)).toBe(false);
	});
});

describe('through webhook(): the fast path in a real context', () => {
	const testbed = useTriggerTestbed(SESSION);

	it('redacts a secret deep in a delivery, drops its API key and never changes the request body', async () => {
		const harness = await testbed.start();
		await harness.activate();
		const token = tokenOf(harness);
		const envelope = {
			event: 'messages.upsert',
			instance: SESSION,
			data: {
				key: { remoteJid: ALICE.jid, fromMe: false, id: 'A1' },
				message: {
					extendedTextMessage: {
						text: `the token ${token} and the key ${testbed.simulator.apiKey}`,
					},
				},
				messageType: 'extendedTextMessage',
				untouched: { deep: [{ text: 'nothing secret' }] },
			},
			apikey: INSTANCE_KEY,
			note: `the instance key ${INSTANCE_KEY}`,
		};

		const response = await axios.post(registeredUrl(harness), envelope);

		expect(response.data).toEqual({ received: true });
		const [item] = harness.executions()[0];
		expect(item.json.text).toBe('the token [redacted] and the key [redacted]');
		const raw = item.json.raw as IDataObject;
		expect(raw.apikey).toBeUndefined();
		expect(raw.note).toBe('the instance key [redacted]');
		expect((raw.data as IDataObject).untouched).toEqual({ deep: [{ text: 'nothing secret' }] });
		// The body webhook() was given is as it was posted.
		expect(harness.requestBodies[0]).toEqual(envelope);
	});
});
