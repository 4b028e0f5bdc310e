// Message → Send and Wait for Response: the question and its signed links in n8n's engine, bad input
// refused before sending, and the resume webhook's answers (a narrow unit test of `webhook`; the
// whole round trip through n8n's waiting webhooks is test/e2e/send-and-wait.e2e.ts).
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { webhook } from '../../nodes/MessagingGateway/actions/message/sendAndWait.webhook';
import { SEED } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import {
	byId,
	expectOneRequest,
	expectValidationError,
	jsonItems,
	resourceRunner,
} from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const { alice } = SEED.contacts;
const SIGNED_LINK =
	/^http:\/\/localhost:5678\/webhook-waiting\/harness-\d+\/[\w-]+\?(approved=(true|false)&)?signature=[\w.-]+$/;

const simulator = useSimulator();
const runMessage = resourceRunner(simulator, 'message', SESSION);
const question = { chatId: byId(alice.number), message: 'Refund of $120 for order #1042?' };

describe('Message > Send and Wait for Response', () => {
	it.each([
		{
			case: 'approve only',
			parameters: {},
			labels: ['✓ Approve'],
		},
		{
			case: 'approve and decline, with own labels',
			parameters: {
				approvalOptions: {
					values: { approvalType: 'double', approveLabel: 'Yes', disapproveLabel: 'No' },
				},
			},
			labels: ['Yes', 'No'],
		},
		{
			case: 'free text',
			parameters: { responseType: 'freeText', options: { respondLabel: 'Tell us' } },
			labels: ['Tell us'],
		},
	])(
		'sends the question with one signed link per answer ($case) and waits',
		async ({ parameters, labels }) => {
			const result = await runMessage('sendAndWait', { ...question, ...parameters });

			expect(result.status).toBe('waiting');
			const request = expectOneRequest(simulator, {
				method: 'POST',
				path: `/message/sendText/${SESSION}`,
			});
			const body = request.body as {
				number: string;
				options: IDataObject;
				textMessage: { text: string };
			};
			expect(body.number).toBe(alice.number);
			// No link preview: a preview fetcher must not open the approve link.
			expect(body.options).toEqual({ linkPreview: false });
			const [first, blank, ...links] = body.textMessage.text.split('\n');
			expect([first, blank]).toEqual([question.message, '']);
			expect(links.map((line) => line.split(': ')[0])).toEqual(labels);
			for (const line of links) expect(line.split(': ')[1]).toMatch(SIGNED_LINK);
		},
	);

	it('sends the links as URL buttons when asked to', async () => {
		const result = await runMessage('sendAndWait', { ...question, delivery: 'buttons' });

		expect(result.status).toBe('waiting');
		const request = expectOneRequest(simulator, { method: 'POST', path: '/api/sendButtons' });
		expect(request.body).toEqual({
			session: SESSION,
			chatId: alice.chatId,
			header: '',
			body: question.message,
			footer: '',
			buttons: [{ type: 'url', text: '✓ Approve', url: expect.stringMatching(SIGNED_LINK) }],
		});
	});

	it.each([
		{
			case: 'more than one input item (one answer per execution)',
			parameters: {},
			items: jsonItems({}, {}),
			message:
				'Send and Wait for Response waits for one answer per execution, and got 2 items: nothing was sent',
		},
		{
			case: 'an empty message',
			parameters: { message: '={{ "  " }}' },
			items: undefined,
			message: 'Message must not be empty',
		},
		{
			case: 'a limit date that is no date',
			parameters: {
				options: {
					limitWaitTime: { values: { limitType: 'atSpecifiedTime', maxDateAndTime: 'soon' } },
				},
			},
			items: undefined,
			message: 'Max Date and Time must be a date and time, e.g. 2026-12-24T18:00:00 (got "soon")',
		},
		{
			case: 'a negative wait',
			parameters: { options: { limitWaitTime: { values: { resumeAmount: -1 } } } },
			items: undefined,
			message: /^Amount must be /,
		},
	])('refuses $case before sending anything', async ({ parameters, items, message }) => {
		const result = await runMessage('sendAndWait', { ...question, ...parameters }, { items });

		expectValidationError(simulator, result, message);
	});
});

/** A resume request as n8n hands it to the node's webhook (n8n has checked the signature). */
function resumeRequest(options: {
	method: 'GET' | 'POST';
	responseType: 'approval' | 'freeText';
	query?: IDataObject;
	body?: IDataObject;
	userAgent?: string;
}) {
	const sent: { status?: number; html?: string; ended?: boolean } = {};
	const response = {
		status(code: number) {
			sent.status = code;
			return response;
		},
		type() {
			return response;
		},
		send(html: string) {
			sent.html = html;
			return response;
		},
		end() {
			sent.ended = true;
			return response;
		},
	};
	const context = {
		getRequestObject: () => ({
			method: options.method,
			headers: { 'user-agent': options.userAgent ?? 'Mozilla/5.0 (iPhone) Mobile Safari' },
		}),
		getResponseObject: () => response,
		getNodeParameter: (name: string, fallback: unknown) =>
			name === 'responseType' ? options.responseType : fallback,
		getQueryData: () => options.query ?? {},
		getBodyData: () => options.body ?? {},
	} as unknown as IWebhookFunctions;
	return { run: () => webhook.call(context), sent };
}

describe('Send and Wait for Response: the resume webhook', () => {
	it.each([
		{ query: { approved: 'true' }, approved: true },
		{ query: { approved: 'false' }, approved: false },
	])('an approval link answers approved: $approved', async ({ query, approved }) => {
		const { run } = resumeRequest({ method: 'GET', responseType: 'approval', query });

		const result = await run();

		expect(result.workflowData).toEqual([
			[{ json: { data: { approved, respondedAt: expect.stringMatching(/^\d{4}-/) } } }],
		]);
		expect(String(result.webhookResponse)).toContain('Got it, thanks');
	});

	it.each([
		'WhatsApp/2.23.20.0 A',
		'facebookexternalhit/1.1',
		'TelegramBot (like TwitterBot)',
		'Slackbot-LinkExpanding 1.0',
	])('a link preview fetched by %s answers nothing', async (userAgent) => {
		const { run, sent } = resumeRequest({
			method: 'GET',
			responseType: 'approval',
			query: { approved: 'true' },
			userAgent,
		});

		expect(await run()).toEqual({ noWebhookResponse: true });
		expect(sent).toEqual({ status: 204, ended: true });
	});

	it.each([
		{ case: 'opening the page', method: 'GET' as const, body: undefined },
		{ case: 'sending it empty', method: 'POST' as const, body: { response: '   ' } },
	])('free text: $case shows the form and answers nothing', async ({ method, body }) => {
		const { run, sent } = resumeRequest({ method, responseType: 'freeText', body });

		expect(await run()).toEqual({ noWebhookResponse: true });
		expect(sent.status).toBe(200);
		expect(sent.html).toMatch(/<form method="POST"><textarea name="response" required/);
	});

	it('free text: the sent form answers with the typed text, trimmed', async () => {
		const { run } = resumeRequest({
			method: 'POST',
			responseType: 'freeText',
			body: { response: ' The parcel arrived damaged. ' },
		});

		const result = await run();

		expect(result.workflowData).toEqual([
			[
				{
					json: { data: { text: 'The parcel arrived damaged.', respondedAt: expect.any(String) } },
				},
			],
		]);
	});
});
