/**
 * `npm run sandbox:say -- "hello"`: a seed contact writes to the sandbox's connected session, then
 * this prints what the echo bot answered (read from the simulator's request log).
 * `npm run sandbox:qr`: restarts the pairing session so it emits a new QR code.
 */
import axios from 'axios';

import { SEED } from '../simulator/index.cts';

const SIMULATOR_URL = `http://127.0.0.1:${process.env.SANDBOX_SIMULATOR_PORT ?? 3000}`;

async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

async function sayToBot(text: string): Promise<void> {
	const contact = SEED.contacts.alice;
	const injected = await axios.post(`${SIMULATOR_URL}/__sim/inbound`, {
		instance: SEED.instances.connected.name,
		from: contact.number,
		text,
	});
	console.log(
		`${contact.name} (${contact.number}) wrote "${text}" (message ${injected.data.id ?? ''})`,
	);
	for (let attempt = 0; attempt < 50; attempt++) {
		await sleep(200);
		const log = await axios.get(`${SIMULATOR_URL}/__sim/requests`, {
			// `/message/sendText/<session>` (Evolution API and the Messaging Gateway API), `/api/sendText` (WAHA).
			params: { path: 'sendText' },
		});
		const replies = (
			log.data as Array<{
				body: { number?: string; chatId?: string; text?: string; textMessage?: { text?: string } };
				at: number;
			}>
		).filter(
			(request) =>
				(request.body?.number === contact.number || request.body?.chatId === contact.chatId) &&
				request.at >= Date.now() - 15_000,
		);
		if (replies.length) {
			// The Messaging Gateway API's body, or Evolution API v2's and WAHA's (`npm start -- --gateway …`).
			const body = replies.at(-1)?.body;
			console.log(`The bot answered: "${body?.textMessage?.text ?? body?.text}"`);
			return;
		}
	}
	console.log(
		'No answer within 10 s: is `npm start` running, and is the "Echo bot" workflow active?',
	);
}

async function showQrCode(): Promise<void> {
	const session = SEED.instances.pairing.name;
	// The key in each gateway's header; each restarts on its own route: Evolution API v2 with POST,
	// the Messaging Gateway API (v1's route) with PUT, WAHA under /api/sessions.
	const headers = { apikey: SEED.defaultApiKey, 'X-Api-Key': SEED.defaultApiKey };
	const routes: Array<['post' | 'put', string]> = [
		['post', `/instance/restart/${session}`],
		['put', `/instance/restart/${session}`],
		['post', `/api/sessions/${session}/restart`],
	];
	let restart = { status: 404, data: undefined as unknown };
	for (const [method, route] of routes) {
		if (restart.status !== 404) break;
		restart = await axios[method](`${SIMULATOR_URL}${route}`, undefined, {
			headers,
			validateStatus: () => true,
		});
	}
	console.log(
		`Restarted ${session}: ${JSON.stringify(restart.data)}. Open the "QR login" workflow's executions in n8n to see the QR code.`,
	);
}

const [command, ...words] = process.argv.slice(2);
const action =
	command === '--qr'
		? showQrCode()
		: sayToBot([command, ...words].filter(Boolean).join(' ') || 'hello');
action.catch((error) => {
	console.error(
		`Could not reach the sandbox simulator at ${SIMULATOR_URL}: ${(error as Error).message}. Start it with npm start.`,
	);
	process.exit(1);
});
