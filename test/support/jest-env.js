// Runs before every test file: n8n-core reads these when it is first used.
const os = require('node:os');
const path = require('node:path');

// One n8n user folder per jest worker, reused across runs, so nothing piles up in /tmp.
process.env.N8N_USER_FOLDER = path.join(
	os.tmpdir(),
	`n8n-messaging-gateway-jest-${process.env.JEST_WORKER_ID ?? '0'}`,
);
process.env.N8N_ENCRYPTION_KEY = 'jest-only-encryption-key';
process.env.N8N_LOG_LEVEL = 'silent';
