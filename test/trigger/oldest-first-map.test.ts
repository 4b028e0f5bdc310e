/**
 * The map the delivery memory drops its oldest entries from (oldest-first-map.ts): the same
 * answers as a Map kept in insertion order, whatever mix of sets, deletes and drops it gets.
 */
import { OldestFirstMap } from '../../nodes/MessagingGatewayTrigger/oldest-first-map';

type Step = ['set', string, number] | ['delete', string] | ['deleteOldest'];

/** A plain Map, the reference: a key set again moves to the end. */
function reference(steps: Step[]): Map<string, number> {
	const map = new Map<string, number>();
	for (const step of steps) {
		if (step[0] === 'set') {
			map.delete(step[1]);
			map.set(step[1], step[2]);
		} else if (step[0] === 'delete') map.delete(step[1]);
		else map.delete(map.keys().next().value as string);
	}
	return map;
}

function replayed(steps: Step[]): OldestFirstMap<number> {
	const map = new OldestFirstMap<number>();
	for (const step of steps) {
		if (step[0] === 'set') map.set(step[1], step[2]);
		else if (step[0] === 'delete') map.delete(step[1]);
		else map.deleteOldest();
	}
	return map;
}

/** Its entries oldest first, read by dropping them one by one. */
function drained(map: OldestFirstMap<number>): Array<[string, number]> {
	const out: Array<[string, number]> = [];
	for (let oldest = map.oldest(); oldest; oldest = map.oldest()) {
		out.push(oldest);
		map.deleteOldest();
	}
	return out;
}

/** Many steps: keys from a small set (so many are set again or deleted), drops now and then. */
function manySteps(count: number, keys: number): Step[] {
	return Array.from({ length: count }, (_, index): Step => {
		const key = `k${(index * 7919) % keys}`;
		if (index % 11 === 3) return ['delete', key];
		if (index % 5 === 1) return ['deleteOldest'];
		return ['set', key, index];
	});
}

describe('OldestFirstMap', () => {
	it.each<{ case: string; steps: Step[] }>([
		{ case: 'empty', steps: [] },
		{
			case: 'in the order set',
			steps: [
				['set', 'a', 1],
				['set', 'b', 2],
				['set', 'c', 3],
			],
		},
		{
			case: 'a key set again becomes the newest',
			steps: [
				['set', 'a', 1],
				['set', 'b', 2],
				['set', 'a', 3],
			],
		},
		{
			case: 'a key set again with the same value becomes the newest',
			steps: [
				['set', 'a', 1],
				['set', 'b', 2],
				['set', 'a', 1],
			],
		},
		{
			case: 'a deleted key is skipped at the front',
			steps: [['set', 'a', 1], ['set', 'b', 2], ['delete', 'a'], ['deleteOldest']],
		},
		{ case: 'dropping from an empty map', steps: [['deleteOldest'], ['set', 'a', 1]] },
		{ case: '5,000 mixed steps over 40 keys', steps: manySteps(5000, 40) },
		{ case: '20,000 mixed steps over 3,000 keys', steps: manySteps(20_000, 3000) },
	])('$case: what a Map gives', ({ steps }) => {
		const expected = reference(steps);
		const map = replayed(steps);
		expect(map.size).toBe(expected.size);
		for (const key of expected.keys()) {
			expect([map.has(key), map.get(key)]).toEqual([true, expected.get(key)]);
		}
		expect(map.get('never set')).toBeUndefined();
		expect(drained(map)).toEqual([...expected.entries()]);
		expect(map.size).toBe(0);
	});
});
