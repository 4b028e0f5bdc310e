import * as path from 'node:path';

/** The repository root (where package.json and dist/ are). */
export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
