/**
 * The bench's gateway-choice goal counts the samples of V8's profiler that land in the package's
 * files: the count must follow the script a sample's function lies in, and nothing else.
 */
import { profiledShare } from '../../bench/support/cpu-profile.cts';
import { keepBusy, workIn } from '../support/busy-scripts.cts';

const first = workIn('file:///bench-profile-test/first.js');
const second = workIn('file:///bench-profile-test/second.js');

describe('profiledShare', () => {
	it.each([
		{ counted: 'the first script', chosen: ['first.js'], low: 0.3, high: 0.7 },
		{ counted: 'both scripts', chosen: ['first.js', 'second.js'], low: 0.7, high: 1 },
		{ counted: 'a script that never ran', chosen: ['third.js'], low: 0, high: 0 },
	])('counts the time of $counted', async ({ chosen, low, high }) => {
		const profiled = await profiledShare(
			async () => {
				keepBusy(first, 60);
				keepBusy(second, 60);
			},
			(url) => chosen.some((name) => url === `file:///bench-profile-test/${name}`),
		);
		expect(profiled.totalMs).toBeGreaterThanOrEqual(100);
		const share = profiled.chosenMs / profiled.totalMs;
		expect(share).toBeGreaterThanOrEqual(low);
		expect(share).toBeLessThanOrEqual(high);
	});
});
