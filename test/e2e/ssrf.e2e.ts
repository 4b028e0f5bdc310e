/**
 * n8n's own SSRF protection (N8N_SSRF_PROTECTION_ENABLED, off as n8n ships) turned on in a real
 * n8n 2.x: its rules hold for every request of the nodes, the gateway's too, so a gateway on the
 * user's network must be allowed (the README says how); the package's own rule for files named by
 * items stays in force on top, and its Fetch Files From Private Addresses never lets a file
 * through that n8n's rules block.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { startScriptedServer } from '../support/scripted-server.cts';
import type { ScriptedServer } from '../support/scripted-server.cts';
import { createCredential } from './e2e-helpers.cts';
import { executeWorkflow } from './n8n-cli.cts';
import { startN8n } from './n8n-instance.cts';
import type { N8nInstance } from './n8n-instance.cts';
import { itemsThroughNodeWorkflow } from './workflows.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;
const MENU_URL = 'https://acme.example.com/menu';

let simulator: Simulator;
let imageHost: ScriptedServer;
let n8n: N8nInstance;

beforeAll(async () => {
	simulator = await startSimulator();
	imageHost = await startScriptedServer();
	// As a user with a gateway on this machine sets it up: protection on, the gateway's host
	// name allowed (not its address, so an address URL shows what a forgotten allowance does).
	n8n = await startN8n({
		env: {
			N8N_SSRF_PROTECTION_ENABLED: 'true',
			N8N_SSRF_ALLOWED_HOSTNAMES: 'localhost',
			N8N_SSRF_ALLOWED_IP_RANGES: '',
		},
	});
}, 300_000);

afterAll(async () => {
	await n8n?.stop();
	await imageHost?.stop();
	await simulator?.stop();
});

const viaLocalhost = () => simulator.url.replace('127.0.0.1', 'localhost');

const SEND_TEXT = {
	resource: 'message',
	operation: 'sendText',
	session: SESSION,
	chatId: { __rl: true, mode: 'id', value: ALICE.number },
	text: 'Hello',
};

const SEND_PREVIEW = {
	resource: 'message',
	operation: 'sendLinkPreview',
	session: SESSION,
	chatId: { __rl: true, mode: 'id', value: ALICE.chatId },
	text: MENU_URL,
	previewUrl: MENU_URL,
	previewTitle: 'Menu',
	previewDescription: 'Our menu',
	previewImageSource: 'url',
	previewImageUrl: '={{ $json.imageUrl }}',
};

/** Runs `parameters` once per item with `n8n execute`; each item's output json, in order. */
async function run(
	credentialData: IDataObject,
	parameters: IDataObject,
	items: IDataObject[],
): Promise<IDataObject[]> {
	const credential = await createCredential(n8n, `Messaging Gateway (${Math.random()})`, {
		apiKey: simulator.apiKey,
		...credentialData,
	});
	const created = await n8n.api.post(
		'/workflows',
		itemsThroughNodeWorkflow(credential, items, parameters, 'continueRegularOutput'),
	);
	expect(created.status).toBe(200);
	const execution = await executeWorkflow(n8n, String(created.data.id));
	const output = (execution.data.resultData.runData.Send?.[0]?.data?.main?.[0] ??
		[]) as INodeExecutionData[];
	return output.map((item) => item.json);
}

describe("n8n's SSRF protection on", () => {
	it('blocks a gateway on a private address that is not allowed; allowed by name, it works', async () => {
		const [blocked] = await run({ baseUrl: simulator.url }, SEND_TEXT, [{}]);
		const [allowed] = await run({ baseUrl: viaLocalhost() }, SEND_TEXT, [{}]);

		expect(blocked.error).toMatch(
			/^Gateway at http:\/\/127\.0\.0\.1:\d+ was blocked by n8n's SSRF protection \(The request was blocked because it resolves to a restricted IP address\)$/,
		);
		expect(blocked.message).toMatch(/N8N_SSRF_ALLOWED_HOSTNAMES=<its host name>/);
		expect(allowed.error).toBeUndefined();
		expect(allowed.messageId).toMatch(new RegExp(`^true_${ALICE.chatId}_`));
	});

	it("the package's own rule still refuses internal files an item names, the allowed host included", async () => {
		const port = new URL(imageHost.url).port;

		const outputs = await run(
			{ baseUrl: viaLocalhost(), requestBodyStyle: 'jidSessionId' },
			SEND_PREVIEW,
			[
				{ imageUrl: 'http://169.254.169.254/latest/meta-data/' },
				{ imageUrl: `http://localhost:${port}/menu.png` },
			],
		);

		expect(outputs.map((output) => output.error)).toEqual([
			expect.stringMatching(
				/^Preview Image URL: n8n does not fetch files from internal addresses \(169\.254\.169\.254 is a link-local/,
			),
			expect.stringMatching(
				/^Preview Image URL: n8n does not fetch files from internal addresses \(localhost is a loopback/,
			),
		]);
		expect(imageHost.requests).toEqual([]);
	});

	it("with Fetch Files From Private Addresses on, n8n's rules still decide: the allowed host is fetched, another is blocked", async () => {
		imageHost.respondWith({ headers: { 'content-type': 'image/png' }, body: 'png bytes' });
		const port = new URL(imageHost.url).port;

		const outputs = await run(
			{ baseUrl: viaLocalhost(), requestBodyStyle: 'jidSessionId', allowPrivateFileHosts: true },
			SEND_PREVIEW,
			[
				{ imageUrl: `http://localhost:${port}/menu.png` },
				{ imageUrl: `http://127.0.0.1:${port}/menu.png` },
			],
		);

		expect(outputs[0].error).toBeUndefined();
		expect(outputs[1].error).toMatch(
			/^Preview Image URL: the file host at http:\/\/127\.0\.0\.1:\d+ was blocked by n8n's SSRF protection/,
		);
		expect(imageHost.requests).toHaveLength(1);
	});
});
