/**
 * Queue-mode tests: the packed package in n8n 2.41.1 run as main + webhook processor + two workers
 * on PostgreSQL and Redis, against the gateway simulator. `npm run test:queue`; part of `npm test`.
 */
const unit = require('./jest.config');

module.exports = {
	...unit,
	testMatch: ['**/*.queue.ts'],
	globalSetup: '<rootDir>/test/e2e/global-setup.cts',
	// One cluster at a time: four n8n processes, PostgreSQL and Redis.
	maxWorkers: 1,
	testTimeout: 300000,
};
