/**
 * Evolution API 2.4.0's licence gate (`evolutionVersion: '2.4.0'`, `licensed: false`): every
 * business route answers 503 LICENSE_REQUIRED, before the apikey is looked at, until the licence is
 * activated; the root and the licence routes are let through. The release options are checked.
 */
import { LICENCE_INSTANCE_ID, SEED, startSimulator, type SimulatorOptions } from './index.cts';
import { gatewayClient, useSimulator } from './testing.cts';

const INSTANCE = SEED.instances.connected.name;

/** The gate's body for a request that reached it at `host` over `scheme`. */
function licenceRequired(scheme: string, host: string) {
	const managerUrl = `${scheme}://${host}/manager/login`;
	return {
		error: 'service not activated',
		code: 'LICENSE_REQUIRED',
		register_url: managerUrl,
		instance_id: LICENCE_INSTANCE_ID,
		docs_url: 'https://docs.evolutionfoundation.com.br/licensing',
		message: `This Evolution API instance is not activated. Open ${managerUrl} to activate, or set AUTHENTICATION_API_KEY in your .env with a valid licensing key. Docs: https://docs.evolutionfoundation.com.br/licensing`,
	};
}

const BUSINESS_ROUTES: Array<[string, string, unknown]> = [
	['GET', '/instance/fetchInstances', undefined],
	['GET', `/instance/connectionState/${INSTANCE}`, undefined],
	['POST', `/message/sendText/${INSTANCE}`, { number: SEED.contacts.alice.number, text: 'Hi' }],
	['POST', `/chat/findMessages/${INSTANCE}`, {}],
	['GET', `/group/fetchAllGroups/${INSTANCE}?getParticipants=false`, undefined],
	['POST', `/webhook/set/${INSTANCE}`, { webhook: { enabled: false, url: 'https://a.example' } }],
	['GET', '/instance/not-a-route', undefined],
];

describe('Evolution API 2.4.0 without a licence', () => {
	const sim = useSimulator({ gateway: 'evolution-v2', evolutionVersion: '2.4.0', licensed: false });
	const host = () => new URL(sim.url).host;

	it.each(BUSINESS_ROUTES)(
		'%s %s answers 503 LICENSE_REQUIRED, with or without a key',
		async (method, url, data) => {
			for (const key of [sim.apiKey, 'wrong-key', null]) {
				const response = await gatewayClient(sim, key).request({ method, url, data });
				expect([response.status, response.data]).toEqual([503, licenceRequired('http', host())]);
			}
			expect(sim.requestsTo(url.split('?')[0]).length).toBe(3);
		},
	);

	it('builds register_url from X-Forwarded-Proto and Host', async () => {
		const response = await gatewayClient(sim).get('/instance/fetchInstances', {
			headers: { 'X-Forwarded-Proto': 'https', Host: 'evo.example.com' },
		});
		expect(response.data).toEqual(licenceRequired('https', 'evo.example.com'));
	});

	it.each([
		['/', 200, expect.objectContaining({ version: '2.4.0' })],
		['/license/status', 200, { status: 'inactive', instance_id: LICENCE_INSTANCE_ID }],
		[
			'/license/register',
			200,
			{ status: 'pending', register_url: expect.stringMatching(/\/manager\/login$/) },
		],
		[
			'/license/activate',
			400,
			{
				error: 'Missing code parameter',
				message: 'Provide ?code=AUTHORIZATION_CODE from the registration callback.',
			},
		],
	])('lets GET %s through (%d)', async (url, status, body) => {
		const response = await gatewayClient(sim, null).get(url);
		expect([response.status, response.data]).toEqual([status, body]);
	});

	it('opens once activated by setLicensed(true), and closes again with setLicensed(false)', async () => {
		const fetchInstances = () => gatewayClient(sim).get('/instance/fetchInstances');
		sim.setLicensed(true);
		expect((await fetchInstances()).status).toBe(200);
		expect((await gatewayClient(sim).get('/license/status')).data.status).toBe('active');
		sim.setLicensed(false);
		expect((await fetchInstances()).status).toBe(503);
	});

	it('opens over POST /__sim/license {active: true}', async () => {
		const control = gatewayClient(sim, null);
		const response = await control.post('/__sim/license', { active: true });
		expect([response.status, response.data]).toEqual([200, { active: true }]);
		expect((await gatewayClient(sim).get('/instance/fetchInstances')).status).toBe(200);
		const invalid = await control.post('/__sim/license', { active: 'yes' });
		expect([invalid.status, invalid.data]).toEqual([
			400,
			{ error: 'active must be true or false' },
		]);
	});

	it('opens once an activation code is exchanged (GET /license/activate?code=)', async () => {
		const activated = await gatewayClient(sim, null).get('/license/activate?code=abc123');
		expect(activated.data).toEqual({
			status: 'active',
			message: 'License activated successfully!',
		});
		expect((await gatewayClient(sim).get('/instance/fetchInstances')).status).toBe(200);
		const again = await gatewayClient(sim, null).get('/license/activate?code=abc123');
		expect(again.data).toEqual({ status: 'active', message: 'License is already active' });
	});

	it('is unlicensed again after reset()', async () => {
		sim.setLicensed(true);
		sim.reset();
		expect((await gatewayClient(sim).get('/instance/fetchInstances')).status).toBe(503);
	});

	it("keeps serving the media files (they stand in for WhatsApp's servers)", async () => {
		const response = await gatewayClient(sim).get(`/api/files/${INSTANCE}/profile-picture.png`);
		expect(response.status).toBe(200);
	});
});

describe('Evolution API 2.4.0 with its licence (the default)', () => {
	const sim = useSimulator({ gateway: 'evolution-v2', evolutionVersion: '2.4.0' });

	it('answers business routes and says the licence is active', async () => {
		expect((await gatewayClient(sim).get('/instance/fetchInstances')).status).toBe(200);
		const status = await gatewayClient(sim, null).get('/license/status');
		expect(status.data).toEqual({ status: 'active', instance_id: LICENCE_INSTANCE_ID });
	});
});

describe('Evolution API 2.3.6 has no licence', () => {
	const sim = useSimulator({ gateway: 'evolution-v2' });

	it('has no /license routes and refuses setLicensed', async () => {
		const response = await gatewayClient(sim, null).get('/license/status');
		expect(response.status).toBe(404);
		expect(() => sim.setLicensed(false)).toThrow(/Only Evolution API 2.4.0 has a licence/);
		const control = await gatewayClient(sim, null).post('/__sim/license', { active: false });
		expect(control.status).toBe(409);
	});
});

describe('release and engine options', () => {
	it.each<[SimulatorOptions, RegExp]>([
		[{ evolutionVersion: '2.4.0' }, /evolutionVersion applies to the evolution-v2 gateway/],
		[{ gateway: 'waha', licensed: false }, /licensed applies to the evolution-v2 gateway/],
		[
			{ gateway: 'waha', evolutionNumberCache: false },
			/evolutionNumberCache applies to the evolution-v2 gateway/,
		],
		[{ gateway: 'evolution-v2', wahaEngine: 'GOWS' }, /wahaEngine applies to the waha gateway/],
		[{ wahaStore: false }, /wahaStore applies to the waha gateway/],
		[{ gateway: 'evolution-v2', licensed: false }, /licensed: false needs evolutionVersion 2.4.0/],
		[
			{ gateway: 'evolution-v2', evolutionVersion: '2.5.0' as never },
			/evolutionVersion must be one of/,
		],
		[{ gateway: 'waha', wahaEngine: 'WPP' as never }, /wahaEngine must be one of/],
	])('refuses %j', async (options, message) => {
		await expect(startSimulator(options)).rejects.toThrow(message);
	});
});
