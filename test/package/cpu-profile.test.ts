/**
 * The bench's gateway-choice goal counts the samples of V8's profiler that land in the package's
 * files: the count must follow the script a sample's function lies in, and nothing else. Every
 * choice is counted in one profile, so a busy machine (a sample that waits while the process is
 * not running counts for wherever it lands) moves them all alike.
 */
import { profiledShares } from '../../bench/support/cpu-profile.cts';
import { workIn } from '../support/busy-scripts.cts';

const SCRIPTS = 'file:///bench-profile-test/';
const first = workIn(`${SCRIPTS}first.js`);
const second = workIn(`${SCRIPTS}second.js`);
/** Calls of each script's work: the same for both, a few hundred milliseconds each. */
const CALLS = 5_000;

const named =
	(...names: string[]) =>
	(url: string) =>
		names.some((name) => url === `${SCRIPTS}${name}`);

describe('profiledShares', () => {
	it('counts each sample for the script its function lies in: the first, the second, both, none', async () => {
		const { totalMs, chosenMs } = await profiledShares(
			async () => {
				for (let call = 0; call < CALLS; call++) first();
				for (let call = 0; call < CALLS; call++) second();
			},
			{
				first: named('first.js'),
				second: named('second.js'),
				both: named('first.js', 'second.js'),
				neverRan: named('third.js'),
			},
		);
		expect(totalMs).toBeGreaterThan(0);
		expect(chosenMs.first).toBeGreaterThan(0);
		expect(chosenMs.second).toBeGreaterThan(0);
		expect(chosenMs.both).toBeCloseTo(chosenMs.first + chosenMs.second, 6);
		expect(chosenMs.both).toBeLessThanOrEqual(totalMs);
		expect(chosenMs.neverRan).toBe(0);
		// The same work in each: neither takes nearly all of what both took.
		expect(chosenMs.first / chosenMs.both).toBeGreaterThan(0.1);
		expect(chosenMs.second / chosenMs.both).toBeGreaterThan(0.1);
	});
});
