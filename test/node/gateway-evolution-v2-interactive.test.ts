/**
 * Send Buttons, Send and Wait for Response and Send Link With Custom Preview with the credential's
 * Gateway set to Evolution API v2 (2.3.6): the exact v2 bodies (scripted gateway), each valid for
 * 2.3.6's own validation, what 2.3.6 would refuse refused before any request, and the outputs the
 * v2 simulator gives. Run in n8n's engine over real HTTP.
 */
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	IWebhookFunctions,
} from 'n8n-workflow';

import { webhook } from '../../nodes/MessagingGateway/actions/message/sendAndWait.webhook';
import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { SEED } from '../simulator/index.cts';
import { gatewayClient, useSimulator } from '../simulator/testing.cts';
import { binaryItem, byId, runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';
import { useScriptedEvolutionV2, v2SentAnswer } from '../support/scripted-evolution-v2.cts';

const SESSION = 'acme-sales';
const ALICE = SEED.contacts.alice.number;
const GROUP = SEED.groups.hikers.id;
const QUOTED = `false_${ALICE}@c.us_3EB0C767D26A1D3BB2F1`;
const QUOTED_KEY = {
	key: { id: '3EB0C767D26A1D3BB2F1', remoteJid: `${ALICE}@s.whatsapp.net`, fromMe: false },
};
const MENU_URL = 'https://acme.example.com/menu';
const SIGNED_LINK =
	/^http:\/\/localhost:5678\/webhook-waiting\/harness-\d+\/[\w-]+\?(approved=(true|false)&)?signature=[\w.-]+$/;
const PNG_BASE64 = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');

/** 2.3.6's answer to a send to Alice (or to `remoteJid`). */
const sentAnswer = (remoteJid = `${ALICE}@s.whatsapp.net`) => v2SentAnswer(remoteJid);
const ALICE_MESSAGE_ID = `true_${ALICE}@c.us_3EB0A1B2C3D4E5F60718`;

const v2Gateway = useScriptedEvolutionV2(SESSION);

async function onV2(parameters: INodeParameters, options: RunGatewayOptions = {}) {
	return await v2Gateway.run({ resource: 'message', ...parameters }, options);
}

/** The requests received, each with its path and JSON body. */
const sent = () =>
	v2Gateway
		.sent()
		.map(({ method, url, body }) => ({ method, path: url, body: body as IDataObject }));
const verdicts = () => v2Gateway.verdicts();

const accepted = (route: string) => ({
	outcome: 'accepted',
	endpoint: `POST /message/${route}/{instanceName}`,
});

describe('Send Buttons on Evolution API v2: POST /message/sendButtons', () => {
	it.each<[string, INodeParameters, IDataObject]>([
		[
			'header, footer, image; reply buttons with and without an ID',
			{
				chatId: byId(ALICE),
				header: 'Order #1042',
				body: 'Your order is ready.',
				footer: 'Acme Store',
				headerImageSource: 'url',
				headerImageUrl: 'https://acme.example.com/images/trail.jpg',
				buttons: {
					button: [
						{ type: 'reply', text: 'Pick Up', id: 'pickup' },
						{ type: 'reply', text: 'Delivery' },
					],
				},
			},
			{
				number: ALICE,
				title: 'Order #1042',
				description: 'Your order is ready.',
				footer: 'Acme Store',
				thumbnailUrl: 'https://acme.example.com/images/trail.jpg',
				buttons: [
					{ type: 'reply', displayText: 'Pick Up', id: 'pickup' },
					{ type: 'reply', displayText: 'Delivery', id: 'Delivery' },
				],
			},
		],
		[
			'no header (the body is the title); call, copy and URL buttons',
			{
				chatId: byId(ALICE),
				body: 'Need help with order #1042?',
				buttons: {
					button: [
						{ type: 'call', text: 'Call Us', phoneNumber: '+55 11 98765-0009' },
						{ type: 'copy', text: 'Copy Coupon', copyCode: 'SAVE10' },
						{ type: 'url', text: 'Track', url: 'https://acme.example.com/track/1042' },
						{ type: 'url', text: 'Help', url: 'https://acme.example.com/help' },
					],
				},
			},
			{
				number: ALICE,
				title: 'Need help with order #1042?',
				buttons: [
					{ type: 'call', displayText: 'Call Us', phoneNumber: '+5511987650009' },
					{ type: 'copy', displayText: 'Copy Coupon', copyCode: 'SAVE10' },
					{ type: 'url', displayText: 'Track', url: 'https://acme.example.com/track/1042' },
					{ type: 'url', displayText: 'Help', url: 'https://acme.example.com/help' },
				],
			},
		],
		[
			'to a group, three reply buttons',
			{
				chatId: byId(GROUP),
				body: 'Saturday?',
				buttons: { button: ['Yes', 'No', 'Maybe'].map((text) => ({ type: 'reply', text })) },
			},
			{
				number: GROUP,
				title: 'Saturday?',
				buttons: ['Yes', 'No', 'Maybe'].map((text) => ({
					type: 'reply',
					displayText: text,
					id: text,
				})),
			},
		],
	])(
		'%s: the v2 body, valid for 2.3.6, the full message ID out',
		async (_case, parameters, body) => {
			const answer = sentAnswer(String(body.number).endsWith('@g.us') ? GROUP : undefined);
			v2Gateway.server.respondWith({ status: 201, body: answer });

			const result = await onV2({ operation: 'sendButtons', ...parameters });

			expect(result.error?.message).toBeUndefined();
			expect(sent()).toEqual([{ method: 'POST', path: `/message/sendButtons/${SESSION}`, body }]);
			expect(verdicts()).toEqual([accepted('sendButtons')]);
			const chatId = String(body.number).endsWith('@g.us') ? GROUP : `${ALICE}@c.us`;
			expect(result.outputs[0][0].json).toEqual({
				...answer,
				messageId: `true_${chatId}_3EB0A1B2C3D4E5F60718`,
			});
		},
	);

	it('a 2xx answer that is not a message is an error in the gateway words, not an item', async () => {
		v2Gateway.server.respondWith({ status: 201, body: ['queued'] });

		const result = await onV2({
			operation: 'sendButtons',
			chatId: byId(ALICE),
			body: 'Hi',
			buttons: { button: [{ type: 'reply', text: 'Yes' }] },
		});

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(/^Gateway error: the answer is not an object \(got /);
		expect(result.outputs).toEqual([]);
	});
});

describe('Send and Wait for Response on Evolution API v2', () => {
	it.each<[string, INodeParameters, string[]]>([
		['approve only', {}, ['✓ Approve']],
		[
			'approve and decline, own labels',
			{
				approvalOptions: {
					values: { approvalType: 'double', approveLabel: 'Yes', disapproveLabel: 'No' },
				},
			},
			['Yes', 'No'],
		],
		['free text', { responseType: 'freeText', options: { respondLabel: 'Tell us' } }, ['Tell us']],
	])(
		'links in the text (%s): v2 sendText without preview, then it waits',
		async (_case, parameters, labels) => {
			v2Gateway.server.respondWith({ status: 201, body: sentAnswer() });

			const result = await onV2({
				operation: 'sendAndWait',
				chatId: byId(ALICE),
				message: 'Refund of $120?',
				...parameters,
			});

			expect(result.status).toBe('waiting');
			const [request] = sent();
			expect(sent()).toEqual([
				{
					method: 'POST',
					path: `/message/sendText/${SESSION}`,
					body: { number: ALICE, text: expect.any(String), linkPreview: false },
				},
			]);
			const [first, blank, ...links] = String(request.body.text).split('\n');
			expect([first, blank]).toEqual(['Refund of $120?', '']);
			expect(links.map((line) => line.split(': ')[0])).toEqual(labels);
			for (const line of links) expect(line.split(': ')[1]).toMatch(SIGNED_LINK);
			expect(verdicts()).toEqual([accepted('sendText')]);
		},
	);

	it.each<[string, INodeParameters, string[]]>([
		[
			'approve and decline',
			{ approvalOptions: { values: { approvalType: 'double' } } },
			['✓ Approve', '✗ Decline'],
		],
		['free text', { responseType: 'freeText' }, ['Answer here']],
	])('URL buttons (%s): v2 sendButtons, then it waits', async (_case, parameters, labels) => {
		v2Gateway.server.respondWith({ status: 201, body: sentAnswer() });

		const result = await onV2({
			operation: 'sendAndWait',
			chatId: byId(ALICE),
			message: 'Refund of $120?',
			delivery: 'buttons',
			...parameters,
		});

		expect(result.status).toBe('waiting');
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: `/message/sendButtons/${SESSION}`,
				body: {
					number: ALICE,
					title: 'Refund of $120?',
					buttons: labels.map((label) => ({
						type: 'url',
						displayText: label,
						url: expect.stringMatching(SIGNED_LINK),
					})),
				},
			},
		]);
		expect(verdicts()).toEqual([accepted('sendButtons')]);
	});

	it.each([
		{ label: '✓ Approve', approved: true },
		{ label: '✗ Decline', approved: false },
	])('the button "$label" v2 got resumes the execution approved: $approved', async (answer) => {
		v2Gateway.server.respondWith({ status: 201, body: sentAnswer() });
		await onV2({
			operation: 'sendAndWait',
			chatId: byId(ALICE),
			message: 'Refund?',
			delivery: 'buttons',
			approvalOptions: { values: { approvalType: 'double' } },
		});
		const buttons = sent()[0]?.body.buttons as IDataObject[];
		const link = new URL(
			String(buttons.find((button) => button.displayText === answer.label)?.url),
		);

		const resumed = await webhook.call(resumeContext(Object.fromEntries(link.searchParams)));

		expect(resumed.workflowData).toEqual([
			[{ json: { data: { approved: answer.approved, respondedAt: expect.any(String) } } }],
		]);
	});
});

/** What n8n hands the resume webhook for an opened approval link (it has checked the signature). */
function resumeContext(query: IDataObject): IWebhookFunctions {
	const response = { status: () => response, end: () => response };
	return {
		getRequestObject: () => ({ method: 'GET', headers: { 'user-agent': 'Mozilla/5.0' } }),
		getResponseObject: () => response,
		getNodeParameter: (name: string, fallback: unknown) =>
			name === 'responseType' ? 'approval' : fallback,
		getQueryData: () => query,
	} as unknown as IWebhookFunctions;
}

describe('Send Link With Custom Preview on Evolution API v2: sendText with linkPreview', () => {
	it.each<[string, INodeParameters, INodeExecutionData[] | undefined, IDataObject, string[]]>([
		[
			'the URL in the text, nothing custom',
			{ text: `Our new menu: ${MENU_URL}` },
			undefined,
			{ number: ALICE, text: `Our new menu: ${MENU_URL}`, linkPreview: true },
			[],
		],
		[
			'the URL added to the text, a reply',
			{ text: 'Our new menu is online', options: { replyTo: QUOTED } },
			undefined,
			{
				number: ALICE,
				text: `Our new menu is online\n${MENU_URL}`,
				linkPreview: true,
				quoted: QUOTED_KEY,
			},
			[],
		],
		[
			'title, description, image URL and quality: listed, not sent',
			{
				text: MENU_URL,
				previewTitle: 'Our New Menu',
				previewDescription: 'Seasonal dishes',
				previewImageSource: 'url',
				// On the gateway itself: were n8n to fetch it, the gateway would see a second request.
				previewImageUrl: '={{ $json.imageUrl }}',
				options: { highQuality: true },
			},
			undefined,
			{ number: ALICE, text: MENU_URL, linkPreview: true },
			['Preview Title', 'Preview Description', 'Preview Image', 'High Quality Preview'],
		],
		[
			'an image from a binary field: listed, not sent',
			{ text: MENU_URL, previewImageSource: 'binary', previewImageBinaryProperty: 'data' },
			[binaryItem(PNG_BASE64, 'image/png', 'menu.png')],
			{ number: ALICE, text: MENU_URL, linkPreview: true },
			['Preview Image'],
		],
	])('%s', async (_case, parameters, items, body, notSent) => {
		v2Gateway.server.respondWith({ status: 201, body: sentAnswer() });

		const result = await onV2(
			{ operation: 'sendLinkPreview', chatId: byId(ALICE), previewUrl: MENU_URL, ...parameters },
			{ items: items ?? [{ json: { imageUrl: `${v2Gateway.server.url}/menu.jpg` } }] },
		);

		expect(result.error?.message).toBeUndefined();
		expect(sent()).toEqual([{ method: 'POST', path: `/message/sendText/${SESSION}`, body }]);
		expect(verdicts()).toEqual([accepted('sendText')]);
		expect(result.outputs[0][0].json).toEqual({
			...sentAnswer(),
			messageId: ALICE_MESSAGE_ID,
			previewFieldsNotSent: notSent,
		});
	});
});

describe('what 2.3.6 would refuse, or send otherwise than asked, is refused before any request', () => {
	const replies = (count: number) =>
		Array.from({ length: count }, (_, index) => ({ type: 'reply', text: `R${index + 1}` }));

	it.each<[string, INodeParameters, INodeExecutionData[] | undefined, string | RegExp]>([
		[
			'Send Buttons: reply buttons mixed with a URL button',
			{
				operation: 'sendButtons',
				body: 'Pick',
				buttons: {
					button: [...replies(1), { type: 'url', text: 'Web', url: 'https://acme.example.com' }],
				},
			},
			undefined,
			'Buttons cannot mix reply buttons with call, copy or URL buttons on Evolution API v2 (got 1 reply and 1 other)',
		],
		[
			'Send Buttons: four reply buttons',
			{ operation: 'sendButtons', body: 'Pick', buttons: { button: replies(4) } },
			undefined,
			'Buttons must have at most 3 reply buttons on Evolution API v2 (got 4)',
		],
		[
			'Send Buttons: what every gateway refuses (a button without text)',
			{
				operation: 'sendButtons',
				body: 'Pick',
				buttons: { button: [{ type: 'reply', text: ' ' }] },
			},
			undefined,
			'Buttons (button 1): Text must not be empty',
		],
		[
			'Send Link Preview: an http Preview URL (v2 previews https links only)',
			{ operation: 'sendLinkPreview', previewUrl: 'http://acme.example.com/menu', text: '' },
			undefined,
			'Preview URL must be an https address on Evolution API v2 (got "http://acme.example.com/menu")',
		],
		[
			'Send Link Preview: another https link before the Preview URL',
			{
				operation: 'sendLinkPreview',
				previewUrl: MENU_URL,
				text: `Old: https://acme.example.com/old, new: ${MENU_URL}`,
			},
			undefined,
			'Text must have the Preview URL as its first https link on Evolution API v2 (the first is https://acme.example.com/old)',
		],
		[
			'Send Link Preview: an image URL that is no http(s) URL (checked, never fetched)',
			{
				operation: 'sendLinkPreview',
				previewUrl: MENU_URL,
				text: MENU_URL,
				previewImageSource: 'url',
				previewImageUrl: 'ftp://acme.example.com/menu.jpg',
			},
			undefined,
			'Preview Image URL must be an http(s) URL (got "ftp://acme.example.com/menu.jpg")',
		],
		[
			'Send Link Preview: a binary field the item lacks',
			{
				operation: 'sendLinkPreview',
				previewUrl: MENU_URL,
				text: MENU_URL,
				previewImageSource: 'binary',
				previewImageBinaryProperty: 'picture',
			},
			[{ json: {} }],
			/picture/,
		],
		[
			'Send and Wait: more than one item',
			{ operation: 'sendAndWait', message: 'Refund?', delivery: 'buttons' },
			[{ json: {} }, { json: {} }],
			/^Send and Wait for Response waits for one answer per execution, and got 2 items/,
		],
	])('%s', async (_case, parameters, items, message) => {
		const result = await onV2({ chatId: byId(ALICE), ...parameters }, { items });

		expect(result.error?.name).toBe('NodeOperationError');
		if (typeof message === 'string') expect(result.error?.message).toBe(message);
		else expect(result.error?.message).toMatch(message);
		expect(v2Gateway.server.requests).toEqual([]);
	});
});

describe("2.3.6's validation refuses the bodies these operations must not send", () => {
	it.each<[string, string, IDataObject]>([
		[
			"the Messaging Gateway API's buttons body (no number)",
			'sendButtons',
			{ session: SESSION, chatId: `${ALICE}@c.us`, body: 'Hi', buttons: [{ type: 'reply' }] },
		],
		[
			'a button type 2.3.6 does not know',
			'sendButtons',
			{ number: ALICE, title: 'Hi', buttons: [{ type: 'link', displayText: 'Web' }] },
		],
		[
			'a button without a type',
			'sendButtons',
			{ number: ALICE, title: 'Hi', buttons: [{ displayText: 'Yes', id: 'yes' }] },
		],
		[
			"Evolution API v1's text body",
			'sendText',
			{ number: ALICE, textMessage: { text: MENU_URL }, options: { linkPreview: true } },
		],
		[
			'a link preview that is not a boolean',
			'sendText',
			{ number: ALICE, text: MENU_URL, linkPreview: 'yes' },
		],
	])('%s', (_case, route, body) => {
		expect(
			checkEvolutionV2({ method: 'POST', path: `/message/${route}/${SESSION}`, query: {}, body }),
		).toMatchObject({ outcome: 'rejected' });
	});
});

describe('against the simulator playing Evolution API 2.3.6', () => {
	const v2 = useSimulator({ gateway: 'evolution-v2' });
	const V2_SESSION = SEED.instances.connected.name;

	const onSimulator = async (parameters: INodeParameters, options: RunGatewayOptions = {}) =>
		await runGateway(
			v2,
			{ resource: 'message', session: V2_SESSION, chatId: byId(ALICE), ...parameters },
			{ gateway: 'evolutionV2', ...options },
		);

	/** The interactive message 2.3.6 answers for a buttons send. */
	const interactiveOf = (json: IDataObject) =>
		((json.message as IDataObject).viewOnceMessage as { message: IDataObject }).message
			.interactiveMessage as IDataObject;

	it.each<[string, INodeParameters, string, string[]]>([
		[
			'reply buttons under a header',
			{
				header: 'Order #1042',
				body: 'Ready. How do you want it?',
				footer: 'Acme Store',
				buttons: {
					button: [
						{ type: 'reply', text: 'Pick Up', id: 'pickup' },
						{ type: 'reply', text: 'Delivery' },
					],
				},
			},
			'*Order #1042*\n\nReady. How do you want it?\n',
			[
				'quick_reply {"display_text":"Pick Up","id":"pickup"}',
				'quick_reply {"display_text":"Delivery","id":"Delivery"}',
			],
		],
		[
			'call, copy and URL buttons without a header',
			{
				body: 'Need help?',
				buttons: {
					button: [
						{ type: 'call', text: 'Call', phoneNumber: '5511987650009' },
						{ type: 'copy', text: 'Coupon', copyCode: 'SAVE10' },
						{ type: 'url', text: 'Track', url: 'https://acme.example.com/t' },
					],
				},
			},
			'*Need help?*',
			[
				'cta_call {"display_text":"Call","phone_number":"+5511987650009"}',
				'cta_copy {"display_text":"Coupon","copy_code":"SAVE10"}',
				'cta_url {"display_text":"Track","url":"https://acme.example.com/t","merchant_url":"https://acme.example.com/t"}',
			],
		],
	])(
		'Send Buttons, %s: valid, sent as asked, the full message ID out',
		async (_case, parameters, text, buttons) => {
			const result = await onSimulator({ operation: 'sendButtons', ...parameters });

			expect(result.error?.message).toBeUndefined();
			expect(v2.requests.map((request) => checkEvolutionV2(request))).toEqual([
				accepted('sendButtons'),
			]);
			const json = result.outputs[0][0].json;
			expect(json.messageId).toMatch(new RegExp(`^true_${ALICE}@c\\.us_[A-Z0-9]+$`));
			const interactive = interactiveOf(json);
			expect(interactive.body).toEqual({ text });
			const flow = interactive.nativeFlowMessage as { buttons: IDataObject[] };
			expect(flow.buttons.map((button) => `${button.name} ${button.buttonParamsJson}`)).toEqual(
				buttons,
			);
		},
	);

	it.each<[string, IDataObject, string]>([
		[
			'mixed reply and URL buttons',
			{
				buttons: [
					{ type: 'reply', displayText: 'A', id: 'a' },
					{ type: 'url', displayText: 'B', url: 'https://acme.example.com' },
				],
			},
			'Reply buttons cannot be mixed with other button types',
		],
		[
			'four reply buttons',
			{ buttons: ['a', 'b', 'c', 'd'].map((id) => ({ type: 'reply', displayText: id, id })) },
			'Maximum of 3 reply buttons allowed',
		],
	])('what the node refuses first, 2.3.6 refuses too: %s', async (_case, buttons, reason) => {
		const response = await gatewayClient(v2).post(`/message/sendButtons/${V2_SESSION}`, {
			number: ALICE,
			title: 'Pick',
			...buttons,
		});

		expect(response.status).toBe(400);
		expect(JSON.stringify(response.data)).toContain(reason);
	});

	it.each<[string, INodeParameters, string]>([
		['links in the text', {}, 'sendText'],
		['URL buttons', { delivery: 'buttons' }, 'sendButtons'],
	])(
		'Send and Wait, %s: valid for 2.3.6, and the execution waits',
		async (_case, parameters, route) => {
			const result = await onSimulator({
				operation: 'sendAndWait',
				message: 'Refund of $120?',
				approvalOptions: { values: { approvalType: 'double' } },
				...parameters,
			});

			expect(result.error?.message).toBeUndefined();
			expect(result.status).toBe('waiting');
			expect(v2.requests.map((request) => checkEvolutionV2(request))).toEqual([accepted(route)]);
		},
	);

	it('Send Link Preview: valid, the text sent, the full message ID and the custom parts not sent', async () => {
		const result = await onSimulator({
			operation: 'sendLinkPreview',
			text: 'Our new menu',
			previewUrl: MENU_URL,
			previewTitle: 'Our New Menu',
		});

		expect(result.error?.message).toBeUndefined();
		expect(v2.requests.map((request) => checkEvolutionV2(request))).toEqual([accepted('sendText')]);
		const json = result.outputs[0][0].json;
		expect(json.message).toEqual({ conversation: `Our new menu\n${MENU_URL}` });
		expect(json.messageId).toMatch(new RegExp(`^true_${ALICE}@c\\.us_[A-Z0-9]+$`));
		expect(json.previewFieldsNotSent).toEqual(['Preview Title']);
	});
});
