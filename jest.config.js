/** Jest runs the TypeScript tests in test/ on Node 24 (node_modules/.bin/node). */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	moduleFileExtensions: ['ts', 'cts', 'js', 'cjs', 'json'],
	transform: {
		'^.+\\.c?ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
	setupFiles: ['<rootDir>/test/support/jest-env.js'],
	testTimeout: 30000,
};
