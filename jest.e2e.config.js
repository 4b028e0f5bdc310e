/**
 * End-to-end tests: the packed package inside a real n8n 2.41.1 (installed once into a cache folder
 * outside the repository) against the gateway simulator. `npm run test:e2e`; part of `npm test`.
 */
const unit = require('./jest.config');

module.exports = {
	...unit,
	testMatch: ['**/*.e2e.ts'],
	globalSetup: '<rootDir>/test/e2e/global-setup.cts',
	// One real n8n at a time: each boots its own server (~10 s, ~600 MB).
	maxWorkers: 1,
	testTimeout: 180000,
};
