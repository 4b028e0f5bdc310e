/**
 * Contact → Get Phone Number or LID: a LID to its phone number and a phone number to its LID, on
 * each gateway that can (WAHA's LID map; Evolution API's group members and number check), what
 * the gateway does not know as null, and on the Messaging Gateway API a refusal that says why,
 * before any request. Run in n8n's engine against the simulator playing each gateway.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { checkWaha } from '../compatibility/waha.cts';
import { SEED } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { useFastRetries } from '../support/fast-retries.cts';
import { byId, runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const { dora, eli } = SEED.lidPeople;

const waha = useSimulator({ gateway: 'waha' });
const wahaWithoutStore = useSimulator({ gateway: 'waha', wahaStore: false });
const v2 = useSimulator({ gateway: 'evolution-v2' });
const spec = useSimulator();
useFastRetries();

const ON_WAHA: RunGatewayOptions = { gateway: 'waha', keyHeader: 'X-Api-Key' };

async function getPhoneOrLid(
	simulator: Simulator,
	contact: string,
	options: RunGatewayOptions,
	extra: INodeParameters = {},
) {
	return await runGateway(
		simulator,
		{
			resource: 'contact',
			operation: 'getPhoneOrLid',
			session: SESSION,
			contact: byId(contact),
			...extra,
		},
		options,
	);
}

const paths = (simulator: Simulator) =>
	simulator.requests.map((request) => `${request.method} ${decodeURIComponent(request.path)}`);

describe('on WAHA: its LID map, either way', () => {
	it.each<[string, string, IDataObject, string]>([
		[
			'a LID whose number WAHA knows',
			dora.lid,
			{ phone: dora.number, lid: dora.lid, found: true },
			`GET /api/${SESSION}/lids/${dora.lid}`,
		],
		[
			'a LID with a device suffix, asked as the person',
			'198765432101234:3@lid',
			{ phone: dora.number, lid: dora.lid, found: true },
			`GET /api/${SESSION}/lids/${dora.lid}`,
		],
		[
			'a LID whose number WAHA does not know',
			eli.lid,
			{ phone: null, lid: eli.lid, found: false },
			`GET /api/${SESSION}/lids/${eli.lid}`,
		],
		[
			'a phone number as people type it',
			'+55 (11) 98765-0005',
			{ phone: dora.number, lid: dora.lid, found: true },
			`GET /api/${SESSION}/lids/pn/${dora.number}`,
		],
		[
			'a phone number WAHA knows no LID of',
			SEED.contacts.alice.chatId,
			{ phone: SEED.contacts.alice.number, lid: null, found: false },
			`GET /api/${SESSION}/lids/pn/${SEED.contacts.alice.number}`,
		],
	])('%s', async (_name, contact, expected, path) => {
		const result = await getPhoneOrLid(waha, contact, ON_WAHA);

		expect(result.error?.message).toBeUndefined();
		expect(result.outputs[0].map((item) => item.json)).toEqual([expected]);
		expect(paths(waha)).toEqual([path]);
		expect(waha.requests.map((request) => checkWaha(request).outcome)).toEqual(['accepted']);
	});

	it('NOWEB without its store: the gateway error, with how to turn the map on', async () => {
		const result = await getPhoneOrLid(wahaWithoutStore, dora.lid, ON_WAHA);

		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/^Gateway error 400: Enable NOWEB store/);
		expect(result.error?.description).toMatch(
			/on NOWEB with its store enabled \(config\.noweb\.store\.enabled\)/,
		);
	});
});

describe('on Evolution API v2: what its number check and a group say', () => {
	it('asks the number check for a LID, and says null where it gives no number', async () => {
		const result = await getPhoneOrLid(v2, eli.lid, { gateway: 'evolutionV2' });

		expect(result.error?.message).toBeUndefined();
		expect(result.outputs[0].map((item) => item.json)).toEqual([
			{ phone: null, lid: eli.lid, found: false },
		]);
		expect(paths(v2)).toEqual([`POST /chat/whatsappNumbers/${SESSION}`]);
		expect(v2.requests[0].body).toEqual({ numbers: [eli.lid] });
		expect(checkEvolutionV2(v2.requests[0]).outcome).toBe('accepted');
	});

	// 2.3.6 lists a member addressed by LID with their phoneNumber, one by phone with their lid.
	const member = { id: dora.lid, phoneNumber: `${dora.number}@s.whatsapp.net`, admin: null };
	it.each<[string, string, Array<IDataObject> | undefined, IDataObject, string[]]>([
		[
			'a member by LID: her number from the group, nothing else asked',
			dora.lid,
			[member],
			{ phone: dora.number, lid: dora.lid, found: true },
			[`GET /group/participants/${SESSION}`],
		],
		[
			'a member by phone number: her LID from the group',
			dora.number,
			[{ id: `${dora.number}@s.whatsapp.net`, lid: dora.lid, admin: null }],
			{ phone: dora.number, lid: dora.lid, found: true },
			[`GET /group/participants/${SESSION}`],
		],
		[
			'not a member: then the number check, which does not know her number',
			dora.lid,
			undefined,
			{ phone: null, lid: dora.lid, found: false },
			[`GET /group/participants/${SESSION}`, `POST /chat/whatsappNumbers/${SESSION}`],
		],
	])('In Group, %s', async (_name, contact, participants, expected, asked) => {
		if (participants) {
			v2.injectFault({
				match: { path: '/group/participants/' },
				status: 200,
				body: { participants },
			});
		}

		const result = await getPhoneOrLid(
			v2,
			contact,
			{ gateway: 'evolutionV2' },
			{ options: { groupId: SEED.groups.hikers.id } },
		);

		expect(result.error?.message).toBeUndefined();
		expect(result.outputs[0].map((item) => item.json)).toEqual([expected]);
		expect(paths(v2)).toEqual(asked);
		expect(v2.requests[0].query).toEqual({ groupJid: SEED.groups.hikers.id });
	});

	it('refuses an In Group that is not a group, before any request', async () => {
		const result = await getPhoneOrLid(
			v2,
			dora.lid,
			{ gateway: 'evolutionV2' },
			{ options: { groupId: dora.lid } },
		);

		expect(result.error?.message).toBe(
			`In Group must be a group ID (120363012345678901@g.us) (got "${dora.lid}")`,
		);
		expect(v2.requests).toHaveLength(0);
	});
});

describe('a lookup is a read: one proxy hiccup is sent again, and the item succeeds', () => {
	it.each<[string, Simulator, RunGatewayOptions, string]>([
		['WAHA', waha, ON_WAHA, '/lids/'],
		['Evolution API v2', v2, { gateway: 'evolutionV2' }, '/chat/whatsappNumbers/'],
	])('%s', async (_name, simulator, options, path) => {
		simulator.injectFault({
			match: { path },
			status: 502,
			html: '<h1>502 Bad Gateway</h1>',
			times: 1,
		});

		const result = await getPhoneOrLid(simulator, dora.lid, options);

		expect(result.error?.message).toBeUndefined();
		const asked = simulator.requests.filter((request) => request.path.includes(path));
		expect(asked.map((request) => request.faulted === true)).toEqual([true, false]);
	});
});

describe('on the Messaging Gateway API', () => {
	it('says it has no LID map and where the number is, before any request', async () => {
		const result = await getPhoneOrLid(spec, dora.lid, {});

		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(
			'Get Phone Number or LID is not available on the Messaging Gateway API: it has no route that maps a LID to a phone number',
		);
		expect(result.error?.description).toMatch(
			/phone and lid fields of the Messaging Gateway Trigger/,
		);
		expect(spec.requests).toHaveLength(0);
	});

	it('still names a bad Contact first, mapped from an item', async () => {
		const result = await getPhoneOrLid(spec, '={{ $json.who }}', {
			items: [{ json: { who: 'Dora' } }],
		});

		expect(result.error?.message).toMatch(
			/^Contact must be a phone number .* or a LID \(123456789012345@lid\) \(got "Dora"\)$/,
		);
		expect(spec.requests).toHaveLength(0);
	});
});
