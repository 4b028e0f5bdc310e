/**
 * Registration under hostile conditions: unusable settings fail activation before any request,
 * and a gateway that cannot tell which webhook a session has never loses someone else's webhook
 * without the user's consent, and says so in n8n's log.
 */
import axios from 'axios';

import { SEED } from '../simulator/index.cts';
import type { FaultRule } from '../simulator/index.cts';
import { useFastRetries } from '../support/fast-retries.cts';
import type { TriggerHarness } from '../support/trigger-harness.cts';
import { registeredUrl, useTriggerTestbed } from './trigger-testbed.cts';

const SESSION = SEED.instances.connected.name;
const FOREIGN_URL = 'https://crm.example.com/hooks';

const testbed = useTriggerTestbed(SESSION);

async function setForeignWebhook(): Promise<void> {
	await axios.post(
		`${testbed.simulator.url}/webhook/set/${SESSION}`,
		{ url: FOREIGN_URL, events: ['MESSAGES_UPSERT'] },
		{ headers: { apikey: testbed.simulator.apiKey } },
	);
}

function webhookSets(): number {
	return testbed.simulator.requestsTo('/webhook/set/', 'POST').length;
}

describe('settings that are no settings fail activation before any request', () => {
	it.each([
		['.', { session: '.' }, 'Session must be a name such as default, not "."'],
		['..', { session: '..' }, 'Session must be a name such as default, not ".."'],
		['.. with spaces', { session: ' .. ' }, 'Session must be a name such as default, not ".."'],
		['empty', { session: '' }, 'Session must not be empty'],
		['blank', { session: '  ' }, 'Session must not be empty'],
		['an object', { session: { name: SESSION } }, 'Session must be a name such as default (got'],
		['a list', { session: [SESSION] }, 'Session must be a name such as default (got'],
		['null', { session: null }, 'Session must'],
		['events as text', { events: 'MESSAGES_UPSERT' }, 'Events must be a list of event names'],
		['no events', { events: [] }, 'Events must contain at least one event'],
		['an unknown event', { events: ['MESSAGES_UPSERT', 'NOPE'] }, 'Events must be event names'],
		['an unknown chat type', { filters: { chatType: 'x' } }, 'Chat Type must be one of'],
		['Sessions to Watch unknown', { sessionScope: 'some' }, 'Sessions to Watch must be one of'],
		...(
			[
				['no sessions picked', [], 'Session Names or IDs must name at least one session'],
				['blank names', ' , ', 'Session Names or IDs must name at least one session'],
				['a session ".."', [SESSION, '..'], 'Session Names or IDs must list session names'],
				['".." in text', `${SESSION}, ..`, 'Session Names or IDs must list session names'],
				['an object', { name: SESSION }, 'Session Names or IDs must be a list of session'],
				['a name that is an object', [{ name: SESSION }], 'Session Names or IDs must list'],
			] as const
		).map(
			([name, sessions, message]): [string, Record<string, unknown>, string] => [
				`Several Sessions, ${name}`,
				{ sessionScope: 'several', sessions },
				message,
			],
		),
	])('%s', async (_name, parameters, message) => {
		const harness = await testbed.start(parameters);

		await expect(harness.activate()).rejects.toThrow(message);
		// Not even a look at /webhook/find: nothing reaches the gateway.
		expect(testbed.simulator.requests).toEqual([]);
		expect(testbed.simulator.requestsTo('/webhook/')).toEqual([]);
	});

	it('a trigger whose Session became unusable still stops cleanly, from what it registered', async () => {
		const harness = await testbed.start();
		await harness.activate();
		harness.setParameters({ session: '..', events: ['MESSAGES_UPSERT'] });

		await harness.delete();

		expect(testbed.simulator.getWebhook(SESSION)).toEqual(
			expect.objectContaining({ enabled: false }),
		);
		expect(harness.staticData()).toEqual({});
	});
});

/** /webhook/find answers that say nothing about the registration. */
const UNSEEN: Array<[string, Omit<FaultRule, 'match' | 'times'>]> = [
	[
		'has no /webhook/find (404 Cannot GET)',
		{
			status: 404,
			body: {
				status: 404,
				error: 'Not Found',
				response: { message: [`Cannot GET /webhook/find/${SESSION}`] },
			},
		},
	],
	['answers a proxy 404 page', { status: 404, html: '<html><h1>404 Not Found</h1></html>' }],
	['answers 405', { status: 405, body: { message: 'Method Not Allowed' } }],
	['answers 501', { status: 501, body: { message: 'Not Implemented' } }],
	['answers a web page', { status: 200, html: '<html>Login</html>' }],
	['answers plain text', { status: 200, body: 'ok' }],
	['answers nothing', { status: 200, empty: true }],
	['answers null', { status: 200, body: null }],
	['answers a number', { status: 200, body: 42 }],
	['answers a JSON string', { status: 200, body: '"enabled"' }],
	['answers a list', { status: 200, body: [] }],
	['answers unknown fields', { status: 200, body: { instanceName: SESSION } }],
	['answers fields of the wrong types', { status: 200, body: { enabled: 'yes', url: 5 } }],
	['answers enabled without a URL', { status: 200, body: { enabled: true } }],
];

function breakFind(fault: Omit<FaultRule, 'match' | 'times'>): void {
	testbed.simulator.injectFault({ match: { path: '/webhook/find/' }, times: 100, ...fault });
}

/** An active trigger; then someone else registers, and from then on the gateway cannot show it. */
async function activeWithUnseenForeignWebhook(fault: Omit<FaultRule, 'match' | 'times'>) {
	const harness = await testbed.start();
	await harness.activate();
	await setForeignWebhook();
	breakFind(fault);
	return { harness, setsBefore: webhookSets() };
}

describe('a gateway that cannot tell which webhook a session has', () => {
	it.each(UNSEEN)(
		'%s: with Replace an Unseen Webhook off, activation fails rather than replace it, and says why',
		async (_name, fault) => {
			await setForeignWebhook();
			breakFind(fault);
			const setsBefore = webhookSets();
			const harness = await testbed.start({ options: { replaceUnseenWebhook: false } });

			await expect(harness.activate()).rejects.toThrow(
				`The gateway cannot tell which webhook session "${SESSION}" has, so the trigger did not replace it`,
			);
			expect(webhookSets()).toBe(setsBefore);
			expect(testbed.simulator.getWebhook(SESSION)?.url).toBe(FOREIGN_URL);
			expect(harness.staticData()).toEqual({});
		},
	);

	it.each(UNSEEN)(
		'%s: by default (Replace an Unseen Webhook on), activation replaces it and logs that',
		async (_name, fault) => {
			await setForeignWebhook();
			breakFind(fault);
			const harness = await testbed.start();

			await harness.activate();

			expect(testbed.simulator.getWebhook(SESSION)?.url).toBe(registeredUrl(harness));
			expect(harness.logLines()).toContainEqual(
				`warn: Messaging Gateway Trigger: the gateway cannot tell which webhook session "${SESSION}" has; it is replaced as Replace an Unseen Webhook allows, and cannot be put back when the trigger stops`,
			);
		},
	);

	it.each(UNSEEN)(
		'%s: deactivation leaves the registration alone and logs that',
		async (_name, fault) => {
			const { harness, setsBefore } = await activeWithUnseenForeignWebhook(fault);

			await harness.delete();

			expect(webhookSets()).toBe(setsBefore);
			expect(testbed.simulator.getWebhook(SESSION)?.url).toBe(FOREIGN_URL);
			expect(harness.staticData()).toEqual({});
			expect(harness.logLines()).toContainEqual(
				`warn: Messaging Gateway Trigger: the gateway cannot tell which webhook session "${SESSION}" has, so it was left as it is`,
			);
		},
	);

	it.each(UNSEEN)(
		'%s: checkExists keeps the registration made earlier instead of registering again',
		async (_name, fault) => {
			const { harness, setsBefore } = await activeWithUnseenForeignWebhook(fault);

			await harness.activate();

			expect(webhookSets()).toBe(setsBefore);
			expect(testbed.simulator.getWebhook(SESSION)?.url).toBe(FOREIGN_URL);
			expect(harness.logLines()).toContainEqual(expect.stringContaining('cannot tell'));
		},
	);
});

describe('what /webhook/find answers that it can tell', () => {
	it.each<[string, (harness: TriggerHarness) => unknown]>([
		['{} (nothing ever set)', () => ({})],
		['a disabled webhook', () => ({ enabled: false, url: '', events: [] })],
	])('%s: activation registers, deactivation disables', async (_name, answer) => {
		const harness = await testbed.start();
		testbed.simulator.injectFault({
			match: { path: '/webhook/find/' },
			status: 200,
			body: answer(harness),
		});
		await harness.activate();
		testbed.simulator.injectFault({
			match: { path: '/webhook/find/' },
			status: 200,
			body: { enabled: true, url: registeredUrl(harness), events: ['MESSAGES_UPSERT'] },
		});

		await harness.delete();

		expect(testbed.simulator.getWebhook(SESSION)).toEqual(
			expect.objectContaining({ enabled: false }),
		);
	});

	it("the shape POST /webhook/set answers with: someone else's webhook is put back", async () => {
		testbed.simulator.injectFault({
			match: { path: '/webhook/find/' },
			status: 200,
			body: {
				webhook: {
					instance: SESSION,
					webhook: { enabled: true, url: FOREIGN_URL, events: ['CALL'] },
				},
			},
		});
		const harness = await testbed.start();
		await harness.activate();

		await harness.delete();

		expect(testbed.simulator.getWebhook(SESSION)).toEqual(
			expect.objectContaining({ enabled: true, url: FOREIGN_URL, events: ['CALL'] }),
		);
	});
});

describe('a proxy hiccup during activation', () => {
	useFastRetries();

	const HICCUPS: Array<[string, Omit<FaultRule, 'match'>]> = [
		['a 502', { status: 502, html: '<html><h1>502 Bad Gateway</h1></html>' }],
		['a 504', { status: 504, html: '<html><h1>504 Gateway Time-out</h1></html>' }],
		['a reset connection', { dropSocket: true }],
	];
	const finds = () => testbed.simulator.requestsTo('/webhook/find/', 'GET');

	it.each(HICCUPS)(
		'%s on the look at /webhook/find (a read): looked again, and registered',
		async (_name, fault) => {
			testbed.simulator.injectFault({ match: { path: '/webhook/find/' }, ...fault });
			const harness = await testbed.start();

			await harness.activate();

			expect(testbed.simulator.getWebhook(SESSION)?.url).toBe(registeredUrl(harness));
			expect(finds().map((request) => request.faulted === true)).toEqual([true, false]);
			expect(webhookSets()).toBe(1);
		},
	);

	it.each(HICCUPS)(
		'%s on POST /webhook/set (a change): activation fails, set sent once',
		async (_name, fault) => {
			testbed.simulator.injectFault({ match: { path: '/webhook/set/' }, ...fault });
			const harness = await testbed.start();

			await expect(harness.activate()).rejects.toThrow(/^Gateway (error 50[24]|unreachable)/);
			expect(webhookSets()).toBe(1);
		},
	);
});
