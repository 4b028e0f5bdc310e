/**
 * One proxy hiccup must not fail a read, and must never make a change twice. Every operation of
 * the node runs in n8n's engine against the simulator with one fault on its request: a read (a
 * list, a lookup, a search, a file; sent with GET or POST) is sent again and the item succeeds;
 * an operation that changes something fails at once and its request reached the gateway once.
 * The pickers' searches are reads too. Backoff is shortened here (useFastRetries); the fault matrix
 * measures the real one.
 */
import type { INodeParameters } from 'n8n-workflow';

import { resources } from '../../nodes/MessagingGateway/actions/resources';
import { RETRY_POLICY } from '../../nodes/shared/transport/retry';
import { operationCases } from '../e2e/workflows.cts';
import { SEED } from '../simulator/index.cts';
import type { FaultRule, RecordedRequest } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { useFastRetries } from '../support/fast-retries.cts';
import { byId, runGateway } from '../support/gateway-node.cts';
import { runListSearch } from '../support/load-options.cts';
import type { ListSearchMethod } from '../support/load-options.cts';
import { startScriptedServer } from '../support/scripted-server.cts';

const simulator = useSimulator();
useFastRetries();

const SESSION = SEED.instances.connected.name;
const { alice, hikers } = { alice: SEED.contacts.alice, hikers: SEED.groups.hikers };

/**
 * Operations only other gateways offer (this file's gateway keeps no message history and no LID
 * map, manages no labels and deletes no status), with the test that runs them there.
 */
const ELSEWHERE: Record<string, string> = {
	'message.combineRapid': 'test/node/combine-rapid.test.ts',
	'contact.getPhoneOrLid': 'test/node/phone-or-lid.test.ts',
	'label.create': 'test/node/labels.test.ts',
	'label.delete': 'test/node/labels.test.ts',
	'label.getChats': 'test/node/labels.test.ts',
	'status.delete': 'test/node/status.test.ts',
};

/** Every operation, with parameters that work against the simulator's seed (the end-to-end workflow's). */
const OPERATIONS: Array<{ name: string; parameters: INodeParameters }> = [
	...operationCases({
		session: SESSION,
		pairingSession: SEED.instances.pairing.name,
		alice,
		lidPerson: SEED.lidPeople.dora.lid,
		bruno: SEED.contacts.bruno,
		bakery: SEED.contacts.bakery,
		hikersGroup: hikers.id,
		teamGroup: SEED.groups.team.id,
		aliceTextId: SEED.messages.aliceText.id,
		aliceImageId: SEED.messages.aliceImage.id,
	})
		.filter(({ name }) => !(name in ELSEWHERE))
		.map(({ name, parameters }) => ({ name, parameters: parameters as INodeParameters })),
	{
		name: 'message.sendAndWait',
		parameters: {
			resource: 'message',
			operation: 'sendAndWait',
			session: { __rl: true, mode: 'name', value: SESSION },
			chatId: byId(alice.number),
			message: 'Refund of $120 for order #1042?',
		},
	},
];

/** The operations that only read: repeating them changes nothing. Every other one changes something. */
const READS = [
	'channel.search',
	'chat.getMany',
	'contact.checkNumber',
	'contact.get',
	'contact.getBusinessProfile',
	'contact.getMany',
	'contact.getProfilePicture',
	'group.get',
	'group.getMany',
	'group.getParticipants',
	'label.getMany',
	'message.downloadMedia',
	'message.findStatus',
	'message.get',
	'message.pauseWhilePersonAnswers',
	'profile.get',
	'session.connect',
	'session.getConnectionState',
	'session.getMany',
	'webhook.get',
];

/** The simulator does not implement Profile Get (501); here the gateway answers it. */
const ANSWERS: Record<string, FaultRule[]> = {
	'profile.get': [
		{
			match: { path: `/api/${SESSION}/profile` },
			status: 200,
			body: { id: SEED.instances.connected.ownerChatId, name: 'Acme Sales', picture: null },
		},
	],
};

const PROXY_PAGE = (title: string) =>
	`<html><head><title>${title}</title></head><body><h1>${title}</h1><hr>nginx</body></html>`;

const FAULTS: Array<{ fault: string; rule: FaultRule; message: RegExp }> = [
	{
		fault: 'a 502 from a proxy',
		rule: { status: 502, html: PROXY_PAGE('502 Bad Gateway') },
		message: /^Gateway error 502: .*"502 Bad Gateway"$/,
	},
	{
		fault: 'a 504 from a proxy',
		rule: { status: 504, html: PROXY_PAGE('504 Gateway Time-out') },
		message: /^Gateway error 504: .*"504 Gateway Time-out"$/,
	},
	{
		fault: 'a reset connection',
		rule: { dropSocket: true },
		message: /^Gateway unreachable at .* \(the connection was closed before an answer\)$/,
	},
];

function table(reads: boolean) {
	return OPERATIONS.filter(({ name }) => READS.includes(name) === reads).flatMap((operation) =>
		FAULTS.map((fault) => ({ operation: operation.name, ...operation, ...fault })),
	);
}

/** What identifies a request: sent again, a read must be the same request. */
const sent = (requests: RecordedRequest[]) =>
	requests.map(({ method, path, query, body }) => ({ method, path, query, body }));

async function run(parameters: INodeParameters) {
	return await runGateway(simulator, parameters, { typeVersion: 2 });
}

describe('every operation is a read or a change', () => {
	it('and each one is run below', () => {
		const every = Object.entries(resources)
			.flatMap(([resource, { operations }]) =>
				Object.keys(operations).map((operation) => `${resource}.${operation}`),
			)
			.sort();
		expect(OPERATIONS.map(({ name }) => name).sort()).toEqual(
			every.filter((name) => !(name in ELSEWHERE)),
		);
		expect(READS.filter((name) => !every.includes(name))).toEqual([]);
	});
});

describe('a read that meets one fault is sent again, and the item succeeds', () => {
	it.each(table(true))('$operation, $fault', async ({ name, parameters, rule }) => {
		// What the operation sends when nothing goes wrong.
		(ANSWERS[name] ?? []).forEach((answer) => simulator.injectFault(answer));
		expect((await run(parameters)).status).toBe('success');
		const clean = sent(simulator.requests);
		simulator.clearLogs();
		simulator.injectFault(rule);
		(ANSWERS[name] ?? []).forEach((answer) => simulator.injectFault(answer));

		const result = await run(parameters);

		expect(result.error?.message).toBeUndefined();
		expect(result.status).toBe('success');
		// The faulted request once more, then what the operation sends anyway.
		expect(sent(simulator.requests)).toEqual([clean[0], ...clean]);
		expect(simulator.requests[0].faulted).toBe(true);
	});
});

describe('an operation that changes something and meets a fault fails at once, sent once', () => {
	it.each(table(false))('$operation, $fault', async ({ parameters, rule, message }) => {
		simulator.injectFault(rule);

		const result = await run(parameters);

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toMatch(
			/It was not sent again: the gateway may have done it before the answer was lost/,
		);
		expect(simulator.requests).toHaveLength(1);
		expect(simulator.requests[0].faulted).toBe(true);
	});
});

describe(`a read that meets a 502 every time fails after ${RETRY_POLICY.maxRetries + 1} tries`, () => {
	it.each(['chat.getMany', 'contact.checkNumber'])(
		'%s: with the 502, the gateway words and how often it was tried',
		async (name) => {
			simulator.injectFault({ status: 502, html: PROXY_PAGE('502 Bad Gateway'), times: 10 });

			const result = await run(OPERATIONS.find((operation) => operation.name === name)!.parameters);

			expect(simulator.requests).toHaveLength(RETRY_POLICY.maxRetries + 1);
			expect(result.error?.name).toBe('NodeApiError');
			expect(result.error?.httpCode).toBe('502');
			expect(result.error?.message).toBe(
				'Gateway error 502: The gateway answered 502 Bad Gateway with an HTML page: "502 Bad Gateway"',
			);
			expect(result.error?.description).toBe(
				`The gateway failed while processing the request. Check the gateway's logs; trying again later may help. Tried ${RETRY_POLICY.maxRetries + 1} times.`,
			);
		},
	);
});

describe('files are reads', () => {
	const filePath = `/api/files/${SESSION}/`;

	it.each([
		[
			"Get Profile Picture's picture",
			{
				resource: 'contact',
				operation: 'getProfilePicture',
				session: SESSION,
				contact: byId(alice.number),
				options: { downloadPicture: true },
			},
		],
		[
			"Message Get's media",
			{
				resource: 'message',
				operation: 'get',
				session: SESSION,
				messageId: SEED.messages.aliceImage.id,
				downloadMedia: true,
			},
		],
	])('%s meets a 502 once: downloaded again', async (_name, parameters) => {
		simulator.injectFault({ match: { path: filePath }, status: 502, html: PROXY_PAGE('502') });

		const result = await runGateway(simulator, parameters);

		expect(result.status).toBe('success');
		expect(result.outputs[0][0].binary?.data).toMatchObject({ mimeType: 'image/png' });
		const files = simulator.requests.filter((request) => request.path.startsWith(filePath));
		expect(files.map((request) => request.faulted === true)).toEqual([true, false]);
		expect(simulator.requests).toHaveLength(3);
	});

	it.each(FAULTS)(
		"Send Link With Custom Preview's image from a URL meets $fault once: fetched again, the message sent once",
		async ({ rule }) => {
			const imageHost = await startScriptedServer();
			try {
				imageHost.respondWith(
					rule.dropSocket
						? { dropSocket: true }
						: { status: rule.status, headers: { 'content-type': 'text/html' }, body: rule.html },
					{ status: 200, headers: { 'content-type': 'image/jpeg' }, body: 'jpeg bytes' },
				);

				const result = await runGateway(
					simulator,
					{
						resource: 'message',
						operation: 'sendLinkPreview',
						session: SESSION,
						chatId: byId(hikers.id),
						text: 'https://acme.example.com/menu',
						previewUrl: 'https://acme.example.com/menu',
						previewTitle: 'Menu',
						previewDescription: 'Our menu',
						previewImageSource: 'url',
						previewImageUrl: `${imageHost.url}/images/menu.jpg`,
					},
					// The image host, on loopback here, stands for a public one.
					{ requestBodyStyle: 'jidSessionId', allowPrivateFileHosts: true },
				);

				expect(result.error?.message).toBeUndefined();
				expect(imageHost.requests).toHaveLength(2);
				expect(simulator.requests).toHaveLength(1);
			} finally {
				await imageHost.stop();
			}
		},
	);
});

describe("the pickers' searches are reads", () => {
	const PICKERS: ListSearchMethod[] = [
		'searchSessions',
		'searchChats',
		'searchContacts',
		'searchGroups',
		'searchLabels',
	];

	it.each(PICKERS.flatMap((picker) => FAULTS.map((fault) => ({ picker, ...fault }))))(
		'$picker meets $fault once: the same list as without it',
		async ({ picker, rule }) => {
			const search = async () =>
				await runListSearch(simulator, picker, { parameters: { session: SESSION } });
			const clean = await search();
			const cleanSent = sent(simulator.requests);
			simulator.clearLogs();
			simulator.injectFault(rule);

			const result = await search();

			expect(result).toEqual(clean);
			expect(sent(simulator.requests)).toEqual([cleanSent[0], ...cleanSent]);
		},
	);
});
