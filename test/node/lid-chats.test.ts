/**
 * Answer everyone: every field that takes a chat or a contact takes a person's LID
 * (`198765432101234@lid`), on each gateway as that gateway takes it, and a device suffix
 * (`…:3@lid`) is read as the person. Each row runs the node in n8n's engine against the simulator
 * playing the gateway; the LID must reach the gateway as a LID (never its digits as a phone
 * number, never the device), and the gateway's own validation must accept every request.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { checkEvolution } from '../compatibility/evolution.cts';
import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { checkWaha } from '../compatibility/waha.cts';
import type { SentRequest, Verdict } from '../compatibility/verdicts.cts';
import { SEED } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { byId, runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const { dora } = SEED.lidPeople;
const LID_DIGITS = dora.lid.split('@')[0];
const HIKERS = SEED.groups.hikers.id;

type Credential = NonNullable<RunGatewayOptions['gateway']>;

const spec = useSimulator();
const v2 = useSimulator({ gateway: 'evolution-v2', evolutionVersion: '2.3.6' });
const waha = useSimulator({ gateway: 'waha' });

const GATEWAYS: Record<
	Credential,
	{ simulator: Simulator; check: (request: SentRequest) => Verdict; options: RunGatewayOptions }
> = {
	messagingGatewayApi: { simulator: spec, check: checkEvolution, options: {} },
	evolutionV2: { simulator: v2, check: checkEvolutionV2, options: { gateway: 'evolutionV2' } },
	waha: { simulator: waha, check: checkWaha, options: { gateway: 'waha', keyHeader: 'X-Api-Key' } },
};

/** Each field that names a person, with an operation that sends it: [resource.operation, parameters]. */
const FIELDS: Array<[string, (lid: string) => INodeParameters]> = [
	['message.sendText Chat', (lid) => ({ chatId: byId(lid), text: 'Hello' })],
	[
		'message.sendLocation Chat',
		(lid) => ({ chatId: byId(lid), latitude: -23.5505, longitude: -46.6333, name: 'Office' }),
	],
	[
		'message.sendContact Chat',
		(lid) => ({
			chatId: byId(lid),
			contacts: {
				contact: [{ fullName: 'Acme Bakery', phoneNumber: SEED.contacts.bakery.number }],
			},
		}),
	],
	[
		'message.sendMedia Chat',
		(lid) => ({
			chatId: byId(lid),
			mediaSource: 'url',
			mediaUrl: 'https://example.com/menu.pdf',
			caption: 'Our menu',
		}),
	],
	[
		'message.sendPoll Chat',
		(lid) => ({ chatId: byId(lid), question: 'Lunch?', pollOptions: ['Yes', 'No'] }),
	],
	['contact.get Contact', (lid) => ({ contact: byId(lid) })],
	['contact.getProfilePicture Contact', (lid) => ({ contact: byId(lid) })],
	['contact.checkNumber Numbers', (lid) => ({ numbers: lid })],
	[
		'group.updateParticipants Participants',
		(lid) => ({ groupId: byId(HIKERS), participantAction: 'add', participants: lid }),
	],
	[
		'message.sendText Mention Numbers',
		(lid) => ({
			chatId: byId(HIKERS),
			text: `Hi @${LID_DIGITS}`,
			options: { mentionNumbers: lid },
		}),
	],
];

/**
 * Fields a gateway answers for a LID without asking: WAHA's number check reads a LID's digits as
 * a phone number, and a LID is an account WhatsApp made.
 */
const ANSWERED_WITHOUT_ASKING: Partial<Record<Credential, string[]>> = {
	waha: ['contact.checkNumber Numbers'],
};

/** The request bodies and queries as text, to look for how the LID went out. */
function sentText(simulator: Simulator): string {
	return JSON.stringify(
		simulator.requests.map((request) => ({ body: request.body, query: request.query })),
	);
}

describe.each(Object.keys(GATEWAYS) as Credential[])(
	'a LID in every person field, on %s',
	(name) => {
		const { simulator, check, options } = GATEWAYS[name];

		it.each(
			FIELDS.flatMap(([field, parameters]) => [
				[field, 'as it is', dora.lid, parameters] as const,
				[field, 'with a device suffix', `${LID_DIGITS}:3@lid`, parameters] as const,
			]),
		)('%s: a LID %s reaches the gateway as the LID', async (field, _how, given, parameters) => {
			// People are answered after they wrote: the gateway knows them from their message.
			await simulator.injectInboundMessage({ from: dora.lid, text: 'Hi, is my order ready?' });
			simulator.clearLogs();
			const [resourceAndOperation] = field.split(' ');
			const [resource, operation] = resourceAndOperation.split('.');

			const result = await runGateway(
				simulator,
				{ resource, operation, session: SESSION, ...parameters(given) },
				options,
			);

			expect(result.error?.message).toBeUndefined();
			expect(result.status).toBe('success');
			if (ANSWERED_WITHOUT_ASKING[name]?.includes(field)) {
				expect(result.outputs[0].map((item) => item.json)).toEqual([
					{ exists: true, jid: dora.lid, number: given },
				]);
				expect(simulator.requests).toHaveLength(0);
				return;
			}
			const sent = sentText(simulator);
			expect(sent).toContain(dora.lid);
			// The LID as a LID: never its digits as a phone number, never the device.
			expect(sent).not.toMatch(
				new RegExp(`${LID_DIGITS}(@c\\.us|@s\\.whatsapp\\.net|@s\\.messenger\\.net|:3)`),
			);
			expect(sent).not.toMatch(new RegExp(`"${LID_DIGITS}"`));
			expect(simulator.requests.map((request) => check(request).outcome)).not.toContain('refused');
		});
	},
);

describe('a LID in a field that needs a phone number is refused by name before any request', () => {
	it.each<[string, string, IDataObject, RegExp]>([
		[
			'session.requestPairingCode',
			'Phone Number',
			{ session: SEED.instances.pairing.name, phoneNumber: dora.lid },
			/^Phone Number must be a phone number \(\+55 11 99999-9999\), a chat ID .* \(got "198765432101234@lid"\)$/,
		],
		[
			'message.sendContact',
			'Contacts: Phone Number',
			{
				chatId: byId(SEED.contacts.alice.number),
				contacts: { contact: [{ fullName: 'Dora', phoneNumber: dora.lid }] },
			},
			/Phone Number must be a phone number with country code/,
		],
	])('%s (%s)', async (resourceAndOperation, _field, parameters, message) => {
		const [resource, operation] = resourceAndOperation.split('.');

		const result = await runGateway(spec, { resource, operation, session: SESSION, ...parameters });

		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(message);
		expect(spec.requests).toHaveLength(0);
	});
});
