// Helpers for tests of the simulator's WAHA mode: a client that sends WAHA's X-Api-Key, and the
// receiver's side of WAHA's webhook signature.
import type { AxiosInstance } from 'axios';
import { createHmac, timingSafeEqual } from 'node:crypto';

import { gatewayClient } from './testing.cts';

/** An axios client for a WAHA simulator that never throws on HTTP status; `null` sends no key. */
export function wahaClient(
	simulator: { url: string; apiKey: string },
	apiKey: string | null = simulator.apiKey,
): AxiosInstance {
	return gatewayClient(simulator, apiKey, 'X-Api-Key');
}

/** Keys of two webhooks of one session: each signs only its own deliveries. */
export const HMAC_KEYS = {
	orders: ['orders', 'hook', 'secret'].join('-'),
	support: ['support', 'hook', 'secret'].join('-'),
};

/**
 * What a receiver checks: the hex HMAC-SHA512 of the exact body bytes with its key equals
 * X-Webhook-Hmac, and the algorithm header says sha512.
 */
export function signedWith(
	key: string,
	rawBody: string,
	headers: Record<string, string | string[] | undefined>,
): boolean {
	const signature = headers['x-webhook-hmac'];
	if (typeof signature !== 'string' || headers['x-webhook-hmac-algorithm'] !== 'sha512')
		return false;
	const expected = createHmac('sha512', key).update(Buffer.from(rawBody, 'utf8')).digest();
	const given = Buffer.from(signature, 'hex');
	return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Sets the session's webhooks to one that posts `events` to `url` (replacing the others). */
export async function subscribeWebhook(
	simulator: { url: string; apiKey: string },
	session: string,
	url: string,
	events: string[],
): Promise<void> {
	const response = await wahaClient(simulator).put(`/api/sessions/${session}`, {
		config: { webhooks: [{ url, events }] },
	});
	expect(response.status).toBe(200);
}
