/**
 * Label → Get Many, Add to Chat, Remove From Chat and Get Chats against the simulator playing each
 * gateway (WhatsApp Business labels): Evolution API's findLabels and handleLabel (v1 PUT, v2 POST)
 * on the Messaging Gateway API and v2, WAHA's labels routes (a chat's set read, then put back
 * whole); every request judged by the gateway's own validation, bad input refused before any.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { checkEvolution } from '../compatibility/evolution.cts';
import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { checkWaha } from '../compatibility/waha.cts';
import type { SentRequest, Verdict } from '../compatibility/verdicts.cts';
import { SEED } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { byId, fromList, runGateway } from '../support/gateway-node.cts';
import { runListSearch } from '../support/load-options.cts';

const SESSION = SEED.instances.connected.name;
const { alice } = SEED.contacts;
const { hikers } = SEED.groups;
/** The seed's labels: 1 "New customer", 2 "Paid"; on WAHA Alice's chat has label 2. */
const [NEW_CUSTOMER, PAID] = ['1', '2'];

type LabelGateway = 'messagingGatewayApi' | 'evolutionV2' | 'waha';

const CASES: Record<LabelGateway, { simulator: Simulator; check: (r: SentRequest) => Verdict }> = {
	messagingGatewayApi: { simulator: useSimulator(), check: checkEvolution },
	evolutionV2: { simulator: useSimulator({ gateway: 'evolution-v2' }), check: checkEvolutionV2 },
	waha: { simulator: useSimulator({ gateway: 'waha' }), check: checkWaha },
};
const GATEWAYS = Object.keys(CASES) as LabelGateway[];

async function run(gateway: LabelGateway, operation: string, parameters: INodeParameters = {}) {
	return await runGateway(
		CASES[gateway].simulator,
		{ resource: 'label', operation, session: SESSION, ...parameters },
		{ gateway },
	);
}

const sent = (simulator: Simulator) =>
	simulator.requests.map(({ method, path, body }) => ({ method, path, body }));

describe.each(GATEWAYS)('Labels on %s', (gateway) => {
	const { simulator, check } = CASES[gateway];
	beforeEach(() => simulator.reset());
	afterEach(() => {
		expect(simulator.requests.map((request) => check(request).outcome)).toEqual(
			simulator.requests.map(() => 'accepted'),
		);
	});

	it('Get Many lists the labels, one item each, with the ID the other operations take', async () => {
		const result = await run(gateway, 'getMany');
		expect(result.error?.message).toBeUndefined();
		expect(result.outputs[0].map((item) => item.json)).toEqual([
			expect.objectContaining({ id: NEW_CUSTOMER, name: 'New customer', color: 1 }),
			expect.objectContaining({ id: PAID, name: 'Paid', color: 5 }),
		]);
		expect(sent(simulator).map(({ method, path }) => `${method} ${path}`)).toEqual([
			gateway === 'waha' ? `GET /api/${SESSION}/labels` : `GET /label/findLabels/${SESSION}`,
		]);
	});

	it.each([
		{ filter: undefined, values: [NEW_CUSTOMER, PAID] },
		{ filter: 'pai', values: [PAID] },
	])('the Label picker lists the labels by name (filter $filter)', async ({ filter, values }) => {
		const list = await runListSearch(simulator, 'searchLabels', {
			parameters: { resource: 'label', operation: 'addToChat', session: SESSION },
			filter,
			gateway,
		});
		expect(list.results.map((row) => row.value)).toEqual(values);
		expect(list.results[0].name).toMatch(/^(New customer|Paid)/);
	});

	/** What Add to Chat or Remove From Chat sends, per gateway: Evolution one request, WAHA read then put. */
	function expectedChange(
		chatId: string,
		labelId: string,
		action: 'add' | 'remove',
		before: string[],
	) {
		if (gateway !== 'waha') {
			const number = chatId.endsWith('@c.us') ? chatId.split('@')[0] : chatId;
			return [
				{
					method: gateway === 'evolutionV2' ? 'POST' : 'PUT',
					path: `/label/handleLabel/${SESSION}`,
					body: { number, labelId, action },
				},
			];
		}
		const path = `/api/${SESSION}/labels/chats/${encodeURIComponent(chatId)}`;
		const after =
			action === 'add' ? [...new Set([...before, labelId])] : before.filter((id) => id !== labelId);
		const read = { method: 'GET', path, body: undefined };
		return after.length === before.length
			? [read]
			: [read, { method: 'PUT', path, body: { labels: after.map((id) => ({ id })) } }];
	}

	it.each<{
		name: string;
		operation: 'addToChat' | 'removeFromChat';
		chat: string;
		labelId: string;
		wahaBefore: string[];
	}>([
		{
			name: 'adds a label to a person’s chat',
			operation: 'addToChat',
			chat: alice.chatId,
			labelId: NEW_CUSTOMER,
			wahaBefore: [PAID],
		},
		{
			name: 'adds a label the chat has already (WAHA: nothing put)',
			operation: 'addToChat',
			chat: alice.chatId,
			labelId: PAID,
			wahaBefore: [PAID],
		},
		{
			name: 'removes a label from a person’s chat',
			operation: 'removeFromChat',
			chat: alice.chatId,
			labelId: PAID,
			wahaBefore: [PAID],
		},
		{
			name: 'adds a label to a group',
			operation: 'addToChat',
			chat: hikers.id,
			labelId: PAID,
			wahaBefore: [],
		},
	])('$name', async ({ operation, chat, labelId, wahaBefore }) => {
		const action = operation === 'addToChat' ? 'add' : 'remove';
		const result = await run(gateway, operation, {
			chatId: byId(chat),
			labelId: fromList(labelId),
		});
		expect(result.error?.message).toBeUndefined();
		expect(sent(simulator)).toEqual(expectedChange(chat, labelId, action, wahaBefore));
		expect(result.outputs[0][0].json).toMatchObject({
			chatId: chat,
			labelId,
			action: action === 'add' ? 'added' : 'removed',
		});
	});

	it.each<{ name: string; parameters: IDataObject; error: RegExp }>([
		{
			name: 'a label ID with a slash',
			parameters: { chatId: byId(alice.chatId), labelId: byId('1/../2') },
			error: /^Label must be a label's ID, e\.g\. 3 \(got "1\/\.\.\/2"\)$/,
		},
		{
			name: 'a label an expression leaves blank',
			parameters: { chatId: byId(alice.chatId), labelId: byId('={{ " " }}') },
			error: /^Label must be a label's ID, e\.g\. 3 \(got ""\)$/,
		},
		{
			name: 'a chat that is no chat',
			parameters: { chatId: byId('Alice'), labelId: byId('1') },
			error: /^Chat must be/,
		},
	])('Add to Chat refuses $name before any request', async ({ parameters, error }) => {
		const result = await run(gateway, 'addToChat', parameters as INodeParameters);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(error);
		expect(simulator.requests).toEqual([]);
	});

	if (gateway === 'waha') {
		it.each([
			{ name: 'a colour chosen from the list', color: 2, sent: 2 },
			{ name: 'a colour an expression gives as text', color: '16', sent: 16 },
		])(
			'Create makes a label with $name, and outputs it with its new ID',
			async ({ color, sent: expected }) => {
				const result = await run(gateway, 'create', { name: 'Follow up', color: color as number });
				expect(result.error?.message).toBeUndefined();
				expect(sent(simulator)).toEqual([
					{
						method: 'POST',
						path: `/api/${SESSION}/labels`,
						body: { name: 'Follow up', color: expected },
					},
				]);
				expect(result.outputs[0][0].json).toMatchObject({
					id: '3',
					name: 'Follow up',
					color: expected,
				});
			},
		);

		it.each([
			{
				name: 'a colour past the 20',
				parameters: { name: 'Late', color: 20 },
				error: /^Color must be one of WhatsApp Business's colours, 0 to 19 \(got 20\)$/,
			},
			{
				name: 'a blank name',
				parameters: { name: '={{ " " }}', color: 1 },
				error: /^Name must not be empty$/,
			},
		])('Create refuses $name before any request', async ({ parameters, error }) => {
			const result = await run(gateway, 'create', parameters);
			expect(result.error?.message).toMatch(error);
			expect(simulator.requests).toEqual([]);
		});

		it('Delete deletes a label, and it is gone from Get Many', async () => {
			const result = await run(gateway, 'delete', { labelId: fromList(PAID) });
			expect(result.error?.message).toBeUndefined();
			expect(result.outputs[0][0].json).toMatchObject({ labelId: PAID, deleted: true });
			const left = await run(gateway, 'getMany');
			expect(left.outputs[0].map((item) => item.json.id)).toEqual([NEW_CUSTOMER]);
			expect(sent(simulator)[0]).toEqual({
				method: 'DELETE',
				path: `/api/${SESSION}/labels/${PAID}`,
				body: undefined,
			});
		});
	} else {
		it.each([
			{ operation: 'create', parameters: { name: 'Follow up', color: 2 }, label: 'Create' },
			{ operation: 'delete', parameters: { labelId: byId(PAID) }, label: 'Delete' },
		])(
			'refuses $label before any request: Evolution API manages no labels',
			async ({ operation, parameters, label }) => {
				const result = await run(gateway, operation, parameters);
				expect(result.error?.message).toMatch(
					new RegExp(
						`^Label → ${label} is not available on (the Messaging Gateway API|Evolution API v2): `,
					),
				);
				expect(simulator.requests).toEqual([]);
			},
		);
	}

	if (gateway === 'waha') {
		it('Get Chats lists the chats with a label, each by its chat ID', async () => {
			const result = await run(gateway, 'getChats', { labelId: byId(PAID) });
			expect(result.error?.message).toBeUndefined();
			expect(result.outputs[0].map((item) => item.json.chatId)).toEqual([alice.chatId]);
			expect(sent(simulator)).toEqual([
				{ method: 'GET', path: `/api/${SESSION}/labels/${PAID}/chats`, body: undefined },
			]);
		});
	} else {
		it('refuses Get Chats before any request: Evolution API lists no chats by label', async () => {
			const result = await run(gateway, 'getChats', { labelId: byId(PAID) });
			expect(result.error?.message).toMatch(
				/^Label → Get Chats is not available on (the Messaging Gateway API|Evolution API v2): /,
			);
			expect(simulator.requests).toEqual([]);
		});
	}
});
