import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SEED } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import {
	binaryItem,
	byId,
	expectGatewayError,
	expectOneRequest,
	expectValidationError,
	fromList,
	jsonItems,
	outputJson,
	resourceRunner,
	expectPacedAndPaired,
} from '../support/gateway-node.cts';
import { startScriptedServer } from '../support/scripted-server.cts';

const SESSION = SEED.instances.connected.name;
const OWNER_JID = SEED.instances.connected.ownerJid;
const HIKERS = SEED.groups.hikers;
const UNKNOWN_GROUP = '120363000000000099@g.us';
const { alice, bruno, carla } = SEED.contacts;
const { aliceText, hikersQuestion } = SEED.messages;
const SHORT_ID = /^3EB0[0-9A-F]{16}$/;
/** A 1x1 PNG. */
const TINY_PNG_BASE64 =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

const simulator = useSimulator();
const runMessage = resourceRunner(simulator, 'message', SESSION);

describe('Message > Send Text', () => {
	it('sends the digits of a typed phone number and outputs the response plus the full message ID', async () => {
		const result = await runMessage('sendText', {
			chatId: byId('+55 (11) 98765-0001'),
			text: 'Hello! Your order is ready.',
		});

		expect(result.status).toBe('success');
		expectOneRequest(simulator, {
			method: 'POST',
			path: `/message/sendText/${SESSION}`,
			query: {},
		});
		expect(simulator.requests[0].body).toEqual({
			number: alice.number,
			textMessage: { text: 'Hello! Your order is ready.' },
		});
		const [json] = outputJson(result);
		expect(json).toEqual({
			key: { remoteJid: alice.jid, fromMe: true, id: expect.stringMatching(SHORT_ID) },
			message: { extendedTextMessage: { text: 'Hello! Your order is ready.' } },
			messageTimestamp: expect.stringMatching(/^\d+$/),
			status: 'PENDING',
			messageId: `true_${alice.chatId}_${(json.key as IDataObject).id as string}`,
		});
		// The full ID is the one the session-family reads (Get, React) know.
		expect(simulator.findMessage(SESSION, json.messageId as string)?.chatId).toBe(alice.chatId);
		expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('maps every option into options, quoting and mentioning in a group picked from the list', async () => {
		const result = await runMessage('sendText', {
			chatId: fromList(HIKERS.id),
			text: 'Who brings the map? @5511987650001',
			options: {
				delay: 5,
				presence: 'recording',
				linkPreview: false,
				replyTo: hikersQuestion.id,
				mentionEveryone: true,
				mentionNumbers: '+55 11 98765-0001, 5511987650002 5511987650004\n5511987650001',
			},
		});

		expect(result.status).toBe('success');
		expect(simulator.requests[0].body).toEqual({
			number: HIKERS.id,
			options: {
				delay: 5,
				presence: 'recording',
				linkPreview: false,
				quoted: { key: { id: hikersQuestion.shortId, remoteJid: HIKERS.id, fromMe: false } },
				mentions: { everyOne: true, mentioned: [alice.number, bruno.number, carla.number] },
			},
			textMessage: { text: 'Who brings the map? @5511987650001' },
		});
		const [json] = outputJson(result);
		const key = json.key as IDataObject;
		expect(key).toMatchObject({ remoteJid: HIKERS.id, fromMe: true, participant: OWNER_JID });
		expect(json.messageId).toBe(`true_${HIKERS.id}_${key.id as string}`);
		// The gateway found the quoted message: the reply carries its ID.
		const contextInfo = ((json.message as IDataObject).extendedTextMessage as IDataObject)
			.contextInfo as IDataObject;
		expect(contextInfo.stanzaId).toBe(hikersQuestion.shortId);
	});

	it('quotes a message of a contact chat with the JID of that chat', async () => {
		const result = await runMessage('sendText', {
			chatId: byId(alice.chatId),
			text: 'Yes, it is.',
			options: { replyTo: ` ${aliceText.id} ` },
		});

		expect(result.status).toBe('success');
		expect(simulator.requests[0].body).toEqual({
			number: alice.number,
			options: { quoted: { key: { id: aliceText.shortId, remoteJid: alice.jid, fromMe: false } } },
			textMessage: { text: 'Yes, it is.' },
		});
	});

	it('sends a number from an expression as text', async () => {
		const result = await runMessage(
			'sendText',
			{ chatId: byId(alice.number), text: '={{ $json.code }}' },
			{ items: jsonItems({ code: 1042 }) },
		);

		expect(result.status).toBe('success');
		expect(simulator.requests[0].body).toEqual({
			number: alice.number,
			textMessage: { text: '1042' },
		});
	});

	it.each([
		[
			'an empty text',
			{ chatId: byId(alice.number), text: '={{ $json.text }}' },
			{ text: '   ' },
			'Text must not be empty',
		],
		[
			'a channel as Chat, naming the field',
			{ chatId: byId(SEED.channels.updates.id), text: 'Hi' },
			{},
			/^Chat must be .*\(got "120363150000000001@newsletter"\)$/,
		],
		[
			'Mention Everyone in a contact chat',
			{ chatId: byId(alice.number), text: 'Hi all', options: { mentionEveryone: true } },
			{},
			`Mention Everyone works only in groups, and Chat is a contact (${alice.number})`,
		],
		[
			'an entry of Mention Numbers that is not a phone number, naming it',
			{
				chatId: byId(HIKERS.id),
				text: 'Hi',
				options: { mentionNumbers: `${alice.number}, Carla` },
			},
			{},
			'Mention Numbers (entry 2) must be a phone number with country code, e.g. +55 11 99999-9999, or a LID, e.g. 123456789012345@lid (got "Carla")',
		],
		[
			'a blank entry of a Mention Numbers list from an expression, by position',
			{
				chatId: byId(HIKERS.id),
				text: 'Hi',
				options: { mentionNumbers: '={{ $json.mentions }}' },
			},
			{ mentions: [alice.number, ''] },
			'Mention Numbers (entry 2) must be a phone number with country code, e.g. +55 11 99999-9999, or a LID, e.g. 123456789012345@lid (got "")',
		],
		[
			'a Reply To Message ID that is not a full message ID',
			{ chatId: byId(alice.number), text: 'Hi', options: { replyTo: aliceText.shortId } },
			{},
			`Reply To Message ID must be a full message ID like false_5511999999999@c.us_3EB0C767D26A1D3BB2F1 (got "${aliceText.shortId}")`,
		],
		[
			'a delay that is not a whole number of milliseconds',
			{ chatId: byId(alice.number), text: 'Hi', options: { delay: '={{ $json.delay }}' } },
			{ delay: 1.5 },
			'Delay (Ms) must be a whole number of at least 0 (got "1.5")',
		],
	])('refuses %s before any request', async (_case, parameters, item, message) => {
		const result = await runMessage('sendText', parameters, { items: jsonItems(item) });

		expectValidationError(simulator, result, message);
	});

	it('surfaces a number that is not on the network as the gateway error', async () => {
		const result = await runMessage('sendText', {
			chatId: byId(SEED.unregisteredNumber),
			text: 'Hi',
		});

		expectGatewayError(
			simulator,
			result,
			`Gateway error 400: The number ${SEED.unregisteredNumber} is not registered on the messaging network`,
			'400',
		);
	});

	it('sends one request per item, waiting between items, with paired outputs', async () => {
		const result = await runMessage(
			'sendText',
			{
				chatId: byId('={{ $json.to }}'),
				text: '=Hi {{ $json.name }}',
				options: { waitBetweenItems: 60 },
			},
			{
				items: jsonItems(
					{ to: alice.number, name: 'Alice' },
					{ to: bruno.chatId, name: 'Bruno' },
					{ to: HIKERS.id, name: 'hikers' },
				),
			},
		);

		expect(result.status).toBe('success');
		expect(simulator.requests.map((request) => request.body)).toEqual([
			{ number: alice.number, textMessage: { text: 'Hi Alice' } },
			{ number: bruno.number, textMessage: { text: 'Hi Bruno' } },
			{ number: HIKERS.id, textMessage: { text: 'Hi hikers' } },
		]);
		expectPacedAndPaired(simulator, result, 50);
		expect(outputJson(result).map((json) => (json.messageId as string).split('_')[1])).toEqual([
			alice.chatId,
			bruno.chatId,
			HIKERS.id,
		]);
	});

	it('Pace Sends: two executions at once send from one session one after another, at the pace', async () => {
		const execution = async (name: string) =>
			await runMessage(
				'sendText',
				{
					chatId: byId(alice.number),
					text: `=${name} {{ $json.n }}`,
					options: { pacePerMinute: 60 },
				},
				{ items: jsonItems({ n: 1 }, { n: 2 }) },
			);

		const results = await Promise.all([execution('first'), execution('second')]);

		expect(results.map((result) => result.status)).toEqual(['success', 'success']);
		const arrivals = simulator.requests.map((request) => request.at);
		expect(arrivals).toHaveLength(4);
		const gaps = arrivals.slice(1).map((at, index) => at - arrivals[index]);
		// 60 a minute: turns a second apart, whichever execution sends (unpaced, the four arrive
		// within milliseconds). Each request then takes its own time to reach the gateway, longer on
		// a busy machine: a gap is at least half a turn, and the four span most of three turns.
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(500);
		expect(arrivals[3] - arrivals[0]).toBeGreaterThanOrEqual(2500);
	});

	it('with Continue On Fail, bad items become error items and the others are sent', async () => {
		const result = await runMessage(
			'sendText',
			{ chatId: byId('={{ $json.to }}'), text: 'Hi' },
			{
				items: jsonItems(
					{ to: alice.number },
					{ to: 'somebody' },
					{ to: SEED.unregisteredNumber },
					{ to: bruno.number },
				),
				onError: 'continueRegularOutput',
			},
		);

		expect(result.status).toBe('success');
		expect(simulator.requests.map((request) => request.body)).toEqual([
			{ number: alice.number, textMessage: { text: 'Hi' } },
			{ number: SEED.unregisteredNumber, textMessage: { text: 'Hi' } },
			{ number: bruno.number, textMessage: { text: 'Hi' } },
		]);
		const outputs = outputJson(result);
		expect(outputs[0].messageId).toMatch(new RegExp(`^true_${alice.chatId}_3EB0`));
		expect(outputs[1]).toEqual({
			error: expect.stringMatching(/^Chat must be .*\(got "somebody"\)$/),
			message: expect.stringContaining('country code'),
		});
		expect(outputs[2]).toEqual({
			error: `Gateway error 400: The number ${SEED.unregisteredNumber} is not registered on the messaging network`,
			message: expect.any(String),
		});
		expect(outputs[3].messageId).toMatch(new RegExp(`^true_${bruno.chatId}_3EB0`));
		expect(result.outputs[0].map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
	});
});

describe('Message > Send Text with Check the Number First', () => {
	const CHECK = `/chat/whatsappNumbers/${SESSION}`;
	const SEND = `/message/sendText/${SESSION}`;
	const NOT_ON_NETWORK = `Number ${SEED.unregisteredNumber} is not on the network: nothing was sent`;
	const sent = () => simulator.requests.map((request) => [request.path, request.body]);

	it('checks a contact first and sends to the JID the network knows (Brazilian 9th digit)', async () => {
		const result = await runMessage('sendText', {
			chatId: byId('+55 11 8765-0001'),
			text: 'Hi',
			options: { checkNumber: true },
		});

		expect(result.status).toBe('success');
		expect(sent()).toEqual([
			[CHECK, { numbers: ['551187650001'] }],
			[SEND, { number: alice.jid, textMessage: { text: 'Hi' } }],
		]);
		expect(outputJson(result)[0].messageId).toMatch(new RegExp(`^true_${alice.chatId}_3EB0`));
		expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('does not check a group', async () => {
		const result = await runMessage('sendText', {
			chatId: fromList(HIKERS.id),
			text: 'Hi all',
			options: { checkNumber: '={{ "true" }}' },
		});

		expect(result.status).toBe('success');
		expect(sent()).toEqual([[SEND, { number: HIKERS.id, textMessage: { text: 'Hi all' } }]]);
	});

	it('refuses a number that is not on the network without sending anything', async () => {
		const result = await runMessage('sendText', {
			chatId: byId(SEED.unregisteredNumber),
			text: 'Hi',
			options: { checkNumber: true },
		});

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(NOT_ON_NETWORK);
		expect(result.error?.description).toMatch(/country code/);
		expect(sent()).toEqual([[CHECK, { numbers: [SEED.unregisteredNumber] }]]);
	});

	/** Each item of an output as [input item, what it says]: the error, or where the message went. */
	const summary = (items: INodeExecutionData[] = []) =>
		items.map((item) => [
			(item.pairedItem as { item: number }).item,
			item.json.error ?? (item.json.key as IDataObject).remoteJid,
		]);

	it.each([
		[
			'continueRegularOutput' as const,
			[
				[0, alice.jid],
				[1, NOT_ON_NETWORK],
				[2, HIKERS.id],
			],
			[],
		],
		[
			'continueErrorOutput' as const,
			[
				[0, alice.jid],
				[2, HIKERS.id],
			],
			[[1, NOT_ON_NETWORK]],
		],
	])(
		'with On Error %s, refuses only the item whose number is not on the network',
		async (onError, successes, failures) => {
			const result = await runMessage(
				'sendText',
				{ chatId: byId('={{ $json.to }}'), text: 'Hi', options: { checkNumber: true } },
				{
					items: jsonItems(
						{ to: alice.number },
						{ to: SEED.unregisteredNumber },
						{ to: HIKERS.id },
					),
					onError,
				},
			);

			expect(result.status).toBe('success');
			expect(sent()).toEqual([
				[CHECK, { numbers: [alice.number] }],
				[SEND, { number: alice.jid, textMessage: { text: 'Hi' } }],
				[CHECK, { numbers: [SEED.unregisteredNumber] }],
				[SEND, { number: HIKERS.id, textMessage: { text: 'Hi' } }],
			]);
			expect(summary(result.outputs[0])).toEqual(successes);
			expect(summary(result.outputs[1])).toEqual(failures);
			const errorItem = [...result.outputs[0], ...(result.outputs[1] ?? [])].find(
				(item) => item.json.error !== undefined,
			);
			expect(errorItem?.json.message).toMatch(/country code/);
		},
	);

	it.each([
		[
			'a Check the Number First that is not true or false',
			{ checkNumber: '={{ "yes" }}' },
			'Check the Number First must be true or false (got "yes")',
		],
		[
			'another bad option, without checking the number',
			{ checkNumber: true, delay: -1 },
			'Delay (Ms) must be a whole number of at least 0 (got "-1")',
		],
	])('refuses %s before any request', async (_case, options, message) => {
		const result = await runMessage('sendText', {
			chatId: byId(alice.number),
			text: 'Hi',
			options,
		});

		expectValidationError(simulator, result, message);
	});

	it.each([
		[
			'an answer that is not a list',
			{},
			'Gateway error: the answer is not a list of records (got an object ({}))',
		],
		[
			'no answer for the number',
			[],
			`Gateway error: the answer has no result for ${alice.number} (got a list ([]))`,
		],
	])('sends nothing when the check gets %s', async (_case, body, message) => {
		simulator.injectFault({ match: { path: '/chat/whatsappNumbers/' }, status: 200, body });

		const result = await runMessage('sendText', {
			chatId: byId(alice.number),
			text: 'Hi',
			options: { checkNumber: true },
		});

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(message);
		expect(sent()).toEqual([[CHECK, { numbers: [alice.number] }]]);
	});
});

describe('Message > Send Location', () => {
	it('sends coordinates, name, address and options, and outputs the response plus the full message ID', async () => {
		const result = await runMessage('sendLocation', {
			chatId: byId(bruno.jid),
			latitude: -23.5558,
			longitude: -46.6621,
			name: ' Acme Store ',
			address: 'Rua Augusta 1500, São Paulo',
			options: { delay: 1, presence: 'composing' },
		});

		expect(result.status).toBe('success');
		expectOneRequest(simulator, {
			method: 'POST',
			path: `/message/sendLocation/${SESSION}`,
			query: {},
		});
		expect(simulator.requests[0].body).toEqual({
			number: bruno.number,
			options: { delay: 1, presence: 'composing' },
			locationMessage: {
				name: 'Acme Store',
				address: 'Rua Augusta 1500, São Paulo',
				latitude: -23.5558,
				longitude: -46.6621,
			},
		});
		const [json] = outputJson(result);
		expect(json).toEqual({
			key: { remoteJid: bruno.jid, fromMe: true, id: expect.stringMatching(SHORT_ID) },
			message: {
				locationMessage: {
					degreesLatitude: -23.5558,
					degreesLongitude: -46.6621,
					name: 'Acme Store',
					address: 'Rua Augusta 1500, São Paulo',
					contextInfo: {},
				},
			},
			messageTimestamp: expect.stringMatching(/^\d+$/),
			status: 'PENDING',
			messageId: `true_${bruno.chatId}_${(json.key as IDataObject).id as string}`,
		});
		expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('leaves out an empty name and address and the options when none are set', async () => {
		const result = await runMessage(
			'sendLocation',
			{
				chatId: byId(HIKERS.id),
				latitude: '={{ $json.lat }}',
				longitude: '={{ $json.lng }}',
			},
			{ items: jsonItems({ lat: 90, lng: -180 }) },
		);

		expect(result.status).toBe('success');
		expect(simulator.requests[0].body).toEqual({
			number: HIKERS.id,
			locationMessage: { latitude: 90, longitude: -180 },
		});
		expect(outputJson(result)[0].messageId).toMatch(new RegExp(`^true_${HIKERS.id}_3EB0`));
	});

	it('refuses a latitude out of range, naming it', async () => {
		const result = await runMessage(
			'sendLocation',
			{ chatId: byId(bruno.number), latitude: '={{ $json.lat }}', longitude: 0 },
			{ items: jsonItems({ lat: 91 }) },
		);

		expectValidationError(
			simulator,
			result,
			'Latitude must be a decimal number between -90 and 90 (got "91")',
		);
	});

	it('refuses a longitude out of range, naming it', async () => {
		const result = await runMessage(
			'sendLocation',
			{ chatId: byId(bruno.number), latitude: 10, longitude: '={{ $json.lng }}' },
			{ items: jsonItems({ lng: -180.5 }) },
		);

		expectValidationError(
			simulator,
			result,
			'Longitude must be a decimal number between -180 and 180 (got "-180.5")',
		);
	});
});

const allButtons = {
	button: [
		{ type: 'reply', text: 'Pick up', id: 'pickup' },
		{ type: 'reply', text: 'Deliver' },
		{ type: 'call', text: 'Call us', phoneNumber: '+55 (11) 98765-0000' },
		{ type: 'copy', text: 'Copy coupon', copyCode: ' SAVE10 ' },
		{ type: 'url', text: 'Track', url: 'https://acme.example.com/track/1042' },
	],
};

const expectedButtons = [
	{ type: 'reply', text: 'Pick up', id: 'pickup' },
	{ type: 'reply', text: 'Deliver' },
	{ type: 'call', text: 'Call us', phoneNumber: '5511987650000' },
	{ type: 'copy', text: 'Copy coupon', copyCode: 'SAVE10' },
	{ type: 'url', text: 'Track', url: 'https://acme.example.com/track/1042' },
];

describe('Message > Send Buttons', () => {
	it.each(['chatIdSession', 'jidSessionId'] as const)(
		'sends chatId + session (the one shape of this endpoint) with body style %s',
		async (requestBodyStyle) => {
			const result = await runMessage(
				'sendButtons',
				{
					chatId: byId(alice.jid),
					header: 'Order #1042',
					body: 'Your order is ready.',
					footer: 'Acme Store',
					buttons: allButtons,
				},
				{ requestBodyStyle },
			);

			expect(result.status).toBe('success');
			expectOneRequest(simulator, {
				method: 'POST',
				path: '/api/sendButtons',
				query: {},
			});
			expect(simulator.requests[0].body).toEqual({
				session: SESSION,
				chatId: alice.chatId,
				header: 'Order #1042',
				body: 'Your order is ready.',
				footer: 'Acme Store',
				buttons: expectedButtons,
			});
			const [json] = outputJson(result);
			expect(json).toEqual({
				success: true,
				messageId: expect.stringMatching(new RegExp(`^true_${alice.chatId}_3EB0`)),
			});
			expect(simulator.findMessage(SESSION, json.messageId as string)).toBeDefined();
			expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
		},
	);

	it('sends an empty header and footer when none are given, and a header image by URL', async () => {
		const result = await runMessage('sendButtons', {
			chatId: byId(HIKERS.id),
			body: 'Join the hike?',
			buttons: { button: [{ type: 'reply', text: 'Yes' }] },
			headerImageSource: 'url',
			headerImageUrl: 'https://acme.example.com/images/trail.jpg',
		});

		expect(result.status).toBe('success');
		expect(simulator.requests[0].body).toEqual({
			session: SESSION,
			chatId: HIKERS.id,
			header: '',
			body: 'Join the hike?',
			footer: '',
			buttons: [{ type: 'reply', text: 'Yes' }],
			headerImage: {
				mimetype: 'image/jpeg',
				url: 'https://acme.example.com/images/trail.jpg',
				filename: 'trail.jpg',
			},
		});
	});

	it('refuses a header image from a binary field: the spec takes it only as a URL', async () => {
		const result = await runMessage(
			'sendButtons',
			{
				chatId: byId(alice.number),
				body: 'Like it?',
				buttons: { button: [{ type: 'reply', text: 'Yes' }] },
				headerImageSource: '={{ "binary" }}',
				headerImageUrl: 'https://cdn.example.com/unused.png',
				headerImageBinaryProperty: 'data',
			},
			{ items: [binaryItem(TINY_PNG_BASE64, 'image/png', 'dot.png')] },
		);

		expectValidationError(
			simulator,
			result,
			'Header Image Source must be URL: the gateway takes the header image only as a URL (got "binary")',
		);
	});

	it.each([
		[{}, 'Buttons must have at least one button'],
		[{ button: [{ type: 'reply', text: '  ' }] }, 'Buttons (button 1): Text must not be empty'],
		[
			{
				button: [
					{ type: 'reply', text: 'A' },
					{ type: 'call', text: 'Call', phoneNumber: '12' },
				],
			},
			'Buttons (button 2): Phone Number must be a phone number with country code, e.g. +55 11 99999-9999 (got "12")',
		],
		[
			{ button: [{ type: 'copy', text: 'Copy', copyCode: '={{ $json.code }}' }] },
			'Buttons (button 1): Copy Code must not be empty',
		],
		[
			{ button: [{ type: 'url', text: 'Open', url: 'ftp://acme.example.com/file' }] },
			'Buttons (button 1): URL must be an http(s) address such as https://example.com (got "ftp://acme.example.com/file")',
		],
		[
			{ button: Array.from({ length: 11 }, (_, index) => ({ type: 'reply', text: `B${index}` })) },
			'Buttons must have at most 10 buttons (got 11)',
		],
		[
			{
				button: ['a', 'b', 'c'].map((name) => ({
					type: 'url',
					text: name,
					url: `https://acme.example.com/${name}`,
				})),
			},
			'Buttons must have at most 2 of type url (got 3)',
		],
	])('refuses the buttons %j before any request', async (buttons, message) => {
		const result = await runMessage(
			'sendButtons',
			{ chatId: byId(alice.number), body: 'Pick one', buttons },
			{ items: jsonItems({ code: ' ' }) },
		);

		expectValidationError(simulator, result, message);
	});

	it('refuses an empty body', async () => {
		const result = await runMessage('sendButtons', {
			chatId: byId(alice.number),
			body: ' ',
			buttons: { button: [{ type: 'reply', text: 'Yes' }] },
		});

		expectValidationError(simulator, result, 'Body must not be empty');
	});
});

const MENU_URL = 'https://acme.example.com/menu';

describe('Message > Send Link With Custom Preview', () => {
	it('sends shape A with the image as {url}, reply_to and linkPreviewHighQuality', async () => {
		const result = await runMessage('sendLinkPreview', {
			chatId: byId(alice.number),
			text: `Our new menu: ${MENU_URL}`,
			previewUrl: MENU_URL,
			previewTitle: 'Our New Menu',
			previewDescription: 'Seasonal dishes',
			previewImageSource: 'url',
			previewImageUrl: 'https://acme.example.com/menu.jpg',
			options: { replyTo: aliceText.id, highQuality: false },
		});

		expect(result.status).toBe('success');
		expectOneRequest(simulator, {
			method: 'POST',
			path: '/api/send/link-custom-preview',
			query: {},
		});
		expect(simulator.requests[0].body).toEqual({
			session: SESSION,
			chatId: alice.chatId,
			text: `Our new menu: ${MENU_URL}`,
			preview: {
				url: MENU_URL,
				title: 'Our New Menu',
				description: 'Seasonal dishes',
				image: { url: 'https://acme.example.com/menu.jpg' },
			},
			reply_to: aliceText.id,
			linkPreviewHighQuality: false,
		});
		expect(outputJson(result)).toEqual([
			{
				success: true,
				messageId: expect.stringMatching(new RegExp(`^true_${alice.chatId}_3EB0`)),
			},
		]);
		expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('adds the URL to the end of the text when the text does not contain it', async () => {
		const result = await runMessage('sendLinkPreview', {
			chatId: byId(HIKERS.id),
			text: 'Our new menu is online! ',
			previewUrl: MENU_URL,
		});

		expect(result.status).toBe('success');
		expect(simulator.requests[0].body).toEqual({
			session: SESSION,
			chatId: HIKERS.id,
			text: `Our new menu is online!\n${MENU_URL}`,
			preview: { url: MENU_URL, title: '', description: '' },
		});
	});

	it('in shape B, never sends the API key to an image URL on the gateway itself', async () => {
		// An item could otherwise make n8n fetch a key-protected gateway route and send its answer on.
		const picturePath = `/api/files/${SESSION}/avatar-${alice.number}.png`;
		const result = await runMessage(
			'sendLinkPreview',
			{
				chatId: byId(alice.chatId),
				text: MENU_URL,
				previewUrl: MENU_URL,
				previewTitle: 'Menu',
				previewDescription: 'Our menu',
				previewImageSource: 'url',
				previewImageUrl: `${simulator.url}${picturePath}`,
			},
			// The gateway, on loopback here, stands for one on a public address.
			{ requestBodyStyle: 'jidSessionId', allowPrivateFileHosts: true },
		);

		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/^Preview Image URL: the file host answered 401/);
		expect(result.error?.description).toMatch(/sent only to the Base URL's own address/);
		expect(simulator.requests).toHaveLength(1);
		expect(simulator.requests[0]).toMatchObject({
			method: 'GET',
			path: picturePath,
			auth: 'missing',
		});
	});

	it('in shape B, downloads an image from another host without the API key', async () => {
		const imageHost = await startScriptedServer();
		try {
			imageHost.respondWith({
				status: 200,
				headers: { 'content-type': 'image/jpeg' },
				body: 'jpeg bytes',
			});

			const result = await runMessage(
				'sendLinkPreview',
				{
					chatId: byId(HIKERS.id),
					text: MENU_URL,
					previewUrl: MENU_URL,
					previewTitle: 'Menu',
					previewDescription: 'Our menu',
					previewImageSource: 'url',
					previewImageUrl: `${imageHost.url}/images/menu.jpg`,
				},
				// The image host, on loopback here, stands for a public one.
				{ requestBodyStyle: 'jidSessionId', allowPrivateFileHosts: true },
			);

			expect(result.status).toBe('success');
			expect(imageHost.requests).toHaveLength(1);
			expect(imageHost.requests[0]).toMatchObject({ method: 'GET', url: '/images/menu.jpg' });
			expect(imageHost.requests[0].headers.apikey).toBeUndefined();
			expect(simulator.requests).toHaveLength(1);
			expect(simulator.requests[0].body).toEqual({
				sessionId: SESSION,
				jid: HIKERS.id,
				text: MENU_URL,
				preview: {
					url: MENU_URL,
					title: 'Menu',
					description: 'Our menu',
					image: Buffer.from('jpeg bytes').toString('base64'),
				},
			});
		} finally {
			await imageHost.stop();
		}
	});

	it('sends a binary input image as a base64 string', async () => {
		const result = await runMessage(
			'sendLinkPreview',
			{
				chatId: byId(alice.number),
				text: MENU_URL,
				previewUrl: MENU_URL,
				previewTitle: 'Menu',
				previewDescription: 'Our menu',
				previewImageSource: 'binary',
				previewImageBinaryProperty: 'data',
			},
			{ items: [binaryItem(TINY_PNG_BASE64, 'image/png', 'dot.png')] },
		);

		expect(result.status).toBe('success');
		expect((simulator.requests[0].body as IDataObject).preview).toEqual({
			url: MENU_URL,
			title: 'Menu',
			description: 'Our menu',
			image: TINY_PNG_BASE64,
		});
	});

	it('refuses a text without the URL when appending is off, naming Text', async () => {
		const result = await runMessage('sendLinkPreview', {
			chatId: byId(alice.number),
			text: 'Our new menu is online',
			previewUrl: MENU_URL,
			options: { appendUrl: false },
		});

		expectValidationError(simulator, result, `Text must contain the Preview URL ${MENU_URL}`);
	});

	it('refuses a Preview URL that is not http(s)', async () => {
		const result = await runMessage('sendLinkPreview', {
			chatId: byId(alice.number),
			text: 'menu',
			previewUrl: 'acme.example.com/menu',
		});

		expectValidationError(
			simulator,
			result,
			'Preview URL must be an http(s) URL such as https://example.com/menu (got "acme.example.com/menu")',
		);
	});

	it.each([
		['previewTitle', 'Preview Title must not be empty'],
		['previewDescription', 'Preview Description must not be empty'],
	])('in shape B, refuses an empty %s', async (field, message) => {
		const result = await runMessage(
			'sendLinkPreview',
			{
				chatId: byId(alice.number),
				text: MENU_URL,
				previewUrl: MENU_URL,
				previewTitle: 'Menu',
				previewDescription: 'Our menu',
				[field]: '',
			},
			{ requestBodyStyle: 'jidSessionId' },
		);

		expectValidationError(simulator, result, message);
	});

	it('in shape B, refuses Reply To Message ID, which only shape A carries', async () => {
		const result = await runMessage(
			'sendLinkPreview',
			{
				chatId: byId(alice.number),
				text: MENU_URL,
				previewUrl: MENU_URL,
				previewTitle: 'Menu',
				previewDescription: 'Our menu',
				options: { replyTo: aliceText.id },
			},
			{ requestBodyStyle: 'jidSessionId' },
		);

		expectValidationError(
			simulator,
			result,
			'Reply To Message ID cannot be used with the Request Body Style "jid + sessionId"',
		);
	});
});

describe('Message > Send Poll', () => {
	it('sends shape A with trimmed answers, multiple answers and reply_to', async () => {
		const result = await runMessage(
			'sendPoll',
			{
				chatId: fromList(HIKERS.id),
				question: ' Which trail on Saturday? ',
				pollOptions: [' North Ridge ', '={{ $json.empty }}', 'South Valley', 'Lake Loop'],
				multipleAnswers: true,
				options: { replyTo: hikersQuestion.id },
			},
			{ items: jsonItems({ empty: '' }) },
		);

		expect(result.status).toBe('success');
		expectOneRequest(simulator, {
			method: 'POST',
			path: '/api/sendPoll',
			query: {},
		});
		expect(simulator.requests[0].body).toEqual({
			session: SESSION,
			chatId: HIKERS.id,
			poll: {
				name: 'Which trail on Saturday?',
				options: ['North Ridge', 'South Valley', 'Lake Loop'],
				multipleAnswers: true,
			},
			reply_to: hikersQuestion.id,
		});
		expect(outputJson(result)).toEqual([
			{ success: true, messageId: expect.stringMatching(new RegExp(`^true_${HIKERS.id}_3EB0`)) },
		]);
		expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('sends shape B with jid and sessionId, and answers from an expression list', async () => {
		const result = await runMessage(
			'sendPoll',
			{
				chatId: byId(alice.number),
				question: 'Pickup time?',
				pollOptions: ['={{ $json.times }}'],
			},
			{ requestBodyStyle: 'jidSessionId', items: jsonItems({ times: ['9am', '5pm'] }) },
		);

		expect(result.status).toBe('success');
		expect(simulator.requests[0].body).toEqual({
			sessionId: SESSION,
			jid: alice.jid,
			poll: { name: 'Pickup time?', options: ['9am', '5pm'], multipleAnswers: false },
		});
	});

	it.each([
		[['Only one', ' '], 'Poll Options must have at least 2 answers (got 1)'],
		[['Yes', 'No', 'Yes '], 'Poll Options must be different from each other ("Yes" appears twice)'],
	])('refuses the answers %j before any request', async (pollOptions, message) => {
		const result = await runMessage('sendPoll', {
			chatId: byId(alice.number),
			question: 'Coming?',
			pollOptions,
		});

		expectValidationError(simulator, result, message);
	});

	it('refuses an empty question', async () => {
		const result = await runMessage(
			'sendPoll',
			{ chatId: byId(alice.number), question: '={{ $json.question }}', pollOptions: ['Yes', 'No'] },
			{ items: jsonItems({ question: '  ' }) },
		);

		expectValidationError(simulator, result, 'Question must not be empty');
	});

	it('in shape B, refuses Reply To Message ID, which only shape A carries', async () => {
		const result = await runMessage(
			'sendPoll',
			{
				chatId: byId(alice.number),
				question: 'Coming?',
				pollOptions: ['Yes', 'No'],
				options: { replyTo: aliceText.id },
			},
			{ requestBodyStyle: 'jidSessionId' },
		);

		expectValidationError(
			simulator,
			result,
			'Reply To Message ID cannot be used with the Request Body Style "jid + sessionId"',
		);
	});

	it.each([13, 100])(
		'refuses %i answers before any request (the network allows 12)',
		async (count) => {
			const result = await runMessage('sendPoll', {
				chatId: byId(alice.number),
				question: 'Pick a number',
				pollOptions: Array.from({ length: count }, (_, index) => `Option ${index + 1}`),
			});

			expectValidationError(
				simulator,
				result,
				`Poll Options must have at most 12 answers (got ${count})`,
			);
		},
	);
});

describe('Message > a send to an unknown group', () => {
	// Evolution answers 400 for a location and 404 for the others: the gateway's own code and words.
	it.each([
		{ operation: 'sendLocation', fields: { latitude: 1, longitude: 2 }, status: '400' },
		{
			operation: 'sendButtons',
			fields: { body: 'Hi', buttons: { button: [{ type: 'reply', text: 'Yes' }] } },
			status: '404',
		},
		{
			operation: 'sendLinkPreview',
			fields: { text: MENU_URL, previewUrl: MENU_URL },
			status: '404',
		},
	])('$operation surfaces the gateway error $status', async ({ operation, fields, status }) => {
		const result = await runMessage(operation, { chatId: byId(UNKNOWN_GROUP), ...fields });

		expectGatewayError(simulator, result, `Gateway error ${status}: Group not found`, status);
	});
});
