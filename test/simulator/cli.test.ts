/**
 * `npm run simulator -- …`: the release and engine flags reach the simulator it serves, a release or
 * engine names its gateway, and flags that do not fit together are a usage error.
 */
import axios from 'axios';

import { runCli, startCli } from './cli-testing.cts';
import { DEFAULT_API_KEY } from './index.cts';

describe('the simulator CLI', () => {
	it('plays Evolution 2.4.0 without a licence with --evolution-version 2.4.0 --unlicensed', async () => {
		const cli = await startCli(['--evolution-version', '2.4.0', '--unlicensed']);
		try {
			expect((await axios.get(`${cli.url}/`)).data.version).toBe('2.4.0');
			expect((await axios.get(`${cli.url}/license/status`)).data.status).toBe('inactive');
			const gated = await axios.get(`${cli.url}/instance/fetchInstances`, {
				validateStatus: () => true,
			});
			expect([gated.status, gated.data.code]).toEqual([503, 'LICENSE_REQUIRED']);
		} finally {
			await cli.stop();
		}
	});

	it('plays WAHA GOWS with --waha-engine GOWS alone', async () => {
		const cli = await startCli(['--waha-engine', 'GOWS']);
		try {
			const version = await axios.get(`${cli.url}/api/server/version`, {
				headers: { 'X-Api-Key': DEFAULT_API_KEY },
			});
			expect(version.data.engine).toBe('GOWS');
		} finally {
			await cli.stop();
		}
	});

	it.each([
		[['--gateway', 'spec', '--waha-engine', 'GOWS'], /wahaEngine applies to the waha gateway/],
		[
			['--evolution-version', '2.3.7', '--unlicensed'],
			/licensed: false needs evolutionVersion 2.4.0/,
		],
		[['--evolution-version', '2.5.0'], /Unknown Evolution API version: 2.5.0/],
		[
			['--gateway', 'waha', '--no-number-cache'],
			/evolutionNumberCache applies to the evolution-v2 gateway/,
		],
	])('refuses %j with the usage (exit 2)', async (args, message) => {
		const { code, stderr } = await runCli(args);
		expect(code).toBe(2);
		expect(stderr).toMatch(message);
		expect(stderr).toContain('Usage: npm run simulator');
	});
});
