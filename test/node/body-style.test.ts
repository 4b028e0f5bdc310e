/**
 * Request Body Style: named by what users know, and "Detect Automatically" finds the style a
 * gateway reads from its own 400, so nobody has to guess from an error.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { MessagingGatewayApi } from '../../credentials/MessagingGatewayApi.credentials';
import { BODY_STYLE_LABELS } from '../../nodes/shared/transport';
import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { byId, jsonItems, outputJson, runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const { alice, bruno } = SEED.contacts;

/** A gateway that reads only one style answers the other with a Nest-style 400, as real ones do. */
const REJECTS = {
	chatIdSession: {
		match: { path: '/api/sendPoll', body: '"chatId"' },
		message: ['property chatId should not exist', 'jid must be a string'],
	},
	jidSessionId: {
		match: { path: '/api/sendPoll', body: '"jid"' },
		message: ['property jid should not exist', 'chatId must be a string'],
	},
};

let simulator: Simulator;

// A fresh gateway (a new Base URL) per test: what "Detect Automatically" learned stays with its Base URL.
beforeEach(async () => {
	simulator = await startSimulator();
});
afterEach(async () => {
	await simulator.stop();
});

function rejectStyle(style: keyof typeof REJECTS): void {
	simulator.injectFault({
		match: REJECTS[style].match,
		times: 100,
		status: 400,
		body: { statusCode: 400, message: REJECTS[style].message, error: 'Bad Request' },
	});
}

async function sendPolls(chats: string[], options: RunGatewayOptions) {
	return await runGateway(
		simulator,
		{
			resource: 'message',
			operation: 'sendPoll',
			session: SESSION,
			chatId: '={{ $json.chat }}',
			question: 'Lunch?',
			pollOptions: ['Yes', 'No'],
		},
		{ items: jsonItems(...chats.map((chat) => ({ chat }))), ...options },
	);
}

/** Which style each poll request was sent in. */
function stylesSent(): string[] {
	return simulator
		.requestsTo('/api/sendPoll', 'POST')
		.map((request) => ('chatId' in (request.body as object) ? 'chatIdSession' : 'jidSessionId'));
}

describe('the Request Body Style choices', () => {
	it('are named by the fields and the gateways a user knows, the common style first', () => {
		const field = new MessagingGatewayApi().properties.find(
			(property) => property.name === 'requestBodyStyle',
		);
		expect(
			(field?.options as INodePropertyOptions[]).map((option) => [option.name, option.value]),
		).toEqual([
			['chatId + session (Most Gateways)', 'chatIdSession'],
			['jid + sessionId (Wappfy-Style Gateways)', 'jidSessionId'],
			['Detect Automatically', 'auto'],
		]);
		expect(field?.default).toBe('chatIdSession');
		// Messages that tell the user which style to pick name it as the credential does.
		for (const [style, label] of Object.entries(BODY_STYLE_LABELS)) {
			expect(field?.options).toContainEqual(expect.objectContaining({ name: label, value: style }));
		}
		expect(field?.description).toMatch(/fail with 400 naming jid or sessionId/);
		expect(JSON.stringify(field)).not.toMatch(/Shape [AB]/);
	});
});

describe('Detect Automatically', () => {
	it('keeps the chatId + session style when the gateway takes it: one request per item', async () => {
		const result = await sendPolls([alice.chatId, bruno.chatId], { requestBodyStyle: 'auto' });
		expect(outputJson(result)).toHaveLength(2);
		expect(stylesSent()).toEqual(['chatIdSession', 'chatIdSession']);
	});

	it('switches to jid + sessionId after one 400 and keeps it for the next items', async () => {
		rejectStyle('chatIdSession');
		const result = await sendPolls([alice.chatId, bruno.chatId, alice.chatId], {
			requestBodyStyle: 'auto',
		});
		expect(result.status).toBe('success');
		expect(outputJson(result)).toHaveLength(3);
		expect(stylesSent()).toEqual(['chatIdSession', 'jidSessionId', 'jidSessionId', 'jidSessionId']);
		expect(simulator.requestsTo('/api/sendPoll', 'POST')[1].body).toMatchObject({
			sessionId: SESSION,
			jid: alice.jid,
		});
	});

	it('remembers the style for the gateway in the next run', async () => {
		rejectStyle('chatIdSession');
		await sendPolls([alice.chatId], { requestBodyStyle: 'auto' });
		simulator.clearLogs();
		await sendPolls([bruno.chatId], { requestBodyStyle: 'auto' });
		expect(stylesSent()).toEqual(['jidSessionId']);
	});

	it('says both styles were tried when the gateway rejects both', async () => {
		rejectStyle('chatIdSession');
		rejectStyle('jidSessionId');
		const result = await sendPolls([alice.chatId], { requestBodyStyle: 'auto' });
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/^Gateway error 400: .*property chatId should not exist/);
		expect(result.error?.description).toMatch(
			/Both body styles were tried \(chatId \+ session .*, then jid \+ sessionId .*\)/,
		);
		expect(stylesSent()).toEqual(['chatIdSession', 'jidSessionId']);
	});

	it('does not try the other style on a failure that is not a rejected body', async () => {
		simulator.injectFault({
			match: { path: '/api/sendPoll' },
			status: 404,
			body: { statusCode: 404, message: 'Session "acme-sales" not found', error: 'Not Found' },
		});
		const result = await sendPolls([alice.chatId], { requestBodyStyle: 'auto' });
		expect(result.error?.message).toMatch(/^Gateway error 404: /);
		expect(stylesSent()).toEqual(['chatIdSession']);
	});
});

describe('a fixed style', () => {
	it.each([
		['chatIdSession', 'jid + sessionId (Wappfy-Style Gateways)', '"jid" or "sessionId"'],
		['jidSessionId', 'chatId + session (Most Gateways)', '"chatId" or "session"'],
	] as const)(
		"%s: a rejected body says which style to pick, and nothing is tried behind the user's back",
		async (style, other, fields) => {
			rejectStyle(style);
			const result = await sendPolls([alice.chatId], { requestBodyStyle: style });
			expect(result.status).toBe('error');
			expect(result.error?.description).toContain(
				`If the message names ${fields}, this gateway reads the other body style: open the Messaging Gateway API credential and set Request Body Style to "${other}" or "Detect Automatically".`,
			);
			expect(stylesSent()).toEqual([style]);
		},
	);
});

describe('every operation whose body depends on the style detects it', () => {
	it.each([
		[
			'message',
			'react',
			{ messageId: SEED.messages.aliceText.id, reaction: '👍' },
			'/api/reaction',
			'sessionId',
		],
		[
			'session',
			'requestPairingCode',
			{ session: SEED.instances.pairing.name, phoneNumber: '+55 11 98765-0099' },
			'/auth/request-code',
			'phone',
		],
		[
			'channel',
			'search',
			{ view: 'RECOMMENDED', countries: 'US', returnAll: false, limit: 3 },
			'/channels/search/by-view',
			'corntries',
		],
		[
			'message',
			'sendLinkPreview',
			{
				chatId: byId(alice.chatId),
				text: 'See https://example.com',
				previewUrl: 'https://example.com',
				previewTitle: 'Example',
				previewDescription: 'An example page',
				previewImageSource: 'none',
			},
			'/api/send/link-custom-preview',
			'sessionId',
		],
	])('%s → %s', async (resource, operation, parameters, path, shapeBField) => {
		// Any body without the shape B session field is refused, as a gateway that reads only shape B does.
		simulator.injectFault({
			match: { path },
			times: 1,
			status: 400,
			body: { statusCode: 400, message: ['sessionId must be a string'], error: 'Bad Request' },
		});
		const result = await runGateway(
			simulator,
			{ resource, operation, session: SESSION, ...parameters },
			{ requestBodyStyle: 'auto' },
		);
		expect(result.status).toBe('success');
		const sent = simulator.requests.filter((request) => request.path.includes(path));
		expect(sent).toHaveLength(2);
		// The retry is the jid + sessionId body, a field only that style has.
		expect(Object.keys(sent[0].body as object)).not.toContain(shapeBField);
		expect(Object.keys(sent[1].body as object)).toContain(shapeBField);
	});
});
