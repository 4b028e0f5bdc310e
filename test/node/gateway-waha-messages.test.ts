/**
 * The message operations with the credential's Gateway set to WAHA (2026.x): the exact requests
 * (scripted gateway), each judged by WAHA's published OpenAPI and carrying the key in X-Api-Key;
 * the outputs with the full message ID WAHA's answer gives; bad input and what WAHA does not offer
 * refused before any request. Run in n8n's engine over real HTTP.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { checkWaha } from '../compatibility/waha.cts';
import { SEED } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { binaryItem, byId, runGateway } from '../support/gateway-node.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';
import { useScriptedWaha, WAHA_KEY } from '../support/scripted-waha.cts';

const SESSION = 'acme-sales';
const ALICE = SEED.contacts.alice.number;
const ALICE_CHAT = `${ALICE}@c.us`;
const BOB = SEED.contacts.bruno.number;
const GROUP = SEED.groups.hikers.id;
const RECEIVED = `false_${ALICE_CHAT}_3EB0C767D26A1D3BB2F1`;
const SENT = `true_${ALICE_CHAT}_3EB0A1B2C3D4E5F60718`;
const IN_GROUP = `false_${GROUP}_3EB0D00D00D00D00D00D_${BOB}@c.us`;
const PNG_BASE64 = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
const PDF_BASE64 = Buffer.from('%PDF-1.4 test').toString('base64');
/** A media file's bytes as the scripted gateway serves them (text it sends as it is). */
const PHOTO_BYTES = 'not really a PNG';
const OGG_BASE64 = Buffer.from('OggS test voice').toString('base64');

/** WAHA's answer to a send to `chatId` (a WAMessage, as its OpenAPI documents sendText's). */
const wahaSent = (chatId = ALICE_CHAT) => ({
	id: `true_${chatId}_3EB0WAHA000000000001`,
	timestamp: 1764000000,
	from: '5511900000000@c.us',
	fromMe: true,
	to: chatId,
	body: 'Hello',
	hasMedia: false,
	ack: 1,
	ackName: 'SERVER',
});

const waha = useScriptedWaha(SESSION);

async function onWaha(parameters: INodeParameters, options: RunGatewayOptions = {}) {
	return await waha.run({ resource: 'message', ...parameters }, options);
}

const sent = () =>
	waha.sent().map(({ method, url, body }) => ({ method, path: url, body: body as IDataObject }));

/** Every request exists in WAHA's OpenAPI, is valid for it, and carried the key in X-Api-Key. */
function expectAcceptedWithKey() {
	for (const verdict of waha.verdicts()) expect(verdict).toMatchObject({ outcome: 'accepted' });
	expect(waha.keyHeaders().every((header) => header === 'X-Api-Key')).toBe(true);
}

const image = () => [binaryItem(PNG_BASE64, 'image/png', 'trail.png')];

describe('Sends on WAHA: its own routes and bodies, the full message ID out', () => {
	it.each<[string, INodeParameters, INodeExecutionData[] | undefined, string, IDataObject]>([
		[
			'Send Text, plain',
			{ operation: 'sendText', chatId: byId(ALICE), text: 'Hello' },
			undefined,
			'/api/sendText',
			{ session: SESSION, chatId: ALICE_CHAT, text: 'Hello' },
		],
		[
			'Send Text in a group with every option',
			{
				operation: 'sendText',
				chatId: byId(GROUP),
				text: '  Hi @' + BOB + '\n  all',
				options: {
					linkPreview: false,
					mentionEveryone: true,
					mentionNumbers: `+${BOB}`,
					replyTo: IN_GROUP,
				},
			},
			undefined,
			'/api/sendText',
			{
				session: SESSION,
				chatId: GROUP,
				text: '  Hi @' + BOB + '\n  all',
				reply_to: IN_GROUP,
				linkPreview: false,
				mentions: ['all', `${BOB}@c.us`],
			},
		],
		[
			'Send Media, an image from a binary field, with a caption and a reply',
			{
				operation: 'sendMedia',
				chatId: byId(ALICE),
				caption: 'The trail',
				options: { replyTo: RECEIVED },
			},
			image(),
			'/api/sendImage',
			{
				session: SESSION,
				chatId: ALICE_CHAT,
				file: { mimetype: 'image/png', filename: 'trail.png', data: PNG_BASE64 },
				caption: 'The trail',
				reply_to: RECEIVED,
			},
		],
		[
			'Send Media, a document from a URL with a file name',
			{
				operation: 'sendMedia',
				chatId: byId(ALICE),
				mediaSource: 'url',
				mediaUrl: 'https://files.example.com/catalogue.pdf',
				options: { fileName: 'Catalogue 2026.pdf' },
			},
			undefined,
			'/api/sendFile',
			{
				session: SESSION,
				chatId: ALICE_CHAT,
				file: {
					mimetype: 'application/pdf',
					filename: 'Catalogue 2026.pdf',
					url: 'https://files.example.com/catalogue.pdf',
				},
			},
		],
		[
			'Send Media, a PDF as base64 without a name',
			{
				operation: 'sendMedia',
				chatId: byId(ALICE),
				mediaSource: 'base64',
				mediaBase64: `data:application/pdf;base64,${PDF_BASE64}`,
			},
			undefined,
			'/api/sendFile',
			{
				session: SESSION,
				chatId: ALICE_CHAT,
				file: { mimetype: 'application/pdf', filename: 'document.pdf', data: PDF_BASE64 },
			},
		],
		[
			'Send Media, a video from a URL (MP4: not converted; no caption is an empty one)',
			{
				operation: 'sendMedia',
				chatId: byId(ALICE),
				mediaSource: 'url',
				mediaUrl: 'https://files.example.com/tour.mp4',
			},
			undefined,
			'/api/sendVideo',
			{
				session: SESSION,
				chatId: ALICE_CHAT,
				file: {
					mimetype: 'video/mp4',
					filename: 'tour.mp4',
					url: 'https://files.example.com/tour.mp4',
				},
				convert: false,
				caption: '',
			},
		],
		[
			'Send Audio from a binary file, converted',
			{ operation: 'sendAudio', chatId: byId(ALICE) },
			[binaryItem(OGG_BASE64, 'audio/mpeg', 'hello.mp3')],
			'/api/sendVoice',
			{
				session: SESSION,
				chatId: ALICE_CHAT,
				file: { mimetype: 'audio/mpeg', filename: 'hello.mp3', data: OGG_BASE64 },
				convert: true,
			},
		],
		[
			'Send Audio from a URL, not converted',
			{
				operation: 'sendAudio',
				chatId: byId(ALICE),
				mediaSource: 'url',
				mediaUrl: 'https://files.example.com/hello.ogg',
				options: { encoding: false },
			},
			undefined,
			'/api/sendVoice',
			{
				session: SESSION,
				chatId: ALICE_CHAT,
				file: { mimetype: 'audio/ogg', url: 'https://files.example.com/hello.ogg' },
				convert: false,
			},
		],
		[
			'Send Location with name and address (one title)',
			{
				operation: 'sendLocation',
				chatId: byId(ALICE),
				latitude: -23.5558,
				longitude: -46.6621,
				name: 'Acme Store',
				address: 'Rua Augusta 1500',
			},
			undefined,
			'/api/sendLocation',
			{
				session: SESSION,
				chatId: ALICE_CHAT,
				latitude: -23.5558,
				longitude: -46.6621,
				title: 'Acme Store\nRua Augusta 1500',
			},
		],
		[
			'Send Location without a name (an empty title)',
			{ operation: 'sendLocation', chatId: byId(GROUP), latitude: 1.5, longitude: 2.5 },
			undefined,
			'/api/sendLocation',
			{ session: SESSION, chatId: GROUP, latitude: 1.5, longitude: 2.5, title: '' },
		],
		[
			'Send Contact, two cards with every field, replying',
			{
				operation: 'sendContact',
				chatId: byId(ALICE),
				contacts: {
					contact: [
						{
							fullName: 'Santos, Alice; Jr',
							phoneNumber: '+55 11 98765-0001',
							organization: 'Acme',
							email: 'alice@example.com',
							url: 'https://example.com/alice',
						},
						{ fullName: 'Bob', phoneNumber: '5511987650002' },
					],
				},
				options: { replyTo: RECEIVED },
			},
			undefined,
			'/api/sendContactVcard',
			{
				session: SESSION,
				chatId: ALICE_CHAT,
				contacts: [
					{
						vcard: [
							'BEGIN:VCARD',
							'VERSION:3.0',
							'FN:Santos\\, Alice\\; Jr',
							'ORG:Acme;',
							'TEL;type=CELL;type=VOICE;waid=5511987650001:+5511987650001',
							'EMAIL:alice@example.com',
							'URL:https://example.com/alice',
							'END:VCARD',
						].join('\n'),
					},
					{
						vcard: [
							'BEGIN:VCARD',
							'VERSION:3.0',
							'FN:Bob',
							'TEL;type=CELL;type=VOICE;waid=5511987650002:+5511987650002',
							'END:VCARD',
						].join('\n'),
					},
				],
				reply_to: RECEIVED,
			},
		],
		[
			'Send List with a footer, sections, descriptions, IDs and a reply',
			{
				operation: 'sendList',
				chatId: byId(ALICE),
				title: 'Menu',
				description: 'Pick a dish',
				buttonText: 'See the Menu',
				footerText: 'Acme Kitchen',
				rows: {
					row: [
						{ title: 'Feijoada', description: 'With rice', rowId: 'f1', section: 'Mains' },
						{ title: 'Pudim', section: 'Desserts' },
					],
				},
				options: { replyTo: RECEIVED },
			},
			undefined,
			'/api/sendList',
			{
				session: SESSION,
				chatId: ALICE_CHAT,
				message: {
					title: 'Menu',
					description: 'Pick a dish',
					footer: 'Acme Kitchen',
					button: 'See the Menu',
					sections: [
						{
							title: 'Mains',
							rows: [{ title: 'Feijoada', description: 'With rice', rowId: 'f1' }],
						},
						{ title: 'Desserts', rows: [{ title: 'Pudim', rowId: 'Pudim' }] },
					],
				},
				reply_to: RECEIVED,
			},
		],
		[
			'Send Poll with multiple answers, replying',
			{
				operation: 'sendPoll',
				chatId: byId(GROUP),
				question: 'Which trail?',
				pollOptions: ['North', 'South'],
				multipleAnswers: true,
				options: { replyTo: IN_GROUP },
			},
			undefined,
			'/api/sendPoll',
			{
				session: SESSION,
				chatId: GROUP,
				poll: { name: 'Which trail?', options: ['North', 'South'], multipleAnswers: true },
				reply_to: IN_GROUP,
			},
		],
		[
			'Send Buttons with header, footer, a header image and reply buttons',
			{
				operation: 'sendButtons',
				chatId: byId(ALICE),
				header: 'Order #1042',
				body: 'Ready.',
				footer: 'Acme',
				headerImageSource: 'url',
				headerImageUrl: 'https://files.example.com/trail.jpg',
				buttons: { button: [{ type: 'reply', text: 'Pick Up', id: 'pickup' }] },
			},
			undefined,
			'/api/sendButtons',
			{
				session: SESSION,
				chatId: ALICE_CHAT,
				header: 'Order #1042',
				body: 'Ready.',
				footer: 'Acme',
				buttons: [{ type: 'reply', text: 'Pick Up', id: 'pickup' }],
				headerImage: {
					mimetype: 'image/jpeg',
					url: 'https://files.example.com/trail.jpg',
					filename: 'trail.jpg',
				},
			},
		],
		[
			'Send Link With Custom Preview, a preview image URL, high quality, replying',
			{
				operation: 'sendLinkPreview',
				chatId: byId(ALICE),
				text: 'Our menu',
				previewUrl: 'https://acme.example.com/menu',
				previewTitle: 'Menu',
				previewDescription: 'Today',
				previewImageSource: 'url',
				previewImageUrl: 'https://files.example.com/menu.jpg',
				options: { highQuality: false, replyTo: RECEIVED },
			},
			undefined,
			'/api/send/link-custom-preview',
			{
				session: SESSION,
				chatId: ALICE_CHAT,
				text: 'Our menu\nhttps://acme.example.com/menu',
				preview: {
					url: 'https://acme.example.com/menu',
					title: 'Menu',
					description: 'Today',
					image: { url: 'https://files.example.com/menu.jpg' },
				},
				reply_to: RECEIVED,
				linkPreviewHighQuality: false,
			},
		],
		[
			'Send Link With Custom Preview, the preview image from a binary field',
			{
				operation: 'sendLinkPreview',
				chatId: byId(ALICE),
				text: 'See https://acme.example.com/menu',
				previewUrl: 'https://acme.example.com/menu',
				previewTitle: 'Menu',
				previewDescription: '',
				previewImageSource: 'binary',
				previewImageBinaryProperty: 'data',
			},
			image(),
			'/api/send/link-custom-preview',
			{
				session: SESSION,
				chatId: ALICE_CHAT,
				text: 'See https://acme.example.com/menu',
				preview: {
					url: 'https://acme.example.com/menu',
					title: 'Menu',
					description: '',
					image: { mimetype: 'image/png', filename: 'trail.png', data: PNG_BASE64 },
				},
			},
		],
	])('%s', async (_case, parameters, items, path, body) => {
		const chatId = String(body.chatId);
		waha.server.respondWith({ status: 201, body: wahaSent(chatId) });

		const result = await onWaha(parameters, { items });

		expect(result.error?.message).toBeUndefined();
		expect(sent()).toEqual([{ method: 'POST', path, body }]);
		expectAcceptedWithKey();
		expect(result.outputs[0][0].json).toEqual({
			...wahaSent(chatId),
			messageId: `true_${chatId}_3EB0WAHA000000000001`,
		});
	});

	it.each<[string, unknown, string | undefined]>([
		['a WAMessage (id is the full ID)', wahaSent(), `true_${ALICE_CHAT}_3EB0WAHA000000000001`],
		[
			"WEBJS's Message (id._serialized)",
			{ id: { fromMe: true, remote: ALICE_CHAT, id: 'AAA111', _serialized: SENT }, ack: 0 },
			SENT,
		],
		[
			"NOWEB's WebMessageInfo (key, a WhatsApp JID)",
			{ key: { remoteJid: `${ALICE}@s.whatsapp.net`, fromMe: true, id: 'BAE5F00D' } },
			`true_${ALICE_CHAT}_BAE5F00D`,
		],
		['an answer without an ID', { sent: true }, undefined],
	])('Send Text answered with %s: the output keeps it', async (_case, answer, messageId) => {
		waha.server.respondWith({ status: 201, body: answer });

		const result = await onWaha({ operation: 'sendText', chatId: byId(ALICE), text: 'Hi' });

		const json = result.outputs[0][0].json;
		expect(json).toEqual(messageId ? { ...(answer as IDataObject), messageId } : answer);
	});

	it('Send Text answered with nothing: done, without a message ID', async () => {
		waha.server.respondWith({ status: 201, body: '' });

		const result = await onWaha({ operation: 'sendText', chatId: byId(ALICE), text: 'Hi' });

		expect(result.outputs[0][0].json).toEqual({ success: true });
	});

	it('a 2xx that is not a message (a list) fails with what came', async () => {
		waha.server.respondWith({ status: 201, body: ['queued'] });

		const result = await onWaha({ operation: 'sendText', chatId: byId(ALICE), text: 'Hi' });

		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(
			'Gateway error: the answer is not an object (got a list (["queued"]))',
		);
	});

	it('a delay: the chat shows typing (or recording) while n8n waits, then the send', async () => {
		waha.server.respondWith({ status: 201, body: { success: true } });
		waha.server.respondWith({ status: 201, body: wahaSent() });

		const result = await onWaha({
			operation: 'sendText',
			chatId: byId(ALICE),
			text: 'Hi',
			options: { delay: 300, presence: 'recording' },
		});

		expect(result.error?.message).toBeUndefined();
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: `/api/${SESSION}/presence`,
				body: { chatId: ALICE_CHAT, presence: 'recording' },
			},
			{
				method: 'POST',
				path: '/api/sendText',
				body: { session: SESSION, chatId: ALICE_CHAT, text: 'Hi' },
			},
		]);
		const [presence, send] = waha.server.requests;
		expect(send.at - presence.at).toBeGreaterThanOrEqual(280);
		expectAcceptedWithKey();
	});

	it('a voice note with a delay shows recording', async () => {
		const result = await onWaha(
			{ operation: 'sendAudio', chatId: byId(ALICE), options: { delay: 10 } },
			{ items: [binaryItem(OGG_BASE64, 'audio/ogg', 'hi.ogg')] },
		);

		expect(result.error?.message).toBeUndefined();
		expect(sent()[0].body).toEqual({ chatId: ALICE_CHAT, presence: 'recording' });
		expect(sent()[1].path).toBe('/api/sendVoice');
		expectAcceptedWithKey();
	});

	it('Check the Number First: WAHA says which chat ID the number has, and the text goes there', async () => {
		const known = '551187650001@c.us';
		waha.server.respondWith({ status: 200, body: { numberExists: true, chatId: known } });
		waha.server.respondWith({ status: 201, body: wahaSent(known) });

		const result = await onWaha({
			operation: 'sendText',
			chatId: byId(ALICE),
			text: 'Hi',
			options: { checkNumber: true },
		});

		expect(result.error?.message).toBeUndefined();
		expect(waha.sent().map(({ method, url }) => `${method} ${url}`)).toEqual([
			`GET /api/contacts/check-exists?phone=${ALICE}&session=${SESSION}`,
			'POST /api/sendText',
		]);
		expect(sent()[1].body).toEqual({ session: SESSION, chatId: known, text: 'Hi' });
		expect(result.outputs[0][0].json.messageId).toBe(`true_${known}_3EB0WAHA000000000001`);
		expectAcceptedWithKey();
	});

	it.each<[string, unknown, string]>([
		[
			'not on WhatsApp',
			{ numberExists: false },
			`Number ${ALICE} is not on the network: nothing was sent`,
		],
		[
			'an answer that does not say',
			{ exists: true },
			'Gateway error: the answer has no "numberExists" field (got an object ({"exists":true}))',
		],
	])('Check the Number First, %s: nothing is sent', async (_case, answer, message) => {
		waha.server.respondWith({ status: 200, body: answer });

		const result = await onWaha({
			operation: 'sendText',
			chatId: byId(ALICE),
			text: 'Hi',
			options: { checkNumber: true },
		});

		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(message);
		expect(waha.server.requests).toHaveLength(1);
	});

	it.each<[string, INodeParameters, string]>([
		['links in the text', { responseType: 'freeText' }, '/api/sendText'],
		[
			'URL buttons',
			{ delivery: 'buttons', approvalOptions: { values: { approvalType: 'double' } } },
			'/api/sendButtons',
		],
	])(
		'Send and Wait for Response, %s: WAHA’s send, then it waits',
		async (_case, parameters, path) => {
			waha.server.respondWith({ status: 201, body: wahaSent() });

			const result = await onWaha({
				operation: 'sendAndWait',
				chatId: byId(ALICE),
				message: 'Refund of $120?',
				...parameters,
			});

			expect(result.status).toBe('waiting');
			expect(sent()).toEqual([{ method: 'POST', path, body: expect.any(Object) }]);
			const [{ body }] = sent();
			if (path === '/api/sendText') {
				expect(body).toEqual({
					session: SESSION,
					chatId: ALICE_CHAT,
					text: expect.stringMatching(
						/^Refund of \$120\?\n\nAnswer here: http:\/\/localhost:5678\/webhook-waiting\//,
					),
					linkPreview: false,
				});
			} else {
				expect(body).toMatchObject({
					session: SESSION,
					chatId: ALICE_CHAT,
					body: 'Refund of $120?',
					buttons: [
						{ type: 'url', text: '✓ Approve', url: expect.stringContaining('approved=true') },
						{ type: 'url', text: '✗ Decline', url: expect.stringContaining('approved=false') },
					],
				});
			}
			expectAcceptedWithKey();
		},
	);

	it('a hidden Request Body Style "jid + sessionId" kept from before still sends chatId + session', async () => {
		waha.server.respondWith({ status: 201, body: wahaSent(GROUP) });
		waha.server.respondWith({ status: 200, body: { ok: true } });

		const poll = await onWaha(
			{
				operation: 'sendPoll',
				chatId: byId(GROUP),
				question: 'Which?',
				pollOptions: ['A', 'B'],
				options: { replyTo: IN_GROUP },
			},
			{ requestBodyStyle: 'jidSessionId' },
		);
		const react = await onWaha(
			{ operation: 'react', messageId: IN_GROUP, reaction: '👍' },
			{ requestBodyStyle: 'jidSessionId' },
		);

		expect(poll.error?.message).toBeUndefined();
		expect(react.error?.message).toBeUndefined();
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: '/api/sendPoll',
				body: {
					session: SESSION,
					chatId: GROUP,
					poll: { name: 'Which?', options: ['A', 'B'], multipleAnswers: false },
					reply_to: IN_GROUP,
				},
			},
			{
				method: 'PUT',
				path: '/api/reaction',
				body: { messageId: IN_GROUP, reaction: '👍', session: SESSION },
			},
		]);
		expectAcceptedWithKey();
		expect(react.outputs[0][0].json).toEqual({ messageId: IN_GROUP, reaction: '👍', ok: true });
	});
});

describe('Reading and changing messages on WAHA: the message’s own route', () => {
	const path = (chatId: string, id: string) =>
		`/api/${SESSION}/chats/${encodeURIComponent(chatId)}/messages/${encodeURIComponent(id)}`;

	it.each<[string, INodeParameters, string, string, IDataObject | undefined, unknown, IDataObject]>(
		[
			[
				'Edit a message you sent',
				{ operation: 'edit', messageId: SENT, text: 'Ready at 6pm' },
				'PUT',
				path(ALICE_CHAT, SENT),
				{ text: 'Ready at 6pm' },
				'',
				{ success: true, messageId: SENT },
			],
			[
				'Delete for Everyone a member’s message in a group',
				{ operation: 'deleteForEveryone', messageId: IN_GROUP },
				'DELETE',
				path(GROUP, IN_GROUP),
				undefined,
				{ revoked: true },
				{ revoked: true, deleted: IN_GROUP },
			],
			[
				'Edit by a spec JID: WAHA’s chat ID in the path and the ID',
				{
					operation: 'edit',
					messageId: `true_${ALICE}@s.messenger.net_3EB0A1B2C3D4E5F60718`,
					text: 'x',
				},
				'PUT',
				path(ALICE_CHAT, SENT),
				{ text: 'x' },
				{},
				{ messageId: `true_${ALICE}@s.messenger.net_3EB0A1B2C3D4E5F60718` },
			],
		],
	)('%s', async (_case, parameters, method, expectedPath, body, answer, output) => {
		waha.server.respondWith({ status: 200, body: answer });

		const result = await onWaha(parameters);

		expect(result.error?.message).toBeUndefined();
		expect(sent()).toEqual([{ method, path: expectedPath, body }]);
		expectAcceptedWithKey();
		expect(result.outputs[0][0].json).toEqual(output);
	});

	it('Mark as Read: one sendSeen per chat (and per group member who wrote), every ID listed', async () => {
		const other = `false_${ALICE_CHAT}_3EB0FFFF0000FFFF0000`;
		waha.server.respondWith({ status: 201, body: {} }, { status: 201, body: '' });

		const result = await onWaha({
			operation: 'markAsRead',
			messageIds: [RECEIVED, IN_GROUP, other, RECEIVED].join('\n'),
		});

		expect(result.error?.message).toBeUndefined();
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: '/api/sendSeen',
				body: { session: SESSION, chatId: ALICE_CHAT, messageIds: [RECEIVED, other] },
			},
			{
				method: 'POST',
				path: '/api/sendSeen',
				body: {
					session: SESSION,
					chatId: GROUP,
					messageIds: [IN_GROUP],
					participant: `${BOB}@c.us`,
				},
			},
		]);
		expectAcceptedWithKey();
		expect(result.outputs[0][0].json).toEqual({
			messageIds: [RECEIVED, IN_GROUP, other],
			answers: [{}, { success: true }],
		});
	});

	it('Get: WAHA’s message as it is, media downloaded on request', async () => {
		const message = { ...wahaSent(), id: RECEIVED, fromMe: false, hasMedia: false, media: null };
		waha.server.respondWith({ status: 200, body: message });

		const result = await onWaha({ operation: 'get', messageId: RECEIVED, downloadMedia: false });

		expect(waha.sent().map(({ method, url }) => `${method} ${url}`)).toEqual([
			`GET ${path(ALICE_CHAT, RECEIVED)}?downloadMedia=false`,
		]);
		expectAcceptedWithKey();
		expect(result.outputs[0][0].json).toEqual(message);
	});

	it('Download Media: the message with its media, then the file from WAHA’s own file route with the key', async () => {
		const fileUrl = `${waha.server.url}/api/files/${SESSION}/${RECEIVED}.png`;
		waha.server.respondWith(
			{
				status: 200,
				body: {
					...wahaSent(),
					id: RECEIVED,
					hasMedia: true,
					media: { url: fileUrl, mimetype: 'image/png', filename: null, error: null },
				},
			},
			{
				status: 200,
				headers: { 'content-type': 'image/png' },
				body: PHOTO_BYTES,
			},
		);

		const result = await onWaha({
			operation: 'downloadMedia',
			messageId: RECEIVED,
			binaryPropertyName: 'photo',
			options: { keepBase64: true },
		});

		expect(result.error?.message).toBeUndefined();
		expect(waha.sent().map(({ method, url }) => `${method} ${url}`)).toEqual([
			`GET ${path(ALICE_CHAT, RECEIVED)}?downloadMedia=true`,
			`GET /api/files/${SESSION}/${RECEIVED}.png`,
		]);
		expect(waha.verdicts()[0]).toMatchObject({ outcome: 'accepted' });
		expect(waha.keyHeaders()).toEqual(['X-Api-Key', 'X-Api-Key']);
		const [item] = result.outputs[0];
		expect(item.json).toEqual({
			messageId: RECEIVED,
			mimetype: 'image/png',
			fileName: `${RECEIVED}.png`,
			fileLength: PHOTO_BYTES.length,
			base64: Buffer.from(PHOTO_BYTES).toString('base64'),
		});
		expect(item.binary?.photo).toMatchObject({
			mimeType: 'image/png',
			fileName: `${RECEIVED}.png`,
		});
	});

	it('Download Media: a file on another origin is fetched without the key', async () => {
		const elsewhere = waha.server.url.replace('127.0.0.1', 'localhost');
		waha.server.respondWith(
			{
				status: 200,
				body: {
					id: RECEIVED,
					hasMedia: true,
					media: {
						url: `${elsewhere}/api/files/x.pdf`,
						mimetype: 'application/pdf',
						filename: 'x.pdf',
					},
				},
			},
			{ status: 200, headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4' },
		);

		const result = await onWaha(
			{ operation: 'downloadMedia', messageId: RECEIVED },
			{ allowPrivateFileHosts: true },
		);

		expect(result.error?.message).toBeUndefined();
		expect(waha.keyHeaders()).toEqual(['X-Api-Key', 'none']);
		expect(result.outputs[0][0].json).toEqual({
			messageId: RECEIVED,
			mimetype: 'application/pdf',
			fileName: 'x.pdf',
			fileLength: 8,
		});
	});

	it.each<[string, unknown]>([
		['no media', { id: RECEIVED, hasMedia: false, media: null }],
		[
			'media WAHA could not download',
			{ id: RECEIVED, hasMedia: true, media: { url: null, error: 'expired' } },
		],
	])('Download Media of a message with %s fails after one request', async (_case, answer) => {
		waha.server.respondWith({ status: 200, body: answer });

		const result = await onWaha({ operation: 'downloadMedia', messageId: RECEIVED });

		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(
			new RegExp(`^The gateway returned no file for message ${RECEIVED}`),
		);
		expect(waha.server.requests).toHaveLength(1);
	});
});

describe('Refused on WAHA before any request', () => {
	it.each<[string, INodeParameters, INodeExecutionData[] | undefined, string]>([
		[
			'Send Sticker (WAHA has no sticker route)',
			{ operation: 'sendSticker', chatId: byId(ALICE) },
			image(),
			'Message → Send Sticker is not available on WAHA: WAHA has no route to send a sticker: send the image with Send Media (Media Type Image) instead.',
		],
		[
			'Find Status Messages (WAHA keeps no status records)',
			{ operation: 'findStatus' },
			undefined,
			"Message → Find Status Messages is not available on WAHA: WAHA keeps no status records to search: a message's delivery state (ack, ackName) is in Message → Get's output and in the trigger's message.ack events.",
		],
		[
			'Download Media by a short ID (WAHA finds messages by their chat)',
			{ operation: 'downloadMedia', messageId: '3EB0C767D26A1D3BB2F1' },
			undefined,
			'Message ID must be the full ID of the message on WAHA, like false_5511999999999@c.us_3EB0C767D26A1D3BB2F1 (got "3EB0C767D26A1D3BB2F1")',
		],
		[
			'Download Media converting audio to MP4',
			{ operation: 'downloadMedia', messageId: RECEIVED, convertToMp4: true },
			undefined,
			'Convert Audio to MP4 is not available on WAHA: it serves the file as it was received',
		],
		[
			'Edit a message you received',
			{ operation: 'edit', messageId: RECEIVED, text: 'x' },
			undefined,
			`Message ID ${RECEIVED} is a message you received: only messages you sent can be edited`,
		],
		[
			'Send Text with a reply to something that is no message ID',
			{ operation: 'sendText', chatId: byId(ALICE), text: 'x', options: { replyTo: 'nope' } },
			undefined,
			'Reply To Message ID must be a full message ID like false_5511999999999@c.us_3EB0C767D26A1D3BB2F1 (got "nope")',
		],
	])('%s', async (_case, parameters, items, message) => {
		const result = await onWaha(parameters, { items });

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(message);
		expect(waha.server.requests).toEqual([]);
	});
});

describe("WAHA's OpenAPI judges the bodies (what it refuses, the node does not send)", () => {
	it.each<[string, string, IDataObject, string]>([
		[
			'a preview image as plain base64',
			'/api/send/link-custom-preview',
			{
				session: SESSION,
				chatId: ALICE_CHAT,
				text: 'https://a.example',
				preview: { url: 'https://a.example', title: '', description: '', image: PNG_BASE64 },
			},
			'body.preview.image must be object',
		],
		[
			'a video without convert',
			'/api/sendVideo',
			{
				session: SESSION,
				chatId: ALICE_CHAT,
				file: { mimetype: 'video/mp4', filename: 'a.mp4', url: 'https://a.example/a.mp4' },
			},
			'body lacks convert',
		],
		[
			'a location without a title',
			'/api/sendLocation',
			{ session: SESSION, chatId: ALICE_CHAT, latitude: 1, longitude: 2 },
			'body lacks title',
		],
		[
			'a file from a URL without a MIME type',
			'/api/sendFile',
			{ session: SESSION, chatId: ALICE_CHAT, file: { url: 'https://a.example/a.pdf' } },
			'body.file lacks mimetype, data',
		],
		[
			'a list without its button',
			'/api/sendList',
			{ session: SESSION, chatId: ALICE_CHAT, message: { title: 'T', sections: [] } },
			'body.message lacks button',
		],
		[
			"Evolution's v1 text body",
			'/api/sendText',
			{ number: ALICE, textMessage: { text: 'x' } },
			'body lacks chatId, text, session',
		],
	])('%s', (_case, path, body, reason) => {
		const verdict = checkWaha({ method: 'POST', path, query: {}, body });

		expect(verdict.outcome).toBe('rejected');
		expect(verdict).toMatchObject({ reasons: expect.arrayContaining([reason]) });
	});
});

describe('no secret in errors', () => {
	it("WAHA's 401 names no key", async () => {
		waha.server.respondWith({
			status: 401,
			body: { statusCode: 401, message: `Unauthorized ${WAHA_KEY}` },
		});

		const result = await onWaha({ operation: 'sendText', chatId: byId(ALICE), text: 'Hi' });

		expect(result.status).toBe('error');
		expect(JSON.stringify(result.error)).not.toContain(WAHA_KEY);
		expect(result.error?.httpCode).toBe('401');
	});
});

describe('on the WAHA simulator: real answers read into the outputs', () => {
	const sim = useSimulator({ gateway: 'waha' });
	const SIM_SESSION = SEED.instances.connected.name;
	const { aliceText, aliceImage } = SEED.messages;

	async function onSim(parameters: INodeParameters, options: RunGatewayOptions = {}) {
		return await runGateway(
			sim,
			{ resource: 'message', session: SIM_SESSION, ...parameters },
			{ gateway: 'waha', ...options },
		);
	}

	/**
	 * Every request the simulator received had the key, and each to WAHA's API (not its files, which
	 * its OpenAPI leaves out) exists in its OpenAPI and is valid for it.
	 */
	function expectAllAccepted(): void {
		const api = sim.requests.filter((request) => !request.path.startsWith('/api/files/'));
		expect(api.length).toBeGreaterThan(0);
		expect(api.map((request) => checkWaha(request).outcome)).toEqual(api.map(() => 'accepted'));
		expect(sim.requests.map((request) => request.auth)).toEqual(sim.requests.map(() => 'valid'));
	}

	/** A file the simulator serves, fetched as WAHA serves it (the key in X-Api-Key). */
	async function servedFile(path: string): Promise<Buffer> {
		const response = await fetch(`${sim.url}${path}`, { headers: { 'X-Api-Key': sim.apiKey } });
		expect(response.status).toBe(200);
		return Buffer.from(await response.arrayBuffer());
	}

	it('Send Text, then Get, React, Edit and Delete by the message ID it output', async () => {
		const sentText = await onSim({
			operation: 'sendText',
			chatId: byId(SEED.contacts.alice.number),
			text: 'Your order is ready',
		});
		const messageId = String(sentText.outputs[0][0].json.messageId);
		expect(messageId).toMatch(new RegExp(`^true_${SEED.contacts.alice.chatId}_\\w+$`));

		const got = await onSim({ operation: 'get', messageId, downloadMedia: false });
		const reacted = await onSim({ operation: 'react', messageId, reaction: '👍' });
		const edited = await onSim({ operation: 'edit', messageId, text: 'Ready at 6pm' });
		const gotEdited = await onSim({ operation: 'get', messageId, downloadMedia: false });
		const deleted = await onSim({ operation: 'deleteForEveryone', messageId });

		expect(got.outputs[0][0].json).toMatchObject({
			id: messageId,
			fromMe: true,
			body: 'Your order is ready',
		});
		expect(reacted.outputs[0][0].json).toMatchObject({ messageId, reaction: '👍' });
		expect(edited.outputs[0][0].json).toMatchObject({ messageId, body: 'Ready at 6pm' });
		expect(gotEdited.outputs[0][0].json).toMatchObject({ id: messageId, body: 'Ready at 6pm' });
		expect(deleted.outputs[0][0].json).toMatchObject({ deleted: messageId });
		expectAllAccepted();
	});

	it('Send Media from a binary field, then Get puts the same bytes in binary', async () => {
		const bytes = Buffer.from(PNG_BASE64, 'base64');
		const sentImage = await onSim(
			{ operation: 'sendMedia', chatId: byId(SEED.contacts.alice.number), caption: 'Trail' },
			{ items: image() },
		);
		const messageId = String(sentImage.outputs[0][0].json.messageId);

		const got = await onSim({ operation: 'get', messageId, binaryPropertyName: 'photo' });

		expect(got.error?.message).toBeUndefined();
		expect(got.outputs[0][0].json).toMatchObject({ id: messageId, hasMedia: true });
		const binary = got.outputs[0][0].binary?.photo;
		expect(Buffer.from(String(binary?.data), 'base64')).toEqual(bytes);
		expectAllAccepted();
	});

	it('Download Media of a received image: the bytes the simulator serves, by its media URL', async () => {
		const result = await onSim({ operation: 'downloadMedia', messageId: aliceImage.id });

		expect(result.error?.message).toBeUndefined();
		const fileRequest = sim.requests[1];
		expect(fileRequest.path).toMatch(new RegExp(`^/api/files/${SIM_SESSION}/`));
		expectAllAccepted();
		const served = await servedFile(fileRequest.path);
		const [item] = result.outputs[0];
		expect(item.json).toMatchObject({ messageId: aliceImage.id, fileLength: served.length });
		expect(Buffer.from(String(item.binary?.data?.data), 'base64')).toEqual(served);
	});

	it('Mark as Read of a received message: the chat is read (its ack READ in Get)', async () => {
		const result = await onSim({ operation: 'markAsRead', messageIds: aliceText.id });
		const got = await onSim({ operation: 'get', messageId: aliceText.id, downloadMedia: false });

		expect(result.outputs[0][0].json).toEqual({ messageIds: [aliceText.id], answers: [{}] });
		expect(got.outputs[0][0].json).toMatchObject({ id: aliceText.id, ack: 3, ackName: 'READ' });
		expectAllAccepted();
	});

	it('Send Poll, Send List and Send Location each output the ID of the message WAHA stored', async () => {
		const alice = byId(SEED.contacts.alice.number);
		const runs = [
			await onSim({
				operation: 'sendPoll',
				chatId: alice,
				question: 'Q?',
				pollOptions: ['A', 'B'],
			}),
			await onSim({
				operation: 'sendList',
				chatId: alice,
				title: 'Menu',
				description: 'Pick',
				buttonText: 'Open',
				rows: { row: [{ title: 'One' }] },
			}),
			await onSim({
				operation: 'sendLocation',
				chatId: alice,
				latitude: 1,
				longitude: 2,
				name: 'Here',
			}),
		];

		for (const run of runs) {
			const messageId = String(run.outputs[0][0].json.messageId);
			const got = await onSim({ operation: 'get', messageId, downloadMedia: false });
			expect(got.outputs[0][0].json).toMatchObject({ id: messageId, fromMe: true });
		}
		expectAllAccepted();
	});

	it('a message WAHA does not have: its 404 with its words', async () => {
		const missing = `false_${SEED.contacts.alice.chatId}_3EB0000000000000DEAD`;

		const result = await onSim({ operation: 'get', messageId: missing, downloadMedia: false });

		expect(result.status).toBe('error');
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toMatch(/Message not found/);
	});
});
