/**
 * The bench part "trigger" reports what remembering deliveries costs per delivery
 * (bench/support/delivery-memory-cost.cts): its row must exist with a figure in microseconds,
 * find the memory's cap by itself, and refuse to report when the memory does not answer as it
 * answers webhook(). No figure is judged here: timings are not tests.
 */
import type { IDataObject } from 'n8n-workflow';

import type { MemoryCostInput } from '../../bench/support/delivery-memory-cost.cts';
import { deliveryMemoryCost } from '../../bench/support/delivery-memory-cost.cts';
import {
	deliveryDigest,
	DeliveryMemory,
	rememberSeconds,
} from '../../nodes/MessagingGatewayTrigger/delivery-memory';
import type { DeliveryFilters } from '../../nodes/MessagingGatewayTrigger/webhook/deliveries';

/** A small cap, so that the busy trigger is filled in a few deliveries. */
const CAP = 40;

function input(): MemoryCostInput {
	const key: IDataObject = { id: 'first' };
	return {
		// A message by its ID, as webhook() identifies one.
		delivery: { identity: () => `session|MESSAGES_UPSERT|false|${key.id as string}` },
		filters: {} as DeliveryFilters,
		options: {},
		key,
		stored: undefined,
		response: {
			statusCode: 200,
			once: (event, listener) => {
				if (event === 'finish') listener();
			},
		},
		trigger: 'token-of-the-bench',
		events: 50,
		rounds: 1,
	};
}

describe('what remembering deliveries costs (bench part "trigger")', () => {
	it('reports a row with its figure in microseconds per delivery, at the cap it found', async () => {
		const { goal, figures, notes } = await deliveryMemoryCost(
			{ memory: new DeliveryMemory(CAP), deliveryDigest, rememberSeconds },
			input(),
		);

		expect(goal).toMatchObject({
			id: 'trigger.deliveryMemoryPerDelivery',
			goal: 'reported',
			met: true,
		});
		expect(Number.isFinite(goal.value)).toBe(true);
		expect(goal.measured).toMatch(
			new RegExp(
				`^-?\\d+\\.\\d\\d µs per first delivery with ${CAP} deliveries remembered \\(digest .+ µs, verdict .+ µs, accept .+ µs\\); .+ µs with 2 to 4 remembered; .+ µs when static data holds the record returned last; a redelivery answered "delivered before" -?\\d+\\.\\d\\d µs$`,
			),
		);
		expect(goal.why?.trim().split(/\s+/).length).toBeGreaterThanOrEqual(8);
		expect(figures.deliveriesRemembered).toEqual({ busy: CAP, quiet: [2, 4] });
		const perDelivery = figures.microsecondsPerDelivery as Record<string, number>;
		expect(Object.keys(perDelivery).sort()).toEqual(
			[
				'accept',
				'digest',
				'firstAtCap',
				'firstQuiet',
				'firstRecordHeld',
				'redelivery',
				'verdict',
			].sort(),
		);
		for (const value of Object.values(perDelivery)) expect(Number.isFinite(value)).toBe(true);
		expect(perDelivery.firstAtCap).toBe(goal.value);
		expect(notes.length).toBeGreaterThan(0);
	});

	it('refuses to report when a redelivery is not answered "delivered before"', async () => {
		const memory = new DeliveryMemory(CAP);
		const forgetful = {
			accept: memory.accept.bind(memory),
			forgetTrigger: memory.forgetTrigger.bind(memory),
			verdict: () => 'new' as const,
		};

		await expect(
			deliveryMemoryCost({ memory: forgetful, deliveryDigest, rememberSeconds }, input()),
		).rejects.toThrow("The delivery memory answered 'new' where webhook() gets 'duplicate'");
	});
});
