/** Jest runs the TypeScript tests in test/ on Node 24 (node_modules/.bin/node). */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	moduleFileExtensions: ['ts', 'cts', 'js', 'cjs', 'json'],
	// Compiled file by file, without type checking (tsconfig.jest.json: isolatedModules): `npm run
	// typecheck` checks the types once, before the tests; checking them again per test file made
	// compiling most of the unit tests' time.
	transform: {
		'^.+\\.c?ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }],
	},
	// Two at a time on two cores: most unit time is waiting in real time (silences, retries,
	// deadlines), not computing.
	maxWorkers: 2,
	reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
	setupFiles: ['<rootDir>/test/support/jest-env.js'],
	testTimeout: 30000,
};
