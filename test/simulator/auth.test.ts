import { SEED } from './index.cts';
import { gatewayClient, useSimulator } from './testing.cts';

const connected = SEED.instances.connected;
const pairing = SEED.instances.pairing;

describe('simulator authentication and routing', () => {
	const sim = useSimulator();

	describe('instance family (Evolution dialect)', () => {
		it('answers 401 with the string message "Unauthorized" when the key is missing', async () => {
			const response = await gatewayClient(sim, null).get(`/webhook/find/${connected.name}`);
			expect(response.status).toBe(401);
			expect(response.data).toEqual({
				status: 401,
				error: 'Unauthorized',
				response: { message: 'Unauthorized' },
			});
			expect(sim.requests.at(-1)?.auth).toBe('missing');
		});

		it('answers 401 when the key is wrong', async () => {
			const response = await gatewayClient(sim, 'wrong-key').get(`/webhook/find/${connected.name}`);
			expect(response.status).toBe(401);
			expect(response.data).toEqual({
				status: 401,
				error: 'Unauthorized',
				response: { message: 'Unauthorized' },
			});
			expect(sim.requests.at(-1)?.auth).toBe('invalid');
		});

		it('checks that the instance exists before it checks the key', async () => {
			const response = await gatewayClient(sim, 'wrong-key').get('/webhook/find/no-such-instance');
			expect(response.status).toBe(404);
			expect(response.data).toEqual({
				status: 404,
				error: 'Not Found',
				response: { message: ['The "no-such-instance" instance does not exist'] },
			});
		});

		it("accepts the instance's own token as well as the global key", async () => {
			const response = await gatewayClient(sim, connected.token).get(
				`/webhook/find/${connected.name}`,
			);
			expect(response.status).toBe(200);
			expect(sim.requests.at(-1)?.auth).toBe('valid');
		});

		it("rejects another instance's token", async () => {
			const response = await gatewayClient(sim, pairing.token).get(
				`/webhook/find/${connected.name}`,
			);
			expect(response.status).toBe(401);
			expect(sim.requests.at(-1)?.auth).toBe('invalid');
		});

		it('answers unknown routes with "Cannot <METHOD> <url>"', async () => {
			const response = await gatewayClient(sim).post('/message/sendTemplate/acme-sales?x=1', {});
			expect(response.status).toBe(404);
			expect(response.data).toEqual({
				status: 404,
				error: 'Not Found',
				response: { message: ['Cannot POST /message/sendTemplate/acme-sales?x=1'] },
			});
		});

		it('rejects a malformed JSON body with 400 before any guard', async () => {
			const response = await gatewayClient(sim, null).post(
				`/message/sendText/${connected.name}`,
				'{"number": ',
				{
					headers: { 'Content-Type': 'application/json' },
					transformRequest: [(data: unknown) => data],
				},
			);
			expect(response.status).toBe(400);
			expect(response.data).toMatchObject({ status: 400, error: 'Bad Request' });
			expect(typeof response.data.response.message).toBe('string');
		});
	});

	it("answers GET / without a key, like Evolution's welcome route", async () => {
		const response = await gatewayClient(sim, null).get('/');
		expect(response.status).toBe(200);
		expect(response.data).toEqual({
			status: 200,
			message: 'Welcome to the messaging gateway simulator, it is working!',
			version: '1.8.2',
		});
	});

	describe('GET /instance/fetchInstances', () => {
		it('lists every instance for the global key', async () => {
			const response = await gatewayClient(sim).get('/instance/fetchInstances');
			expect(response.status).toBe(200);
			expect(response.data).toEqual([
				{
					instance: {
						instanceName: connected.name,
						instanceId: connected.instanceId,
						owner: connected.ownerJid,
						profileName: connected.profileName,
						profilePictureUrl: `${sim.url}/api/files/${connected.name}/profile-picture.png`,
						profileStatus: connected.profileStatus,
						status: 'open',
						serverUrl: sim.url,
						apikey: connected.token,
						integration: { integration: 'WHATSAPP-BAILEYS', token: connected.token },
					},
				},
				{
					instance: {
						instanceName: pairing.name,
						instanceId: pairing.instanceId,
						status: 'connecting',
						serverUrl: sim.url,
						apikey: pairing.token,
						integration: { integration: 'WHATSAPP-BAILEYS', token: pairing.token },
					},
				},
			]);
		});

		it("lists only the token's instance for an instance token", async () => {
			const response = await gatewayClient(sim, pairing.token).get('/instance/fetchInstances');
			expect(response.status).toBe(200);
			expect(
				response.data.map(
					(item: { instance: { instanceName: string } }) => item.instance.instanceName,
				),
			).toEqual([pairing.name]);
		});

		it('filters by instanceName and answers 404 for an unknown one', async () => {
			const found = await gatewayClient(sim).get('/instance/fetchInstances', {
				params: { instanceName: pairing.name },
			});
			expect(found.status).toBe(200);
			expect(found.data).toHaveLength(1);
			const missing = await gatewayClient(sim).get('/instance/fetchInstances', {
				params: { instanceName: 'ghost' },
			});
			expect(missing.status).toBe(404);
			expect(missing.data).toEqual({
				status: 404,
				error: 'Not Found',
				response: { message: ['Instance "ghost" not found'] },
			});
		});

		it('answers 401 in the Evolution dialect for a missing or wrong key', async () => {
			for (const key of [null, 'nope']) {
				const response = await gatewayClient(sim, key).get('/instance/fetchInstances');
				expect(response.status).toBe(401);
				expect(response.data).toEqual({
					status: 401,
					error: 'Unauthorized',
					response: { message: 'Unauthorized' },
				});
			}
		});
	});

	describe('session family (Nest dialect)', () => {
		it('answers 401 {statusCode, message} for a missing or wrong key', async () => {
			for (const key of [null, connected.token, 'nope']) {
				const response = await gatewayClient(sim, key).get(`/api/${connected.name}/chats/overview`);
				expect(response.status).toBe(401);
				expect(response.data).toEqual({ statusCode: 401, message: 'Unauthorized' });
			}
		});

		it('checks the key before the session exists', async () => {
			const response = await gatewayClient(sim, 'nope').get('/api/ghost/chats/overview');
			expect(response.status).toBe(401);
		});

		it('rejects a malformed JSON body with a Nest 400', async () => {
			const response = await gatewayClient(sim).post('/api/sendPoll', '{"session":', {
				headers: { 'Content-Type': 'application/json' },
				transformRequest: [(data: unknown) => data],
			});
			expect(response.status).toBe(400);
			expect(response.data).toEqual({
				statusCode: 400,
				message: expect.any(String),
				error: 'Bad Request',
			});
		});

		it("answers 404 with WAHA's text for an unknown session", async () => {
			const response = await gatewayClient(sim).get('/api/ghost/chats/overview');
			expect(response.status).toBe(404);
			expect(response.data).toEqual({
				statusCode: 404,
				message:
					"We didn't find a session with name 'ghost'.\nPlease start it first by using POST /api/sessions/ghost/start request",
				error: 'Not Found',
			});
		});

		it('answers unknown routes with 401 first, then Nest 404', async () => {
			const unauthorized = await gatewayClient(sim, null).get('/api/nothing/here/at/all');
			expect(unauthorized.status).toBe(401);
			const notFound = await gatewayClient(sim).get('/api/nothing/here/at/all');
			expect(notFound.status).toBe(404);
			expect(notFound.data).toEqual({
				statusCode: 404,
				message: 'Cannot GET /api/nothing/here/at/all',
				error: 'Not Found',
			});
		});

		it('answers 422 with an object body when the session is not WORKING', async () => {
			const response = await gatewayClient(sim).get(`/api/${pairing.name}/chats/overview`);
			expect(response.status).toBe(422);
			expect(response.data).toEqual({
				error: 'Session status is not as expected. Try again later or restart the session',
				session: pairing.name,
				status: 'SCAN_QR_CODE',
				expected: ['WORKING'],
			});
		});
	});
});
