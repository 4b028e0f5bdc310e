/**
 * WhatsApp Business labels on each gateway the simulator plays: what each route takes and answers
 * (Evolution API 1.8.2's and 2.3.6's findLabels and handleLabel, WAHA's /api/{session}/labels
 * routes), each refusal with its status and the product's words, the chat's label IDs tests read
 * with `chatLabels()`, and the label events WAHA delivers.
 */
import { sleep } from 'n8n-workflow';

import { EVOLUTION_V2_SEED, SEED } from './index.cts';
import { gatewayClient, useSimulator, useWebhookReceiver } from './testing.cts';
import { subscribeWebhook, wahaClient } from './waha-testing.cts';

const connected = SEED.instances.connected;
const pairing = SEED.instances.pairing;
const { alice, bruno } = SEED.contacts;
const { hikers } = SEED.groups;
const { dora } = SEED.lidPeople;
const { newCustomer, paid } = SEED.labels;
const v2 = EVOLUTION_V2_SEED.contacts;
/** A group the account is not in. */
const STRANGE_GROUP = '120363000000000000@g.us';

const REASONS: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	404: 'Not Found',
	422: 'Unprocessable Entity',
	500: 'Internal Server Error',
};
/** An Evolution API error body. */
const evolutionError = (status: number, message: unknown) => ({
	status,
	error: REASONS[status],
	response: { message },
});
/** A NestJS (WAHA) error body. */
const nestError = (status: number, message: unknown) => ({
	statusCode: status,
	message,
	error: REASONS[status],
});

describe('Messaging Gateway API (Evolution API 1.8.2): /label', () => {
	const sim = useSimulator();
	const receiver = useWebhookReceiver();
	const handle = (body: unknown, instance: string = connected.name, key?: string | null) =>
		gatewayClient(sim, key).put(`/label/handleLabel/${instance}`, body);

	it.each<[string, string, string | undefined, unknown]>([
		[
			'the labels, color a number, predefinedId only for WhatsApp’s own',
			connected.name,
			undefined,
			[
				{ color: 1, name: 'New customer', id: '1', predefinedId: '1' },
				{ color: 5, name: 'Paid', id: '2' },
			],
		],
		[
			'them with the instance’s own token',
			connected.name,
			connected.token,
			[expect.objectContaining({ id: '1' }), expect.objectContaining({ id: '2' })],
		],
		['none for an instance without labels', pairing.name, undefined, []],
	])('GET /label/findLabels answers %s', async (_case, instance, key, answer) => {
		const response = await gatewayClient(sim, key).get(`/label/findLabels/${instance}`);
		expect(response.status).toBe(200);
		expect(response.data).toEqual(answer);
	});

	it('GET /label/findLabels reads the stored labels without the socket', async () => {
		sim.setInstanceState(connected.name, 'close');
		const response = await gatewayClient(sim).get(`/label/findLabels/${connected.name}`);
		expect(response.status).toBe(200);
		expect(response.data).toHaveLength(2);
	});

	it.each<[string, Record<string, unknown>, Record<string, unknown>, string, string[]]>([
		[
			'adds a label to a person’s chat',
			{ number: alice.number, labelId: newCustomer.id, action: 'add' },
			{ numberJid: alice.jid, labelId: '1', add: true },
			alice.chatId,
			['2', '1'],
		],
		[
			'adds one the chat has (nothing changes)',
			{ number: alice.number, labelId: paid.id, action: 'add' },
			{ numberJid: alice.jid, labelId: '2', add: true },
			alice.chatId,
			['2'],
		],
		[
			'removes one',
			{ number: alice.number, labelId: paid.id, action: 'remove' },
			{ numberJid: alice.jid, labelId: '2', remove: true },
			alice.chatId,
			[],
		],
		[
			'removes one the chat does not have',
			{ number: bruno.number, labelId: paid.id, action: 'remove' },
			{ numberJid: bruno.jid, labelId: '2', remove: true },
			bruno.chatId,
			[],
		],
		[
			'labels a group by its JID',
			{ number: hikers.id, labelId: paid.id, action: 'add' },
			{ numberJid: hikers.id, labelId: '2', add: true },
			hikers.id,
			['2'],
		],
		[
			'finds a Brazilian number without its 9th digit',
			{ number: '551187650001', labelId: newCustomer.id, action: 'add' },
			{ numberJid: alice.jid, labelId: '1', add: true },
			alice.chatId,
			['2', '1'],
		],
		[
			'labels a LID chat',
			{ number: dora.lid, labelId: paid.id, action: 'add' },
			{ numberJid: dora.lid, labelId: '2', add: true },
			dora.lid,
			['2'],
		],
		[
			'adds a label that does not exist (Baileys sends the patch unchecked)',
			{ number: bruno.number, labelId: '99', action: 'add' },
			{ numberJid: bruno.jid, labelId: '99', add: true },
			bruno.chatId,
			['99'],
		],
	])('PUT /label/handleLabel %s: 200', async (_case, body, answer, chatId, labels) => {
		const response = await handle(body);
		expect(response.status).toBe(200);
		expect(response.data).toEqual(answer);
		expect(sim.chatLabels(connected.name, chatId)).toEqual(labels);
	});

	it.each<[string, string, unknown, string | null | undefined, number, unknown]>([
		[
			'an unknown instance',
			'nope',
			{ number: alice.number, labelId: '1', action: 'add' },
			undefined,
			404,
			evolutionError(404, ['The "nope" instance does not exist']),
		],
		[
			'a wrong key',
			connected.name,
			{ number: alice.number, labelId: '1', action: 'add' },
			'wrong-key',
			401,
			evolutionError(401, 'Unauthorized'),
		],
		[
			'no body',
			connected.name,
			undefined,
			undefined,
			400,
			evolutionError(400, [
				[
					'instance requires property "number"',
					'instance requires property "labelId"',
					'instance requires property "action"',
				],
			]),
		],
		[
			'another action',
			connected.name,
			{ number: alice.number, labelId: '1', action: 'toggle' },
			undefined,
			400,
			evolutionError(400, [['action is not one of enum values: add,remove']]),
		],
		[
			'a label ID that is no text',
			connected.name,
			{ number: alice.number, labelId: 1, action: 'add' },
			undefined,
			400,
			evolutionError(400, [['labelId is not of a type(s) string']]),
		],
		[
			'a number that is no text',
			connected.name,
			{ number: 5511987650001, labelId: '1', action: 'add' },
			undefined,
			400,
			evolutionError(400, [['Invalid format']]),
		],
		[
			'a number not on WhatsApp',
			connected.name,
			{ number: SEED.unregisteredNumber, labelId: '1', action: 'add' },
			undefined,
			404,
			evolutionError(404, ['Number is not on WhatsApp']),
		],
		[
			'the status broadcast',
			connected.name,
			{ number: 'status@broadcast', labelId: '1', action: 'add' },
			undefined,
			404,
			evolutionError(404, ['Number is not on WhatsApp']),
		],
		[
			'a group the account is not in (findGroup answers nothing, `.id` of it crashes)',
			connected.name,
			{ number: STRANGE_GROUP, labelId: '1', action: 'add' },
			undefined,
			500,
			evolutionError(500, "Cannot read properties of undefined (reading 'id')"),
		],
		[
			'an instance that is not connected',
			pairing.name,
			{ number: alice.number, labelId: '1', action: 'add' },
			undefined,
			500,
			evolutionError(500, 'Connection Closed'),
		],
	])('PUT /label/handleLabel refuses %s', async (_case, instance, body, key, status, answer) => {
		const response = await handle(body, instance, key);
		expect(response.status).toBe(status);
		expect(response.data).toEqual(answer);
		expect(sim.chatLabels(connected.name, alice.chatId)).toEqual(['2']);
	});

	it('has no POST /label/handleLabel (v2’s method)', async () => {
		const response = await gatewayClient(sim).post(`/label/handleLabel/${connected.name}`, {
			number: alice.number,
			labelId: '1',
			action: 'add',
		});
		expect(response.status).toBe(404);
		expect(response.data).toEqual(
			evolutionError(404, [`Cannot POST /label/handleLabel/${connected.name}`]),
		);
	});

	it('delivers no LABELS_ASSOCIATION (Baileys runs with emitOwnEvents off)', async () => {
		await gatewayClient(sim).post(`/webhook/set/${connected.name}`, {
			url: receiver.url,
			enabled: true,
			events: ['LABELS_ASSOCIATION', 'LABELS_EDIT'],
		});
		const response = await handle({ number: alice.number, labelId: '1', action: 'add' });
		expect(response.status).toBe(200);
		await sleep(100);
		expect(sim.deliveries).toEqual([]);
	});
});

describe('Evolution API 2.3.6: /label', () => {
	const sim = useSimulator({ gateway: 'evolution-v2' });
	const handle = (body: unknown, instance: string = connected.name) =>
		gatewayClient(sim).post(`/label/handleLabel/${instance}`, body);

	it('GET /label/findLabels answers the Label rows: color a text, predefinedId null when none', async () => {
		const response = await gatewayClient(sim).get(`/label/findLabels/${connected.name}`);
		expect(response.status).toBe(200);
		expect(response.data).toEqual([
			{ color: '1', name: 'New customer', id: '1', predefinedId: '1' },
			{ color: '5', name: 'Paid', id: '2', predefinedId: null },
		]);
	});

	it.each<[string, Record<string, unknown>, Record<string, unknown>, string, string[]]>([
		[
			'adds a label to a person’s chat',
			{ number: alice.number, labelId: newCustomer.id, action: 'add' },
			{ numberJid: v2.alice.jid, labelId: '1', add: true },
			alice.chatId,
			['2', '1'],
		],
		[
			'removes one',
			{ number: v2.alice.jid, labelId: paid.id, action: 'remove' },
			{ numberJid: v2.alice.jid, labelId: '2', remove: true },
			alice.chatId,
			[],
		],
		[
			'labels a group',
			{ number: hikers.id, labelId: newCustomer.id, action: 'add' },
			{ numberJid: hikers.id, labelId: '1', add: true },
			hikers.id,
			['1'],
		],
		[
			'adds a label that does not exist',
			{ number: bruno.number, labelId: '99', action: 'add' },
			{ numberJid: v2.bruno.jid, labelId: '99', add: true },
			bruno.chatId,
			['99'],
		],
	])('POST /label/handleLabel %s: 200, the chat’s labels written', async (...row) => {
		const [, body, answer, chatId, labels] = row;
		const response = await handle(body);
		expect(response.status).toBe(200);
		expect(response.data).toEqual(answer);
		expect(sim.chatLabels(connected.name, chatId)).toEqual(labels);
	});

	it.each<[string, string, unknown, number, unknown]>([
		[
			'an empty number (2.3.6’s schema: isNotEmpty)',
			connected.name,
			{ number: '', labelId: '1', action: 'add' },
			400,
			evolutionError(400, [['The "number" cannot be empty']]),
		],
		[
			'an empty label ID',
			connected.name,
			{ number: alice.number, labelId: '', action: 'add' },
			400,
			evolutionError(400, [['The "labelId" cannot be empty']]),
		],
		[
			'another action',
			connected.name,
			{ number: alice.number, labelId: '1', action: 'toggle' },
			400,
			evolutionError(400, [['action is not one of enum values: add,remove']]),
		],
		[
			'a number not on WhatsApp',
			connected.name,
			{ number: SEED.unregisteredNumber, labelId: '1', action: 'add' },
			404,
			evolutionError(404, ['Number is not on WhatsApp']),
		],
		[
			'a group the account is not in (whatsappNumber: exists false)',
			connected.name,
			{ number: STRANGE_GROUP, labelId: '1', action: 'add' },
			404,
			evolutionError(404, ['Number is not on WhatsApp']),
		],
		[
			'an instance that is not connected',
			pairing.name,
			{ number: alice.number, labelId: '1', action: 'add' },
			500,
			evolutionError(500, 'Connection Closed'),
		],
	])('POST /label/handleLabel refuses %s', async (_case, instance, body, status, answer) => {
		const response = await handle(body, instance);
		expect(response.status).toBe(status);
		expect(response.data).toEqual(answer);
		expect(sim.chatLabels(connected.name, alice.chatId)).toEqual(['2']);
	});

	it('has no PUT /label/handleLabel (v1’s method)', async () => {
		const response = await gatewayClient(sim).put(`/label/handleLabel/${connected.name}`, {
			number: alice.number,
			labelId: '1',
			action: 'add',
		});
		expect(response.status).toBe(404);
		expect(response.data).toEqual(
			evolutionError(404, [`Cannot PUT /label/handleLabel/${connected.name}`]),
		);
	});
});

describe('WAHA 2026.x: /api/{session}/labels', () => {
	const sim = useSimulator({ gateway: 'waha' });
	const api = (key?: string | null) => wahaClient(sim, key);
	const base = `/api/${connected.name}/labels`;
	const NEW_CUSTOMER = { id: '1', name: 'New customer', color: 1, colorHex: '#64c4ff' };
	const PAID = { id: '2', name: 'Paid', color: 5, colorHex: '#55ccb3' };
	const labelled = (labels: string[]) => ({ labels: labels.map((id) => ({ id })) });

	it.each<[string, string, unknown]>([
		['GET /labels: every label with its colorHex', base, [NEW_CUSTOMER, PAID]],
		['GET /labels/chats/{chatId}: a chat’s labels', `${base}/chats/${alice.chatId}`, [PAID]],
		[
			'the same for a chat named by its JID',
			`${base}/chats/${encodeURIComponent(`${alice.number}@s.whatsapp.net`)}`,
			[PAID],
		],
		['none for a chat without labels', `${base}/chats/${hikers.id}`, []],
		['none for a chat nobody knows', `${base}/chats/nobody`, []],
		[
			'GET /labels/{labelId}/chats: NOWEB’s chat rows (JIDs), unreadCount removed',
			`${base}/2/chats`,
			[{ id: `${alice.number}@s.whatsapp.net`, conversationTimestamp: expect.any(Number) }],
		],
		['no chats for a label nobody has', `${base}/1/chats`, []],
		['no chats for an unknown label', `${base}/99/chats`, []],
	])('%s', async (_case, path, answer) => {
		const response = await api().get(path);
		expect(response.status).toBe(200);
		expect(response.data).toEqual(answer);
	});

	it.each<[string, string[], string[], unknown]>([
		['replaces the chat’s whole set', ['1'], ['1'], [NEW_CUSTOMER]],
		['keeps one and adds one', ['2', '1'], ['2', '1'], [NEW_CUSTOMER, PAID]],
		['takes every label off with []', [], [], []],
		['adds an unknown label ID (not listed: no such label)', ['2', '99'], ['2', '99'], [PAID]],
	])('PUT /labels/chats/{chatId} %s: 200, no body', async (_case, ids, chatLabels, listed) => {
		const response = await api().put(`${base}/chats/${alice.chatId}`, labelled(ids));
		expect(response.status).toBe(200);
		expect(response.data).toBe('');
		expect(sim.chatLabels(connected.name, alice.chatId)).toEqual(chatLabels);
		expect((await api().get(`${base}/chats/${alice.chatId}`)).data).toEqual(listed);
	});

	it('lists a labelled group with its subject, and a chat without messages not at all', async () => {
		await api().put(`${base}/chats/${hikers.id}`, labelled(['1']));
		await api().put(`${base}/chats/${SEED.groups.team.id}`, labelled(['1']));
		await api().put(`${base}/chats/5511987650077@c.us`, labelled(['1']));
		const response = await api().get(`${base}/1/chats`);
		expect(response.data).toEqual([
			{ id: hikers.id, name: hikers.subject, conversationTimestamp: expect.any(Number) },
			{ id: SEED.groups.team.id, name: SEED.groups.team.subject },
		]);
		expect(sim.chatLabels(connected.name, '5511987650077')).toEqual(['1']);
	});

	it.each<[string, Record<string, unknown>, unknown]>([
		[
			'by colour number: the id after the highest',
			{ name: 'VIP', color: 3 },
			{ id: '3', name: 'VIP', color: 3, colorHex: '#dfaef0' },
		],
		[
			'by colour in hex: its number in WAHA’s table',
			{ name: 'VIP', colorHex: '#ff9485' },
			{ id: '3', name: 'VIP', color: 0, colorHex: '#ff9485' },
		],
		[
			'a colour past the table: #000000',
			{ name: 'VIP', color: 25 },
			{ id: '3', name: 'VIP', color: 25, colorHex: '#000000' },
		],
	])('POST /labels creates a label %s: 201', async (_case, body, answer) => {
		const response = await api().post(base, body);
		expect(response.status).toBe(201);
		expect(response.data).toEqual(answer);
		expect((await api().get(base)).data).toEqual([NEW_CUSTOMER, PAID, answer]);
	});

	it('PUT /labels/{labelId} changes a label: 200 the label', async () => {
		const response = await api().put(`${base}/1`, { name: 'Lead', colorHex: '#ffd429' });
		expect(response.status).toBe(200);
		const lead = { id: '1', name: 'Lead', color: 2, colorHex: '#ffd429' };
		expect(response.data).toEqual(lead);
		expect((await api().get(base)).data).toEqual([lead, PAID]);
	});

	it('DELETE /labels/{labelId} deletes a label and takes it off its chats: 200 {result: true}', async () => {
		const response = await api().delete(`${base}/2`);
		expect(response.status).toBe(200);
		expect(response.data).toEqual({ result: true });
		expect((await api().get(base)).data).toEqual([NEW_CUSTOMER]);
		expect(sim.chatLabels(connected.name, alice.chatId)).toEqual([]);
	});

	it('refuses a 21st label: 422 Maximum 20 labels allowed', async () => {
		for (let index = 3; index <= 20; index++) {
			const created = await api().post(base, { name: `Label ${index}`, color: index % 20 });
			expect(created.data).toEqual(expect.objectContaining({ id: String(index) }));
		}
		const response = await api().post(base, { name: 'One more', color: 1 });
		expect(response.status).toBe(422);
		expect(response.data).toEqual(nestError(422, 'Maximum 20 labels allowed'));
	});

	const SESSION_STATUS = {
		error: 'Session status is not as expected. Try again later or restart the session',
		session: pairing.name,
		status: 'SCAN_QR_CODE',
		expected: ['WORKING'],
	};

	it.each<[string, string, string, unknown, number, unknown]>([
		['create without a name', 'POST', base, { color: 1 }, 400, nestError(400, ['body lacks name'])],
		[
			'create with a colour that is no number',
			'POST',
			base,
			{ name: 'VIP', color: 'red' },
			400,
			nestError(400, ['body.color must be number']),
		],
		[
			'create with a colorHex that is no colour (@IsHexColor)',
			'POST',
			base,
			{ name: 'VIP', colorHex: 'red' },
			400,
			nestError(400, ['colorHex must be a hexadecimal color']),
		],
		[
			'create without a colour',
			'POST',
			base,
			{ name: 'VIP' },
			422,
			nestError(422, "'color' or 'colorHex' is required"),
		],
		[
			'create with both colours',
			'POST',
			base,
			{ name: 'VIP', color: 1, colorHex: '#64c4ff' },
			422,
			nestError(422, "Use either 'color' or 'colorHex'"),
		],
		[
			'create with a colorHex not in the table',
			'POST',
			base,
			{ name: 'VIP', colorHex: '#123456' },
			422,
			nestError(
				422,
				"Invalid 'colorHex'. Possible values: #ff9485, #64c4ff, #ffd429, #dfaef0, #99b6c1, #55ccb3, #ff9dff, #d3a91d, #6d7cce, #d7e752, #00d0e2, #ffc5c7, #93ceac, #f74848, #00a0f2, #83e422, #ffaf04, #b5ebff, #9ba6ff, #9368cf",
			),
		],
		[
			'create with a name another label has',
			'POST',
			base,
			{ name: 'Paid', color: 1 },
			422,
			nestError(422, "Label with 'Paid' already exists, id: 2"),
		],
		[
			'update of an unknown label',
			'PUT',
			`${base}/99`,
			{ name: 'VIP', color: 1 },
			404,
			nestError(404, 'Label not found'),
		],
		[
			'update keeping the label’s own name (the controller finds the label itself)',
			'PUT',
			`${base}/2`,
			{ name: 'Paid', color: 4 },
			422,
			nestError(422, "Label with 'Paid' already exists, id: 2"),
		],
		[
			'update without a colour',
			'PUT',
			`${base}/2`,
			{ name: 'Settled' },
			422,
			nestError(422, "'color' or 'colorHex' is required"),
		],
		[
			'delete of an unknown label',
			'DELETE',
			`${base}/99`,
			undefined,
			404,
			nestError(404, 'Label not found'),
		],
		[
			'a chat’s labels without the list',
			'PUT',
			`${base}/chats/${alice.chatId}`,
			{},
			400,
			nestError(400, ['body lacks labels']),
		],
		[
			'a chat’s labels without their IDs',
			'PUT',
			`${base}/chats/${alice.chatId}`,
			{ labels: [{}] },
			400,
			nestError(400, ['body.labels.0 lacks id']),
		],
		[
			'an unknown session',
			'GET',
			'/api/nope/labels',
			undefined,
			404,
			nestError(
				404,
				"We didn't find a session with name 'nope'.\nPlease start it first by using POST /api/sessions/nope/start request",
			),
		],
		[
			'a session that is not WORKING',
			'GET',
			`/api/${pairing.name}/labels`,
			undefined,
			422,
			SESSION_STATUS,
		],
		[
			'a chat’s labels in a session that is not WORKING',
			'PUT',
			`/api/${pairing.name}/labels/chats/${alice.chatId}`,
			labelled(['1']),
			422,
			SESSION_STATUS,
		],
	])('refuses %s', async (_case, method, url, data, status, answer) => {
		const response = await api().request({ method, url, data });
		expect(response.status).toBe(status);
		expect(response.data).toEqual(answer);
		expect((await api().get(base)).data).toEqual([NEW_CUSTOMER, PAID]);
		expect(sim.chatLabels(connected.name, alice.chatId)).toEqual(['2']);
	});

	it('refuses a request without the key: 401', async () => {
		const response = await api(null).get(base);
		expect(response.status).toBe(401);
		expect(response.data).toEqual({ statusCode: 401, message: 'Unauthorized' });
	});

	it('chatLabels() reads a chat in any spelling, [] for an unknown instance', () => {
		expect(sim.chatLabels(connected.name, alice.number)).toEqual(['2']);
		expect(sim.chatLabels(connected.name, `${alice.number}@s.whatsapp.net`)).toEqual(['2']);
		expect(sim.chatLabels(connected.name, bruno.chatId)).toEqual([]);
		expect(sim.chatLabels('nope', alice.chatId)).toEqual([]);
	});
});

describe('WAHA 2026.x: label events', () => {
	const sim = useSimulator({ gateway: 'waha' });
	const receiver = useWebhookReceiver();
	const api = () => wahaClient(sim);
	const base = `/api/${connected.name}/labels`;
	const LABEL_EVENTS = ['label.upsert', 'label.deleted', 'label.chat.added', 'label.chat.deleted'];

	async function received(count: number) {
		await sim.waitForDeliveries(count);
		await sleep(50);
		return receiver.received.map((delivery) => {
			const { event, payload } = delivery.body as { event: string; payload: unknown };
			return { event, payload };
		});
	}

	it.each<[string, () => Promise<unknown>, Array<{ event: string; payload: unknown }>]>([
		[
			'a create: label.upsert',
			() => api().post(base, { name: 'VIP', color: 3 }),
			[{ event: 'label.upsert', payload: { id: '3', name: 'VIP', color: 3, colorHex: '#dfaef0' } }],
		],
		[
			'an update: label.upsert',
			() => api().put(`${base}/1`, { name: 'Lead', color: 2 }),
			[
				{
					event: 'label.upsert',
					payload: { id: '1', name: 'Lead', color: 2, colorHex: '#ffd429' },
				},
			],
		],
		[
			'a delete: label.deleted (no label.chat.deleted for its chats)',
			() => api().delete(`${base}/2`),
			[
				{
					event: 'label.deleted',
					payload: { id: '2', name: 'Paid', color: 5, colorHex: '#55ccb3' },
				},
			],
		],
		[
			'a chat’s new set: label.chat.added for each added, then label.chat.deleted for each removed',
			() => api().put(`${base}/chats/${alice.chatId}`, { labels: [{ id: '1' }, { id: '99' }] }),
			[
				{
					event: 'label.chat.added',
					payload: {
						labelId: '1',
						chatId: alice.chatId,
						label: { id: '1', name: 'New customer', color: 1, colorHex: '#64c4ff' },
					},
				},
				{
					event: 'label.chat.added',
					payload: { labelId: '99', chatId: alice.chatId, label: null },
				},
				{
					event: 'label.chat.deleted',
					payload: {
						labelId: '2',
						chatId: alice.chatId,
						label: { id: '2', name: 'Paid', color: 5, colorHex: '#55ccb3' },
					},
				},
			],
		],
	])('NOWEB announces %s', async (_case, act, events) => {
		await subscribeWebhook(sim, connected.name, receiver.url, LABEL_EVENTS);
		sim.clearLogs();
		await act();
		expect(await received(events.length)).toEqual(events);
	});

	it('announces them only to webhooks that take them, and nothing for a set left as it was', async () => {
		await subscribeWebhook(sim, connected.name, receiver.url, ['message']);
		sim.clearLogs();
		await api().post(base, { name: 'VIP', color: 3 });
		await api().put(`${base}/chats/${alice.chatId}`, { labels: [{ id: '1' }] });
		await subscribeWebhook(sim, connected.name, receiver.url, LABEL_EVENTS);
		sim.clearLogs();
		await api().put(`${base}/chats/${alice.chatId}`, { labels: [{ id: '1' }] });
		await sleep(100);
		expect(sim.deliveries).toEqual([]);
		expect(receiver.received).toEqual([]);
	});
});

describe('WAHA engines: chats by label, events, NOWEB’s store', () => {
	describe('GOWS', () => {
		const sim = useSimulator({ gateway: 'waha', wahaEngine: 'GOWS' });
		it('GET /labels/{labelId}/chats answers [{id}] with chat IDs, chats without messages too', async () => {
			const base = `/api/${connected.name}/labels`;
			await wahaClient(sim).put(`${base}/chats/5511987650077@c.us`, { labels: [{ id: '2' }] });
			const response = await wahaClient(sim).get(`${base}/2/chats`);
			expect(response.status).toBe(200);
			expect(response.data).toEqual([{ id: alice.chatId }, { id: '5511987650077@c.us' }]);
		});
	});

	describe('WEBJS', () => {
		const sim = useSimulator({ gateway: 'waha', wahaEngine: 'WEBJS' });
		const receiver = useWebhookReceiver();
		it('announces no label events', async () => {
			await subscribeWebhook(sim, connected.name, receiver.url, ['*']);
			await sim.waitForDeliveries(3);
			sim.clearLogs();
			const base = `/api/${connected.name}/labels`;
			expect((await wahaClient(sim).post(base, { name: 'VIP', color: 3 })).status).toBe(201);
			await wahaClient(sim).put(`${base}/chats/${alice.chatId}`, { labels: [{ id: '3' }] });
			await sleep(100);
			expect(sim.deliveries).toEqual([]);
			expect(sim.chatLabels(connected.name, alice.chatId)).toEqual(['3']);
		});
	});

	describe('NOWEB without its store', () => {
		const sim = useSimulator({ gateway: 'waha', wahaStore: false });
		const NO_STORE =
			'Enable NOWEB store "config.noweb.store.enabled=True" and "config.noweb.store.full_sync=True" when starting a new session. ' +
			'Read more: https://waha.devlike.pro/docs/engines/noweb#store';
		const base = `/api/${connected.name}/labels`;

		it.each<[string, string, unknown]>([
			['GET', base, undefined],
			['POST', base, { name: 'VIP', color: 3 }],
			['PUT', `${base}/1`, { name: 'VIP', color: 3 }],
			['DELETE', `${base}/1`, undefined],
			['GET', `${base}/chats/${alice.chatId}`, undefined],
			['PUT', `${base}/chats/${alice.chatId}`, { labels: [] }],
			['GET', `${base}/2/chats`, undefined],
		])('%s %s → 400', async (method, url, data) => {
			const response = await wahaClient(sim).request({ method, url, data });
			expect(response.status).toBe(400);
			expect(response.data).toEqual(nestError(400, NO_STORE));
			expect(sim.chatLabels(connected.name, alice.chatId)).toEqual(['2']);
		});
	});
});
