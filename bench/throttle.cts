/**
 * Part "throttle" (issue 15, item 5): Wait Between Items of 100 ms over 50 Send Text items in
 * n8n's engine should take 49 pauses, 4.9 s, and little more: the pause is a promise timer, the
 * sends are to a fast fake gateway on loopback.
 */

import type { ICredentialType, INodeType } from 'n8n-workflow';

import { runNode } from '../test/support/n8n-harness.cts';
import { built } from './support/built.cts';
import { FAKE_API_KEY, FAKE_SESSION, startFakeGateway } from './support/fake-gateway.cts';
import type { BenchPart } from './support/measure.cts';
import { elapsedMs, interleaved, round2 } from './support/measure.cts';

const ITEMS = 50;
const WAIT_MS = 100;
const EXPECTED_MS = (ITEMS - 1) * WAIT_MS;
const TOLERANCE = 0.05;

export const run: BenchPart = async ({ quick, log }) => {
	const gateway = await startFakeGateway(0);
	const node = built<INodeType>(
		'nodes/MessagingGateway/MessagingGateway.node.js',
		'MessagingGateway',
	);
	const credential = built<ICredentialType>(
		'credentials/MessagingGatewayApi.credentials.js',
		'MessagingGatewayApi',
	);
	const items = Array.from({ length: ITEMS }, (_, index) => ({
		json: { number: String(5511900000000 + index), text: `Reminder ${index}` },
	}));
	const rounds = quick ? 1 : 3;
	try {
		log(`${ITEMS} items, Wait Between Items ${WAIT_MS} ms, ${rounds} round(s)`);
		const measured = await interleaved(
			{
				paced: async () => {
					const before = gateway.requests();
					const start = process.hrtime.bigint();
					const result = await runNode({
						nodeTypes: { 'bench.package': node },
						credentialTypes: { messagingGatewayApi: credential },
						credentials: {
							messagingGatewayApi: { baseUrl: gateway.baseUrl, apiKey: FAKE_API_KEY },
						},
						type: 'bench.package',
						parameters: {
							resource: 'message',
							operation: 'sendText',
							session: FAKE_SESSION,
							chatId: { __rl: true, mode: 'id', value: '={{ $json.number }}' },
							text: '={{ $json.text }}',
							options: { waitBetweenItems: WAIT_MS },
						},
						items,
					});
					const took = elapsedMs(start);
					if (result.status !== 'success' || gateway.requests() - before !== ITEMS) {
						throw new Error(`Throttled run failed: ${result.error?.message ?? result.status}`);
					}
					return took;
				},
			},
			rounds,
			0,
		);
		const median = measured.paced.median;
		const deviation = median / EXPECTED_MS - 1;
		return {
			id: 'throttle',
			title: 'Wait Between Items',
			goals: [
				{
					id: 'throttle.total',
					what: `Wait Between Items ${WAIT_MS} ms over ${ITEMS} items: total time against ${(EXPECTED_MS / 1000).toFixed(1)} s`,
					goal: `within ±${TOLERANCE * 100}%`,
					measured: `${(median / 1000).toFixed(2)} s (${deviation >= 0 ? '+' : ''}${(deviation * 100).toFixed(1)}%)`,
					value: round2(deviation * 100),
					met: Math.abs(deviation) <= TOLERANCE,
					why: `Beyond the ${ITEMS - 1} pauses (timers of ${WAIT_MS} ms), a run holds n8n's start and the ${ITEMS} sends: ${Math.round(measured.paced.min - EXPECTED_MS)} ms in the fastest of ${rounds} runs, ${Math.round(median - EXPECTED_MS)} ms in the median one. What the median adds over the fastest is the machine's scheduling, which delays every timer alike.`,
				},
			],
			figures: {
				items: ITEMS,
				waitMs: WAIT_MS,
				expectedMs: EXPECTED_MS,
				totalMs: { min: round2(measured.paced.min), median: round2(median) },
			},
			notes: [
				`${ITEMS} Send Text items in n8n-core's engine to the fake gateway; ${rounds} round(s), the median counts. The first item goes at once, every later one after the pause.`,
			],
		};
	} finally {
		await gateway.close();
	}
};
