/**
 * URLs a user or an input item gives: what n8n fetches itself (Send Link Preview's image in shape B)
 * is fetched without the API key, http(s) only, within size and type limits; and the Preview URL
 * counts as present in the text only as a link of its own.
 */
import type { INodeParameters } from 'n8n-workflow';

import { PUBLIC_FILE_LIMITS } from '../../nodes/shared/transport';
import { byId, runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';
import { startScriptedServer } from '../support/scripted-server.cts';
import type { ScriptedServer } from '../support/scripted-server.cts';

const GATEWAY_KEY = 'dummy-url-rules-key-0c4d';
const MENU_URL = 'https://bistro.example.com/menu';

let gateway: ScriptedServer;
let imageHost: ScriptedServer;

beforeEach(async () => {
	gateway = await startScriptedServer();
	imageHost = await startScriptedServer();
	gateway.answerEveryRequestWith({
		status: 201,
		body: { id: 'true_120363012345678901@g.us_3EB0' },
	});
});

afterEach(async () => {
	await gateway.stop();
	await imageHost.stop();
});

async function sendPreview(parameters: INodeParameters, options: RunGatewayOptions = {}) {
	return await runGateway(
		{ url: gateway.url, apiKey: GATEWAY_KEY },
		{
			resource: 'message',
			operation: 'sendLinkPreview',
			session: 'acme-sales',
			chatId: byId('120363012345678901@g.us'),
			text: MENU_URL,
			previewUrl: MENU_URL,
			previewTitle: 'Menu',
			previewDescription: 'Our menu',
			...parameters,
		},
		options,
	);
}

// The image hosts, on loopback here, stand for public ones (see test/reliability/internal-addresses).
const shapeB = { requestBodyStyle: 'jidSessionId', allowPrivateFileHosts: true } as const;

describe('Preview Image URL in shape B: fetched by n8n, never with the key', () => {
	it('sends an image from a public host inline, without the key', async () => {
		imageHost.respondWith({ headers: { 'content-type': 'image/png' }, body: 'png bytes' });

		const result = await sendPreview(
			{ previewImageSource: 'url', previewImageUrl: `${imageHost.url}/menu.png` },
			shapeB,
		);

		expect(result.status).toBe('success');
		expect(imageHost.requests[0].headers.apikey).toBeUndefined();
		expect(JSON.parse(gateway.requests[0].body).preview.image).toBe(
			Buffer.from('png bytes').toString('base64'),
		);
	});

	it.each([
		[
			'a page that is not an image',
			() =>
				imageHost.respondWith({ headers: { 'content-type': 'text/html' }, body: '<html></html>' }),
			() => `${imageHost.url}/menu`,
			/^Preview Image URL must point at a file of type image\/\* \(the host sent text\/html\)$/,
		],
		[
			'an image over the size limit',
			() =>
				imageHost.respondWith({
					headers: { 'content-type': 'image/jpeg' },
					body: 'x'.repeat(PUBLIC_FILE_LIMITS.maxBytes + 1),
				}),
			() => `${imageHost.url}/huge.jpg`,
			/could not be used \(the answer is larger than 5 MB\)$/,
		],
		[
			'a gateway route given as the image',
			() => gateway.respondWith({ body: [{ instance: { apikey: 'instance-token' } }] }),
			() => `${gateway.url}/instance/fetchInstances`,
			/must point at a file of type image\/\* \(the host sent application\/json\)$/,
		],
		[
			'a public URL that redirects to the gateway',
			() => {
				imageHost.respondWith({
					status: 302,
					headers: { location: `${gateway.url}/instance/fetchInstances` },
				});
				gateway.respondWith({ body: [{ instance: { apikey: 'instance-token' } }] });
			},
			() => `${imageHost.url}/innocent.png`,
			/must point at a file of type image\/\*/,
		],
	])('refuses %s, and the key never leaves with it', async (_name, script, imageUrl, message) => {
		script();

		const result = await sendPreview(
			{ previewImageSource: 'url', previewImageUrl: imageUrl() },
			shapeB,
		);

		expect(result.error?.message).toMatch(message);
		// Nothing was sent, and whatever was fetched was fetched without the key.
		const sends = gateway.requests.filter((request) => request.method === 'POST');
		expect(sends).toEqual([]);
		expect(
			[...gateway.requests, ...imageHost.requests].map((request) => request.headers.apikey),
		).not.toContain(GATEWAY_KEY);
		expect(JSON.stringify(result.outputs)).not.toContain('instance-token');
	});

	it.each(['file:///etc/passwd', 'ftp://files.example.com/a.png', 'javascript:alert(1)'])(
		'refuses %s before any request',
		async (imageUrl) => {
			const result = await sendPreview(
				{ previewImageSource: 'url', previewImageUrl: imageUrl },
				shapeB,
			);

			expect(result.error?.name).toBe('NodeOperationError');
			expect(result.error?.message).toMatch(/^Preview Image URL must be an http\(s\) URL/);
			expect(gateway.requests).toEqual([]);
		},
	);
});

describe('Preview URL in the text', () => {
	it.each([
		[
			'a longer URL that starts with it',
			`Old menu: ${MENU_URL}-old`,
			`Old menu: ${MENU_URL}-old\n${MENU_URL}`,
		],
		['a URL one level deeper', `See ${MENU_URL}/2024`, `See ${MENU_URL}/2024\n${MENU_URL}`],
		['the URL followed by a full stop', `See ${MENU_URL}.`, `See ${MENU_URL}.`],
		['the URL in brackets', `Menu (${MENU_URL}) is new`, `Menu (${MENU_URL}) is new`],
		['the URL alone', MENU_URL, MENU_URL],
	])('with %s (%j), sends the text as it should be', async (_name, text, sent) => {
		const result = await sendPreview({ text });

		expect(result.status).toBe('success');
		expect(JSON.parse(gateway.requests[0].body).text).toBe(sent);
	});
});
