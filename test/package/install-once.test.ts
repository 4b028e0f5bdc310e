import {
	failingInstall,
	installOverIncomplete,
	installPastDeadLock,
	raceTwoInstalls,
} from './install-scenarios.cts';

describe('installing into a shared cache folder (n8n for the tests and the sandbox)', () => {
	it('two runs at once: one installs, the other waits and finds it complete', async () => {
		const race = await raceTwoInstalls();

		expect(race.exitCodes).toEqual([0, 0]);
		expect(race.installSteps).toBe(1);
		expect(race.tool).toBe('ok');
		// Nothing is left beside the install: no lock, no temporary folder.
		expect(race.left).toEqual(['runs.txt', 'tool-1.0']);
	});

	it('breaks a lock left by a process that no longer exists', async () => {
		expect(await installPastDeadLock()).toEqual({ left: ['tool-1.0'] });
	});

	it('leaves no half install in place when the install step fails', async () => {
		expect(await failingInstall()).toEqual({ error: 'npm install failed', left: [] });
	});

	it('replaces an incomplete install left by an older run', async () => {
		expect(await installOverIncomplete()).toEqual({
			installed: ['.installed'],
			left: ['tool-1.0'],
		});
	});
});
