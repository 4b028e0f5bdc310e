/**
 * `npm start`: the sandbox. The gateway simulator and a real n8n with this package installed, a
 * credential pointing at the simulator and two example workflows (an active echo bot and a QR login
 * flow), so the nodes can be tried without a gateway account. Ctrl+C stops everything.
 *
 * Environment: SANDBOX_N8N_PORT (5678), SANDBOX_SIMULATOR_PORT (3000), SANDBOX_FOLDER (n8n data,
 * kept between runs), SANDBOX_DEV=true (hot reload of the nodes, used by `npm run dev`),
 * N8N_E2E_VERSION (the n8n version, 2.41.1 by default; another version keeps its data apart).
 * `npm start -- --gateway evolution-v2` plays Evolution API v2 instead of the Messaging Gateway API,
 * and sets the credential's Gateway to match.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { DEFAULT_API_KEY, SEED, startSimulator } from '../simulator/index.cts';
import type { Gateway } from '../simulator/index.cts';
import { DEFAULT_N8N_VERSION, N8N_VERSION, node24Env } from '../e2e/n8n-install.cts';
import { DEFAULT_OWNER, PACKAGE_NAME, startN8n } from '../e2e/n8n-instance.cts';
import { PROJECT_ROOT } from '../support/paths.cts';
import type { N8nInstance } from '../e2e/n8n-instance.cts';
import { CREDENTIAL_TYPE, echoBotWorkflow, qrLoginWorkflow } from '../e2e/workflows.cts';
import type { CredentialRef, WorkflowJson } from '../e2e/workflows.cts';

const N8N_PORT = Number(process.env.SANDBOX_N8N_PORT ?? 5678);
const SIMULATOR_PORT = Number(process.env.SANDBOX_SIMULATOR_PORT ?? 3000);
const DEV = process.env.SANDBOX_DEV === 'true';
// A database n8n 2.x migrated cannot be opened by 1.x: each other version has a folder of its own.
const SANDBOX_FOLDER =
	process.env.SANDBOX_FOLDER ??
	path.join(
		os.homedir(),
		'.cache',
		'n8n-nodes-messaging-gateway',
		`${DEV ? 'sandbox-dev' : 'sandbox'}${N8N_VERSION === DEFAULT_N8N_VERSION ? '' : `-${N8N_VERSION}`}`,
	);
const CREDENTIAL_NAME = 'Messaging Gateway (sandbox)';
/** The credential's Gateway for each gateway the simulator plays. */
const CREDENTIAL_GATEWAY: Record<Gateway, string> = {
	spec: 'messagingGatewayApi',
	'evolution-v2': 'evolutionV2',
	waha: 'waha',
};

/** `--gateway <name>` among the arguments, or the Messaging Gateway API. */
function chosenGateway(argv: string[]): Gateway {
	const index = argv.indexOf('--gateway');
	if (index === -1) return 'spec';
	const name = argv[index + 1] as Gateway;
	if (!(name in CREDENTIAL_GATEWAY)) {
		console.error(
			`[sandbox] --gateway takes one of ${Object.keys(CREDENTIAL_GATEWAY).join(', ')}, not "${String(name)}"`,
		);
		process.exit(2);
	}
	return name;
}
const GATEWAY = chosenGateway(process.argv.slice(2));

function say(message: string): void {
	console.log(`[sandbox] ${message}`);
}

async function ensureCredential(n8n: N8nInstance, baseUrl: string): Promise<CredentialRef> {
	const data = {
		gateway: CREDENTIAL_GATEWAY[GATEWAY],
		baseUrl,
		apiKey: DEFAULT_API_KEY,
		requestBodyStyle: 'chatIdSession',
	};
	const existing = await n8n.rest.get('/credentials');
	const found = (existing.data?.data as Array<{ id: string; name: string }> | undefined)?.find(
		(credential) => credential.name === CREDENTIAL_NAME,
	);
	if (found) {
		const updated = await n8n.rest.patch(`/credentials/${found.id}`, {
			name: CREDENTIAL_NAME,
			type: CREDENTIAL_TYPE,
			data,
		});
		if (updated.status !== 200)
			throw new Error(`Updating the sandbox credential failed: ${JSON.stringify(updated.data)}`);
		return { id: found.id, name: CREDENTIAL_NAME };
	}
	const created = await n8n.api.post('/credentials', {
		name: CREDENTIAL_NAME,
		type: CREDENTIAL_TYPE,
		data,
	});
	if (created.status !== 200)
		throw new Error(`Creating the sandbox credential failed: ${JSON.stringify(created.data)}`);
	return { id: String(created.data.id), name: CREDENTIAL_NAME };
}

/** Imports the workflow unless one with its name exists, then (re)activates it so it registers with this run's simulator. */
async function ensureActiveWorkflow(n8n: N8nInstance, workflow: WorkflowJson): Promise<string> {
	const list = await n8n.api.get('/workflows', { params: { name: workflow.name } });
	let id = (list.data?.data as Array<{ id: string; name: string }> | undefined)?.find(
		(item) => item.name === workflow.name,
	)?.id;
	if (!id) {
		const created = await n8n.api.post('/workflows', workflow);
		if (created.status !== 200)
			throw new Error(`Importing "${workflow.name}" failed: ${JSON.stringify(created.data)}`);
		id = String(created.data.id);
	}
	// The simulator starts empty every run, so the trigger must register again.
	await n8n.api.post(`/workflows/${id}/deactivate`, {});
	const activated = await n8n.api.post(`/workflows/${id}/activate`, {});
	if (activated.status !== 200)
		throw new Error(`Activating "${workflow.name}" failed: ${JSON.stringify(activated.data)}`);
	return id;
}

/**
 * `npm run dev`: n8n-node's own dev command links the project into `.n8n/custom` and recompiles on
 * every change (tsc --watch); n8n runs with N8N_DEV_RELOAD and picks the new build up.
 */
async function startNodeCliDev(): Promise<() => void> {
	const logFile = path.join(SANDBOX_FOLDER, 'n8n-node-dev.log');
	fs.mkdirSync(SANDBOX_FOLDER, { recursive: true });
	const log = fs.createWriteStream(logFile);
	const child = spawn(
		path.join(PROJECT_ROOT, 'node_modules', '.bin', 'n8n-node'),
		['dev', '--external-n8n', '--custom-user-folder', SANDBOX_FOLDER],
		{ cwd: PROJECT_ROOT, env: node24Env(), stdio: ['ignore', 'pipe', 'pipe'] },
	);
	child.stdout.pipe(log);
	child.stderr.pipe(log);
	const link = path.join(SANDBOX_FOLDER, '.n8n', 'custom', 'node_modules', PACKAGE_NAME);
	for (let waited = 0; !fs.existsSync(link); waited += 200) {
		if (waited > 30_000 || child.exitCode !== null)
			throw new Error(`n8n-node dev did not link the package; see ${logFile}`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	say(`n8n-node dev is watching the sources (log: ${logFile})`);
	return () => child.kill('SIGTERM');
}

async function main(): Promise<void> {
	const started = Date.now();
	const stopDev = DEV ? await startNodeCliDev() : () => {};
	const simulator = await startSimulator({
		port: SIMULATOR_PORT,
		apiKey: DEFAULT_API_KEY,
		gateway: GATEWAY,
	});
	say(`gateway simulator (${GATEWAY}) on ${simulator.url} (API key ${simulator.apiKey})`);
	say(
		`starting n8n ${N8N_VERSION} on http://127.0.0.1:${N8N_PORT} with the nodes installed (first start installs n8n: ~5 min)`,
	);
	const n8n = await startN8n({
		userFolder: SANDBOX_FOLDER,
		port: N8N_PORT,
		env: {
			N8N_LOG_LEVEL: 'info',
			...(process.env.SANDBOX_DEV === 'true' ? { N8N_DEV_RELOAD: 'true' } : {}),
		},
	});
	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		say('stopping n8n and the simulator…');
		stopDev();
		await n8n.stop();
		await simulator.stop();
		say('stopped');
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());

	const credential = await ensureCredential(n8n, simulator.url);
	const prefix = DEV ? 'CUSTOM' : PACKAGE_NAME;
	await ensureActiveWorkflow(
		n8n,
		echoBotWorkflow(credential, SEED.instances.connected.name, prefix),
	);
	await ensureActiveWorkflow(n8n, qrLoginWorkflow(credential, SEED.instances.pairing.name, prefix));

	const problems = n8n.loaderProblems();
	if (problems.length) say(`n8n reported problems loading the package:\n${problems.join('\n')}`);
	console.log(`
  Sandbox ready in ${((Date.now() - started) / 1000).toFixed(0)} s

  n8n editor     ${n8n.url}
  login          ${DEFAULT_OWNER.email} / ${DEFAULT_OWNER.password}
  credential     "${CREDENTIAL_NAME}" -> simulator ${simulator.url} (Gateway: ${CREDENTIAL_GATEWAY[GATEWAY]})
  workflows      "Echo bot (Messaging Gateway)" (active, session ${SEED.instances.connected.name})
                 "QR login (Messaging Gateway)" (active, session ${SEED.instances.pairing.name})

  Make a contact write to the bot:   npm run sandbox:say -- "hello"
  Make the pairing session show a QR code:   npm run sandbox:qr
  Simulator control API (requests, deliveries, faults):   ${simulator.url}/__sim

${DEV ? '  Hot reload: edit nodes/ or credentials/; n8n-node dev recompiles and n8n reloads the nodes.\n' : ''}  Ctrl+C stops everything.
`);
}

main().catch((error) => {
	console.error('[sandbox] could not start:', error);
	process.exit(1);
});
