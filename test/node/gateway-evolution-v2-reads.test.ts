/**
 * Reading on Evolution API v2 (Message Get and Download Media, Chat Get Many, Contact Get and Get
 * Many): v2's own searches and bodies, each judged by 2.3.6's own validation, read into the
 * outputs the node documents. First against a scripted gateway (exact bodies, pages, answers that
 * are not what the operation reads), then against the simulator playing 2.3.6 (real answers).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { EVOLUTION_V2_SEED as SEED } from '../simulator/index.cts';
import { gatewayFile, useSimulator } from '../simulator/testing.cts';
import { byId, outputJson, runGateway } from '../support/gateway-node.cts';
import { addSenders, senderNumber } from '../support/senders.cts';
import { useScriptedEvolutionV2 } from '../support/scripted-evolution-v2.cts';
import type { ScriptedResponse } from '../support/scripted-server.cts';

const SESSION = 'acme-sales';
const ALICE = '5511987650001';
const ALICE_JID = `${ALICE}@s.whatsapp.net`;
const GROUP = '120363041234567890@g.us';
const SHORT_ID = '3A1F0C2B9D8E7A6B5C40';
const FULL_ID = `false_${ALICE}@c.us_${SHORT_ID}`;
const PNG_BASE64 = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');

/** A Message row as 2.3.6's findMessages selects it. */
function messageRow(key: IDataObject, message: IDataObject, extra: IDataObject = {}): IDataObject {
	return {
		id: `cmr${String(key.id)}`,
		key,
		pushName: 'Alice Martins',
		messageType: Object.keys(message)[0],
		message,
		messageTimestamp: 1764000000,
		instanceId: 'c2b8a7e0-0000-4000-8000-000000000001',
		source: 'android',
		contextInfo: null,
		MessageUpdate: [],
		...extra,
	};
}

const TEXT_ROW = messageRow(
	{ remoteJid: ALICE_JID, fromMe: false, id: SHORT_ID },
	{ conversation: 'Hi! Is order #1042 ready?' },
);
const IMAGE_ROW = messageRow(
	{ remoteJid: ALICE_JID, fromMe: false, id: SHORT_ID },
	{ imageMessage: { mimetype: 'image/png', caption: 'The trail map', url: 'https://mmg.example' } },
);
const found = (...records: IDataObject[]) => ({
	messages: { total: records.length, pages: 1, currentPage: 1, records },
});

/** A findChats row of 2.3.6 for the chat `remoteJid`. */
function chatRow(remoteJid: string, pushName: string): IDataObject {
	return {
		id: null,
		remoteJid,
		pushName,
		profilePicUrl: null,
		updatedAt: '2026-01-01T09:00:00.000Z',
		lastMessage: messageRow({ remoteJid, fromMe: true, id: '3EB0AA' }, { conversation: 'Hi' }),
		unreadCount: 0,
		isSaved: false,
	};
}

/** A Contact row of 2.3.6 for the number `digits`. */
function contactRow(digits: string, pushName: string | null): IDataObject {
	return {
		id: `cmc${digits}`,
		remoteJid: `${digits}@s.whatsapp.net`,
		pushName,
		profilePicUrl: null,
		isGroup: false,
		isSaved: pushName !== null,
		type: pushName === null ? 'group_member' : 'contact',
	};
}

const numbered = (count: number, from = 0) =>
	Array.from({ length: count }, (_, index) => senderNumber(from + index));
const chatRows = (count: number, from = 0) =>
	numbered(count, from).map((digits) => chatRow(`${digits}@s.whatsapp.net`, `Guest ${digits}`));
const contactRows = (count: number, from = 0) =>
	numbered(count, from).map((digits) => contactRow(digits, `Guest ${digits}`));

describe('reads on Evolution API v2: requests and outputs (scripted gateway)', () => {
	const scripted = useScriptedEvolutionV2(SESSION);
	const onV2 = scripted.run;
	const sent = () => scripted.sent().map(({ method, url, body }) => [method, url, body]);
	const verdicts = () => scripted.verdicts().map((verdict) => verdict.outcome);

	it.each<[string, INodeParameters, ScriptedResponse[], unknown[][], IDataObject[]]>([
		[
			'Message → Get, without media',
			{ resource: 'message', operation: 'get', messageId: FULL_ID, downloadMedia: false },
			[{ body: found(TEXT_ROW) }],
			[['POST', `/chat/findMessages/${SESSION}`, { where: { key: { id: SHORT_ID } } }]],
			[
				{
					id: FULL_ID,
					timestamp: 1764000000,
					chatId: `${ALICE}@c.us`,
					fromMe: false,
					participant: null,
					pushName: 'Alice Martins',
					body: 'Hi! Is order #1042 ready?',
					hasMedia: false,
					messageType: 'conversation',
					_data: TEXT_ROW,
				},
			],
		],
		[
			'Message → Get, media not asked for',
			{ resource: 'message', operation: 'get', messageId: FULL_ID, downloadMedia: false },
			[{ body: found(IMAGE_ROW) }],
			[['POST', `/chat/findMessages/${SESSION}`, { where: { key: { id: SHORT_ID } } }]],
			[expect.objectContaining({ body: 'The trail map', hasMedia: true, media: null })],
		],
		[
			'Message → Get, media into binary: the file from getBase64FromMediaMessage',
			{ resource: 'message', operation: 'get', messageId: FULL_ID },
			[
				{ body: found(IMAGE_ROW) },
				{ status: 201, body: { mimetype: 'image/png', fileName: null, base64: PNG_BASE64 } },
			],
			[
				['POST', `/chat/findMessages/${SESSION}`, { where: { key: { id: SHORT_ID } } }],
				[
					'POST',
					`/chat/getBase64FromMediaMessage/${SESSION}`,
					{ message: { key: { id: SHORT_ID } }, convertToMp4: false },
				],
			],
			[
				expect.objectContaining({
					id: FULL_ID,
					media: { url: null, mimetype: 'image/png', filename: null, error: null },
				}),
			],
		],
		[
			'Message → Get, a group message: the member after the ID',
			{ resource: 'message', operation: 'get', messageId: `false_${GROUP}_${SHORT_ID}` },
			[
				{
					body: found(
						messageRow(
							{ remoteJid: GROUP, fromMe: false, id: SHORT_ID, participant: ALICE_JID },
							{ extendedTextMessage: { text: 'Who brings the map?' } },
						),
					),
				},
			],
			[['POST', `/chat/findMessages/${SESSION}`, { where: { key: { id: SHORT_ID } } }]],
			[
				expect.objectContaining({
					id: `false_${GROUP}_${SHORT_ID}_${ALICE}@c.us`,
					chatId: GROUP,
					participant: `${ALICE}@c.us`,
					body: 'Who brings the map?',
				}),
			],
		],
		[
			'Message → Get, a contact v2 stores by LID: found by its remoteJidAlt',
			{ resource: 'message', operation: 'get', messageId: FULL_ID, downloadMedia: false },
			[
				{
					body: found(
						messageRow(
							{
								remoteJid: '123456789012345@lid',
								remoteJidAlt: ALICE_JID,
								fromMe: false,
								id: SHORT_ID,
							},
							{ conversation: 'Hi' },
						),
					),
				},
			],
			[['POST', `/chat/findMessages/${SESSION}`, { where: { key: { id: SHORT_ID } } }]],
			[expect.objectContaining({ body: 'Hi', chatId: '123456789012345@lid' })],
		],
		[
			'Message → Download Media, audio converted to MP4',
			{
				resource: 'message',
				operation: 'downloadMedia',
				messageId: SHORT_ID,
				convertToMp4: true,
			},
			[{ status: 201, body: { mediaType: 'audioMessage', mimetype: 'audio/mp4', base64: 'AAAA' } }],
			[
				[
					'POST',
					`/chat/getBase64FromMediaMessage/${SESSION}`,
					{ message: { key: { id: SHORT_ID } }, convertToMp4: true },
				],
			],
			[{ mediaType: 'audioMessage', mimetype: 'audio/mp4' }],
		],
		[
			'Chat → Get Many, a limit: one page of that size',
			{ resource: 'chat', operation: 'getMany', limit: 2 },
			[{ body: chatRows(2) }],
			[['POST', `/chat/findChats/${SESSION}`, { take: 2, skip: 0 }]],
			chatRows(2).map((row) =>
				expect.objectContaining({
					id: `${String(row.remoteJid).split('@')[0]}@c.us`,
					name: row.pushName,
					picture: null,
					lastMessage: expect.objectContaining({ fromMe: true, body: 'Hi' }),
					_chat: row,
				}),
			),
		],
		[
			'Chat → Get Many, Return All: pages of 50 until a short one',
			{ resource: 'chat', operation: 'getMany', returnAll: true },
			[{ body: chatRows(50) }, { body: chatRows(3, 50) }],
			[
				['POST', `/chat/findChats/${SESSION}`, { take: 50, skip: 0 }],
				['POST', `/chat/findChats/${SESSION}`, { take: 50, skip: 50 }],
			],
			[...chatRows(50), ...chatRows(3, 50)].map((row) => expect.objectContaining({ _chat: row })),
		],
		[
			'Chat → Get Many, Return All from a gateway that ignores the paging: stops at the repeat',
			{ resource: 'chat', operation: 'getMany', returnAll: true },
			[{ body: chatRows(50) }, { body: chatRows(50) }],
			[
				['POST', `/chat/findChats/${SESSION}`, { take: 50, skip: 0 }],
				['POST', `/chat/findChats/${SESSION}`, { take: 50, skip: 50 }],
			],
			chatRows(50).map((row) => expect.objectContaining({ _chat: row })),
		],
		[
			'Chat → Get Many, filtered: each listed chat by where.remoteJid',
			{
				resource: 'chat',
				operation: 'getMany',
				filters: { chats: `+55 11 98765-0001, ${GROUP}` },
			},
			[{ body: [chatRow(ALICE_JID, 'Alice')] }, { body: [chatRow(GROUP, 'Hikers')] }],
			[
				['POST', `/chat/findChats/${SESSION}`, { where: { remoteJid: ALICE_JID } }],
				['POST', `/chat/findChats/${SESSION}`, { where: { remoteJid: GROUP } }],
			],
			[
				expect.objectContaining({ id: `${ALICE}@c.us`, name: 'Alice' }),
				expect.objectContaining({ id: GROUP, name: 'Hikers' }),
			],
		],
		[
			'Chat → Get Many, filtered with a limit: no request past it',
			{
				resource: 'chat',
				operation: 'getMany',
				limit: 1,
				filters: { chats: `${ALICE}, ${GROUP}` },
			},
			[{ body: [chatRow(ALICE_JID, 'Alice')] }],
			[['POST', `/chat/findChats/${SESSION}`, { where: { remoteJid: ALICE_JID } }]],
			[expect.objectContaining({ id: `${ALICE}@c.us` })],
		],
		[
			'Contact → Get: by where.remoteJid, the only filter 2.3.6 applies',
			{ resource: 'contact', operation: 'get', contact: byId(`${ALICE}@c.us`) },
			[{ body: [contactRow(ALICE, 'Alice Martins')] }],
			[['POST', `/chat/findContacts/${SESSION}`, { where: { remoteJid: ALICE_JID } }]],
			[{ jid: ALICE_JID, name: 'Alice Martins', ...contactRow(ALICE, 'Alice Martins') }],
		],
		[
			'Contact → Get from a gateway that lists every contact: the asked one',
			{ resource: 'contact', operation: 'get', contact: byId(ALICE) },
			[{ body: [...contactRows(3), contactRow(ALICE, null)] }],
			[['POST', `/chat/findContacts/${SESSION}`, { where: { remoteJid: ALICE_JID } }]],
			[expect.objectContaining({ jid: ALICE_JID, name: null })],
		],
		[
			'Contact → Get Many, a limit: page 1 of that size',
			{ resource: 'contact', operation: 'getMany', limit: 3 },
			[{ body: contactRows(3) }],
			[['POST', `/chat/findContacts/${SESSION}`, { page: 1, offset: 3 }]],
			contactRows(3).map((row) => ({ jid: row.remoteJid, name: row.pushName, ...row })),
		],
		[
			'Contact → Get Many, Return All: pages of 100 until a short one',
			{ resource: 'contact', operation: 'getMany', returnAll: true },
			[{ body: contactRows(100) }, { body: contactRows(1, 100) }],
			[
				['POST', `/chat/findContacts/${SESSION}`, { page: 1, offset: 100 }],
				['POST', `/chat/findContacts/${SESSION}`, { page: 2, offset: 100 }],
			],
			[...contactRows(100), ...contactRows(1, 100)].map((row) =>
				expect.objectContaining({ jid: row.remoteJid }),
			),
		],
		[
			'Contact → Get Many, a limit past one page: the last page trimmed',
			{ resource: 'contact', operation: 'getMany', limit: 150 },
			[{ body: contactRows(100) }, { body: contactRows(100, 100) }],
			[
				['POST', `/chat/findContacts/${SESSION}`, { page: 1, offset: 100 }],
				['POST', `/chat/findContacts/${SESSION}`, { page: 2, offset: 100 }],
			],
			contactRows(150).map((row) => expect.objectContaining({ jid: row.remoteJid })),
		],
	])('%s', async (_name, parameters, answers, requests, outputs) => {
		scripted.server.respondWith(...answers);

		const result = await onV2(parameters);

		expect(result.error?.message).toBeUndefined();
		expect(sent()).toEqual(requests);
		expect(verdicts()).toEqual(requests.map(() => 'accepted'));
		expect(outputJson(result)).toEqual(outputs);
	});

	it('Message → Get puts the file into the binary field as Download Media names it', async () => {
		scripted.server.respondWith(
			{ body: found(IMAGE_ROW) },
			{ status: 201, body: { mimetype: 'image/png', fileName: 'map.png', base64: PNG_BASE64 } },
		);

		const result = await onV2({
			resource: 'message',
			operation: 'get',
			messageId: FULL_ID,
			binaryPropertyName: 'photo',
		});

		expect(result.error?.message).toBeUndefined();
		const [item] = result.outputs[0];
		expect(Object.keys(item.binary ?? {})).toEqual(['photo']);
		expect(item.binary?.photo).toMatchObject({ mimeType: 'image/png', fileName: 'map.png' });
		expect(item.binary?.photo.data).toBe(PNG_BASE64);
	});

	it.each<[string, INodeParameters, ScriptedResponse[], RegExp]>([
		[
			'findMessages answering a list',
			{ resource: 'message', operation: 'get', messageId: FULL_ID },
			[{ body: [] }],
			/^Gateway error: the answer is not an object with a list "messages\.records" \(got a list \(\[\]\)\)/,
		],
		[
			'findMessages answering no records',
			{ resource: 'message', operation: 'get', messageId: FULL_ID },
			[{ body: { messages: { total: 0 } } }],
			/^Gateway error: the answer is not an object with a list "messages\.records"/,
		],
		[
			'getBase64FromMediaMessage answering no file',
			{ resource: 'message', operation: 'get', messageId: FULL_ID },
			[{ body: found(IMAGE_ROW) }, { status: 201, body: { mimetype: 'image/png' } }],
			new RegExp(`^The gateway returned no file for message ${SHORT_ID}`),
		],
		[
			'findChats answering an object',
			{ resource: 'chat', operation: 'getMany' },
			[{ body: { chats: [] } }],
			/^Gateway error: the answer is not a list of records \(got an object \(\{"chats":\[\]\}\)\)/,
		],
		[
			'findContacts answering a list of texts',
			{ resource: 'contact', operation: 'getMany' },
			[{ body: [ALICE_JID] }],
			/^Gateway error: the answer is not a list of records/,
		],
	])(
		'a 2xx that is not what the operation reads is an error: %s',
		async (_name, parameters, answers, message) => {
			scripted.server.respondWith(...answers);

			const result = await onV2(parameters);

			expect(result.error?.message).toMatch(message);
		},
	);

	it.each<[string, INodeParameters, IDataObject, RegExp]>([
		[
			'Message → Get: no stored message of that ID',
			{ resource: 'message', operation: 'get', messageId: FULL_ID },
			found(),
			new RegExp(`^Message ${FULL_ID} not found in session ${SESSION}`),
		],
		[
			'Message → Get: the ID is stored in another chat',
			{ resource: 'message', operation: 'get', messageId: FULL_ID },
			found(messageRow({ remoteJid: GROUP, fromMe: false, id: SHORT_ID }, { conversation: 'x' })),
			new RegExp(`^Message ${FULL_ID} not found in session ${SESSION}`),
		],
		[
			'Contact → Get: no such contact',
			{ resource: 'contact', operation: 'get', contact: byId(ALICE) },
			[] as unknown as IDataObject,
			new RegExp(`^Contact ${ALICE_JID} not found in session ${SESSION}`),
		],
	])('%s: the item fails saying so', async (_name, parameters, answer, message) => {
		scripted.server.respondWith({ body: answer });

		const result = await onV2(parameters);

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(message);
		expect(scripted.server.requests).toHaveLength(1);
	});

	it.each<[string, INodeParameters, RegExp]>([
		[
			'Message → Get, a short ID',
			{ resource: 'message', operation: 'get', messageId: SHORT_ID },
			/^Message ID must be a full message ID/,
		],
		[
			'Message → Download Media, not an ID',
			{ resource: 'message', operation: 'downloadMedia', messageId: 'not an id!' },
			/^Message ID must be a message ID/,
		],
		[
			'Chat → Get Many, a Chats entry that is no chat',
			{ resource: 'chat', operation: 'getMany', filters: { chats: `${ALICE}, hello` } },
			/^Chats must be/,
		],
		[
			'Chat → Get Many, a limit of 0',
			{ resource: 'chat', operation: 'getMany', limit: 0 },
			/Limit/,
		],
		[
			'Contact → Get, a group',
			{ resource: 'contact', operation: 'get', contact: byId(GROUP) },
			/^Contact must be a phone number/,
		],
		[
			'Contact → Get Many, a limit of 0',
			{ resource: 'contact', operation: 'getMany', limit: 0 },
			/Limit/,
		],
	])('bad input fails before any request: %s', async (_name, parameters, message) => {
		const result = await onV2(parameters);

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(message);
		expect(scripted.server.requests).toEqual([]);
	});
});

describe('reads on Evolution API v2, against the simulator playing 2.3.6', () => {
	const v2 = useSimulator({ gateway: 'evolution-v2' });
	const SESSION_V2 = SEED.instances.connected.name;
	const { alice, bruno } = SEED.contacts;
	const { aliceText, aliceImage, bakeryDocument, thanksToBruno, hikersQuestion } = SEED.messages;

	async function run(resource: string, operation: string, parameters: INodeParameters) {
		return await runGateway(
			v2,
			{ resource, operation, session: SESSION_V2, ...parameters },
			{ gateway: 'evolutionV2' },
		);
	}

	/** Every request the simulator received passed 2.3.6's own validation. */
	function expectAllAccepted(): void {
		expect(v2.requests.length).toBeGreaterThan(0);
		expect(v2.requests.map((request) => checkEvolutionV2(request).outcome)).toEqual(
			v2.requests.map(() => 'accepted'),
		);
	}

	/** The media file the simulator serves for a seeded message (its stand-in for WhatsApp's servers). */
	async function servedFile(shortId: string, extension: string): Promise<Buffer> {
		return await gatewayFile(v2, `/api/files/${SESSION_V2}/${shortId}.${extension}`);
	}

	it.each<[string, { id: string; chatId: string; fromMe: boolean }, IDataObject]>([
		[
			'a text from a contact',
			aliceText,
			{ body: 'Hi! Is order #1042 ready for pickup?', hasMedia: false },
		],
		['an own message', thanksToBruno, { body: 'Thanks for the location!', fromMe: true }],
		['a photo with a caption', aliceImage, { body: 'The trail map', hasMedia: true }],
	])('Message → Get finds %s by its full ID', async (_name, message, fields) => {
		const result = await run('message', 'get', { messageId: message.id, downloadMedia: false });

		expect(result.error?.message).toBeUndefined();
		expectAllAccepted();
		expect(outputJson(result)).toEqual([
			expect.objectContaining({ id: message.id, chatId: message.chatId, ...fields }),
		]);
	});

	it('Message → Get of a group message names its member, and that ID is found again', async () => {
		const first = await run('message', 'get', { messageId: hikersQuestion.id });
		const id = String(outputJson(first)[0].id);
		const again = await run('message', 'get', { messageId: id });

		expect(first.error?.message).toBeUndefined();
		expect(id).toBe(`${hikersQuestion.id}_${SEED.contacts.carla.chatId}`);
		expect(outputJson(again)).toEqual([
			expect.objectContaining({ id, chatId: hikersQuestion.chatId }),
		]);
		expectAllAccepted();
	});

	it('Message → Get with media: the bytes the simulator serves, in binary "data"', async () => {
		const result = await run('message', 'get', { messageId: aliceImage.id });

		expect(result.error?.message).toBeUndefined();
		expect(v2.requests.map((request) => request.path)).toEqual([
			`/chat/findMessages/${SESSION_V2}`,
			`/chat/getBase64FromMediaMessage/${SESSION_V2}`,
		]);
		expectAllAccepted();
		const [item] = result.outputs[0];
		expect(item.json.media).toMatchObject({ mimetype: 'image/png' });
		expect(item.binary?.data).toMatchObject({ mimeType: 'image/png' });
		const served = await servedFile(aliceImage.shortId, 'png');
		expect(Buffer.from(item.binary!.data.data, 'base64').equals(served)).toBe(true);
	});

	it.each<[string, { id: string; shortId: string }, string, string, string]>([
		[
			'a photo: a file name made from its ID',
			aliceImage,
			'png',
			'image/png',
			`${aliceImage.shortId}.png`,
		],
		['a document: its own file name', bakeryDocument, 'pdf', 'application/pdf', 'invoice-1042.pdf'],
	])(
		'Message → Download Media of %s, the bytes the simulator serves',
		async (_name, message, extension, mimeType, fileName) => {
			const result = await run('message', 'downloadMedia', { messageId: message.id });

			expect(result.error?.message).toBeUndefined();
			expectAllAccepted();
			const [item] = result.outputs[0];
			expect(item.binary?.data).toMatchObject({ mimeType, fileName });
			const served = await servedFile(message.shortId, extension);
			expect(Buffer.from(item.binary!.data.data, 'base64').equals(served)).toBe(true);
		},
	);

	it.each<[string, string, INodeParameters, RegExp]>([
		[
			'Message → Get of an ID v2 has not stored',
			'get',
			{ messageId: `false_${alice.chatId}_3A0000000000000000FF` },
			/^Message false_5511987650001@c\.us_3A0000000000000000FF not found in session acme-sales/,
		],
		[
			'Message → Get of a stored ID in another chat',
			'get',
			{ messageId: `false_${bruno.chatId}_${aliceText.shortId}` },
			/not found in session acme-sales/,
		],
		[
			'Message → Download Media of a text message: v2 says it has no media',
			'downloadMedia',
			{ messageId: aliceText.id },
			/^Gateway error 400/,
		],
	])('%s fails', async (_name, operation, parameters, message) => {
		const result = await run('message', operation, parameters);

		expect(result.error?.message).toMatch(message);
		expectAllAccepted();
	});

	it('Chat → Get Many lists the chats that have messages, newest first, up to the limit', async () => {
		const all = await run('chat', 'getMany', { returnAll: true });
		const two = await run('chat', 'getMany', { limit: 2 });

		expect(all.error?.message).toBeUndefined();
		expectAllAccepted();
		// The chats of the seeded messages, by their newest message; the team group has none, and
		// 2.3.6's findChats lists chats from their messages.
		expect(outputJson(all).map((chat) => chat.id)).toEqual([
			hikersQuestion.chatId,
			thanksToBruno.chatId,
			bakeryDocument.chatId,
			aliceImage.chatId,
		]);
		expect(outputJson(two).map((chat) => chat.id)).toEqual([
			hikersQuestion.chatId,
			thanksToBruno.chatId,
		]);
		expect(outputJson(all)[0]).toMatchObject({
			name: SEED.groups.hikers.subject,
			lastMessage: { id: expect.stringContaining(hikersQuestion.shortId), fromMe: false },
			_chat: { remoteJid: SEED.groups.hikers.id },
		});
	});

	it('Chat → Get Many, Return All over more than a page: take/skip pages, every chat once', async () => {
		const before = outputJson(await run('chat', 'getMany', { returnAll: true })).length;
		await addSenders(v2, 55);

		const result = await run('chat', 'getMany', { returnAll: true });

		expect(v2.requests.map((request) => request.body)).toEqual([
			{ take: 50, skip: 0 },
			{ take: 50, skip: 50 },
		]);
		expectAllAccepted();
		const ids = outputJson(result).map((chat) => chat.id);
		expect(ids).toHaveLength(before + 55);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('Chat → Get Many filtered by chats: those chats only', async () => {
		const result = await run('chat', 'getMany', {
			filters: { chats: `${alice.number}, ${SEED.groups.hikers.id}` },
		});

		expect(result.error?.message).toBeUndefined();
		expectAllAccepted();
		expect(outputJson(result).map((chat) => chat.id)).toEqual([
			alice.chatId,
			SEED.groups.hikers.id,
		]);
	});

	it('Contact → Get finds a contact by phone number, with its JID and name', async () => {
		const result = await run('contact', 'get', { contact: byId(`+${alice.number}`) });

		expect(result.error?.message).toBeUndefined();
		expectAllAccepted();
		// The JID as v2 stores it: WhatsApp's (…@s.whatsapp.net).
		expect(outputJson(result)).toEqual([
			expect.objectContaining({ jid: alice.jid, name: expect.any(String), remoteJid: alice.jid }),
		]);
	});

	it('Contact → Get of a number the session does not know fails saying so', async () => {
		const result = await run('contact', 'get', { contact: byId('5511900000000') });

		expect(result.error?.message).toBe(
			'Contact 5511900000000@s.whatsapp.net not found in session acme-sales',
		);
		expectAllAccepted();
	});

	it('Contact → Get Many: every contact with Return All, pages of 100; a limit honoured', async () => {
		const seeded = Object.values(SEED.contacts).length;
		await addSenders(v2, 100);

		const all = await run('contact', 'getMany', { returnAll: true });
		const pages = v2.requests.map((request) => request.body);
		const three = await run('contact', 'getMany', { limit: 3 });

		expect(pages).toEqual([
			{ page: 1, offset: 100 },
			{ page: 2, offset: 100 },
		]);
		expectAllAccepted();
		const jids = outputJson(all).map((contact) => contact.jid);
		expect(jids).toHaveLength(seeded + 100);
		expect(new Set(jids).size).toBe(jids.length);
		expect(jids).toContain(alice.jid);
		expect(outputJson(three).map((contact) => contact.jid)).toEqual(jids.slice(0, 3));
	});
});
