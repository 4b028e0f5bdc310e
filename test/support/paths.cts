import * as path from 'node:path';

/** The repository root (where package.json and dist/ are). */
export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/** The Node.js running the tests: npm scripts take it from node_modules/.bin (the `node` devDependency). */
export const NODE_VERSION = process.version;
