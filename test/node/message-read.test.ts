import type { IDataObject } from 'n8n-workflow';

import { SEED } from '../simulator/index.cts';
import { gatewayFile, useSimulator } from '../simulator/testing.cts';
import {
	expectGatewayError,
	expectOneRequest,
	expectValidationError,
	jsonItems,
	outputJson,
	resourceRunner,
	expectPacedAndPaired,
} from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const HIKERS = SEED.groups.hikers;
const { alice, bruno, carla } = SEED.contacts;
const { aliceText, aliceImage, bakeryDocument, brunoLocation, hikersQuestion, replyToAlice } =
	SEED.messages;
const UNKNOWN_MESSAGE_ID = `false_${alice.chatId}_3A0000000000000000FF`;

const simulator = useSimulator();
const runMessage = resourceRunner(simulator, 'message', SESSION);

/** The file of a seed media message, as the gateway serves it. */
async function seedMediaFile(shortId: string, extension: string): Promise<Buffer> {
	return await gatewayFile(simulator, `/api/files/${SESSION}/${shortId}.${extension}`);
}

/** The path of GET one message, with the chat and message IDs percent-encoded as the node does. */
function messagePath(chatId: string, messageId: string): string {
	return `/api/${SESSION}/chats/${encodeURIComponent(chatId)}/messages/${encodeURIComponent(messageId)}`;
}

describe('Message > React', () => {
	it('sends shape A with the full message ID and outputs what was done', async () => {
		const result = await runMessage('react', { messageId: ` ${aliceText.id} `, reaction: '👍' });

		expect(result.status).toBe('success');
		expectOneRequest(simulator, {
			method: 'PUT',
			path: '/api/reaction',
			query: {},
		});
		expect(simulator.requests[0].body).toEqual({
			messageId: aliceText.id,
			reaction: '👍',
			session: SESSION,
		});
		expect(result.outputs[0]).toEqual([
			{
				json: { messageId: aliceText.id, reaction: '👍', success: true },
				pairedItem: { item: 0 },
			},
		]);
	});

	it('sends an empty reaction, which removes the reaction', async () => {
		const result = await runMessage('react', { messageId: aliceText.id, reaction: '' });

		expect(result.status).toBe('success');
		expect(simulator.requests[0].body).toEqual({
			messageId: aliceText.id,
			reaction: '',
			session: SESSION,
		});
		expect(outputJson(result)).toEqual([{ messageId: aliceText.id, reaction: '', success: true }]);
	});

	it('in shape B, sends the chat and the contact who wrote a direct message as JIDs', async () => {
		const result = await runMessage(
			'react',
			{ messageId: aliceText.id, reaction: '❤️' },
			{ requestBodyStyle: 'jidSessionId' },
		);

		expect(result.status).toBe('success');
		expect(simulator.requests[0].body).toEqual({
			sessionId: SESSION,
			jid: alice.jid,
			messageId: aliceText.id,
			sender: alice.jid,
			reaction: '❤️',
		});
		expect(outputJson(result)).toEqual([
			{ messageId: aliceText.id, reaction: '❤️', success: true },
		]);
	});

	it('in shape B, takes the sender of a group message from the participant at the end of its ID', async () => {
		const messageId = `${hikersQuestion.id}_${carla.chatId}`;
		const result = await runMessage(
			'react',
			{ messageId, reaction: '🥾' },
			{ requestBodyStyle: 'jidSessionId' },
		);

		expect(result.status).toBe('success');
		expect(simulator.requests[0].body).toEqual({
			sessionId: SESSION,
			jid: HIKERS.id,
			messageId,
			sender: carla.jid,
			reaction: '🥾',
		});
	});

	it('in shape B, lets the Sender option name who wrote the message', async () => {
		const result = await runMessage(
			'react',
			{ messageId: hikersQuestion.id, reaction: '👍', options: { sender: '+55 11 98765-0004' } },
			{ requestBodyStyle: 'jidSessionId' },
		);

		expect(result.status).toBe('success');
		expect((simulator.requests[0].body as IDataObject).sender).toBe(carla.jid);
	});

	it.each([
		[
			replyToAlice.id,
			'Sender is needed: the message was sent by this account and its ID does not say which number that is',
		],
		[
			hikersQuestion.id,
			'Sender is needed: the Message ID of this group message does not end with the participant who wrote it',
		],
	])('in shape B, asks for Sender when the ID %s does not tell it', async (messageId, message) => {
		const result = await runMessage(
			'react',
			{ messageId, reaction: '👍' },
			{ requestBodyStyle: 'jidSessionId' },
		);

		expectValidationError(simulator, result, message);
		expect(result.error?.description).toBe(
			'Add the option Sender with the phone number or JID of who wrote the message.',
		);
	});

	it('refuses a Message ID that is not a full message ID', async () => {
		const result = await runMessage('react', { messageId: aliceText.shortId, reaction: '👍' });

		expectValidationError(
			simulator,
			result,
			`Message ID must be a full message ID like false_5511999999999@c.us_3EB0C767D26A1D3BB2F1 (got "${aliceText.shortId}")`,
		);
	});

	it('surfaces an unknown message as the gateway error', async () => {
		const result = await runMessage('react', { messageId: UNKNOWN_MESSAGE_ID, reaction: '👍' });

		expectGatewayError(simulator, result, 'Gateway error 404: Message not found', '404');
	});

	it('reacts once per item, waiting between items, with paired outputs', async () => {
		const result = await runMessage(
			'react',
			{
				messageId: '={{ $json.id }}',
				reaction: '={{ $json.emoji }}',
				options: { waitBetweenItems: 40 },
			},
			{
				items: jsonItems(
					{ id: aliceText.id, emoji: '👍' },
					{ id: brunoLocation.id, emoji: '📍' },
					{ id: aliceImage.id, emoji: '' },
				),
			},
		);

		expect(result.status).toBe('success');
		expect(simulator.requests.map((request) => request.body)).toEqual([
			{ messageId: aliceText.id, reaction: '👍', session: SESSION },
			{ messageId: brunoLocation.id, reaction: '📍', session: SESSION },
			{ messageId: aliceImage.id, reaction: '', session: SESSION },
		]);
		expectPacedAndPaired(simulator, result, 30);
		expect(outputJson(result).map((json) => json.reaction)).toEqual(['👍', '📍', '']);
	});
});

describe('Message > Get', () => {
	it('reads the message from the chat in its ID and puts its media into binary "data"', async () => {
		const result = await runMessage('get', { messageId: aliceImage.id });

		expect(result.status).toBe('success');
		expect(simulator.requests).toHaveLength(2);
		expect(simulator.requests[0]).toMatchObject({
			method: 'GET',
			path: messagePath(alice.chatId, aliceImage.id),
			query: { downloadMedia: 'true' },
			auth: 'valid',
		});
		expect(simulator.requests[0].body).toBeUndefined();
		const mediaPath = `/api/files/${SESSION}/${aliceImage.shortId}.png`;
		expect(simulator.requests[1]).toMatchObject({ method: 'GET', path: mediaPath, auth: 'valid' });

		const [item] = result.outputs[0];
		expect(item.json).toEqual(simulator.findMessage(SESSION, aliceImage.id)?.waha);
		expect(item.json).toMatchObject({
			id: aliceImage.id,
			hasMedia: true,
			media: {
				url: `${simulator.url}${mediaPath}`,
				mimetype: 'image/png',
				filename: 'trail-map.png',
				error: null,
			},
		});
		expect(Object.keys(item.binary ?? {})).toEqual(['data']);
		expect(item.binary?.data).toMatchObject({ mimeType: 'image/png', fileName: 'trail-map.png' });
		const expected = await seedMediaFile(aliceImage.shortId, 'png');
		expect(Buffer.from(item.binary!.data.data, 'base64').equals(expected)).toBe(true);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('puts the media in the chosen binary field', async () => {
		const result = await runMessage('get', {
			messageId: bakeryDocument.id,
			binaryPropertyName: 'invoice',
		});

		const [item] = result.outputs[0];
		expect(Object.keys(item.binary ?? {})).toEqual(['invoice']);
		expect(item.binary?.invoice).toMatchObject({
			mimeType: 'application/pdf',
			fileName: 'invoice-1042.pdf',
		});
	});

	it('asks for no media with Download Media off, and outputs JSON only', async () => {
		const result = await runMessage('get', { messageId: aliceImage.id, downloadMedia: false });

		expect(simulator.requests).toHaveLength(1);
		expect(simulator.requests[0].query).toEqual({ downloadMedia: 'false' });
		const [item] = result.outputs[0];
		expect(item.json).toMatchObject({ id: aliceImage.id, hasMedia: true, media: null });
		expect(item.binary).toBeUndefined();
	});

	it('keeps the media URL without downloading when Put Media in Binary is off', async () => {
		const result = await runMessage('get', { messageId: aliceImage.id, mediaToBinary: false });

		expect(simulator.requests).toHaveLength(1);
		expect(simulator.requests[0].query).toEqual({ downloadMedia: 'true' });
		const [item] = result.outputs[0];
		expect((item.json.media as IDataObject).url).toBe(
			`${simulator.url}/api/files/${SESSION}/${aliceImage.shortId}.png`,
		);
		expect(item.binary).toBeUndefined();
	});

	it('outputs a message without media as JSON only', async () => {
		const result = await runMessage('get', { messageId: hikersQuestion.id });

		expect(simulator.requests).toHaveLength(1);
		expect(simulator.requests[0].path).toBe(messagePath(HIKERS.id, hikersQuestion.id));
		expect(result.outputs[0]).toEqual([
			{ json: simulator.findMessage(SESSION, hikersQuestion.id)?.waha, pairedItem: { item: 0 } },
		]);
		expect(outputJson(result)[0]).toMatchObject({
			body: 'Who is bringing the map on Saturday?',
			author: carla.chatId,
		});
	});

	it('refuses a short message ID, which does not say the chat', async () => {
		const result = await runMessage('get', { messageId: aliceImage.shortId });

		expectValidationError(simulator, result, /^Message ID must be a full message ID like /);
	});

	it('refuses an empty "Put Output File in Field"', async () => {
		const result = await runMessage(
			'get',
			{ messageId: aliceImage.id, binaryPropertyName: '={{ $json.field }}' },
			{ items: jsonItems({ field: ' ' }) },
		);

		expectValidationError(simulator, result, 'Put Output File in Field must not be empty');
	});

	it('surfaces an unknown message as the gateway error', async () => {
		const result = await runMessage('get', { messageId: UNKNOWN_MESSAGE_ID });

		expectGatewayError(simulator, result, 'Gateway error 404: Message not found', '404');
	});
});

describe('Message > Find Status Messages', () => {
	it('asks with no filters and the default limit, and outputs one item per record', async () => {
		const result = await runMessage('findStatus', {});

		expect(result.status).toBe('success');
		expectOneRequest(simulator, {
			method: 'POST',
			path: `/chat/findStatusMessage/${SESSION}`,
			query: {},
		});
		expect(simulator.requests[0].body).toEqual({ where: {}, limit: 50 });
		const records = outputJson(result);
		// replyToAlice was read (3 records), thanksToBruno delivered (2 records).
		expect(records).toHaveLength(5);
		expect(records[0]).toEqual({
			_id: expect.stringMatching(/^[0-9a-f]{24}$/),
			remoteJid: bruno.jid,
			id: SEED.messages.thanksToBruno.shortId,
			fromMe: true,
			participant: null,
			status: 'DELIVERY_ACK',
			datetime: expect.any(Number),
			owner: SESSION,
		});
		expect(result.outputs[0].map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 5 }, () => ({ item: 0 })),
		);
	});

	it('maps the filters: the short ID of a full ID, the chat as JID, From Me, and the limit', async () => {
		const result = await runMessage('findStatus', {
			limit: 2,
			filters: { messageId: replyToAlice.id, chat: '+55 11 98765-0001', fromMe: true },
		});

		expect(simulator.requests[0].body).toEqual({
			where: { id: replyToAlice.shortId, remoteJid: alice.jid, fromMe: true },
			limit: 2,
		});
		expect(outputJson(result)).toEqual([
			expect.objectContaining({ id: replyToAlice.shortId, remoteJid: alice.jid, status: 'READ' }),
			expect.objectContaining({ id: replyToAlice.shortId, status: 'DELIVERY_ACK' }),
		]);
	});

	it('takes a short message ID as it is, and outputs no items when nothing matches', async () => {
		const result = await runMessage('findStatus', {
			filters: { messageId: aliceText.shortId, fromMe: false },
		});

		expect(result.status).toBe('success');
		expect(simulator.requests[0].body).toEqual({
			where: { id: aliceText.shortId, fromMe: false },
			limit: 50,
		});
		expect(result.outputs).toEqual([[]]);
	});

	it.each([
		[{ messageId: 'not an id!' }, /^Message ID must be a message ID like .*\(got "not an id!"\)$/],
		[{ chat: 'Alice' }, /^Chat must be .*\(got "Alice"\)$/],
	])('refuses the filters %j before any request', async (filters, message) => {
		const result = await runMessage('findStatus', { filters });

		expectValidationError(simulator, result, message);
	});

	it('surfaces an unknown instance as the gateway error', async () => {
		const result = await runMessage('findStatus', { session: 'acme-nowhere' });

		expect(simulator.requests[0].path).toBe('/chat/findStatusMessage/acme-nowhere');
		expectGatewayError(
			simulator,
			result,
			'Gateway error 404: The "acme-nowhere" instance does not exist',
			'404',
		);
	});
});

describe('Message > Download Media', () => {
	it('asks by the short ID of a full ID and outputs the details and the file in binary "data"', async () => {
		const result = await runMessage('downloadMedia', { messageId: aliceImage.id });

		expect(result.status).toBe('success');
		expectOneRequest(simulator, {
			method: 'POST',
			path: `/chat/getBase64FromMediaMessage/${SESSION}`,
			query: {},
		});
		expect(simulator.requests[0].body).toEqual({
			message: { key: { id: aliceImage.shortId } },
			convertToMp4: false,
		});
		const expected = await seedMediaFile(aliceImage.shortId, 'png');
		const [item] = result.outputs[0];
		expect(item.json).toEqual({
			mediaType: 'imageMessage',
			fileName: null,
			caption: 'The trail map',
			size: {
				fileLength: String(expected.length),
				height: expect.any(Number),
				width: expect.any(Number),
			},
			mimetype: 'image/png',
		});
		expect(Object.keys(item.binary ?? {})).toEqual(['data']);
		// No file name from the gateway: one is made from the message ID and the type.
		expect(item.binary?.data).toMatchObject({
			mimeType: 'image/png',
			fileName: `${aliceImage.shortId}.png`,
		});
		expect(Buffer.from(item.binary!.data.data, 'base64').equals(expected)).toBe(true);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('takes a short ID, keeps the base64 in JSON on request, and uses the file name of a document', async () => {
		const result = await runMessage('downloadMedia', {
			messageId: bakeryDocument.shortId,
			binaryPropertyName: 'invoice',
			options: { keepBase64: true },
		});

		expect(simulator.requests[0].body).toEqual({
			message: { key: { id: bakeryDocument.shortId } },
			convertToMp4: false,
		});
		const [item] = result.outputs[0];
		expect(item.json).toMatchObject({
			mediaType: 'documentMessage',
			fileName: 'invoice-1042.pdf',
			mimetype: 'application/pdf',
			base64: item.binary?.invoice.data,
		});
		expect(item.binary?.invoice).toMatchObject({
			mimeType: 'application/pdf',
			fileName: 'invoice-1042.pdf',
		});
		expect(Buffer.from(item.binary!.invoice.data, 'base64').toString('latin1')).toMatch(
			/^%PDF-1\.4/,
		);
	});

	it('asks for MP4 audio and names the file after the converted type', async () => {
		const voiceNote = await simulator.injectInboundMessage({
			from: alice.number,
			media: { mimetype: 'audio/ogg', base64: Buffer.from('OggS voice note').toString('base64') },
		});
		simulator.clearLogs();

		const result = await runMessage('downloadMedia', {
			messageId: voiceNote.id,
			convertToMp4: true,
		});

		expect(simulator.requests[0].body).toEqual({
			message: { key: { id: voiceNote.shortId } },
			convertToMp4: true,
		});
		const [item] = result.outputs[0];
		expect(item.json).toMatchObject({ mediaType: 'audioMessage', mimetype: 'audio/mp4' });
		expect(item.binary?.data).toMatchObject({
			mimeType: 'audio/mp4',
			fileName: `${voiceNote.shortId}.m4a`,
		});
		expect(Buffer.from(item.binary!.data.data, 'base64').toString()).toBe('OggS voice note');
	});

	it('refuses something that is not a message ID before any request', async () => {
		const result = await runMessage('downloadMedia', { messageId: 'message 42' });

		expectValidationError(
			simulator,
			result,
			'Message ID must be a message ID like 3EB0C767D26A1D3BB2F1 or false_5511999999999@c.us_3EB0C767D26A1D3BB2F1 (got "message 42")',
		);
	});

	it('surfaces a message without media as the gateway error', async () => {
		const result = await runMessage('downloadMedia', { messageId: aliceText.id });

		expectGatewayError(
			simulator,
			result,
			'Gateway error 400: The message is not of the media type',
			'400',
		);
	});

	it('with Continue On Fail, bad items become error items and the others are downloaded', async () => {
		const result = await runMessage(
			'downloadMedia',
			{ messageId: '={{ $json.id }}' },
			{
				items: jsonItems(
					{ id: aliceImage.id },
					{ id: 'no such thing' },
					{ id: brunoLocation.id },
					{ id: bakeryDocument.id },
				),
				onError: 'continueRegularOutput',
			},
		);

		expect(result.status).toBe('success');
		expect(simulator.requests.map((request) => request.body)).toEqual([
			{ message: { key: { id: aliceImage.shortId } }, convertToMp4: false },
			{ message: { key: { id: brunoLocation.shortId } }, convertToMp4: false },
			{ message: { key: { id: bakeryDocument.shortId } }, convertToMp4: false },
		]);
		const outputs = result.outputs[0];
		expect(outputs.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(outputs[0].binary?.data.fileName).toBe(`${aliceImage.shortId}.png`);
		expect(outputs[1].json).toEqual({
			error: expect.stringMatching(
				/^Message ID must be a message ID like .*\(got "no such thing"\)$/,
			),
			message: expect.any(String),
		});
		expect(outputs[1].binary).toBeUndefined();
		expect(outputs[2].json).toEqual({
			error: 'Gateway error 400: The message is not of the media type',
			message: expect.any(String),
		});
		expect(outputs[3].binary?.data.fileName).toBe('invoice-1042.pdf');
	});
});
