/**
 * Two runs at once (`npm start` in one terminal, `npm test` in another) must not corrupt what they
 * share: the n8n install (the real installN8n, into a scratch cache folder, with a cheap install
 * step) and a kept n8n folder (the sandbox's). Everything else a run writes is its own temporary folder.
 */
import { claimWhileAnotherRunHoldsTheFolder, raceTwoInstalls } from './shared-caches.cts';

describe('two runs installing n8n into the same cache folder at once', () => {
	it('one installs, the other waits; the folder only ever appears complete', async () => {
		const race = await raceTwoInstalls('complete');

		expect(race.exitCodes).toEqual([0, 0]);
		expect(race.installSteps).toBe(1);
		expect(race.waited).toBe(1);
		// What the old in-place install showed: the folder and its marker before the binary was there.
		expect(race.sightings).toEqual(['complete']);
		// No lock and no temporary folder stay behind.
		expect(race.left).toEqual(['n8n-2.41.1', 'runs.txt']);
	}, 60_000);

	it('an install without the sqlite3 binding never takes the place, in either run', async () => {
		const race = await raceTwoInstalls('without-sqlite3');

		expect(race.exitCodes).toEqual([1, 1]);
		// The second run finds no install after the first failed, and tries on its own.
		expect(race.installSteps).toBe(2);
		expect(race.errors).toEqual([
			expect.stringMatching(/lacks the sqlite3 binding$/),
			expect.stringMatching(/lacks the sqlite3 binding$/),
		]);
		expect(race.sightings).toEqual([]);
		expect(race.left).toEqual(['runs.txt']);
	}, 60_000);
});

describe('a kept n8n folder (the sandbox database) used by two runs', () => {
	it('is refused while another run holds it, and taken over once that run died', async () => {
		expect(await claimWhileAnotherRunHoldsTheFolder()).toEqual({
			whileHeld:
				'Another run (process <holder pid>) uses the n8n folder <folder>: stop it first, or give this run another folder',
			takenOverAfterCrash: true,
			leftAfterRelease: [],
		});
	}, 30_000);
});
