/**
 * Message → Pause While a Person Answers against the simulator playing each gateway: the bot goes
 * on unless a person wrote in the chat from the account's phone within the pause; what the bot
 * sent itself through the API never pauses it; it comes back by itself once the pause is over.
 * Every request is judged by the gateway's own validation; bad input is refused before any.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { checkEvolution } from '../compatibility/evolution.cts';
import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { checkWaha } from '../compatibility/waha.cts';
import type { SentRequest, Verdict } from '../compatibility/verdicts.cts';
import { SEED } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { runGateway } from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const [CUSTOMER, OTHER_CUSTOMER] = Object.values(SEED.contacts);

type HistoryGateway = 'messagingGatewayApi' | 'evolutionV2' | 'waha';

const v2 = useSimulator({ gateway: 'evolution-v2' });
const waha = useSimulator({ gateway: 'waha' });
const spec = useSimulator();

const CASES: Record<HistoryGateway, { simulator: Simulator; check: (r: SentRequest) => Verdict }> =
	{
		messagingGatewayApi: { simulator: spec, check: checkEvolution },
		evolutionV2: { simulator: v2, check: checkEvolutionV2 },
		waha: { simulator: waha, check: checkWaha },
	};
const GATEWAYS = Object.keys(CASES) as HistoryGateway[];

const minutesAgo = (minutes: number) => Math.floor(Date.now() / 1000) - minutes * 60;

async function pause(
	gateway: HistoryGateway,
	messageId: string,
	parameters: INodeParameters = {},
	json: IDataObject = {},
) {
	return await runGateway(
		CASES[gateway].simulator,
		{
			resource: 'message',
			operation: 'pauseWhilePersonAnswers',
			session: SESSION,
			messageId,
			...parameters,
		},
		{ gateway, items: [{ json: { messageId, text: 'hello', ...json } }] },
	);
}

/** What happened in the chat before the customer's new message, minutes ago. */
type Before =
	| { person: number }
	| { bot: number }
	| { personInOtherChat: number }
	| { appWithWebId: number }
	| Record<string, never>;

async function before(gateway: HistoryGateway, happened: Before) {
	const { simulator } = CASES[gateway];
	/** A message of the account's own, typed on its phone unless `id` says otherwise. */
	const own = async (from: string, minutes: number, text: string, id?: string) =>
		await simulator.injectInboundMessage({
			from,
			fromMe: true,
			text,
			timestamp: minutesAgo(minutes),
			...(id ? { id } : {}),
		});
	if ('person' in happened)
		await own(CUSTOMER.number, happened.person, 'A person here, I will help you');
	if ('personInOtherChat' in happened)
		await own(OTHER_CUSTOMER.number, happened.personInOtherChat, 'Answered in another chat');
	// An own message the gateway marks `app` with a web client's id: WAHA's NOWEB engine says `app`
	// of its own API sends once ten minutes have passed; the spec's `app` is the phone.
	if ('appWithWebId' in happened)
		await own(CUSTOMER.number, happened.appWithWebId, 'Sent long ago', '3EB0AA11BB22CC33DD44');
	if ('bot' in happened) {
		const sent = await runGateway(
			simulator,
			{
				resource: 'message',
				operation: 'sendText',
				session: SESSION,
				chatId: CUSTOMER.number,
				text: 'The bot answered',
			},
			{ gateway },
		);
		expect(sent.error?.message).toBeUndefined();
	}
}

async function customerWrites(gateway: HistoryGateway): Promise<string> {
	const sent = await CASES[gateway].simulator.injectInboundMessage({
		from: CUSTOMER.number,
		text: 'Is anyone there?',
		timestamp: minutesAgo(0),
	});
	return sent.id as string;
}

describe.each(GATEWAYS)('Pause While a Person Answers on %s', (gateway) => {
	const { simulator, check } = CASES[gateway];

	it.each<{ name: string; happened: Before; pauseMinutes?: number; goesOn: boolean }>([
		{ name: 'nothing before', happened: {}, goesOn: true },
		{ name: 'a person wrote from the phone 5 minutes ago', happened: { person: 5 }, goesOn: false },
		{
			name: 'a person wrote 31 minutes ago (the pause is over)',
			happened: { person: 31 },
			goesOn: true,
		},
		{
			name: 'a person wrote 31 minutes ago, with a pause of 60',
			happened: { person: 31 },
			pauseMinutes: 60,
			goesOn: false,
		},
		{ name: 'the bot answered through the API just now', happened: { bot: 0 }, goesOn: true },
		{
			name: 'a person wrote in another chat',
			happened: { personInOtherChat: 1 },
			goesOn: true,
		},
		{
			name: "an own message marked 'app' with a web client's id, 5 minutes ago",
			happened: { appWithWebId: 5 },
			// Only the spec's `app` says the phone; Evolution stores the device the id names, and
			// WAHA's `app` is also its own API sends of more than ten minutes ago.
			goesOn: gateway !== 'messagingGatewayApi',
		},
	])('$name: goes on $goesOn', async ({ happened, pauseMinutes, goesOn }) => {
		await before(gateway, happened);
		const messageId = await customerWrites(gateway);
		simulator.clearLogs();
		const result = await pause(gateway, messageId, pauseMinutes ? { pauseMinutes } : {});
		expect(result.error?.message).toBeUndefined();
		const items = result.outputs[0] ?? [];
		expect(items.map((item) => ({ paused: item.json.paused, text: item.json.text }))).toEqual(
			goesOn ? [{ paused: false, text: 'hello' }] : [],
		);
		if (goesOn && 'person' in happened)
			expect(Date.parse(String(items[0].json.personAnsweredAt)) / 1000).toBeCloseTo(
				minutesAgo(happened.person),
				-1,
			);
		expect(simulator.requests.length).toBeGreaterThan(0);
		expect(simulator.requests.map((request) => check(request).outcome)).toEqual(
			simulator.requests.map(() => 'accepted'),
		);
	});

	it('with Output Paused Messages, a paused message comes out marked, with when the pause ends', async () => {
		await before(gateway, { person: 10 });
		const messageId = await customerWrites(gateway);
		const result = await pause(gateway, messageId, { options: { outputPaused: true } });
		expect(result.error?.message).toBeUndefined();
		const [item] = result.outputs[0] ?? [];
		expect(item.json).toMatchObject({ messageId, text: 'hello', paused: true });
		const until = Date.parse(String(item.json.pausedUntil)) / 1000;
		expect(until).toBeCloseTo(minutesAgo(10) + 30 * 60, -1);
	});

	it("the account's own message (its full ID says fromMe) is no one's to answer: nothing, and no request", async () => {
		simulator.clearLogs();
		const result = await pause(gateway, `true_${CUSTOMER.number}@c.us_3A0123456789ABCDEF01`);
		expect(result.error?.message).toBeUndefined();
		expect(result.outputs[0] ?? []).toEqual([]);
		expect(simulator.requests).toEqual([]);
	});

	it.each([
		{ pauseMinutes: 0, message: /Pause For \(Minutes\)/ },
		{ pauseMinutes: 20_000, message: /Pause For \(Minutes\) must be at most 10080/ },
		{ pauseMinutes: 'soon', message: /Pause For \(Minutes\)/ },
	])(
		'refuses Pause For (Minutes) = $pauseMinutes before any request',
		async ({ pauseMinutes, message }) => {
			simulator.clearLogs();
			const result = await pause(gateway, `false_${CUSTOMER.number}@c.us_3EB0C767D26A1D3BB2F1`, {
				pauseMinutes: pauseMinutes as number,
			});
			expect(result.error?.message).toMatch(message);
			expect(simulator.requests).toEqual([]);
		},
	);
});
