import { SEED } from './index.cts';
import { gatewayClient, useSimulator } from './testing.cts';

const connected = SEED.instances.connected;
const sendText = `/message/sendText/${connected.name}`;
const textBody = { number: SEED.contacts.alice.number, textMessage: { text: 'hi' } };

describe('fault injection', () => {
	const sim = useSimulator();

	it('answers the next N matching requests with the given status and body, then normally', async () => {
		sim.injectFault({
			match: { method: 'POST', path: '/message/sendText/' },
			times: 2,
			status: 503,
			body: { error: 'busy' },
		});
		const client = gatewayClient(sim);
		const statuses = [];
		for (let attempt = 0; attempt < 3; attempt++) {
			const response = await client.post(sendText, textBody);
			statuses.push(response.status);
			if (response.status === 503) expect(response.data).toEqual({ error: 'busy' });
		}
		expect(statuses).toEqual([503, 503, 201]);
		expect(sim.requests.map((request) => request.faulted)).toEqual([true, true, undefined]);
	});

	it('leaves requests that do not match alone, and consumes rules in order', async () => {
		sim.injectFault({ match: { method: 'GET' }, status: 500, body: { n: 1 } });
		sim.injectFault({ match: { method: 'GET' }, status: 500, body: { n: 2 } });
		const post = await gatewayClient(sim).post(sendText, textBody);
		expect(post.status).toBe(201);
		const first = await gatewayClient(sim).get('/instance/fetchInstances');
		const second = await gatewayClient(sim).get('/instance/fetchInstances');
		const third = await gatewayClient(sim).get('/instance/fetchInstances');
		expect([first.data, second.data]).toEqual([{ n: 1 }, { n: 2 }]);
		expect(third.status).toBe(200);
	});

	it('applies before authentication', async () => {
		sim.injectFault({ status: 502, body: { message: 'Bad gateway' } });
		const response = await gatewayClient(sim, null).get('/instance/fetchInstances');
		expect(response.status).toBe(502);
		expect(response.data).toEqual({ message: 'Bad gateway' });
		expect(sim.requests[0]).toMatchObject({ auth: 'missing', faulted: true });
	});

	it('answers an HTML body (502 by default), as a proxy in front of the gateway would', async () => {
		sim.injectFault({ html: '<html><body><h1>502 Bad Gateway</h1></body></html>' });
		const response = await gatewayClient(sim).get('/instance/fetchInstances');
		expect(response.status).toBe(502);
		expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
		expect(response.data).toBe('<html><body><h1>502 Bad Gateway</h1></body></html>');
	});

	it('answers an empty body with the given status', async () => {
		sim.injectFault({ empty: true, status: 200 });
		const response = await gatewayClient(sim).post(sendText, textBody, { responseType: 'text' });
		expect(response.status).toBe(200);
		expect(response.data).toBe('');
	});

	it('answers a plain-text body when the body is a string', async () => {
		sim.injectFault({ status: 500, body: 'upstream exploded' });
		const response = await gatewayClient(sim).get('/instance/fetchInstances', {
			responseType: 'text',
		});
		expect(response.status).toBe(500);
		expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
		expect(response.data).toBe('upstream exploded');
	});

	it('delays and then answers normally when only latency is given', async () => {
		sim.injectFault({ latencyMs: 300 });
		const started = Date.now();
		const response = await gatewayClient(sim).post(sendText, textBody);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		expect(response.status).toBe(201);
		expect(response.data.key.remoteJid).toBe(SEED.contacts.alice.jid);
		expect(sim.requests[0].faulted).toBeUndefined();
	});

	it('delays and then answers the fault when latency comes with a status', async () => {
		sim.injectFault({ latencyMs: 200, status: 504, body: { message: 'Gateway Timeout' } });
		const started = Date.now();
		const response = await gatewayClient(sim).get('/instance/fetchInstances');
		expect(Date.now() - started).toBeGreaterThanOrEqual(190);
		expect(response.status).toBe(504);
		expect(response.data).toEqual({ message: 'Gateway Timeout' });
	});

	it('lets a client time out on a slow answer', async () => {
		sim.injectFault({ latencyMs: 2000 });
		const failure = await gatewayClient(sim)
			.get('/instance/fetchInstances', { timeout: 100 })
			.then(
				() => undefined,
				(error: { code?: string }) => error.code,
			);
		expect(failure).toBe('ECONNABORTED');
	});

	it('drops the socket without answering', async () => {
		sim.injectFault({ match: { path: '/message/' }, dropSocket: true });
		const failure = await gatewayClient(sim)
			.post(sendText, textBody)
			.then(
				() => 'answered',
				(error: { code?: string }) => error.code,
			);
		expect(failure).toBe('ECONNRESET');
		expect(sim.requests[0]).toMatchObject({ path: sendText, faulted: true });
		const next = await gatewayClient(sim).post(sendText, textBody);
		expect(next.status).toBe(201);
	});

	it('matches a substring of the body, so a fault hits the same chat wherever it comes in the run', async () => {
		const bruno = { number: SEED.contacts.bruno.number, textMessage: { text: 'hi' } };
		sim.injectFault({
			match: { path: '/message/sendText/', body: `"${bruno.number}"` },
			status: 500,
			body: { message: 'Injected fault' },
		});
		const client = gatewayClient(sim);
		const statuses = [];
		for (const body of [textBody, textBody, bruno, bruno]) {
			statuses.push((await client.post(sendText, body)).status);
		}
		// The rule waited for Bruno's first message, answered it, and was used up.
		expect(statuses).toEqual([201, 201, 500, 201]);
		expect(sim.requests.map((request) => request.faulted)).toEqual([
			undefined,
			undefined,
			true,
			undefined,
		]);
	});

	it('refuses a match whose fields are not text', async () => {
		expect(() => sim.injectFault({ match: { body: 5511 } } as never)).toThrow(
			'match.body must be a string',
		);
	});

	it('adds Retry-After to a 429 unless one is given', async () => {
		sim.injectFault({ status: 429, body: { message: 'Too Many Requests' } });
		sim.injectFault({
			status: 429,
			body: { message: 'Too Many Requests' },
			headers: { 'Retry-After': '7' },
		});
		const first = await gatewayClient(sim).get('/instance/fetchInstances');
		expect(first.status).toBe(429);
		expect(first.headers['retry-after']).toBe('1');
		expect(first.data).toEqual({ message: 'Too Many Requests' });
		const second = await gatewayClient(sim).get('/instance/fetchInstances');
		expect(second.headers['retry-after']).toBe('7');
	});

	it('is forgotten on reset', async () => {
		sim.injectFault({ status: 500 });
		sim.reset();
		const response = await gatewayClient(sim).get('/instance/fetchInstances');
		expect(response.status).toBe(200);
	});
});
