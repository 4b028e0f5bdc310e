// Message operations beyond the spec (Evolution API v1's instance API): media from binary, voice
// notes, stickers, contact cards, lists, read receipts, delete for everyone and edits.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEED } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import {
	binaryItem,
	byId,
	expectOneRequest,
	expectValidationError,
	outputJson,
	resourceRunner,
} from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const { alice, bruno } = SEED.contacts;
const HIKERS = SEED.groups.hikers;
const { aliceText, hikersQuestion } = SEED.messages;
/** A 1x1 PNG. */
const TINY_PNG_BASE64 =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const PDF_BASE64 = Buffer.from('%PDF-1.4\n% tiny invoice\n%%EOF\n').toString('base64');
const MP3_BASE64 = Buffer.from('ID3 tiny voice note').toString('base64');

const simulator = useSimulator();
const runMessage = resourceRunner(simulator, 'message', SESSION);
const toAlice = { chatId: byId(alice.number) };

/** Sends a text through the node and returns its full message ID, for Edit and Delete. */
async function sentTextId(text = 'Your order is ready.'): Promise<string> {
	const result = await runMessage('sendText', { ...toAlice, text });
	const [json] = outputJson(result);
	simulator.clearLogs();
	return json.messageId as string;
}

describe('Message > Send Media', () => {
	it.each([
		{
			case: 'an image from a binary field: type, MIME type and name from the binary',
			parameters: { caption: 'The trail map' },
			items: [binaryItem(TINY_PNG_BASE64, 'image/png', 'map.png')],
			mediaMessage: {
				mediatype: 'image',
				fileName: 'map.png',
				caption: 'The trail map',
				mimetype: 'image/png',
				media: TINY_PNG_BASE64,
			},
		},
		{
			case: 'a PDF from a binary field as a document named after the file',
			parameters: {},
			items: [binaryItem(PDF_BASE64, 'application/pdf', 'invoice-1042.pdf')],
			mediaMessage: {
				mediatype: 'document',
				fileName: 'invoice-1042.pdf',
				mimetype: 'application/pdf',
				media: PDF_BASE64,
			},
		},
		{
			case: 'a nameless binary PDF still gets a document name (the gateway fails without one)',
			parameters: {},
			items: [{ json: {}, binary: { data: { data: PDF_BASE64, mimeType: 'application/pdf' } } }],
			mediaMessage: {
				mediatype: 'document',
				fileName: 'document.pdf',
				mimetype: 'application/pdf',
				media: PDF_BASE64,
			},
		},
		{
			case: 'an octet-stream binary takes its type from the file name',
			parameters: {},
			items: [binaryItem(MP3_BASE64, 'application/octet-stream', 'jingle.mp3')],
			mediaMessage: {
				mediatype: 'audio',
				fileName: 'jingle.mp3',
				mimetype: 'audio/mpeg',
				media: MP3_BASE64,
			},
		},
		{
			case: 'a URL handed to the gateway as given, type from its file name',
			parameters: { mediaSource: 'url', mediaUrl: 'https://cdn.example.com/menu%20v2.pdf?x=1' },
			items: undefined,
			mediaMessage: {
				mediatype: 'document',
				fileName: 'menu v2.pdf',
				mimetype: 'application/pdf',
				media: 'https://cdn.example.com/menu%20v2.pdf?x=1',
			},
		},
		{
			case: 'a data: URI as base64 without its prefix, and an explicit type and name',
			parameters: {
				mediaSource: 'base64',
				mediaBase64: `data:image/png;base64,${TINY_PNG_BASE64}`,
				mediaType: 'document',
				options: { fileName: 'pixel.png' },
			},
			items: undefined,
			mediaMessage: {
				mediatype: 'document',
				fileName: 'pixel.png',
				mimetype: 'image/png',
				media: TINY_PNG_BASE64,
			},
		},
	])('sends $case', async ({ parameters, items, mediaMessage }) => {
		const result = await runMessage('sendMedia', { ...toAlice, ...parameters }, { items });

		expect(result.status).toBe('success');
		const request = expectOneRequest(simulator, {
			method: 'POST',
			path: `/message/sendMedia/${SESSION}`,
		});
		expect(request.body).toEqual({ number: alice.number, mediaMessage });
		const [json] = outputJson(result);
		expect(json.messageId).toMatch(new RegExp(`^true_${alice.chatId}_`));
		expect(simulator.findMessage(SESSION, json.messageId as string)).toBeDefined();
	});

	it('round trip: an image sent from a binary comes back byte for byte with Download Media', async () => {
		const image = Buffer.from(TINY_PNG_BASE64, 'base64');
		const sent = await runMessage(
			'sendMedia',
			{ chatId: byId(HIKERS.id), caption: 'Summit!' },
			{ items: [binaryItem(image.toString('base64'), 'image/png', 'summit.png')] },
		);
		const messageId = outputJson(sent)[0].messageId as string;

		const downloaded = await runMessage('downloadMedia', {
			messageId,
			binaryPropertyName: 'photo',
		});

		expect(downloaded.status).toBe('success');
		const [item] = downloaded.outputs[0];
		expect(item.binary?.photo.mimeType).toBe('image/png');
		expect(Buffer.from(item.binary!.photo.data, 'base64').equals(image)).toBe(true);
		expect(item.json).toMatchObject({ mediaType: 'imageMessage', caption: 'Summit!' });
	});

	it('sends every input item and pairs each output with its item', async () => {
		const result = await runMessage(
			'sendMedia',
			{ chatId: byId('={{ $json.to }}') },
			{
				items: [
					binaryItem(TINY_PNG_BASE64, 'image/png', 'a.png', { to: alice.number }),
					binaryItem(PDF_BASE64, 'application/pdf', 'b.pdf', { to: bruno.number }),
				],
			},
		);

		expect(simulator.requests.map((request) => (request.body as IDataObject).number)).toEqual([
			alice.number,
			bruno.number,
		]);
		expect(result.outputs[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it.each([
		{
			case: 'a missing binary field',
			parameters: { mediaBinaryProperty: 'photo' },
			message: /photo/,
		},
		{
			case: 'a URL that is not http(s)',
			parameters: { mediaSource: 'url', mediaUrl: 'file:///etc/passwd' },
			message: 'File URL must be an http(s) URL (got "file:///etc/passwd")',
		},
		{
			case: 'text that is not base64',
			parameters: { mediaSource: 'base64', mediaBase64: 'not base64!' },
			message: 'Base64 Content must be base64 text or a data: URI (got "not base64!")',
		},
		{
			case: 'a media type that does not match the file',
			parameters: { mediaType: 'video' },
			message: 'Media Type video does not match the file, which is image/png',
		},
		{
			case: 'a caption on an audio file',
			parameters: { mediaType: 'audio', caption: 'Listen', options: { mimeType: 'audio/mpeg' } },
			message: 'Caption cannot be sent with an audio file: the chat shows no caption under audio',
		},
		{
			case: 'a MIME type that is not type/subtype',
			parameters: { options: { mimeType: 'png' } },
			message: 'MIME Type must look like type/subtype, e.g. application/pdf (got "png")',
		},
	])('refuses $case before any request', async ({ parameters, message }) => {
		const result = await runMessage(
			'sendMedia',
			{ ...toAlice, ...parameters },
			{ items: [binaryItem(TINY_PNG_BASE64, 'image/png', 'map.png')] },
		);

		expectValidationError(simulator, result, message);
	});
});

describe('Message > Send Audio', () => {
	it.each([
		{ case: 'converted by default', options: {}, sent: { encoding: true } },
		{
			case: 'as it is when conversion is off, with a delay',
			options: { encoding: false, delay: 1 },
			sent: { encoding: false, delay: 1 },
		},
	])('sends a voice note from a binary, $case', async ({ options, sent }) => {
		const result = await runMessage(
			'sendAudio',
			{ ...toAlice, options },
			{ items: [binaryItem(MP3_BASE64, 'audio/mpeg', 'hello.mp3')] },
		);

		expect(result.status).toBe('success');
		const request = expectOneRequest(simulator, {
			method: 'POST',
			path: `/message/sendWhatsAppAudio/${SESSION}`,
		});
		// Evolution fails without an options object, so one is always sent.
		expect(request.body).toEqual({
			number: alice.number,
			options: sent,
			audioMessage: { audio: MP3_BASE64 },
		});
		const [json] = outputJson(result);
		expect(json.message).toMatchObject({ audioMessage: { ptt: true } });
	});

	it('refuses a file that is not audio before any request', async () => {
		const result = await runMessage('sendAudio', toAlice, {
			items: [binaryItem(PDF_BASE64, 'application/pdf', 'a.pdf')],
		});

		expectValidationError(
			simulator,
			result,
			'The voice note must be an audio file (got a file of type application/pdf)',
		);
	});
});

describe('Message > Send Sticker', () => {
	it('sends an image from a URL as a sticker', async () => {
		const result = await runMessage('sendSticker', {
			...toAlice,
			mediaSource: 'url',
			mediaUrl: 'https://cdn.example.com/cat.png',
		});

		expect(result.status).toBe('success');
		const request = expectOneRequest(simulator, {
			method: 'POST',
			path: `/message/sendSticker/${SESSION}`,
		});
		expect(request.body).toEqual({
			number: alice.number,
			stickerMessage: { image: 'https://cdn.example.com/cat.png' },
		});
		expect(outputJson(result)[0].message).toHaveProperty('stickerMessage');
	});

	it('refuses a file that is not an image before any request', async () => {
		const result = await runMessage('sendSticker', toAlice, {
			items: [binaryItem(PDF_BASE64, 'application/pdf', 'a.pdf')],
		});

		expectValidationError(
			simulator,
			result,
			'The sticker must be a PNG, JPEG, GIF or WebP image (got a file of type application/pdf)',
		);
	});
});

describe('Message > Send Contact', () => {
	const bakeryCard = {
		fullName: 'Acme Bakery',
		phoneNumber: '+55 (11) 3333-4444',
		organization: 'Acme',
		email: 'hello@acme.example',
		url: 'https://acme.example',
	};

	it.each([
		{
			case: 'one card with every field, the number as digits in wuid',
			contacts: { contact: [bakeryCard] },
			contactMessage: [
				{
					fullName: 'Acme Bakery',
					wuid: '551133334444',
					phoneNumber: '+551133334444',
					organization: 'Acme',
					email: 'hello@acme.example',
					url: 'https://acme.example',
				},
			],
			messageType: 'contactMessage',
		},
		{
			case: 'two cards as one message',
			contacts: {
				contact: [
					{ fullName: 'Alice', phoneNumber: alice.number },
					{ fullName: 'Bruno', phoneNumber: `={{ ${bruno.number} }}` },
				],
			},
			contactMessage: [
				{ fullName: 'Alice', wuid: alice.number, phoneNumber: `+${alice.number}` },
				{ fullName: 'Bruno', wuid: bruno.number, phoneNumber: `+${bruno.number}` },
			],
			messageType: 'contactsArrayMessage',
		},
	])('sends $case', async ({ contacts, contactMessage, messageType }) => {
		const result = await runMessage('sendContact', { ...toAlice, contacts } as INodeParameters);

		expect(result.status).toBe('success');
		const request = expectOneRequest(simulator, {
			method: 'POST',
			path: `/message/sendContact/${SESSION}`,
		});
		expect(request.body).toEqual({ number: alice.number, contactMessage });
		expect(outputJson(result)[0].message).toHaveProperty(messageType);
	});

	it.each([
		{ case: 'no contact', contacts: {}, message: 'Contacts must have at least one contact' },
		{
			case: 'a blank name',
			contacts: { contact: [{ fullName: ' ', phoneNumber: alice.number }] },
			message: 'Contacts: Full Name must not be empty',
		},
		{
			case: 'a phone number that is not one',
			contacts: { contact: [{ fullName: 'A', phoneNumber: 'call me' }] },
			message:
				'Contacts: Phone Number must be a phone number with country code, e.g. +55 11 99999-9999 (got "call me")',
		},
		{
			case: 'a bad email of the second card',
			contacts: {
				contact: [
					{ fullName: 'A', phoneNumber: alice.number },
					{ fullName: 'B', phoneNumber: bruno.number, email: 'b at example' },
				],
			},
			message:
				'Contacts (contact 2): Email must be an email address like name@email.com (got "b at example")',
		},
		{
			case: 'the same card twice',
			contacts: { contact: [bakeryCard, bakeryCard] },
			message: 'Contacts (contact 2) repeats an earlier contact',
		},
	])('refuses $case before any request', async ({ contacts, message }) => {
		const result = await runMessage('sendContact', { ...toAlice, contacts } as INodeParameters);

		expectValidationError(simulator, result, message);
	});
});

describe('Message > Send List', () => {
	const listParameters = {
		title: 'Our menu',
		description: 'Pick a dish.',
		buttonText: 'See the Menu',
	};

	it('groups rows into sections in order, defaulting the row ID to the title and the section to the list title', async () => {
		const result = await runMessage('sendList', {
			...toAlice,
			...listParameters,
			footerText: 'Acme Kitchen',
			rows: {
				row: [
					{ section: 'Mains', title: 'Feijoada', description: 'With rice', rowId: 'feijoada' },
					{ title: 'Water' },
					{ section: 'Mains', title: 'Moqueca' },
				],
			},
		});

		expect(result.status).toBe('success');
		const request = expectOneRequest(simulator, {
			method: 'POST',
			path: `/message/sendList/${SESSION}`,
		});
		expect(request.body).toEqual({
			number: alice.number,
			listMessage: {
				title: 'Our menu',
				description: 'Pick a dish.',
				buttonText: 'See the Menu',
				footerText: 'Acme Kitchen',
				sections: [
					{
						title: 'Mains',
						rows: [
							{ title: 'Feijoada', description: 'With rice', rowId: 'feijoada' },
							{ title: 'Moqueca', rowId: 'Moqueca' },
						],
					},
					{ title: 'Our menu', rows: [{ title: 'Water', rowId: 'Water' }] },
				],
			},
		});
		expect(outputJson(result)[0].message).toHaveProperty('listMessage');
	});

	it.each([
		{
			case: 'a blank button text from an expression',
			parameters: { buttonText: '={{ " " }}' },
			message: 'Button Text must not be empty',
		},
		{ case: 'no rows', parameters: { rows: {} }, message: 'Rows must have at least one row' },
		{
			case: 'two rows with one ID',
			parameters: {
				rows: {
					row: [
						{ title: 'A', rowId: 'x' },
						{ title: 'B', rowId: 'x' },
					],
				},
			},
			message: 'Rows (row 2): Row ID "x" is used by an earlier row',
		},
	])('refuses $case before any request', async ({ parameters, message }) => {
		const result = await runMessage('sendList', {
			...toAlice,
			...listParameters,
			rows: { row: [{ title: 'A' }] },
			...parameters,
		});

		expectValidationError(simulator, result, message);
	});
});

describe('Message > Mark as Read', () => {
	it('marks several messages read in one call, each as its Baileys key, without repeats', async () => {
		const result = await runMessage('markAsRead', {
			messageIds: `${aliceText.id}\n${hikersQuestion.id}, ${aliceText.id}`,
		});

		expect(result.status).toBe('success');
		const request = expectOneRequest(simulator, {
			method: 'PUT',
			path: `/chat/markMessageAsRead/${SESSION}`,
		});
		expect(request.body).toEqual({
			read_messages: [
				{ id: aliceText.id.split('_')[2], remoteJid: alice.jid, fromMe: false },
				{ id: hikersQuestion.id.split('_')[2], remoteJid: HIKERS.id, fromMe: false },
			],
		});
		expect(outputJson(result)).toEqual([
			{ message: 'Read messages', read: 'success', messageIds: [aliceText.id, hikersQuestion.id] },
		]);
	});

	it.each([
		{
			case: 'an empty list from an expression',
			messageIds: '={{ [] }}',
			message: 'Message IDs must name at least one message',
		},
		{
			case: 'a short ID (the chat is unknown)',
			messageIds: `${aliceText.id}, 3EB0C767D26A1D3BB2F1`,
			message: /^Message IDs \(entry 2\) must be a full message ID/,
		},
	])('refuses $case before any request', async ({ messageIds, message }) => {
		const result = await runMessage('markAsRead', { messageIds });

		expectValidationError(simulator, result, message);
	});
});

describe('Message > Delete for Everyone', () => {
	it('deletes a message it sent: the gateway revokes it and announces the deletion', async () => {
		const messageId = await sentTextId();

		const result = await runMessage('deleteForEveryone', { messageId });

		expect(result.status).toBe('success');
		const request = expectOneRequest(simulator, {
			method: 'DELETE',
			path: `/chat/deleteMessageForEveryone/${SESSION}`,
		});
		const shortId = messageId.split('_')[2];
		expect(request.body).toEqual({ id: shortId, remoteJid: alice.jid, fromMe: true });
		expect(outputJson(result)[0]).toMatchObject({
			message: { protocolMessage: { type: 'REVOKE', key: { id: shortId } } },
			deleted: messageId,
		});
		expect(simulator.findMessage(SESSION, messageId)).toBeUndefined();
	});

	it('names the member of a group message from the participant part of its ID', async () => {
		const result = await runMessage('deleteForEveryone', {
			messageId: `false_${HIKERS.id}_3EB0AAAABBBBCCCCDDDD_${bruno.chatId}`,
		});

		expect(simulator.requests[0].body).toEqual({
			id: '3EB0AAAABBBBCCCCDDDD',
			remoteJid: HIKERS.id,
			fromMe: false,
			participant: bruno.jid,
		});
		expect(result.status).toBe('success');
	});

	it('refuses a message received from a contact before any request', async () => {
		const result = await runMessage('deleteForEveryone', { messageId: aliceText.id });

		expectValidationError(
			simulator,
			result,
			`Message ID ${aliceText.id} is a message you received: only your own messages can be deleted for everyone`,
		);
	});
});

describe('Message > Edit', () => {
	it('changes the text of a message it sent', async () => {
		const messageId = await sentTextId('Ready at 5pm.');

		const result = await runMessage('edit', { messageId, text: 'Ready at 6pm.' });

		expect(result.status).toBe('success');
		const request = expectOneRequest(simulator, {
			method: 'PUT',
			path: `/chat/updateMessage/${SESSION}`,
		});
		expect(request.body).toEqual({
			number: alice.number,
			text: 'Ready at 6pm.',
			key: { id: messageId.split('_')[2], remoteJid: alice.jid, fromMe: true },
		});
		expect(outputJson(result)[0]).toMatchObject({
			message: { protocolMessage: { type: 'MESSAGE_EDIT' } },
			messageId,
		});
		expect(simulator.findMessage(SESSION, messageId)?.waha.body).toBe('Ready at 6pm.');
	});

	it.each([
		{
			case: 'a received message',
			parameters: { messageId: aliceText.id, text: 'x' },
			message: `Message ID ${aliceText.id} is a message you received: only messages you sent can be edited`,
		},
		{
			case: 'an empty text',
			parameters: { messageId: `true_${alice.chatId}_3EB0AAAABBBBCCCCDDDD`, text: '  ' },
			message: 'New Text must not be empty',
		},
	])('refuses $case before any request', async ({ parameters, message }) => {
		const result = await runMessage('edit', parameters);

		expectValidationError(simulator, result, message);
	});
});

describe('Gateway errors of the sends', () => {
	it('reports a number that is not on the network with the gateway words, per item', async () => {
		const result = await runMessage(
			'sendMedia',
			{ chatId: byId('={{ $json.to }}') },
			{
				items: [
					binaryItem(TINY_PNG_BASE64, 'image/png', 'a.png', { to: '+1 555 000 0000' }),
					binaryItem(TINY_PNG_BASE64, 'image/png', 'b.png', { to: alice.number }),
				],
				onError: 'continueRegularOutput',
			},
		);

		expect(simulator.requests).toHaveLength(2);
		const [failed, sent] = result.outputs[0];
		expect(failed.json.error).toMatch(/^Gateway error 400: .*15550000000/);
		expect(failed.pairedItem).toEqual({ item: 0 });
		expect(sent.json.messageId).toMatch(new RegExp(`^true_${alice.chatId}_`));
	});
});
