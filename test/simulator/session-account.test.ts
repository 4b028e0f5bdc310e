import { SEED } from './index.cts';
import { gatewayClient, useSimulator } from './testing.cts';

const connected = SEED.instances.connected;
const pairing = SEED.instances.pairing;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];
const TINY_PNG_BASE64 =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

describe('session family: pairing, channels, profile, groups, files', () => {
	const sim = useSimulator();

	describe('POST /api/{session}/auth/request-code', () => {
		it('returns a pairing code for form 1 ({phone})', async () => {
			const response = await gatewayClient(sim).post(`/api/${pairing.name}/auth/request-code`, {
				phone: '5511987650099',
			});
			expect(response.status).toBe(201);
			expect(response.data).toEqual({ code: expect.stringMatching(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/) });
		});

		it('returns a pairing code for form 2 ({phoneNumber, method: null})', async () => {
			const response = await gatewayClient(sim).post(`/api/${pairing.name}/auth/request-code`, {
				phoneNumber: '+5511987650099',
				method: null,
			});
			expect(response.status).toBe(201);
			expect(response.data.code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
		});

		it('rejects a phone number that is not digits', async () => {
			const response = await gatewayClient(sim).post(`/api/${pairing.name}/auth/request-code`, {
				phone: '55 11 9876-5009',
			});
			expect(response.status).toBe(400);
			expect(response.data).toEqual({
				statusCode: 400,
				message: [
					'phone must be a phone number in international format, digits only, e.g. 5511999999999',
				],
				error: 'Bad Request',
			});
		});

		it('rejects a missing phone number and an unknown method', async () => {
			const response = await gatewayClient(sim).post(`/api/${pairing.name}/auth/request-code`, {
				method: 'pigeon',
			});
			expect(response.status).toBe(400);
			expect(response.data.message).toEqual([
				'phoneNumber should not be empty',
				'method must be one of the following values: sms, voice',
			]);
		});

		it('answers 422 for the sms/voice methods, which the engine does not support', async () => {
			const response = await gatewayClient(sim).post(`/api/${pairing.name}/auth/request-code`, {
				phoneNumber: '5511987650099',
				method: 'sms',
			});
			expect(response.status).toBe(422);
			expect(response.data).toEqual({
				statusCode: 422,
				message: "NOWEB engine doesn't support any 'method', remove it and try again",
				error: 'Unprocessable Entity',
			});
		});

		it('answers 422 when the session is already connected', async () => {
			const response = await gatewayClient(sim).post(`/api/${connected.name}/auth/request-code`, {
				phone: '5511987650000',
			});
			expect(response.status).toBe(422);
			expect(response.data).toEqual({
				error: 'Session status is not as expected. Try again later or restart the session',
				session: connected.name,
				status: 'WORKING',
				expected: ['SCAN_QR_CODE'],
			});
		});

		it('answers 401 without a key', async () => {
			const response = await gatewayClient(sim, null).post(
				`/api/${pairing.name}/auth/request-code`,
				{ phone: '5511987650099' },
			);
			expect(response.status).toBe(401);
			expect(response.data).toEqual({ statusCode: 401, message: 'Unauthorized' });
		});
	});

	describe('POST /api/{session}/channels/search/by-view', () => {
		const path = `/api/${connected.name}/channels/search/by-view`;

		it('pages through channels with form 1 and its defaults', async () => {
			const first = await gatewayClient(sim).post(path, {
				view: 'RECOMMENDED',
				countries: ['US', 'BR'],
				categories: [],
				limit: 2,
			});
			expect(first.status).toBe(200);
			expect(first.data.page).toEqual({
				startCursor: null,
				endCursor: expect.any(String),
				hasNextPage: true,
				hasPreviousPage: false,
			});
			expect(first.data.nextCursor).toBe(first.data.page.endCursor);
			expect(first.data.channels).toHaveLength(2);
			expect(first.data.channels[0]).toEqual({
				id: expect.stringMatching(/^\d+@newsletter$/),
				name: 'Global Football Live',
				invite: expect.stringMatching(/^https:\/\//),
				preview: expect.any(String),
				picture: expect.any(String),
				description: expect.any(String),
				verified: true,
				subscribersCount: 2_400_000,
			});

			const rest = await gatewayClient(sim).post(path, {
				view: 'RECOMMENDED',
				countries: ['US', 'BR'],
				categories: [],
				limit: 50,
				startCursor: first.data.page.endCursor,
			});
			expect(rest.status).toBe(200);
			expect(rest.data.page).toMatchObject({
				hasNextPage: false,
				hasPreviousPage: true,
				endCursor: null,
			});
			expect(rest.data.channels.map((channel: { name: string }) => channel.name)).toEqual([
				'Startup Daily',
				'Red Cross Updates',
				'Futebol Brasil',
			]);
		});

		it('accepts form 2 with `corntries` and `page`, lower-case views', async () => {
			const response = await gatewayClient(sim).post(path, {
				view: 'popular',
				categories: ['SPORTS'],
				corntries: ['BR'],
				page: { limit: 10, startCursor: '' },
			});
			expect(response.status).toBe(200);
			expect(response.data.channels.map((channel: { name: string }) => channel.name)).toEqual([
				'Futebol Brasil',
			]);
		});

		it('answers 400 when view is missing or unknown', async () => {
			const missing = await gatewayClient(sim).post(path, { countries: ['US'] });
			expect(missing.status).toBe(400);
			expect(missing.data).toEqual({
				statusCode: 400,
				message: ['view should not be empty'],
				error: 'Bad Request',
			});
			const unknown = await gatewayClient(sim).post(path, { view: 'BORING' });
			expect(unknown.status).toBe(400);
			expect(unknown.data.message).toEqual([
				'view must be one of the following values: RECOMMENDED, TRENDING, POPULAR, NEW',
			]);
		});

		it('answers 400 for an empty country list in form 1', async () => {
			const response = await gatewayClient(sim).post(path, { view: 'RECOMMENDED', countries: [] });
			expect(response.status).toBe(400);
			expect(response.data.message).toEqual(['countries must contain at least 1 elements']);
		});
	});

	describe('POST /api/{session}/channels', () => {
		it('creates a channel owned by the session', async () => {
			const response = await gatewayClient(sim).post(`/api/${connected.name}/channels`, {
				name: 'Weekly Deals',
				description: 'Our best prices every Friday',
				picture: { mimetype: 'image/png', data: TINY_PNG_BASE64, filename: 'deals.png' },
			});
			expect(response.status).toBe(201);
			expect(response.data).toEqual({
				id: expect.stringMatching(/^\d{18}@newsletter$/),
				name: 'Weekly Deals',
				invite: expect.stringMatching(/^https:\/\/www\.messenger\.net\/channel\//),
				role: 'OWNER',
				verified: false,
				subscribersCount: 0,
				preview: expect.stringContaining(`${sim.url}/api/files/${connected.name}/channel-`),
				picture: expect.stringContaining(`${sim.url}/api/files/${connected.name}/channel-`),
				description: 'Our best prices every Friday',
			});
			const picture = await gatewayClient(sim).get(response.data.picture, {
				responseType: 'arraybuffer',
			});
			expect(picture.status).toBe(200);
			expect(Buffer.from(picture.data).toString('base64')).toBe(TINY_PNG_BASE64);
		});

		it('accepts a picture given as a base64 string or a URL object', async () => {
			for (const picture of [
				TINY_PNG_BASE64,
				{ mimetype: 'image/jpeg', url: 'https://example.com/logo.jpg' },
			]) {
				const response = await gatewayClient(sim).post(`/api/${connected.name}/channels`, {
					name: 'Pictured',
					picture,
				});
				expect(response.status).toBe(201);
				expect(response.data.picture).toEqual(expect.any(String));
			}
		});

		it('answers 400 when the name is missing or the picture is malformed', async () => {
			const response = await gatewayClient(sim).post(`/api/${connected.name}/channels`, {
				description: 'No name',
				picture: { url: 'https://example.com/x.png' },
			});
			expect(response.status).toBe(400);
			expect(response.data).toEqual({
				statusCode: 400,
				message: ['name should not be empty', 'picture.mimetype must be a string'],
				error: 'Bad Request',
			});
		});
	});

	describe('profile', () => {
		it('GET /api/{session}/profile is not implemented (501)', async () => {
			const response = await gatewayClient(sim).get(`/api/${connected.name}/profile`);
			expect(response.status).toBe(501);
			expect(response.data).toEqual({
				statusCode: 501,
				message:
					'Getting the profile is not implemented yet. Check the docs: GET /api/{session}/profile',
				error: 'Not Implemented',
			});
		});

		it('DELETE removes the picture, then answers 404 when there is none', async () => {
			const deleted = await gatewayClient(sim).delete(`/api/${connected.name}/profile/picture`);
			expect(deleted.status).toBe(200);
			expect(deleted.data).toEqual({ success: true });
			const again = await gatewayClient(sim).delete(`/api/${connected.name}/profile/picture`);
			expect(again.status).toBe(404);
			expect(again.data).toEqual({
				statusCode: 404,
				message: 'Profile picture not found',
				error: 'Not Found',
			});
		});

		it('PUT sets a picture from base64 data that is then served', async () => {
			await gatewayClient(sim).delete(`/api/${connected.name}/profile/picture`);
			const put = await gatewayClient(sim).put(`/api/${connected.name}/profile/picture`, {
				file: { mimetype: 'image/png', data: TINY_PNG_BASE64, filename: 'me.png' },
			});
			expect(put.status).toBe(200);
			expect(put.data).toEqual({ success: true });
			const picture = await gatewayClient(sim).post(
				`/chat/fetchProfilePictureUrl/${connected.name}`,
				{
					number: connected.ownerNumber,
				},
			);
			expect(picture.data.profilePictureUrl).toBe(
				`${sim.url}/api/files/${connected.name}/profile-picture.png`,
			);
			const file = await gatewayClient(sim).get(picture.data.profilePictureUrl, {
				responseType: 'arraybuffer',
			});
			expect(Buffer.from(file.data).toString('base64')).toBe(TINY_PNG_BASE64);
		});

		it('PUT accepts a remote file and rejects a missing one', async () => {
			const remote = await gatewayClient(sim).put(`/api/${connected.name}/profile/picture`, {
				file: { mimetype: 'image/jpeg', url: 'https://example.com/me.jpg', filename: 'me.jpg' },
			});
			expect(remote.status).toBe(200);
			const missing = await gatewayClient(sim).put(`/api/${connected.name}/profile/picture`, {});
			expect(missing.status).toBe(400);
			expect(missing.data.message).toEqual(['file should not be empty']);
			const noSource = await gatewayClient(sim).put(`/api/${connected.name}/profile/picture`, {
				file: { mimetype: 'image/png' },
			});
			expect(noSource.status).toBe(400);
			expect(noSource.data.message).toEqual(['file must contain either url or data']);
		});
	});

	describe('groups', () => {
		it('refresh reports how many groups the session is in', async () => {
			const response = await gatewayClient(sim).post(`/api/${connected.name}/groups/refresh`);
			expect(response.status).toBe(200);
			expect(response.data).toEqual({ success: true, message: 'Groups refreshed', count: 2 });
		});

		it('leave works once (encoded @), then the group is not found', async () => {
			const path = `/api/${connected.name}/groups/${encodeURIComponent(SEED.groups.team.id)}/leave`;
			const left = await gatewayClient(sim).post(path);
			expect(left.status).toBe(200);
			expect(left.data).toEqual({ success: true, message: 'Left the group "Acme Team"' });
			const again = await gatewayClient(sim).post(path);
			expect(again.status).toBe(404);
			expect(again.data).toEqual({
				statusCode: 404,
				message: 'Group not found',
				error: 'Not Found',
			});
			const refreshed = await gatewayClient(sim).post(`/api/${connected.name}/groups/refresh`);
			expect(refreshed.data.count).toBe(1);
		});

		it('leave answers 400 for something that is not a group id', async () => {
			const response = await gatewayClient(sim).post(
				`/api/${connected.name}/groups/${SEED.contacts.alice.chatId}/leave`,
			);
			expect(response.status).toBe(400);
			expect(response.data).toEqual({
				statusCode: 400,
				message: ['id must be a group ID such as 120363000000000000@g.us'],
				error: 'Bad Request',
			});
		});
	});

	describe('GET /api/files/{session}/{file}', () => {
		it('serves seed media with its content type and requires the key', async () => {
			const path = `/api/files/${connected.name}/${SEED.messages.aliceImage.shortId}.png`;
			const file = await gatewayClient(sim).get(path, { responseType: 'arraybuffer' });
			expect(file.status).toBe(200);
			expect(file.headers['content-type']).toBe('image/png');
			expect([...Buffer.from(file.data).subarray(0, 4)]).toEqual(PNG_SIGNATURE);
			const unauthorized = await gatewayClient(sim, null).get(path);
			expect(unauthorized.status).toBe(401);
			const missing = await gatewayClient(sim).get(`/api/files/${connected.name}/nothing.png`);
			expect(missing.status).toBe(404);
			expect(missing.data).toEqual({
				statusCode: 404,
				message: 'File not found',
				error: 'Not Found',
			});
		});
	});
});
