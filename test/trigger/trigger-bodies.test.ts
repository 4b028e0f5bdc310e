/**
 * Whatever reaches the trigger's URL gets a small, clear JSON answer and never a crash: a wrong
 * token 401 before the body is read, an unusable body 400, a filtered or unusable-settings event
 * 200 with the reason; only well-formed events start an execution.
 */
import axios from 'axios';

import { SEED } from '../simulator/index.cts';
import type { TriggerHarness } from '../support/trigger-harness.cts';
import { registeredUrl, tokenOf, useTriggerTestbed } from './trigger-testbed.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;

const testbed = useTriggerTestbed(SESSION);

/** Events these tests select, so the bodies are refused for their shape, not filtered out. */
const EVENTS = ['MESSAGES_UPSERT', 'CONNECTION_UPDATE', 'CONTACTS_UPDATE', 'CONTACTS_UPSERT'];

async function startActive(parameters: Record<string, unknown> = {}): Promise<TriggerHarness> {
	const harness = await testbed.start({ events: EVENTS, ...parameters });
	await harness.activate();
	return harness;
}

async function postRaw(url: string, rawBody: string) {
	return await axios.post(url, rawBody, {
		headers: { 'content-type': 'application/json' },
		validateStatus: () => true,
		maxBodyLength: Infinity,
		transformResponse: (text: string) => (text ? (JSON.parse(text) as unknown) : text),
	});
}

const MESSAGE_DATA = `{"key":{"remoteJid":"${ALICE.jid}","fromMe":false,"id":"A1"}}`;

function deepObject(levels: number): string {
	return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

function deepList(levels: number): string {
	return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

describe('an unusable body is answered 400 and starts nothing', () => {
	const NOT_AN_OBJECT = 'The body must be a JSON object (an event envelope)';
	const NO_NAMES = 'The body must name the event and the instance as text';
	const NO_DATA = 'The "data" of the event must be an object or a list';
	const TOO_DEEP = 'The body must not nest deeper than 64 levels';
	const NO_KEY = 'A message event must carry the message key (data.key.remoteJid)';
	const envelope = (fields: string) =>
		`{"event":"connection.update","instance":"${SESSION}"${fields}}`;

	it.each([
		['null', 'null', NOT_AN_OBJECT],
		['a number', '42', NOT_AN_OBJECT],
		['a string', '"hello"', NOT_AN_OBJECT],
		['true', 'true', NOT_AN_OBJECT],
		['a list of envelopes', `[${envelope(',"data":{}')}]`, NOT_AN_OBJECT],
		['a 5 MB string', JSON.stringify('x'.repeat(5 * 1024 * 1024)), NOT_AN_OBJECT],
		['no JSON at all', '<xml>hello</xml>', NOT_AN_OBJECT],
		['an empty object', '{}', NO_NAMES],
		['no event', `{"instance":"${SESSION}","data":{}}`, NO_NAMES],
		['no instance', '{"event":"connection.update","data":{}}', NO_NAMES],
		['an empty event', `{"event":" ","instance":"${SESSION}","data":{}}`, NO_NAMES],
		['an event that is an object', `{"event":{"a":1},"instance":"${SESSION}","data":{}}`, NO_NAMES],
		[
			'an instance that is a list',
			'{"event":"connection.update","instance":["x"],"data":{}}',
			NO_NAMES,
		],
		['no data', envelope(''), NO_DATA],
		['data null', envelope(',"data":null'), NO_DATA],
		['data as text', envelope(',"data":"open"'), NO_DATA],
		['data as a number', envelope(',"data":200'), NO_DATA],
		['deeply nested objects', envelope(`,"data":${deepObject(100_000)}`), TOO_DEEP],
		['deeply nested lists', envelope(`,"data":${deepList(100_000)}`), TOO_DEEP],
		['just too deep', envelope(`,"data":${deepObject(64)}`), TOO_DEEP],
		[
			'a message event with data null',
			`{"event":"messages.upsert","instance":"${SESSION}","data":null}`,
			NO_DATA,
		],
		[
			'a message event without a key',
			`{"event":"messages.upsert","instance":"${SESSION}","data":{"message":{}}}`,
			NO_KEY,
		],
		[
			'a message event whose key is text',
			`{"event":"messages.upsert","instance":"${SESSION}","data":{"key":"x"}}`,
			NO_KEY,
		],
		[
			'a message event with an empty chat',
			`{"event":"messages.upsert","instance":"${SESSION}","data":{"key":{"remoteJid":""}}}`,
			NO_KEY,
		],
		[
			'a message event whose chat is an object',
			`{"event":"send.message","instance":"${SESSION}","data":{"key":{"remoteJid":{"a":1}}}}`,
			NO_KEY,
		],
	])('%s', async (_name, rawBody, error) => {
		const harness = await startActive();

		const response = await postRaw(registeredUrl(harness), rawBody);

		expect({ status: response.status, body: response.data as unknown }).toEqual({
			status: 400,
			body: { received: false, error },
		});
		expect(harness.executions()).toHaveLength(0);
	});

	it('a body nested as deep as allowed is an event', async () => {
		const harness = await startActive();

		const response = await postRaw(registeredUrl(harness), envelope(`,"data":${deepObject(63)}`));

		expect(response.status).toBe(200);
		expect(harness.executions()).toHaveLength(1);
	});
});

describe('odd but well-formed events run once, without a crash', () => {
	it.each([
		[
			'a key id and location name that would break String()',
			`{"event":"messages.upsert","instance":"${SESSION}","data":{"key":{"remoteJid":"${ALICE.jid}","id":{"toString":1}},"message":{"locationMessage":{"name":{"toString":1},"address":{"valueOf":1}}},"messageType":"locationMessage"}}`,
		],
		[
			'own message with a sender that is an object',
			`{"event":"messages.upsert","instance":"${SESSION}","sender":{"toString":1},"data":{"key":{"remoteJid":"${ALICE.jid}","fromMe":true,"id":"A1"}}}`,
		],
		[
			'__proto__ and constructor keys',
			`{"event":"contacts.update","instance":"${SESSION}","__proto__":{"polluted":true},"data":{"__proto__":{"x":1},"constructor":{"prototype":{"polluted":true}},"id":"${ALICE.jid}"}}`,
		],
		[
			'a sync event whose data is a list',
			`{"event":"contacts.upsert","instance":"${SESSION}","data":[{"id":"${ALICE.jid}"},{"id":"x"}]}`,
		],
		[
			'data that names another event and session',
			`{"event":"contacts.update","instance":"${SESSION}","data":{"event":"MESSAGES_UPSERT","session":"other"}}`,
		],
		[
			'message content of the wrong types',
			`{"event":"messages.upsert","instance":"${SESSION}","data":{"key":{"remoteJid":"${ALICE.jid}","participant":5},"message":"hello","messageType":{"a":1}}}`,
		],
		[
			'a 5 MB text message',
			`{"event":"messages.upsert","instance":"${SESSION}","data":{"key":{"remoteJid":"${ALICE.jid}","id":"A1"},"message":{"conversation":"${'x'.repeat(5 * 1024 * 1024)}"}}}`,
		],
	])('%s', async (_name, rawBody) => {
		const harness = await startActive({ filters: { ignoreOwnMessages: false } });

		const response = await postRaw(registeredUrl(harness), rawBody);

		expect({ status: response.status, body: response.data as unknown }).toEqual({
			status: 200,
			body: { received: true },
		});
		expect(harness.executions()).toHaveLength(1);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('events keep their own event and session over same-named data fields', async () => {
		const harness = await startActive();

		await postRaw(
			registeredUrl(harness),
			`{"event":"contacts.update","instance":"${SESSION}","data":{"event":"MESSAGES_UPSERT","session":"other","id":"x"}}`,
		);

		expect(harness.executions()[0][0].json).toEqual(
			expect.objectContaining({ event: 'CONTACTS_UPDATE', session: SESSION, id: 'x' }),
		);
	});

	it('a sync event keeps its list under "data"', async () => {
		const harness = await startActive();

		await postRaw(
			registeredUrl(harness),
			`{"event":"contacts.upsert","instance":"${SESSION}","data":[{"id":"a"},{"id":"b"}]}`,
		);

		expect(harness.executions()[0][0].json).toEqual(
			expect.objectContaining({
				event: 'CONTACTS_UPSERT',
				session: SESSION,
				data: [{ id: 'a' }, { id: 'b' }],
			}),
		);
	});
});

describe('the token is checked first, and only the exact token passes', () => {
	const VALID_BODY = `{"event":"messages.upsert","instance":"${SESSION}","data":${MESSAGE_DATA}}`;

	it.each([
		['no token', () => ''],
		['an empty token', () => '?token='],
		['a shorter token', (token: string) => `?token=${token.slice(0, -1)}`],
		['a longer token', (token: string) => `?token=${token}0`],
		['a wrong token of the same length', (token: string) => `?token=${'0'.repeat(token.length)}`],
		['the token in upper case', (token: string) => `?token=${token.toUpperCase()}`],
		['the token twice', (token: string) => `?token=${token}&token=${token}`],
		['a wrong token, then the token', (token: string) => `?token=0&token=${token}`],
		['the token, then a wrong one', (token: string) => `?token=${token}&token=0`],
		['the token under another name', (token: string) => `?tokens=${token}`],
		['the token with a space', (token: string) => `?token=${token}%20`],
	])('%s: 401, whatever the body', async (_name, query) => {
		const harness = await startActive();
		const url = `${harness.webhookUrl}${query(tokenOf(harness))}`;

		const answers = await Promise.all(
			// A valid event, and bodies that would otherwise be answered 400.
			[VALID_BODY, 'null', '{}', '"x"'].map(async (body) => await postRaw(url, body)),
		);

		for (const response of answers) {
			expect({ status: response.status, body: response.data as unknown }).toEqual({
				status: 401,
				body: { message: 'Unknown or missing token' },
			});
		}
		expect(harness.executions()).toHaveLength(0);
	});

	it('a trigger that is not registered refuses every delivery', async () => {
		const harness = await testbed.start();

		const response = await postRaw(`${harness.webhookUrl}?token=`, VALID_BODY);

		expect(response.status).toBe(401);
		expect(harness.executions()).toHaveLength(0);
	});
});

describe('settings that became unusable ignore deliveries instead of crashing', () => {
	it.each([
		['Events as text', { events: 'MESSAGES_UPSERT' }, 'Events must be a list of event names'],
		['Events empty', { events: [] }, 'Events must contain at least one event'],
		['Chat Type unknown', { filters: { chatType: 'channels' } }, 'Chat Type must be one of'],
		['Only These Chats unusable', { filters: { onlyChats: 'alice' } }, 'Only These Chats must'],
	])('%s', async (_name, parameters, reason) => {
		const harness = await startActive();
		harness.setParameters({ session: SESSION, events: EVENTS, ...parameters } as never);

		const response = await postRaw(
			registeredUrl(harness),
			`{"event":"messages.upsert","instance":"${SESSION}","data":${MESSAGE_DATA}}`,
		);

		expect({ status: response.status, body: response.data as unknown }).toEqual({
			status: 200,
			body: {
				received: true,
				ignored: 'unusable settings',
				reason: expect.stringContaining(reason),
			},
		});
		expect(harness.executions()).toHaveLength(0);
		expect(harness.logLines()).toContainEqual(expect.stringContaining(reason));
	});
});
