import { MessagingGateway } from '../../nodes/MessagingGateway/MessagingGateway.node';
import { SEED } from '../simulator/index.cts';
import { useSimulator, gatewayClient } from '../simulator/testing.cts';
import {
	binaryItem,
	expectOneRequest,
	outputJson,
	resourceRunner,
	runGateway,
} from '../support/gateway-node.cts';
import { startScriptedServer } from '../support/scripted-server.cts';

const SESSION = SEED.instances.connected.name;
const PAIRING_SESSION = SEED.instances.pairing.name;
/** A 1x1 PNG. */
const TINY_PNG_BASE64 =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

const simulator = useSimulator();
const runProfile = resourceRunner(simulator, 'profile', SESSION);

async function currentProfilePicture(): Promise<Buffer> {
	const response = await gatewayClient(simulator).get(`/api/files/${SESSION}/profile-picture.png`, {
		responseType: 'arraybuffer',
	});
	expect(response.status).toBe(200);
	return Buffer.from(response.data as ArrayBuffer);
}

describe('Profile > Get', () => {
	it('tells users in the node that many gateways answer 501', () => {
		const { properties } = new MessagingGateway().description;
		const operation = properties.find(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes('profile'),
		);
		const getOption = operation?.options?.find(
			(option) => 'value' in option && option.value === 'get',
		) as { description?: string } | undefined;
		expect(getOption?.description).toMatch(/do not implement it and answer 501/);
		const notice = properties.find(
			(property) =>
				property.type === 'notice' && property.displayOptions?.show?.operation?.includes('get'),
		);
		expect(notice?.displayName).toMatch(/501 Not Implemented/);
		expect(notice?.displayOptions?.show?.resource).toEqual(['profile']);
	});

	it('surfaces the 501 of a gateway that does not implement it, with the hint', async () => {
		const result = await runProfile('get');

		expectOneRequest(simulator, {
			method: 'GET',
			path: `/api/${SESSION}/profile`,
			query: {},
		});
		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(
			'Gateway error 501: Getting the profile is not implemented yet. Check the docs: GET /api/{session}/profile',
		);
		expect(result.error?.description).toBe('This gateway does not implement this operation.');
		expect(result.error?.httpCode).toBe('501');
	});

	it('outputs the profile from a gateway that implements it', async () => {
		const gateway = await startScriptedServer();
		try {
			const profile = {
				id: '5511987650000@c.us',
				name: 'Acme Sales',
				picture: null,
				status: 'Sales desk',
			};
			gateway.respondWith({ status: 200, body: profile });

			const result = await runGateway(
				{ url: gateway.url, apiKey: 'scripted-key' },
				{ resource: 'profile', operation: 'get', session: 'sales desk' },
			);

			expect(result.status).toBe('success');
			expect(gateway.requests).toHaveLength(1);
			expect(gateway.requests[0].method).toBe('GET');
			expect(gateway.requests[0].url).toBe('/api/sales%20desk/profile');
			expect(gateway.requests[0].headers.apikey).toBe('scripted-key');
			expect(gateway.requests[0].body).toBe('');
			expect(outputJson(result)).toEqual([profile]);
			expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
		} finally {
			await gateway.stop();
		}
	});
});

describe('Profile > Set Picture', () => {
	it('sends a picture URL as a remote file with the MIME type from its name', async () => {
		const result = await runProfile('setPicture', {
			pictureSource: 'url',
			pictureUrl: 'https://cdn.example.com/avatars/acme%20logo.jpg',
		});

		expectOneRequest(simulator, {
			method: 'PUT',
			path: `/api/${SESSION}/profile/picture`,
			query: {},
		});
		expect(simulator.requests[0].body).toEqual({
			file: {
				mimetype: 'image/jpeg',
				url: 'https://cdn.example.com/avatars/acme%20logo.jpg',
				filename: 'acme logo.jpg',
			},
		});
		expect(outputJson(result)).toEqual([{ success: true }]);
	});

	it('uses the MIME type given for a URL without a file extension', async () => {
		await runProfile('setPicture', {
			pictureSource: 'url',
			pictureUrl: 'https://cdn.example.com/avatar',
			pictureMimeType: 'image/png',
		});

		expect(simulator.requests[0].body).toEqual({
			file: { mimetype: 'image/png', url: 'https://cdn.example.com/avatar', filename: 'avatar' },
		});
	});

	it('sends a binary input item inline as base64, and the gateway then serves that picture', async () => {
		const result = await runProfile(
			'setPicture',
			{ pictureSource: 'binary', pictureBinaryProperty: 'data' },
			{ items: [binaryItem(TINY_PNG_BASE64, 'image/png', 'me.png')] },
		);

		expect(result.status).toBe('success');
		expect(simulator.requests[0].body).toEqual({
			file: { mimetype: 'image/png', data: TINY_PNG_BASE64, filename: 'me.png' },
		});
		expect(outputJson(result)).toEqual([{ success: true }]);
		expect((await currentProfilePicture()).toString('base64')).toBe(TINY_PNG_BASE64);
	});

	it('rejects a URL that is not http(s) before any request', async () => {
		const result = await runProfile('setPicture', {
			pictureSource: 'url',
			pictureUrl: 'ftp://cdn.example.com/me.png',
		});

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(
			'Picture URL must be an http(s) URL (got "ftp://cdn.example.com/me.png")',
		);
		expect(simulator.requests).toEqual([]);
	});

	it('asks for the MIME type when the URL does not tell it, before any request', async () => {
		const result = await runProfile('setPicture', {
			pictureSource: 'url',
			pictureUrl: 'https://cdn.example.com/avatar?size=640',
		});

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(/^Picture MIME Type is needed/);
		expect(simulator.requests).toEqual([]);
	});

	it('names the missing binary field before any request', async () => {
		const result = await runProfile(
			'setPicture',
			{ pictureSource: 'binary', pictureBinaryProperty: 'photo' },
			{ items: [binaryItem(TINY_PNG_BASE64, 'image/png', 'me.png')] },
		);

		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/photo/);
		expect(simulator.requests).toEqual([]);
	});

	it('surfaces the 422 of a session that is not connected', async () => {
		const result = await runProfile('setPicture', {
			session: PAIRING_SESSION,
			pictureSource: 'url',
			pictureUrl: 'https://cdn.example.com/me.png',
		});

		expect(result.error?.message).toBe(
			`Gateway error 422: Session status is not as expected. Try again later or restart the session (session "${PAIRING_SESSION}" is SCAN_QR_CODE, expected WORKING)`,
		);
		expect(simulator.requests).toHaveLength(1);
	});

	it('sends one request per input item with paired outputs', async () => {
		const pictures = ['AAEC', 'AwQF', 'BgcI'];
		const result = await runProfile(
			'setPicture',
			{ pictureSource: 'binary', pictureBinaryProperty: 'data' },
			{
				items: pictures.map((base64, index) =>
					binaryItem(base64, 'image/jpeg', `picture-${index}.jpg`),
				),
			},
		);

		expect(result.status).toBe('success');
		expect(simulator.requests.map((request) => request.body)).toEqual(
			pictures.map((base64, index) => ({
				file: { mimetype: 'image/jpeg', data: base64, filename: `picture-${index}.jpg` },
			})),
		);
		expect(result.outputs[0]).toEqual([
			{ json: { success: true }, pairedItem: { item: 0 } },
			{ json: { success: true }, pairedItem: { item: 1 } },
			{ json: { success: true }, pairedItem: { item: 2 } },
		]);
	});

	it('with Continue On Fail, a bad item becomes an error item and the others are sent', async () => {
		const result = await runProfile(
			'setPicture',
			{ pictureSource: 'url', pictureUrl: '={{ $json.url }}' },
			{
				items: [
					{ json: { url: 'https://cdn.example.com/one.png' } },
					{ json: { url: 'not a link' } },
					{ json: { url: 'https://cdn.example.com/three.jpg' } },
				],
				onError: 'continueRegularOutput',
			},
		);

		expect(result.status).toBe('success');
		expect(simulator.requests.map((request) => request.body)).toEqual([
			{
				file: {
					mimetype: 'image/png',
					url: 'https://cdn.example.com/one.png',
					filename: 'one.png',
				},
			},
			{
				file: {
					mimetype: 'image/jpeg',
					url: 'https://cdn.example.com/three.jpg',
					filename: 'three.jpg',
				},
			},
		]);
		expect(result.outputs[0]).toEqual([
			{ json: { success: true }, pairedItem: { item: 0 } },
			{
				json: { error: 'Picture URL must be an http(s) URL (got "not a link")' },
				pairedItem: { item: 1 },
			},
			{ json: { success: true }, pairedItem: { item: 2 } },
		]);
	});
});

describe('Profile > Delete Picture', () => {
	it('sends DELETE without a body and outputs the success of the gateway', async () => {
		const result = await runProfile('deletePicture');

		expectOneRequest(simulator, {
			method: 'DELETE',
			path: `/api/${SESSION}/profile/picture`,
			query: {},
		});
		expect(simulator.requests[0].body).toBeUndefined();
		expect(outputJson(result)).toEqual([{ success: true }]);
		expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('surfaces "no picture" (404) as the gateway error', async () => {
		await runProfile('deletePicture');
		const again = await runProfile('deletePicture');

		expect(again.status).toBe('error');
		expect(again.error?.name).toBe('NodeApiError');
		expect(again.error?.message).toBe('Gateway error 404: Profile picture not found');
		expect(again.error?.httpCode).toBe('404');
		expect(simulator.requests).toHaveLength(2);
	});

	it('outputs success when the gateway answers with an empty body', async () => {
		simulator.injectFault({ match: { path: '/profile/picture' }, status: 200, empty: true });

		const result = await runProfile('deletePicture');

		expect(outputJson(result)).toEqual([{ success: true }]);
	});
});
