import type { INodeParameters } from 'n8n-workflow';

import { SEED } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { expectOneRequest, outputJson, runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';

const CONNECTED = SEED.instances.connected.name;
const PAIRING = SEED.instances.pairing.name;
const PAIRING_NUMBER = SEED.instances.pairing.ownerNumber;
const PAIRING_CODE = /^[A-Z0-9]{4}-[A-Z0-9]{4}$/;

const simulator = useSimulator();

async function runSession(
	operation: string,
	parameters: INodeParameters,
	options: RunGatewayOptions = {},
) {
	return await runGateway(simulator, { resource: 'session', operation, ...parameters }, options);
}

describe('Session > Request Pairing Code', () => {
	it('shape A: posts {phoneNumber} as digits and outputs the code', async () => {
		const result = await runSession('requestPairingCode', {
			session: PAIRING,
			phoneNumber: '+55 (11) 98765-0099',
		});

		expect(result.status).toBe('success');
		expectOneRequest(simulator, {
			method: 'POST',
			path: `/api/${PAIRING}/auth/request-code`,
			query: {},
		});
		expect(simulator.requests[0].body).toEqual({ phoneNumber: PAIRING_NUMBER });
		expect(outputJson(result)).toEqual([
			{ session: PAIRING, phoneNumber: PAIRING_NUMBER, code: expect.stringMatching(PAIRING_CODE) },
		]);
		expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('shape B: posts {phone} as digits', async () => {
		const result = await runSession(
			'requestPairingCode',
			{ session: PAIRING, phoneNumber: `${PAIRING_NUMBER}@c.us` },
			{ requestBodyStyle: 'jidSessionId' },
		);

		expect(simulator.requests[0].path).toBe(`/api/${PAIRING}/auth/request-code`);
		expect(simulator.requests[0].body).toEqual({ phone: PAIRING_NUMBER });
		expect(outputJson(result)).toEqual([
			{ session: PAIRING, phoneNumber: PAIRING_NUMBER, code: expect.stringMatching(PAIRING_CODE) },
		]);
	});

	it('surfaces the 422 of a session that is already connected', async () => {
		const result = await runSession('requestPairingCode', {
			session: CONNECTED,
			phoneNumber: SEED.instances.connected.ownerNumber,
		});

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(
			`Gateway error 422: Session status is not as expected. Try again later or restart the session (session "${CONNECTED}" is WORKING, expected SCAN_QR_CODE)`,
		);
		expect(result.error?.description).toMatch(/already connected/);
		expect(simulator.requests).toHaveLength(1);
	});

	it('rejects a phone number that is not one before any request', async () => {
		const result = await runSession('requestPairingCode', {
			session: PAIRING,
			phoneNumber: 'call me',
		});

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(
			/^Phone Number must be a phone number .*\(got "call me"\)$/,
		);
		expect(result.error?.description).toMatch(/country code/);
		expect(simulator.requests).toEqual([]);
	});

	it('rejects a group ID as phone number before any request', async () => {
		const result = await runSession('requestPairingCode', {
			session: PAIRING,
			phoneNumber: SEED.groups.hikers.id,
		});

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(/^Phone Number must be a phone number/);
		expect(simulator.requests).toEqual([]);
	});
});

describe('Session > Restart', () => {
	it('puts to the instance restart endpoint and outputs session and state', async () => {
		const result = await runSession('restart', { session: CONNECTED });

		expectOneRequest(simulator, {
			method: 'PUT',
			path: `/instance/restart/${CONNECTED}`,
			query: {},
		});
		expect(simulator.requests[0].body).toBeUndefined();
		expect(outputJson(result)).toEqual([{ session: CONNECTED, state: 'open' }]);
		expect(result.outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('outputs the state of an instance that is still pairing', async () => {
		const result = await runSession('restart', { session: PAIRING });

		expect(outputJson(result)).toEqual([{ session: PAIRING, state: 'connecting' }]);
	});

	it('reads the real gateway key instanceName as the session too', async () => {
		simulator.injectFault({
			match: { path: '/instance/restart/' },
			status: 200,
			body: { instance: { instanceName: CONNECTED, state: 'open' } },
		});

		const result = await runSession('restart', { session: CONNECTED });

		expect(outputJson(result)).toEqual([{ session: CONNECTED, state: 'open' }]);
	});

	it('surfaces an unknown instance as the gateway error', async () => {
		const result = await runSession('restart', { session: 'ghost' });

		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('Gateway error 404: The "ghost" instance does not exist');
		expect(result.error?.httpCode).toBe('404');
	});
});

describe('Session > Set Presence', () => {
	it('posts the presence and, as the gateway answers nothing, outputs what was done', async () => {
		const result = await runSession('setPresence', {
			session: CONNECTED,
			presence: 'unavailable',
		});

		expectOneRequest(simulator, {
			method: 'POST',
			path: `/instance/setPresence/${CONNECTED}`,
			query: {},
		});
		expect(simulator.requests[0].body).toEqual({ presence: 'unavailable' });
		expect(outputJson(result)).toEqual([
			{ success: true, session: CONNECTED, presence: 'unavailable' },
		]);
	});

	it('sends the default presence "available"', async () => {
		await runSession('setPresence', { session: CONNECTED });

		expect(simulator.requests[0].body).toEqual({ presence: 'available' });
	});

	it('surfaces the gateway error of an instance that is not connected', async () => {
		const result = await runSession('setPresence', { session: PAIRING, presence: 'available' });

		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('Gateway error 500: Connection Closed');
		expect(simulator.requests).toHaveLength(1);
	});

	it('sends one request per item with paired outputs', async () => {
		const presences = ['available', 'composing', 'unavailable'];
		const result = await runSession(
			'setPresence',
			{ session: CONNECTED, presence: '={{ $json.presence }}' },
			{ items: presences.map((presence) => ({ json: { presence } })) },
		);

		expect(simulator.requests.map((request) => request.body)).toEqual(
			presences.map((presence) => ({ presence })),
		);
		expect(result.outputs[0]).toEqual(
			presences.map((presence, index) => ({
				json: { success: true, session: CONNECTED, presence },
				pairedItem: { item: index },
			})),
		);
	});

	it('with Continue On Fail, a failing item becomes an error item and the others go on', async () => {
		const result = await runSession(
			'setPresence',
			{ session: '={{ $json.session }}', presence: 'available' },
			{
				items: [CONNECTED, PAIRING, CONNECTED].map((session) => ({ json: { session } })),
				onError: 'continueRegularOutput',
			},
		);

		expect(result.status).toBe('success');
		expect(simulator.requests).toHaveLength(3);
		expect(result.outputs[0]).toEqual([
			{
				json: { success: true, session: CONNECTED, presence: 'available' },
				pairedItem: { item: 0 },
			},
			{
				json: {
					error: 'Gateway error 500: Connection Closed',
					message: expect.stringContaining("gateway's logs"),
				},
				pairedItem: { item: 1 },
			},
			{
				json: { success: true, session: CONNECTED, presence: 'available' },
				pairedItem: { item: 2 },
			},
		]);
	});
});

describe('Session > Get Connection State', () => {
	it.each([
		[CONNECTED, 'open'],
		[PAIRING, 'connecting'],
	])('%s is %s', async (session, state) => {
		const result = await runSession('getConnectionState', { session });

		expectOneRequest(simulator, { method: 'GET', path: `/instance/connectionState/${session}` });
		expect(outputJson(result)).toEqual([{ session, state }]);
	});

	it.each([
		[
			'no state',
			{},
			/^Gateway error: the answer has no connection state \(got an object \(\{\}\)\)$/,
		],
		['an unknown session', undefined, /^Gateway error 404: The "ghost" instance does not exist/],
	])('fails on %s with the gateway words', async (_case, body, message) => {
		if (body)
			simulator.injectFault({ match: { path: '/instance/connectionState/' }, status: 200, body });
		const result = await runSession('getConnectionState', { session: body ? CONNECTED : 'ghost' });

		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(message);
	});
});

describe('Session > Connect', () => {
	it('starts pairing: the QR code as a PNG in binary "data", the pairing code and the count in JSON', async () => {
		const first = await runSession('connect', { session: PAIRING });
		const second = await runSession('connect', { session: PAIRING });

		expect(simulator.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			`GET /instance/connect/${PAIRING}`,
			`GET /instance/connect/${PAIRING}`,
		]);
		const [item] = first.outputs[0];
		expect(item.json).toEqual({
			session: PAIRING,
			state: 'connecting',
			qrCode: true,
			pairingCode: expect.stringMatching(/^[A-Z0-9]{8}$/),
			code: expect.any(String),
			count: 1,
		});
		expect(item.binary?.data).toMatchObject({
			mimeType: 'image/png',
			fileName: `qrcode-${PAIRING}.png`,
		});
		const png = Buffer.from(item.binary!.data.data, 'base64');
		expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
		expect(outputJson(second)[0]).toMatchObject({ count: 2 });
		// A QR code is a secret to whoever scans it, not the gateway's: only the PNG, no data: URI in JSON.
		expect(JSON.stringify(item.json)).not.toContain('base64');
	});

	it('puts the QR code in the chosen binary field', async () => {
		const result = await runSession('connect', { session: PAIRING, binaryPropertyName: 'qr' });

		expect(Object.keys(result.outputs[0][0].binary ?? {})).toEqual(['qr']);
	});

	it('a connected session has nothing to scan: its state, no binary', async () => {
		const result = await runSession('connect', { session: CONNECTED });

		expect(result.outputs[0][0]).toMatchObject({
			json: { session: CONNECTED, state: 'open', qrCode: false },
		});
		expect(result.outputs[0][0].binary).toBeUndefined();
	});
});

describe('Session > Log Out', () => {
	it('unlinks the session, which is then closed; a second log out gets the gateway words', async () => {
		const first = await runSession('logout', { session: PAIRING });
		const state = await runSession('getConnectionState', { session: PAIRING });
		const second = await runSession('logout', { session: PAIRING });

		expect(simulator.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			`DELETE /instance/logout/${PAIRING}`,
			`GET /instance/connectionState/${PAIRING}`,
			`DELETE /instance/logout/${PAIRING}`,
		]);
		expect(outputJson(first)).toEqual([
			{ session: PAIRING, loggedOut: true, message: 'Instance logged out' },
		]);
		expect(outputJson(state)).toEqual([{ session: PAIRING, state: 'close' }]);
		expect(second.status).toBe('error');
		expect(second.error?.message).toBe(
			`Gateway error 400: The "${PAIRING}" instance is not connected`,
		);
	});
});
