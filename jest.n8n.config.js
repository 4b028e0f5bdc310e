/**
 * The end-to-end and queue-mode tests in one run, two files at a time: each file starts its own n8n
 * (or queue-mode cluster) on free ports, and much of their time is waiting in real time (a
 * gateway's retries, an outage, a silence), which the other file fills. `npm test` runs this;
 * `npm run test:e2e` and `npm run test:queue` run either part alone, one file at a time.
 */
const e2e = require('./jest.e2e.config');
const queue = require('./jest.queue.config');

/** A part as a project: what only a whole run may set is set below, once. */
const project = (displayName, { maxWorkers, reporters, testTimeout, ...rest }) => ({
	...rest,
	displayName,
	rootDir: __dirname,
});

module.exports = {
	projects: [project('e2e', e2e), project('queue', queue)],
	maxWorkers: 2,
	reporters: e2e.reporters,
	// The longer of the two parts' own limits (a queue-mode test's).
	testTimeout: Math.max(e2e.testTimeout, queue.testTimeout),
};
