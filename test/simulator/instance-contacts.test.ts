import { SEED } from './index.cts';
import { gatewayClient, useSimulator } from './testing.cts';

const connected = SEED.instances.connected;
const pairing = SEED.instances.pairing;
const { alice, bruno } = SEED.contacts;
const hikers = SEED.groups.hikers;
const UNKNOWN_GROUP = '120363000000000099@g.us';
/** Registered by the simulator's prefix rule, not in the address book. */
const STRANGER = '5521912345678';

/** Evolution's unhandled TypeErrors: 500 with the raw message as a string. */
const typeError = (property: string) => ({
	status: 500,
	error: 'Internal Server Error',
	response: { message: `Cannot read properties of undefined (reading '${property}')` },
});

/** dataValidate's 400: jsonschema's messages, nested once more. */
const badRequest = (...messages: string[]) => ({
	status: 400,
	error: 'Bad Request',
	response: { message: [messages] },
});

describe('instance family (Evolution v1): contacts', () => {
	const sim = useSimulator();
	const post = (instance: string, body: unknown) =>
		gatewayClient(sim).post(`/chat/whatsappNumbers/${instance}`, body);

	describe('POST /chat/whatsappNumbers/{instance}', () => {
		it.each([
			[
				'a saved contact, with its push name',
				alice.number,
				{ exists: true, jid: alice.jid, name: 'Alice', number: alice.number },
			],
			[
				'the account itself, without a name',
				connected.ownerNumber,
				{ exists: true, jid: connected.ownerJid, number: connected.ownerNumber },
			],
			[
				'a registered number outside the address book',
				STRANGER,
				{ exists: true, jid: `${STRANGER}@s.messenger.net`, number: STRANGER },
			],
			[
				'a number that is not on the network',
				SEED.unregisteredNumber,
				{
					exists: false,
					jid: `${SEED.unregisteredNumber}@s.messenger.net`,
					number: SEED.unregisteredNumber,
				},
			],
			[
				'a Brazilian number without its 9th digit, as the JID the network knows',
				'551187650001',
				{ exists: true, jid: alice.jid, name: 'Alice', number: '551187650001' },
			],
			[
				'a typed number, keeping the number as sent',
				'+55 (11) 98765-0002',
				{ exists: true, jid: bruno.jid, name: 'Bruno', number: '+55 (11) 98765-0002' },
			],
			[
				// Evolution looks for the other spelling only when the number as sent starts with 55.
				'a Brazilian number without its 9th digit after a +, as not found',
				'+551187650002',
				{ exists: false, jid: '551187650002@s.messenger.net', number: '+551187650002' },
			],
			['a JID', bruno.jid, { exists: true, jid: bruno.jid, name: 'Bruno', number: bruno.jid }],
		])('answers 200 for %s', async (_case, number, expected) => {
			const response = await post(connected.name, { numbers: [number] });

			expect(response.status).toBe(200);
			expect(response.data).toEqual([expected]);
		});

		it('checks many numbers at once: broadcasts, then groups (named by subject), then users', async () => {
			const response = await post(connected.name, {
				numbers: [SEED.unregisteredNumber, alice.number, hikers.id, 'status@broadcast'],
			});

			expect(response.status).toBe(200);
			expect(response.data).toEqual([
				{ jid: 'status@broadcast', exists: false, number: 'status@broadcast' },
				{ jid: hikers.id, exists: true, number: hikers.id, name: hikers.subject },
				expect.objectContaining({ exists: false, number: SEED.unregisteredNumber }),
				expect.objectContaining({ exists: true, number: alice.number }),
			]);
			// OnWhatsAppDto's field order for groups; the service's own object for users.
			expect(response.data.map((result: object) => Object.keys(result))).toEqual([
				['jid', 'exists', 'number'],
				['jid', 'exists', 'number', 'name'],
				['exists', 'jid', 'number'],
				['exists', 'jid', 'name', 'number'],
			]);
		});

		it.each([
			['no body', {}, typeError('forEach')],
			[
				'numbers that is not a list',
				{ numbers: alice.number },
				badRequest('numbers is not of a type(s) array'),
			],
			['an empty list', { numbers: [] }, badRequest('numbers does not meet minimum length of 1')],
			[
				'the same number twice and a number that is not text',
				{ numbers: [alice.number, alice.number, 5511987650002] },
				badRequest(
					'numbers contains duplicate item',
					'"numbers" must be an array of numeric strings',
				),
			],
			[
				'a group the account is not in',
				{ numbers: [alice.number, UNKNOWN_GROUP] },
				typeError('id'),
			],
		])('answers %s the way Evolution does', async (_case, body, expected) => {
			const response = await post(connected.name, body);

			expect(response.status).toBe(expected.status);
			expect(response.data).toEqual(expected);
		});

		it.each([
			[
				'numbers',
				[alice.number],
				{ status: 500, error: 'Internal Server Error', response: { message: 'Connection Closed' } },
			],
			['a group', [hikers.id], typeError('id')],
		])(
			'answers %s of an instance that is not connected with its socket error',
			async (_case, numbers, expected) => {
				const response = await post(pairing.name, { numbers });

				expect(response.status).toBe(500);
				expect(response.data).toEqual(expected);
			},
		);

		it('answers 404 for an unknown instance and 401 for a wrong key', async () => {
			const unknown = await post('ghost', { numbers: [alice.number] });
			const wrongKey = await gatewayClient(sim, 'wrong-key').post(
				`/chat/whatsappNumbers/${connected.name}`,
				{ numbers: [alice.number] },
			);

			expect(unknown.status).toBe(404);
			expect(unknown.data.response.message).toEqual(['The "ghost" instance does not exist']);
			expect(wrongKey.status).toBe(401);
		});
	});
});
