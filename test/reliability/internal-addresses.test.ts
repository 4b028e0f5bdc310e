/**
 * n8n never fetches a loopback, private, link-local, carrier-grade NAT or unique-local address
 * because an item or a gateway's answer named it: every spelling of such an address, a name that
 * resolves to one, and a redirect to one are refused before anything is sent there. The
 * credential's Fetch Files From Private Addresses lets files on the user's own network through;
 * the Base URL is the user's choice and always used. Run in n8n's engine over real HTTP.
 */
import type { INodeParameters } from 'n8n-workflow';

import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { ownHostName, resolveNames, useHttpProxy } from '../support/egress-fixtures.cts';
import { byId, runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';
import type { RunNodeResult } from '../support/n8n-harness.cts';
import { startScriptedServer } from '../support/scripted-server.cts';
import type { ScriptedServer } from '../support/scripted-server.cts';

const SESSION = SEED.instances.connected.name;
const MENU_URL = 'https://acme.example.com/menu';
/** An address outside every internal range (example.com's), reached through the test's proxy. */
const PUBLIC_ADDRESS = '93.184.216.34';
const PNG = { status: 200, headers: { 'content-type': 'image/png' }, body: 'png bytes' };

let simulator: Simulator;
/** A file host on this machine: what an internal service looks like to n8n. */
let internal: ScriptedServer;

beforeAll(async () => {
	simulator = await startSimulator();
	internal = await startScriptedServer();
});
afterAll(async () => {
	await internal.stop();
	await simulator.stop();
});
beforeEach(() => {
	simulator.reset();
	internal.requests.length = 0;
});
afterEach(() => {
	jest.restoreAllMocks();
});

async function sendPreview(imageUrl: string, options: RunGatewayOptions = {}) {
	return await runGateway(
		simulator,
		{
			resource: 'message',
			operation: 'sendLinkPreview',
			session: SESSION,
			chatId: byId(SEED.contacts.alice.chatId),
			text: MENU_URL,
			previewUrl: MENU_URL,
			previewTitle: 'Menu',
			previewDescription: 'Our menu',
			previewImageSource: 'url',
			previewImageUrl: imageUrl,
		} as INodeParameters,
		{ requestBodyStyle: 'jidSessionId', ...options },
	);
}

function expectRefused(result: RunNodeResult, field: string, reason: RegExp) {
	expect(result.error?.name).toBe('NodeOperationError');
	expect(result.error?.message).toMatch(
		new RegExp(`^${field}: n8n does not fetch files from internal addresses \\(`),
	);
	expect(result.error?.message).toMatch(reason);
	expect(result.error?.description).toMatch(/Fetch Files From Private Addresses/);
	expect((result.error?.context as { itemIndex?: number } | undefined)?.itemIndex).toBe(0);
}

const port = () => new URL(internal.url).port;

describe("Preview Image URL (an item's word): every spelling of an internal address is refused before anything is sent", () => {
	it.each([
		['loopback', () => `http://127.0.0.1:${port()}/menu.png`, /127\.0\.0\.1 is a loopback/],
		['localhost', () => `http://localhost:${port()}/menu.png`, /localhost is a loopback/],
		['LOCALHOST. with a dot', () => `http://LOCALHOST.:${port()}/x`, /is a loopback/],
		['a .localhost name', () => `http://files.localhost:${port()}/x`, /is a loopback/],
		['short 127.1', () => `http://127.1:${port()}/x`, /127\.0\.0\.1 is a loopback/],
		['decimal loopback', () => `http://2130706433:${port()}/x`, /127\.0\.0\.1 is a loopback/],
		['hex loopback', () => `http://0x7f000001:${port()}/x`, /127\.0\.0\.1 is a loopback/],
		['octal loopback', () => `http://0177.0.0.1:${port()}/x`, /127\.0\.0\.1 is a loopback/],
		['IPv6 loopback', () => `http://[::1]:${port()}/x`, /\[::1\] is a loopback/],
		['IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${port()}/x`, /IPv4-mapped loopback/],
		['"this network"', () => `http://0.0.0.0:${port()}/x`, /0\.0\.0\.0 is a "this network"/],
		['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/', /link-local/],
		[
			'metadata in decimal',
			() => 'http://2852039166/latest/',
			/169\.254\.169\.254 is a link-local/,
		],
		[
			'metadata in octal',
			() => 'http://0251.0376.0251.0376/',
			/169\.254\.169\.254 is a link-local/,
		],
		['metadata in hex', () => 'http://0xa9fea9fe/', /169\.254\.169\.254 is a link-local/],
		['metadata IPv4-mapped', () => 'http://[::ffff:a9fe:a9fe]/', /IPv4-mapped link-local/],
		['private 10/8', () => 'http://10.0.0.1/image.png', /10\.0\.0\.1 is a private/],
		['private 172.16/12', () => 'http://172.20.1.1/image.png', /is a private/],
		['private 192.168/16', () => 'https://192.168.1.1/image.png', /is a private/],
		['carrier-grade NAT', () => 'http://100.64.0.1/image.png', /carrier-grade NAT/],
		['unique-local IPv6', () => 'http://[fd00::1]/image.png', /unique-local/],
		['link-local IPv6', () => 'http://[fe80::1]/image.png', /link-local/],
	])('%s', async (_name, imageUrl, reason) => {
		const result = await sendPreview(imageUrl());

		expectRefused(result, 'Preview Image URL', reason);
		expect(internal.requests).toEqual([]);
		expect(simulator.requests).toEqual([]);
	});

	it("a name that resolves to an internal address (this machine's own name) is refused by the address", async () => {
		const own = await ownHostName();

		const result = await sendPreview(`http://${own.name}:${port()}/menu.png`);

		expectRefused(result, 'Preview Image URL', new RegExp(`resolves to ${own.address}`));
		expect(internal.requests).toEqual([]);
	});

	it.each([
		['an internal address', ['10.1.2.3']],
		['a public and an internal address', [PUBLIC_ADDRESS, '127.0.0.1']],
		['an IPv4-mapped IPv6 address', ['::ffff:169.254.169.254']],
	])('a name that resolves to %s is refused', async (_name, addresses) => {
		resolveNames({ 'images.example.test': addresses });

		const result = await sendPreview('http://images.example.test/menu.png');

		expectRefused(result, 'Preview Image URL', /images\.example\.test resolves to/);
		expect(simulator.requests).toEqual([]);
	});

	it('with Fetch Files From Private Addresses on, a file on the own network is fetched', async () => {
		internal.respondWith(PNG);

		const result = await sendPreview(`http://127.0.0.1:${port()}/menu.png`, {
			allowPrivateFileHosts: true,
		});

		expect(result.error?.message).toBeUndefined();
		expect(internal.requests).toHaveLength(1);
		expect(simulator.requests).toHaveLength(1);
	});
});

describe('through a proxy (the test stands in for the internet): every hop is judged before it is sent', () => {
	let proxy: ScriptedServer;
	let restoreProxy: () => void;

	beforeAll(async () => {
		proxy = await startScriptedServer();
	});
	afterAll(async () => {
		await proxy.stop();
	});
	beforeEach(() => {
		proxy.requests.length = 0;
		restoreProxy = useHttpProxy(proxy.url);
	});
	afterEach(() => restoreProxy());

	it('a name that resolves to a public address is fetched, still speaking to that name', async () => {
		resolveNames({ 'images.example.test': [PUBLIC_ADDRESS] });
		proxy.respondWith(PNG);

		const result = await sendPreview('http://images.example.test/menu.png');

		expect(result.error?.message).toBeUndefined();
		expect(proxy.requests.map((request) => request.headers.host)).toEqual(['images.example.test']);
		expect(simulator.requests).toHaveLength(1);
	});

	it.each([
		['the metadata address', () => 'http://169.254.169.254/latest/meta-data/', /link-local/],
		['localhost', () => `http://localhost:${port()}/`, /loopback/],
		['a name that resolves internally', () => 'http://intranet.example.test/x', /resolves to/],
	])('a redirect to %s is refused before anything is sent there', async (_name, to, reason) => {
		resolveNames({ 'intranet.example.test': ['192.168.0.10'] });
		proxy.respondWith({ status: 302, headers: { location: to() } });

		const result = await sendPreview(`http://${PUBLIC_ADDRESS}/menu.png`);

		expectRefused(result, 'Preview Image URL', reason);
		expect(proxy.requests).toHaveLength(1);
		expect(internal.requests).toEqual([]);
	});
});

describe("files the gateway names elsewhere than its Base URL (a message's word) follow the same rule", () => {
	const profilePicture = async (pictureUrl: string, options: RunGatewayOptions = {}) => {
		simulator.injectFault({
			match: { path: '/chat/fetchProfilePictureUrl/' },
			status: 200,
			body: { wuid: SEED.contacts.alice.jid, profilePictureUrl: pictureUrl },
		});
		return await runGateway(
			simulator,
			{
				resource: 'contact',
				operation: 'getProfilePicture',
				session: SESSION,
				contact: byId(SEED.contacts.alice.number),
				options: { downloadPicture: true },
			},
			options,
		);
	};

	it.each([
		['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/iam/', /link-local/],
		['a service on this machine', () => `http://localhost:${port()}/admin`, /loopback/],
		['a private address', () => 'http://10.10.0.5/pictures/1.jpg', /private/],
	])('%s is refused', async (_name, pictureUrl, reason) => {
		const result = await profilePicture(pictureUrl());

		expectRefused(result, 'Media file', reason);
		expect(internal.requests).toEqual([]);
	});

	it('with Fetch Files From Private Addresses on, a picture on the own network is fetched', async () => {
		internal.respondWith({ ...PNG, headers: { 'content-type': 'image/jpeg' } });

		const result = await profilePicture(`http://127.0.0.1:${port()}/pictures/1.jpg`, {
			allowPrivateFileHosts: true,
		});

		expect(result.error?.message).toBeUndefined();
		expect(internal.requests).toHaveLength(1);
	});

	it("a file on the Base URL's own address (a gateway on the user's network) is fetched as before", async () => {
		const result = await runGateway(simulator, {
			resource: 'message',
			operation: 'get',
			session: SESSION,
			messageId: SEED.messages.aliceImage.id,
			downloadMedia: true,
		});

		expect(result.error?.message).toBeUndefined();
		expect(result.outputs[0][0].binary?.data).toMatchObject({ mimeType: 'image/png' });
	});
});

