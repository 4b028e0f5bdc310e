import { SEED } from '../simulator/index.cts';
import { gatewayFile, useSimulator } from '../simulator/testing.cts';
import {
	byId,
	expectGatewayError,
	expectOneRequest,
	expectValidationError,
	fromList,
	jsonItems,
	outputJson,
	resourceRunner,
} from '../support/gateway-node.cts';
import { startScriptedServer } from '../support/scripted-server.cts';

const SESSION = SEED.instances.connected.name;
const PAIRING_SESSION = SEED.instances.pairing.name;
const { alice, bruno, bakery, carla } = SEED.contacts;

const ALICE_CONTACT = {
	jid: alice.jid,
	name: 'Alice Martins',
	notify: 'Alice',
	verifiedName: 'Alice Martins',
	businessName: '',
};
const BAKERY_CONTACT = {
	jid: bakery.jid,
	name: 'Padaria Aurora',
	notify: 'Padaria Aurora',
	verifiedName: 'Padaria Aurora',
	businessName: 'Padaria Aurora Ltda',
};

const simulator = useSimulator();
const runContact = resourceRunner(simulator, 'contact', SESSION);

describe('Contact > Get', () => {
	it('asks for one contact by JID and outputs the contact, not the wrapper', async () => {
		const result = await runContact('get', { contact: byId('+55 (11) 98765-0001') });

		expect(result.status).toBe('success');
		expectOneRequest(simulator, {
			method: 'GET',
			path: '/api/contacts',
			query: { sessionId: SESSION, jid: alice.jid },
		});
		expect(simulator.requests[0].body).toBeUndefined();
		expect(result.outputs[0]).toEqual([{ json: ALICE_CONTACT, pairedItem: { item: 0 } }]);
	});

	it('takes the JID the contact list offers, and a chat ID', async () => {
		const fromPicker = await runContact('get', { contact: fromList(bakery.jid) });
		const fromChatId = await runContact('get', { contact: byId(bruno.chatId) });

		expect(simulator.requests.map((request) => request.query)).toEqual([
			{ sessionId: SESSION, jid: bakery.jid },
			{ sessionId: SESSION, jid: bruno.jid },
		]);
		expect(outputJson(fromPicker)).toEqual([BAKERY_CONTACT]);
		expect(outputJson(fromChatId)).toEqual([expect.objectContaining({ jid: bruno.jid })]);
	});

	it('sends the same query whatever the Request Body Style', async () => {
		await runContact('get', { contact: byId(alice.number) }, { requestBodyStyle: 'jidSessionId' });

		expect(simulator.requests[0].query).toEqual({ sessionId: SESSION, jid: alice.jid });
	});

	it('fails with a clear message when the session does not know the contact', async () => {
		const result = await runContact('get', { contact: byId('5511987650009') });

		expect(simulator.requests).toHaveLength(1);
		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(
			`Contact 5511987650009@s.messenger.net not found in session ${SESSION}`,
		);
		expect(result.error?.description).toMatch(/Get Many/);
	});

	it('picks the asked contact when a gateway ignores the filter and lists them all', async () => {
		simulator.injectFault({
			match: { path: '/api/contacts' },
			status: 200,
			body: {
				contacts: [
					{ ...ALICE_CONTACT, jid: `${alice.number}@s.whatsapp.net` },
					{ ...BAKERY_CONTACT, jid: `${bakery.number}@s.whatsapp.net` },
				],
			},
		});

		const result = await runContact('get', { contact: byId(bakery.number) });

		expect(simulator.requests[0].query).toEqual({ sessionId: SESSION, jid: bakery.jid });
		expect(outputJson(result)).toEqual([
			{ ...BAKERY_CONTACT, jid: `${bakery.number}@s.whatsapp.net` },
		]);
	});

	it('rejects a group ID as contact before any request', async () => {
		const result = await runContact('get', { contact: byId(SEED.groups.hikers.id) });

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(
			`Contact must be a phone number (+55 11 99999-9999), a chat ID (5511999999999@c.us), a JID (5511999999999@s.messenger.net) or a LID (123456789012345@lid) (got "${SEED.groups.hikers.id}")`,
		);
		expect(simulator.requests).toEqual([]);
	});

	it('rejects a name given by an expression before any request', async () => {
		const result = await runContact('get', { contact: byId('={{ "Alice" }}') });

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(/^Contact must be a phone number .*\(got "Alice"\)$/);
		expect(simulator.requests).toEqual([]);
	});

	it('surfaces the 404 of an unknown session', async () => {
		const result = await runContact('get', { session: 'ghost', contact: byId(alice.number) });

		expect(simulator.requests).toHaveLength(1);
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(
			"Gateway error 404: We didn't find a session with name 'ghost'. Please start it first by using POST /api/sessions/ghost/start request",
		);
	});

	it('makes one request per input item with paired outputs', async () => {
		const numbers = [alice.number, bakery.number, bruno.number];
		const result = await runContact(
			'get',
			{ contact: byId('={{ $json.phone }}') },
			{ items: numbers.map((phone) => ({ json: { phone } })) },
		);

		expect(simulator.requests.map((request) => request.query.jid)).toEqual([
			alice.jid,
			bakery.jid,
			bruno.jid,
		]);
		expect(result.outputs[0].map((item) => [item.json.jid, item.pairedItem])).toEqual([
			[alice.jid, { item: 0 }],
			[bakery.jid, { item: 1 }],
			[bruno.jid, { item: 2 }],
		]);
	});

	it('with Continue On Fail, a bad item becomes an error item without a request', async () => {
		const result = await runContact(
			'get',
			{ contact: byId('={{ $json.phone }}') },
			{
				items: [alice.number, 'nobody', bakery.number].map((phone) => ({ json: { phone } })),
				onError: 'continueRegularOutput',
			},
		);

		expect(result.status).toBe('success');
		expect(simulator.requests.map((request) => request.query.jid)).toEqual([alice.jid, bakery.jid]);
		expect(result.outputs[0]).toEqual([
			{ json: ALICE_CONTACT, pairedItem: { item: 0 } },
			{
				json: {
					error: expect.stringMatching(/^Contact must be a phone number .*\(got "nobody"\)$/),
					message: expect.stringContaining('country code'),
				},
				pairedItem: { item: 1 },
			},
			{ json: BAKERY_CONTACT, pairedItem: { item: 2 } },
		]);
	});
});

describe('Contact > Get Many', () => {
	/** Adds contacts: one inbound message from each of `count` new numbers (sorted after the seed). */
	async function addContacts(count: number): Promise<void> {
		for (let index = 0; index < count; index++) {
			await simulator.injectInboundMessage({
				from: `55219${String(index).padStart(8, '0')}`,
				text: 'Hi',
				pushName: `Guest ${index}`,
			});
		}
	}

	it('gets the contacts of the session, one item each', async () => {
		const result = await runContact('getMany');

		expectOneRequest(simulator, {
			method: 'GET',
			path: '/api/contacts',
			query: { sessionId: SESSION, limit: '50', offset: '0' },
		});
		expect(outputJson(result)).toEqual([
			ALICE_CONTACT,
			expect.objectContaining({ jid: bruno.jid, name: 'Bruno Costa' }),
			BAKERY_CONTACT,
			{ jid: carla.jid, name: '', notify: 'Carla', verifiedName: '', businessName: '' },
		]);
		expect(result.outputs[0].map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3].map(() => ({ item: 0 })),
		);
	});

	it('asks for no more than Limit', async () => {
		const result = await runContact('getMany', { limit: 2 });

		expect(simulator.requests[0].query).toEqual({ sessionId: SESSION, limit: '2', offset: '0' });
		expect(outputJson(result).map((contact) => contact.jid)).toEqual([alice.jid, bruno.jid]);
	});

	it('with Return All, pages by offset in pages of 100', async () => {
		await addContacts(101);

		const result = await runContact('getMany', { returnAll: true });

		expect(simulator.requests.map((request) => request.query)).toEqual([
			{ sessionId: SESSION, limit: '100', offset: '0' },
			{ sessionId: SESSION, limit: '100', offset: '100' },
		]);
		const jids = outputJson(result).map((contact) => contact.jid);
		expect(jids).toHaveLength(105);
		expect(new Set(jids).size).toBe(105);
		expect(jids.slice(0, 4)).toEqual([alice.jid, bruno.jid, bakery.jid, carla.jid]);
		expect(jids[104]).toBe('5521900000100@s.messenger.net');
	});

	it('pages until Limit when Limit is above the page size', async () => {
		await addContacts(101);

		const result = await runContact('getMany', { limit: 102 });

		expect(simulator.requests.map((request) => request.query)).toEqual([
			{ sessionId: SESSION, limit: '100', offset: '0' },
			{ sessionId: SESSION, limit: '2', offset: '100' },
		]);
		expect(outputJson(result)).toHaveLength(102);
	});

	it('rejects a Limit that is not a whole number before any request', async () => {
		const result = await runContact('getMany', { limit: '={{ "many" }}' });

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe('Limit must be a whole number of at least 1 (got "many")');
		expect(simulator.requests).toEqual([]);
	});

	it('surfaces the 422 of a session that is not connected yet', async () => {
		const result = await runContact('getMany', { session: PAIRING_SESSION });

		expect(simulator.requests).toHaveLength(1);
		expect(result.error?.message).toBe(
			`Gateway error 422: Session status is not as expected. Try again later or restart the session (session "${PAIRING_SESSION}" is SCAN_QR_CODE, expected WORKING)`,
		);
	});
});

describe('Contact > Get Profile Picture', () => {
	const alicePicturePath = `/api/files/${SESSION}/avatar-${alice.number}.png`;

	it('posts the number as digits and outputs wuid and profilePictureUrl', async () => {
		const result = await runContact('getProfilePicture', { contact: byId(alice.chatId) });

		expectOneRequest(simulator, {
			method: 'POST',
			path: `/chat/fetchProfilePictureUrl/${SESSION}`,
			query: {},
		});
		expect(simulator.requests[0].body).toEqual({ number: alice.number });
		expect(result.outputs[0]).toEqual([
			{
				json: { wuid: alice.jid, profilePictureUrl: `${simulator.url}${alicePicturePath}` },
				pairedItem: { item: 0 },
			},
		]);
	});

	it('downloads the picture from the gateway, with the key, into the chosen field', async () => {
		const result = await runContact('getProfilePicture', {
			contact: fromList(alice.jid),
			options: { downloadPicture: true, binaryPropertyName: 'avatar' },
		});

		expect(simulator.requests).toHaveLength(2);
		expect(simulator.requests[1]).toMatchObject({
			method: 'GET',
			path: alicePicturePath,
			auth: 'valid',
		});
		const [item] = result.outputs[0];
		expect(item.json).toEqual({
			wuid: alice.jid,
			profilePictureUrl: `${simulator.url}${alicePicturePath}`,
		});
		expect(Object.keys(item.binary ?? {})).toEqual(['avatar']);
		expect(item.binary?.avatar).toMatchObject({
			mimeType: 'image/png',
			fileName: `avatar-${alice.number}.png`,
		});
		const expected = await gatewayFile(simulator, alicePicturePath);
		expect(Buffer.from(item.binary!.avatar.data, 'base64').equals(expected)).toBe(true);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('puts the picture in "data" by default', async () => {
		const result = await runContact('getProfilePicture', {
			contact: byId(alice.number),
			options: { downloadPicture: true },
		});

		expect(Object.keys(result.outputs[0][0].binary ?? {})).toEqual(['data']);
	});

	it('treats a contact without a picture as an answer, and downloads nothing', async () => {
		const result = await runContact('getProfilePicture', {
			contact: byId(bruno.number),
			options: { downloadPicture: true },
		});

		expect(result.status).toBe('success');
		expect(simulator.requests).toHaveLength(1);
		expect(result.outputs[0]).toEqual([
			{ json: { wuid: bruno.jid, profilePictureUrl: null }, pairedItem: { item: 0 } },
		]);
	});

	it('fetches a picture on another host without the API key', async () => {
		const pictureHost = await startScriptedServer();
		try {
			// ASCII bytes, so the scripted server sends them unchanged.
			const jpeg = Buffer.from('picture bytes from the CDN');
			pictureHost.respondWith({
				status: 200,
				headers: { 'content-type': 'image/jpeg' },
				body: jpeg.toString('utf8'),
			});
			const pictureUrl = `${pictureHost.url}/v/t61.24694-24/12345_67890_n.jpg?oh=abc&oe=def`;
			simulator.injectFault({
				match: { path: '/chat/fetchProfilePictureUrl/' },
				status: 200,
				body: { wuid: alice.jid, profilePictureUrl: pictureUrl },
			});

			// The picture host, on loopback here, stands for WhatsApp's public one.
			const result = await runContact(
				'getProfilePicture',
				{ contact: byId(alice.number), options: { downloadPicture: true } },
				{ allowPrivateFileHosts: true },
			);

			expect(pictureHost.requests).toHaveLength(1);
			expect(pictureHost.requests[0].url).toBe('/v/t61.24694-24/12345_67890_n.jpg?oh=abc&oe=def');
			expect(pictureHost.requests[0].headers.apikey).toBeUndefined();
			const [item] = result.outputs[0];
			expect(item.json).toEqual({ wuid: alice.jid, profilePictureUrl: pictureUrl });
			expect(item.binary?.data).toMatchObject({
				mimeType: 'image/jpeg',
				fileName: '12345_67890_n.jpg',
			});
			expect(Buffer.from(item.binary!.data.data, 'base64').equals(jpeg)).toBe(true);
		} finally {
			await pictureHost.stop();
		}
	});

	it('surfaces a picture the gateway no longer serves as the gateway error', async () => {
		simulator.injectFault({
			match: { path: '/api/files/' },
			status: 404,
			body: { statusCode: 404, message: 'File not found', error: 'Not Found' },
		});

		const result = await runContact('getProfilePicture', {
			contact: byId(alice.number),
			options: { downloadPicture: true },
		});

		expect(simulator.requests).toHaveLength(2);
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('Gateway error 404: File not found');
	});

	it('rejects a group ID before any request', async () => {
		const result = await runContact('getProfilePicture', { contact: byId(SEED.groups.hikers.id) });

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(/^Contact must be a phone number/);
		expect(simulator.requests).toEqual([]);
	});

	it('rejects an empty output field before any request', async () => {
		const result = await runContact('getProfilePicture', {
			contact: byId(alice.number),
			options: { downloadPicture: true, binaryPropertyName: ' ' },
		});

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe('Put Output File in Field must not be empty');
		expect(simulator.requests).toEqual([]);
	});

	it('surfaces the 404 of an unknown instance', async () => {
		const result = await runContact('getProfilePicture', {
			session: 'ghost',
			contact: byId(alice.number),
		});

		expect(simulator.requests).toHaveLength(1);
		expect(simulator.requests[0].path).toBe('/chat/fetchProfilePictureUrl/ghost');
		expect(result.error?.message).toBe('Gateway error 404: The "ghost" instance does not exist');
	});
});

describe('Contact > Get Business Profile', () => {
	it('posts the number as digits and outputs a business profile as returned', async () => {
		const result = await runContact('getBusinessProfile', { contact: byId('+55 11 98765-0003') });

		expectOneRequest(simulator, {
			method: 'POST',
			path: `/chat/fetchBusinessProfile/${SESSION}`,
			query: {},
		});
		expect(simulator.requests[0].body).toEqual({ number: bakery.number });
		const [profile] = outputJson(result);
		expect(profile).toMatchObject({
			isBusiness: true,
			wid: bakery.jid,
			category: 'Bakery',
			email: 'orders@padaria-aurora.example.com',
			website: ['https://padaria-aurora.example.com'],
			business_hours: { timezone: 'America/Sao_Paulo' },
		});
		expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('outputs the "not a business" answer as returned', async () => {
		const result = await runContact('getBusinessProfile', { contact: fromList(bruno.jid) });

		expect(simulator.requests[0].body).toEqual({ number: bruno.number });
		expect(outputJson(result)).toEqual([
			{
				isBusiness: false,
				message: 'Not is business profile',
				exists: true,
				jid: bruno.jid,
				number: bruno.number,
				name: 'Bruno Costa',
			},
		]);
	});

	it('sends the same body whatever the Request Body Style', async () => {
		await runContact(
			'getBusinessProfile',
			{ contact: byId(bakery.chatId) },
			{ requestBodyStyle: 'jidSessionId' },
		);

		expect(simulator.requests[0].body).toEqual({ number: bakery.number });
	});

	it('rejects a channel ID before any request', async () => {
		const result = await runContact('getBusinessProfile', {
			contact: byId(SEED.channels.updates.id),
		});

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(/^Contact must be a phone number/);
		expect(simulator.requests).toEqual([]);
	});

	it('surfaces the connection error of an instance that is not connected', async () => {
		const result = await runContact('getBusinessProfile', {
			session: PAIRING_SESSION,
			contact: byId(bakery.number),
		});

		expect(simulator.requests).toHaveLength(1);
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('Gateway error 500: Connection Closed');
	});
});

describe('Contact > Check Number', () => {
	const UNREGISTERED = SEED.unregisteredNumber;
	const ALICE_CHECK = { exists: true, jid: alice.jid, number: alice.number, name: 'Alice' };

	it('checks every number of the item in one request and outputs one paired item per number', async () => {
		const result = await runContact('checkNumber', {
			numbers: `+55 11 98765-0001, 551187650002\n${UNREGISTERED}`,
		});

		expectOneRequest(simulator, {
			method: 'POST',
			path: `/chat/whatsappNumbers/${SESSION}`,
		});
		expect(simulator.requests[0].body).toEqual({
			numbers: [alice.number, '551187650002', UNREGISTERED],
		});
		// The number as given; the JID as the network knows it (Bruno's has the 9th digit).
		expect(result.outputs[0]).toEqual([
			{ json: { ...ALICE_CHECK, number: '+55 11 98765-0001' }, pairedItem: { item: 0 } },
			{
				json: { exists: true, jid: bruno.jid, number: '551187650002', name: 'Bruno' },
				pairedItem: { item: 0 },
			},
			{
				json: { exists: false, jid: `${UNREGISTERED}@s.messenger.net`, number: UNREGISTERED },
				pairedItem: { item: 0 },
			},
		]);
	});

	it('takes a list from an expression, asking once for a number given twice', async () => {
		const result = await runContact(
			'checkNumber',
			{ numbers: '={{ $json.phones }}' },
			{ items: jsonItems({ phones: [Number(alice.number), alice.chatId, ` ${bakery.jid} `] }) },
		);

		expect(simulator.requests[0].body).toEqual({ numbers: [alice.number, bakery.number] });
		expect(outputJson(result)).toEqual([
			ALICE_CHECK,
			{ exists: true, jid: bakery.jid, number: bakery.jid, name: 'Padaria Aurora' },
		]);
	});

	it('makes one request per input item, and with Continue On Fail a bad item becomes an error item', async () => {
		const result = await runContact(
			'checkNumber',
			{ numbers: '={{ $json.phones }}' },
			{
				items: jsonItems(
					{ phones: alice.number },
					{ phones: 'Alice' },
					{ phones: `${bruno.number} ${carla.number}` },
				),
				onError: 'continueRegularOutput',
			},
		);

		expect(result.status).toBe('success');
		expect(simulator.requests.map((request) => request.body)).toEqual([
			{ numbers: [alice.number] },
			{ numbers: [bruno.number, carla.number] },
		]);
		expect(
			result.outputs[0].map((item) => [item.json.jid ?? item.json.error, item.pairedItem]),
		).toEqual([
			[alice.jid, { item: 0 }],
			[
				'Numbers must be a phone number with country code, e.g. +55 11 99999-9999, or a LID, e.g. 123456789012345@lid (got "Alice")',
				{ item: 1 },
			],
			[bruno.jid, { item: 2 }],
			[carla.jid, { item: 2 }],
		]);
	});

	it.each([
		[
			'an empty list from an expression',
			'={{ $json.phones }}',
			{ phones: [] },
			'Numbers must list at least one phone number',
		],
		['a text of separators only', ' ,\n; ', {}, 'Numbers must list at least one phone number'],
		[
			'an entry that is not a phone number, by position',
			`${alice.number}, Alice`,
			{},
			'Numbers (entry 2) must be a phone number with country code, e.g. +55 11 99999-9999, or a LID, e.g. 123456789012345@lid (got "Alice")',
		],
		[
			'a blank entry of a list from an expression, by position',
			'={{ $json.phones }}',
			{ phones: [alice.number, ' ', bruno.number] },
			'Numbers (entry 2) must be a phone number with country code, e.g. +55 11 99999-9999, or a LID, e.g. 123456789012345@lid (got "")',
		],
		[
			'a group ID',
			SEED.groups.hikers.id,
			{},
			`Numbers must be a phone number with country code, e.g. +55 11 99999-9999, or a LID, e.g. 123456789012345@lid (got "${SEED.groups.hikers.id}")`,
		],
		[
			'an object in a list from an expression',
			'={{ $json.phones }}',
			{ phones: [{ phone: alice.number }] },
			`Numbers must be a phone number with country code, e.g. +55 11 99999-9999, or a LID, e.g. 123456789012345@lid (got "{"phone":"${alice.number}"}")`,
		],
	])('refuses %s before any request', async (_case, numbers, item, message) => {
		const result = await runContact('checkNumber', { numbers }, { items: jsonItems(item) });

		expectValidationError(simulator, result, message);
	});

	it('matches answers to numbers whatever their order, by number or else by JID', async () => {
		simulator.injectFault({
			match: { path: '/chat/whatsappNumbers/' },
			status: 200,
			body: [
				{ exists: false, jid: `${bruno.number}@s.whatsapp.net`, number: `+${bruno.number}` },
				{ exists: true, jid: `${alice.number}@s.whatsapp.net`, number: alice.number },
			],
		});

		const result = await runContact('checkNumber', {
			numbers: `${alice.number}, ${bruno.number}`,
		});

		expect(outputJson(result)).toEqual([
			{ exists: true, jid: `${alice.number}@s.whatsapp.net`, number: alice.number },
			{ exists: false, jid: `${bruno.number}@s.whatsapp.net`, number: bruno.number },
		]);
	});

	it.each([
		[
			'an object instead of a list',
			{ numbers: [] },
			'Gateway error: the answer is not a list of records (got an object ({"numbers":[]}))',
		],
		[
			'records without "exists"',
			[{ jid: alice.jid, number: alice.number }],
			`Gateway error: the answer has no "exists" field (got an object ({"jid":"${alice.jid}","number":"${alice.number}"}))`,
		],
		[
			'no record for a number',
			[{ exists: true, jid: bruno.jid, number: bruno.number }],
			`Gateway error: the answer has no result for ${alice.number} (got a list ([{"exists":true,"jid":"${bruno.jid}","number":"${bruno.number}"}]))`,
		],
	])('fails on a 2xx answer with %s', async (_case, body, message) => {
		simulator.injectFault({ match: { path: '/chat/whatsappNumbers/' }, status: 200, body });

		const result = await runContact('checkNumber', { numbers: alice.number });

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(message);
		expect(simulator.requests).toHaveLength(1);
	});

	it('surfaces the connection error of an instance that is not connected', async () => {
		const result = await runContact('checkNumber', {
			session: PAIRING_SESSION,
			numbers: alice.number,
		});

		expectGatewayError(simulator, result, 'Gateway error 500: Connection Closed', '500');
	});
});
