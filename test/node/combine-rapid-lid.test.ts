/**
 * Combine Rapid Messages for a person WhatsApp addresses by LID: the history is read by the chat
 * the trigger gave (the LID, or on Evolution API 2.3.7 and 2.4.0 the phone number, while the
 * gateway stores her messages under the LID with the number beside them), and the burst is found
 * whole on every gateway and version. One node run per message, as the trigger starts them.
 */
import { checkEvolution } from '../compatibility/evolution.cts';
import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { checkWaha } from '../compatibility/waha.cts';
import type { SentRequest, Verdict } from '../compatibility/verdicts.cts';
import { SEED } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const { dora } = SEED.lidPeople;

interface Played {
	simulator: Simulator;
	options: RunGatewayOptions;
	check: (request: SentRequest) => Verdict;
	/** The chat of the trigger's message ID for Dora's direct message. */
	chat: string;
}

const PLAYED: Record<string, Played> = {
	'Messaging Gateway API': {
		simulator: useSimulator(),
		options: {},
		check: checkEvolution,
		chat: dora.lid,
	},
	'Evolution API 2.3.6': {
		simulator: useSimulator({ gateway: 'evolution-v2', evolutionVersion: '2.3.6' }),
		options: { gateway: 'evolutionV2' },
		check: checkEvolutionV2,
		chat: dora.lid,
	},
	'Evolution API 2.3.7': {
		simulator: useSimulator({ gateway: 'evolution-v2', evolutionVersion: '2.3.7' }),
		options: { gateway: 'evolutionV2' },
		check: checkEvolutionV2,
		chat: `${dora.number}@c.us`,
	},
	'Evolution API 2.4.0': {
		simulator: useSimulator({ gateway: 'evolution-v2', evolutionVersion: '2.4.0' }),
		options: { gateway: 'evolutionV2' },
		check: checkEvolutionV2,
		chat: `${dora.number}@c.us`,
	},
	WAHA: {
		simulator: useSimulator({ gateway: 'waha' }),
		options: { gateway: 'waha', keyHeader: 'X-Api-Key' },
		check: checkWaha,
		chat: dora.lid,
	},
};

describe.each(Object.keys(PLAYED))('Combine Rapid Messages from Dora by LID on %s', (played) => {
	const { simulator, options, check, chat } = PLAYED[played];

	it('finds her burst whole and goes on once, with every message in order', async () => {
		const ids: string[] = [];
		for (const [index, text] of ['hi', 'is my order', 'ready?'].entries()) {
			const stored = await simulator.injectInboundMessage({
				from: dora.lid,
				text,
				timestamp: 1_790_000_000 + index,
			});
			ids.push(`false_${chat}_${stored.shortId}`);
		}

		const results = await Promise.all(
			ids.map(
				async (messageId) =>
					await runGateway(
						simulator,
						{
							resource: 'message',
							operation: 'combineRapid',
							session: SESSION,
							messageId,
							silenceSeconds: 2,
						},
						{ ...options, items: [{ json: { messageId } }] },
					),
			),
		);

		for (const result of results) expect(result.error?.message).toBeUndefined();
		const turns = results.flatMap((result) => result.outputs[0] ?? []);
		expect(turns).toHaveLength(1);
		expect(turns[0].json.texts).toEqual(['hi', 'is my order', 'ready?']);
		expect(turns[0].json.messageIds).toEqual(ids);
		expect(simulator.requests.map((request) => check(request).outcome)).not.toContain('refused');
	}, 30_000);
});
