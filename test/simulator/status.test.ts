/**
 * WhatsApp statuses (stories) on each gateway the simulator plays: the bodies each product takes
 * and what it answers (Baileys' WebMessageInfo on Evolution API 1.8.2 and WAHA, prepareMessage's
 * row on Evolution API 2.3.6), each refusal in the product's words, deleting a status on WAHA, and
 * the record tests read with `statuses()`.
 */
import { EVOLUTION_V2_SEED, SEED, type PostedStatus } from './index.cts';
import { gatewayClient, useSimulator, useWebhookReceiver } from './testing.cts';
import { wahaClient } from './waha-testing.cts';

const connected = SEED.instances.connected;
const pairing = SEED.instances.pairing;
const { alice, bruno, bakery, carla } = SEED.contacts;
const v2 = EVOLUTION_V2_SEED.contacts;
/** A WhatsApp JID (`…@s.whatsapp.net`), as Evolution API v2 and WAHA write them. */
const waJid = (number: string) => `${number}@s.whatsapp.net`;

const ID = expect.stringMatching(/^3EB0[0-9A-F]{16}$/);
const SECONDS = expect.stringMatching(/^\d{10}$/);
const LENGTH = expect.stringMatching(/^\d+$/);
const FILE = expect.stringContaining(`/api/files/${connected.name}/`);
/** '#38b42f' as Baileys' assertColor makes it: opaque (alpha FF), 0xFF38B42F. */
const GREEN = 0xff38b42f;

const REASONS: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	404: 'Not Found',
	500: 'Internal Server Error',
};
/** An Evolution API error body. */
const evolutionError = (status: number, message: unknown) => ({
	status,
	error: REASONS[status],
	response: { message },
});

/** The record of the one status a test posted, completed from the gateway's answer. */
function recorded(fields: Partial<PostedStatus>, id: string, timestamp: number): PostedStatus {
	return { instance: connected.name, id, timestamp, deleted: false, ...fields } as PostedStatus;
}

describe('Messaging Gateway API (Evolution API 1.8.2): POST /message/sendStatus', () => {
	const sim = useSimulator();
	const receiver = useWebhookReceiver();
	const post = (body: unknown, instance: string = connected.name, key?: string | null) =>
		gatewayClient(sim, key).post(`/message/sendStatus/${instance}`, body);

	it.each<[string, Record<string, unknown>, Record<string, unknown>, Partial<PostedStatus>]>([
		[
			'a text to the contacts listed, font 2 (FB_SCRIPT)',
			{
				type: 'text',
				content: 'Fresh bread today',
				backgroundColor: '#38b42f',
				font: 2,
				statusJidList: [alice.jid],
			},
			{
				extendedTextMessage: {
					text: 'Fresh bread today',
					backgroundArgb: GREEN,
					font: 'FB_SCRIPT',
				},
			},
			{
				type: 'text',
				text: 'Fresh bread today',
				backgroundColor: '#38b42f',
				font: 2,
				audience: [alice.jid],
				recipients: [alice.jid],
			},
		],
		[
			'a text with a three-digit colour and font 1 (SYSTEM_TEXT)',
			{
				type: 'text',
				content: 'Open',
				backgroundColor: '#fff',
				font: 1,
				statusJidList: [bruno.jid],
			},
			{ extendedTextMessage: { text: 'Open', backgroundArgb: 0xff000fff, font: 'SYSTEM_TEXT' } },
			{
				type: 'text',
				text: 'Open',
				backgroundColor: '#fff',
				font: 1,
				audience: [bruno.jid],
				recipients: [bruno.jid],
			},
		],
		[
			'a text in font 5 (no name in the protobuf: a number)',
			{ type: 'text', content: 'Closed', backgroundColor: '#38b42f', font: 5, allContacts: true },
			{ extendedTextMessage: { text: 'Closed', backgroundArgb: GREEN, font: 5 } },
			{
				type: 'text',
				text: 'Closed',
				backgroundColor: '#38b42f',
				font: 5,
				audience: 'all',
				recipients: [alice.jid, bruno.jid, bakery.jid, carla.jid],
			},
		],
		[
			'an image from a URL, with a caption, to all contacts',
			{
				type: 'image',
				content: 'https://acme.example.com/menu.jpg',
				caption: 'New menu',
				allContacts: true,
			},
			{
				imageMessage: {
					url: FILE,
					mimetype: 'image/jpeg',
					caption: 'New menu',
					fileLength: LENGTH,
				},
			},
			{
				type: 'image',
				media: {
					url: 'https://acme.example.com/menu.jpg',
					mimetype: 'image/jpeg',
					file: expect.any(String),
				},
				caption: 'New menu',
				audience: 'all',
				recipients: [alice.jid, bruno.jid, bakery.jid, carla.jid],
			},
		],
		[
			'a video without a caption',
			{
				type: 'video',
				content: 'https://acme.example.com/oven.mp4',
				statusJidList: [alice.jid, bruno.jid],
			},
			{ videoMessage: { url: FILE, mimetype: 'video/mp4', fileLength: LENGTH } },
			{
				type: 'video',
				media: {
					url: 'https://acme.example.com/oven.mp4',
					mimetype: 'video/mp4',
					file: expect.any(String),
				},
				audience: [alice.jid, bruno.jid],
				recipients: [alice.jid, bruno.jid],
			},
		],
		[
			'an audio from base64: a voice note in MP4, its colour not passed on',
			{
				type: 'audio',
				content: Buffer.from('voice').toString('base64'),
				backgroundColor: '#38b42f',
				statusJidList: [alice.jid],
			},
			{ audioMessage: { url: FILE, mimetype: 'audio/mp4', fileLength: '5', ptt: true } },
			{
				type: 'audio',
				media: { url: null, mimetype: 'audio/mp4', file: expect.any(String) },
				audience: [alice.jid],
				recipients: [alice.jid],
			},
		],
	])('takes %s: 201 WebMessageInfo', async (_case, statusMessage, message, record) => {
		const response = await post({ statusMessage });
		expect(response.status).toBe(201);
		expect(response.data).toEqual({
			key: { remoteJid: 'status@broadcast', fromMe: true, id: ID },
			message,
			messageTimestamp: SECONDS,
			status: 'PENDING',
			participant: `${connected.ownerNumber}:17@s.messenger.net`,
		});
		const { id } = response.data.key;
		expect(sim.statuses()).toEqual([recorded(record, id, Number(response.data.messageTimestamp))]);
		expect(sim.statuses(pairing.name)).toEqual([]);
	});

	it.each<[string, string, unknown, number, unknown]>([
		['no body', connected.name, {}, 400, [['instance requires property "statusMessage"']]],
		[
			'an unknown type',
			connected.name,
			{ statusMessage: { type: 'story', content: 'x', allContacts: true } },
			400,
			[['statusMessage.type is not one of enum values: text,image,audio,video']],
		],
		[
			'no content',
			connected.name,
			{ statusMessage: { type: 'text' } },
			400,
			[['statusMessage requires property "content"']],
		],
		[
			'an empty content alone (isNotEmpty)',
			connected.name,
			{ statusMessage: { type: 'text', content: '' } },
			400,
			[['The "content" cannot be empty']],
		],
		[
			'font 6',
			connected.name,
			{ statusMessage: { type: 'text', content: 'x', font: 6 } },
			400,
			[['statusMessage.font must be less than or equal to 5']],
		],
		[
			'a contact that is no number',
			connected.name,
			{ statusMessage: { type: 'text', content: 'x', statusJidList: ['alice'] } },
			400,
			[['"statusJidList" must be an array of numeric strings']],
		],
		[
			'an empty content beside other fields (isNotEmpty does not apply)',
			connected.name,
			{ statusMessage: { type: 'text', content: '', statusJidList: [alice.jid] } },
			400,
			['Content is required'],
		],
		[
			'nobody to send to',
			connected.name,
			{ statusMessage: { type: 'text', content: 'x', backgroundColor: '#fff', font: 1 } },
			400,
			['StatusJidList is required'],
		],
		[
			'allContacts false and no list',
			connected.name,
			{ statusMessage: { type: 'image', content: 'https://a.example/x.jpg', allContacts: false } },
			400,
			['StatusJidList is required'],
		],
		[
			'a text without a background colour',
			connected.name,
			{ statusMessage: { type: 'text', content: 'x', font: 1, allContacts: true } },
			400,
			['Background color is required'],
		],
		[
			'a text in font 0',
			connected.name,
			{
				statusMessage: {
					type: 'text',
					content: 'x',
					backgroundColor: '#fff',
					font: 0,
					allContacts: true,
				},
			},
			400,
			['Font is required'],
		],
		[
			'a text without a font',
			connected.name,
			{ statusMessage: { type: 'text', content: 'x', backgroundColor: '#fff', allContacts: true } },
			400,
			['Font is required'],
		],
		[
			'an image that is no URL (Baileys opens it as a file)',
			connected.name,
			{ statusMessage: { type: 'image', content: 'menu.jpg', allContacts: true } },
			400,
			["Error: ENOENT: no such file or directory, open 'menu.jpg'"],
		],
		[
			'allContacts on an instance with no contacts',
			pairing.name,
			{ statusMessage: { type: 'image', content: 'https://a.example/x.jpg', allContacts: true } },
			400,
			['Contacts not found'],
		],
		[
			'a valid status on an instance not connected',
			pairing.name,
			{
				statusMessage: { type: 'image', content: 'https://a.example/x.jpg', statusJidList: ['55'] },
			},
			500,
			'Connection Closed',
		],
		[
			'an unknown instance',
			'nobody',
			{ statusMessage: { type: 'text', content: 'x' } },
			404,
			['The "nobody" instance does not exist'],
		],
	])('refuses %s', async (_case, instance, body, status, message) => {
		const response = await post(body, instance);
		expect(response.status).toBe(status);
		expect(response.data).toEqual(evolutionError(status, message));
		expect(sim.statuses()).toEqual([]);
	});

	it('refuses a wrong key (401) before it reads the body', async () => {
		const response = await post({}, connected.name, 'wrong');
		expect(response.status).toBe(401);
		expect(response.data).toEqual(evolutionError(401, 'Unauthorized'));
	});

	it('announces the status with SEND_MESSAGE', async () => {
		await gatewayClient(sim).post(`/webhook/set/${connected.name}`, {
			url: receiver.url,
			events: ['SEND_MESSAGE'],
		});
		const statusMessage = {
			type: 'text',
			content: 'Fresh bread today',
			backgroundColor: '#38b42f',
			font: 2,
			statusJidList: [alice.jid],
		};
		const sent = await post({ statusMessage });
		const [delivery] = await sim.waitForDeliveries(1);
		expect(delivery).toMatchObject({ event: 'send.message', status: 200 });
		expect((delivery.body as { data: unknown }).data).toEqual({
			key: sent.data.key,
			pushName: connected.profileName,
			message: sent.data.message,
			messageType: 'extendedTextMessage',
			messageTimestamp: Number(sent.data.messageTimestamp),
			owner: connected.name,
			source: 'api',
		});
	});
});

describe('Evolution API 2.3.6: POST /message/sendStatus', () => {
	const sim = useSimulator({ gateway: 'evolution-v2' });
	const receiver = useWebhookReceiver();
	const post = (body: unknown, instance: string = connected.name) =>
		gatewayClient(sim).post(`/message/sendStatus/${instance}`, body);
	const everyone = [v2.alice.jid, v2.bruno.jid, v2.bakery.jid, v2.carla.jid];

	it.each<
		[string, Record<string, unknown>, Record<string, unknown>, string, Partial<PostedStatus>]
	>([
		[
			'a text: stored as a conversation, its colour and font gone from the answer',
			{
				type: 'text',
				content: 'Fresh bread today',
				backgroundColor: '#38b42f',
				font: 2,
				statusJidList: [v2.alice.jid],
			},
			{ conversation: 'Fresh bread today' },
			'conversation',
			{
				type: 'text',
				text: 'Fresh bread today',
				backgroundColor: '#38b42f',
				font: 2,
				audience: [v2.alice.jid],
				recipients: [v2.alice.jid],
			},
		],
		[
			'an image from a URL with a caption, to all contacts',
			{
				type: 'image',
				content: 'https://acme.example.com/menu.jpg',
				caption: 'New menu',
				allContacts: true,
			},
			{
				imageMessage: {
					url: FILE,
					mimetype: 'image/jpeg',
					caption: 'New menu',
					fileLength: LENGTH,
				},
			},
			'imageMessage',
			{
				type: 'image',
				media: {
					url: 'https://acme.example.com/menu.jpg',
					mimetype: 'image/jpeg',
					file: expect.any(String),
				},
				caption: 'New menu',
				audience: 'all',
				recipients: everyone,
			},
		],
		[
			'an image as a data: URL (Baileys 7 reads it)',
			{
				type: 'image',
				content: `data:image/jpeg;base64,${Buffer.from('jpeg').toString('base64')}`,
				statusJidList: [v2.bruno.jid],
			},
			{ imageMessage: { url: FILE, mimetype: 'image/jpeg', fileLength: '4' } },
			'imageMessage',
			{
				type: 'image',
				media: { url: null, mimetype: 'image/jpeg', file: expect.any(String) },
				audience: [v2.bruno.jid],
				recipients: [v2.bruno.jid],
			},
		],
		[
			'a video without a caption',
			{ type: 'video', content: 'https://acme.example.com/oven.mp4', allContacts: true },
			{ videoMessage: { url: FILE, mimetype: 'video/mp4', fileLength: LENGTH } },
			'videoMessage',
			{
				type: 'video',
				media: {
					url: 'https://acme.example.com/oven.mp4',
					mimetype: 'video/mp4',
					file: expect.any(String),
				},
				audience: 'all',
				recipients: everyone,
			},
		],
		[
			'an audio from base64: a voice note in Opus',
			{
				type: 'audio',
				content: Buffer.from('voice').toString('base64'),
				statusJidList: [v2.alice.jid],
			},
			{
				audioMessage: {
					url: FILE,
					mimetype: 'audio/ogg; codecs=opus',
					fileLength: '5',
					ptt: true,
				},
			},
			'audioMessage',
			{
				type: 'audio',
				media: { url: null, mimetype: 'audio/ogg; codecs=opus', file: expect.any(String) },
				audience: [v2.alice.jid],
				recipients: [v2.alice.jid],
			},
		],
	])('takes %s: 201 prepareMessage', async (_case, body, message, messageType, record) => {
		const response = await post(body);
		expect(response.status).toBe(201);
		expect(response.data).toEqual({
			key: { remoteJid: 'status@broadcast', fromMe: true, id: ID },
			pushName: 'Você',
			status: 'PENDING',
			message,
			messageType,
			messageTimestamp: expect.any(Number),
			instanceId: connected.instanceId,
			source: expect.any(String),
		});
		const { data } = response;
		expect(sim.statuses()).toEqual([recorded(record, data.key.id, data.messageTimestamp)]);
	});

	it.each<[string, string, unknown, number, unknown]>([
		['no body', connected.name, {}, 400, [['instance requires property "type"']]],
		[
			'an unknown type',
			connected.name,
			{ type: 'story', content: 'x' },
			400,
			[['type is not one of enum values: text,image,audio,video']],
		],
		[
			'font 6',
			connected.name,
			{ type: 'text', content: 'x', font: 6 },
			400,
			[['font must be less than or equal to 5']],
		],
		[
			'an empty contact list',
			connected.name,
			{ type: 'text', content: 'x', statusJidList: [] },
			400,
			[['statusJidList does not meet minimum length of 1']],
		],
		[
			'no content (the schema does not require it)',
			connected.name,
			{ type: 'text', allContacts: true },
			400,
			['Content is required'],
		],
		[
			'nobody to send to',
			connected.name,
			{ type: 'text', content: 'x', backgroundColor: '#fff', font: 1 },
			400,
			['StatusJidList is required'],
		],
		[
			'a text without a background colour',
			connected.name,
			{ type: 'text', content: 'x', font: 1, allContacts: true },
			400,
			['Background color is required'],
		],
		[
			'a text in font 0',
			connected.name,
			{ type: 'text', content: 'x', backgroundColor: '#fff', font: 0, allContacts: true },
			400,
			['Font is required'],
		],
		[
			'a video that is no URL (Baileys opens it as a file)',
			connected.name,
			{ type: 'video', content: 'oven.mp4', allContacts: true },
			400,
			["Error: ENOENT: no such file or directory, open 'oven.mp4'"],
		],
		[
			'allContacts on an instance with no contacts',
			pairing.name,
			{ type: 'video', content: 'https://a.example/x.mp4', allContacts: true },
			400,
			['Contacts not found'],
		],
		[
			'a valid status on an instance not connected (the send fails inside its try)',
			pairing.name,
			{ type: 'video', content: 'https://a.example/x.mp4', statusJidList: [v2.alice.jid] },
			400,
			['Error: Connection Closed'],
		],
		[
			'an unknown instance',
			'nobody',
			{ type: 'text', content: 'x' },
			404,
			['The "nobody" instance does not exist'],
		],
	])('refuses %s', async (_case, instance, body, status, message) => {
		const response = await post(body, instance);
		expect(response.status).toBe(status);
		expect(response.data).toEqual(evolutionError(status, message));
		expect(sim.statuses()).toEqual([]);
	});

	it('announces the status with SEND_MESSAGE, the answer as data', async () => {
		await gatewayClient(sim).post(`/webhook/set/${connected.name}`, {
			webhook: { enabled: true, url: receiver.url, events: ['SEND_MESSAGE'] },
		});
		const sent = await post({
			type: 'video',
			content: 'https://acme.example.com/oven.mp4',
			statusJidList: [v2.alice.jid],
		});
		const [delivery] = await sim.waitForDeliveries(1);
		expect(delivery).toMatchObject({ event: 'send.message', status: 200 });
		expect((delivery.body as { data: unknown }).data).toEqual(sent.data);
	});
});

describe('WAHA 2026.x: POST /api/{session}/status/text|image|voice|video', () => {
	const sim = useSimulator({ gateway: 'waha' });
	const post = (path: string, body: unknown, session: string = connected.name) =>
		wahaClient(sim).post(`/api/${session}/status/${path}`, body);
	const me = waJid(connected.ownerNumber);
	const contacts = [alice, bruno, bakery, carla].map((contact) => waJid(contact.number));
	const photoSize = { height: expect.any(Number), width: expect.any(Number) };

	it.each<
		[string, string, Record<string, unknown>, Record<string, unknown>, Partial<PostedStatus>]
	>([
		[
			'a text to the contacts given, font 1 (SYSTEM_TEXT): the account first',
			'text',
			{ text: 'Fresh bread today', backgroundColor: '#38b42f', font: 1, contacts: [alice.chatId] },
			{
				extendedTextMessage: {
					text: 'Fresh bread today',
					backgroundArgb: GREEN,
					font: 'SYSTEM_TEXT',
				},
			},
			{
				type: 'text',
				text: 'Fresh bread today',
				backgroundColor: '#38b42f',
				font: 1,
				audience: [alice.chatId],
				recipients: [me, waJid(alice.number)],
			},
		],
		[
			'a text in font 0 to everyone in the store (Baileys leaves a font 0 out)',
			'text',
			{ text: 'Open', backgroundColor: '#38b42f', font: 0 },
			{ extendedTextMessage: { text: 'Open', backgroundArgb: GREEN } },
			{
				type: 'text',
				text: 'Open',
				backgroundColor: '#38b42f',
				font: 0,
				audience: 'all',
				recipients: [me, ...contacts],
			},
		],
		[
			'an image from a URL with a caption',
			'image',
			{
				file: { mimetype: 'image/jpeg', url: 'https://acme.example.com/menu.jpg' },
				caption: 'New menu',
				contacts: [bruno.chatId],
			},
			{
				imageMessage: {
					url: FILE,
					mimetype: 'image/jpeg',
					caption: 'New menu',
					fileLength: LENGTH,
					...photoSize,
				},
			},
			{
				type: 'image',
				media: {
					url: 'https://acme.example.com/menu.jpg',
					mimetype: 'image/jpeg',
					file: expect.any(String),
				},
				caption: 'New menu',
				audience: [bruno.chatId],
				recipients: [me, waJid(bruno.number)],
			},
		],
		[
			'an image in base64 without a caption (NOWEB sends an empty one)',
			'image',
			{
				file: { mimetype: 'image/png', data: Buffer.from('png').toString('base64') },
				contacts: [alice.chatId],
			},
			{ imageMessage: { url: FILE, mimetype: 'image/png', caption: '', fileLength: '3' } },
			{
				type: 'image',
				media: { url: null, mimetype: 'image/png', file: expect.any(String) },
				caption: '',
				audience: [alice.chatId],
				recipients: [me, waJid(alice.number)],
			},
		],
		[
			'a voice converted, with its background colour',
			'voice',
			{
				file: { mimetype: 'audio/mpeg', url: 'https://acme.example.com/hello.mp3' },
				convert: true,
				backgroundColor: '#38b42f',
				contacts: [alice.chatId],
			},
			{
				audioMessage: {
					url: FILE,
					mimetype: 'audio/ogg; codecs=opus',
					fileLength: LENGTH,
					ptt: true,
					backgroundArgb: GREEN,
				},
			},
			{
				type: 'audio',
				media: {
					url: 'https://acme.example.com/hello.mp3',
					mimetype: 'audio/ogg; codecs=opus',
					file: expect.any(String),
				},
				backgroundColor: '#38b42f',
				audience: [alice.chatId],
				recipients: [me, waJid(alice.number)],
			},
		],
		[
			'a video as it is',
			'video',
			{
				file: {
					mimetype: 'video/mp4',
					filename: 'oven.mp4',
					url: 'https://acme.example.com/oven.mp4',
				},
				convert: false,
				contacts: [alice.chatId],
			},
			{ videoMessage: { url: FILE, mimetype: 'video/mp4', caption: '', fileLength: LENGTH } },
			{
				type: 'video',
				media: {
					url: 'https://acme.example.com/oven.mp4',
					mimetype: 'video/mp4',
					file: expect.any(String),
				},
				caption: '',
				audience: [alice.chatId],
				recipients: [me, waJid(alice.number)],
			},
		],
	])('takes %s: 201 WebMessageInfo', async (_case, path, body, message, record) => {
		const response = await post(path, body);
		expect(response.status).toBe(201);
		expect(response.data).toEqual({
			key: { remoteJid: 'status@broadcast', fromMe: true, id: ID },
			message,
			messageTimestamp: SECONDS,
			status: 'PENDING',
			participant: `${connected.ownerNumber}:17@s.whatsapp.net`,
		});
		const { id } = response.data.key;
		expect(sim.statuses()).toEqual([recorded(record, id, Number(response.data.messageTimestamp))]);
	});

	it('sends under the id given, without the account, and adds the next chunk to the same status', async () => {
		const id = '3EB0AAAAAAAAAAAAAAAA';
		const status = { id, text: 'Hi', backgroundColor: '#38b42f', font: 1 };
		const first = await post('text', { ...status, contacts: [alice.chatId] });
		expect(first.status).toBe(201);
		expect(first.data.key.id).toBe(id);
		const second = await post('text', { ...status, contacts: [bruno.chatId] });
		expect(second.data.key.id).toBe(id);
		expect(sim.statuses()).toEqual([
			expect.objectContaining({ id, recipients: [waJid(alice.number), waJid(bruno.number)] }),
		]);
	});

	it('refuses to send under a given id to nobody: 422 (a session with no contacts)', async () => {
		sim.setInstanceState(pairing.name, 'open');
		const response = await post(
			'text',
			{ id: '3EB0BBBBBBBBBBBBBBBB', text: 'Hi', backgroundColor: '#38b42f', font: 1 },
			pairing.name,
		);
		expect(response.status).toBe(422);
		expect(response.data).toEqual({
			statusCode: 422,
			message: 'No participants to send status',
			error: 'Unprocessable Entity',
		});
		expect(sim.statuses()).toEqual([]);
	});

	const validation = (...message: string[]) => ({
		statusCode: 400,
		message,
		error: 'Bad Request',
	});

	it.each<[string, string, string, unknown, number, unknown]>([
		[
			'a text without colour and font',
			'text',
			connected.name,
			{ text: 'Hi' },
			400,
			validation('body lacks backgroundColor, font'),
		],
		[
			'a font as text',
			'text',
			connected.name,
			{ text: 'Hi', backgroundColor: '#fff', font: '1' },
			400,
			validation('body.font must be number'),
		],
		[
			'contacts that are no list',
			'text',
			connected.name,
			{ text: 'Hi', backgroundColor: '#fff', font: 1, contacts: alice.chatId },
			400,
			validation('body.contacts must be array'),
		],
		['an image without a file', 'image', connected.name, {}, 400, validation('body lacks file')],
		[
			'a file with neither url nor data',
			'image',
			connected.name,
			{ file: { mimetype: 'image/jpeg' } },
			400,
			validation('body.file lacks url, data'),
		],
		[
			'data that is no base64',
			'image',
			connected.name,
			{ file: { mimetype: 'image/jpeg', data: 'not base64!' } },
			400,
			validation('file.data must be base64 encoded'),
		],
		[
			'a voice without convert and colour',
			'voice',
			connected.name,
			{ file: { mimetype: 'audio/ogg', url: 'https://a.example/x.ogg' } },
			400,
			validation('body lacks convert, backgroundColor'),
		],
		[
			'a video without convert',
			'video',
			connected.name,
			{ file: { mimetype: 'video/mp4', filename: 'x.mp4', url: 'https://a.example/x.mp4' } },
			400,
			validation('body lacks convert'),
		],
		[
			'a session that is not working',
			'text',
			pairing.name,
			{ text: 'Hi', backgroundColor: '#fff', font: 1 },
			422,
			{
				error: 'Session status is not as expected. Try again later or restart the session',
				session: pairing.name,
				status: 'SCAN_QR_CODE',
				expected: ['WORKING'],
			},
		],
		[
			'an unknown session',
			'text',
			'nobody',
			{ text: 'Hi', backgroundColor: '#fff', font: 1 },
			404,
			{
				statusCode: 404,
				message:
					"We didn't find a session with name 'nobody'.\nPlease start it first by using POST /api/sessions/nobody/start request",
				error: 'Not Found',
			},
		],
	])('refuses %s', async (_case, path, session, body, status, answer) => {
		const response = await post(path, body, session);
		expect(response.status).toBe(status);
		expect(response.data).toEqual(answer);
		expect(sim.statuses()).toEqual([]);
	});

	it('refuses a wrong key (401) first', async () => {
		const response = await wahaClient(sim, 'wrong').post(`/api/nobody/status/text`, {});
		expect(response.status).toBe(401);
		expect(response.data).toEqual({ statusCode: 401, message: 'Unauthorized' });
	});
});

describe('WAHA 2026.x: POST /api/{session}/status/delete', () => {
	const sim = useSimulator({ gateway: 'waha' });
	const api = () => wahaClient(sim);
	const posted = async () => {
		const response = await api().post(`/api/${connected.name}/status/text`, {
			text: 'Fresh bread today',
			backgroundColor: '#38b42f',
			font: 1,
			contacts: [alice.chatId],
		});
		return response.data.key.id as string;
	};

	it.each<[string, (id: string) => Record<string, unknown>, boolean]>([
		['by its key.id', (id) => ({ id }), true],
		['by a full message id', (id) => ({ id: `true_status@broadcast_${id}` }), true],
		['to the contacts given', (id) => ({ id, contacts: [alice.chatId] }), true],
		[
			'of an id the session never posted (the revoke goes out all the same)',
			() => ({ id: '3EB0FFFFFFFFFFFFFFFF' }),
			false,
		],
	])('deletes %s: 201 the revoke', async (_case, bodyFor, deletes) => {
		const id = await posted();
		const body = bodyFor(id);
		const response = await api().post(`/api/${connected.name}/status/delete`, body);
		expect(response.status).toBe(201);
		const revoked = deletes ? id : '3EB0FFFFFFFFFFFFFFFF';
		expect(response.data).toEqual({
			key: { remoteJid: 'status@broadcast', fromMe: true, id: ID },
			message: {
				protocolMessage: {
					key: { remoteJid: 'status@broadcast', fromMe: true, id: revoked },
					type: 'REVOKE',
				},
			},
			messageTimestamp: SECONDS,
			status: 'PENDING',
			participant: `${connected.ownerNumber}:17@s.whatsapp.net`,
		});
		expect(response.data.key.id).not.toBe(id);
		expect(sim.statuses()).toEqual([expect.objectContaining({ id, deleted: deletes })]);
	});

	it.each<[string, Record<string, unknown>, number, unknown]>([
		[
			'no id (parseMessageIdSerialized fails)',
			{},
			500,
			{
				statusCode: 500,
				timestamp: expect.any(String),
				exception: {
					stack: expect.stringContaining('TypeError'),
					message: "Cannot read properties of undefined (reading 'includes')",
					name: 'TypeError',
				},
				request: {
					path: `/api/${connected.name}/status/delete`,
					method: 'POST',
					body: {},
					query: {},
				},
				version: expect.objectContaining({ version: '2026.7.1', engine: 'NOWEB' }),
			},
		],
		[
			'an id with two parts',
			{ id: 'true_3EB0' },
			500,
			expect.objectContaining({
				statusCode: 500,
				exception: expect.objectContaining({
					message:
						'Message id be in format false_11111111111@c.us_AAAAAAAAAAAAAAAAAAAA[_participant]',
					name: 'Error',
				}),
			}),
		],
		[
			'an id that is no text',
			{ id: 5 },
			400,
			{ statusCode: 400, message: ['body.id must be string'], error: 'Bad Request' },
		],
	])('answers %s', async (_case, body, status, answer) => {
		const id = await posted();
		const response = await api().post(`/api/${connected.name}/status/delete`, body);
		expect(response.status).toBe(status);
		expect(response.data).toEqual(answer);
		expect(sim.statuses()).toEqual([expect.objectContaining({ id, deleted: false })]);
	});
});

describe('WAHA NOWEB without its store: statuses to everyone need it', () => {
	const sim = useSimulator({ gateway: 'waha', wahaStore: false });
	const NO_STORE =
		'Enable NOWEB store "config.noweb.store.enabled=True" and "config.noweb.store.full_sync=True" when starting a new session. ' +
		'Read more: https://waha.devlike.pro/docs/engines/noweb#store';
	const text = { text: 'Hi', backgroundColor: '#38b42f', font: 1 };

	it.each<[string, number, string, Record<string, unknown>]>([
		['a status to the contacts given', 201, 'text', { ...text, contacts: [alice.chatId] }],
		['a status to everyone', 400, 'text', text],
		['a delete to everyone', 400, 'delete', { id: '3EB0FFFFFFFFFFFFFFFF' }],
		[
			'a delete to the contacts given',
			201,
			'delete',
			{ id: '3EB0FFFFFFFFFFFFFFFF', contacts: [alice.chatId] },
		],
	])('%s → %i', async (_case, status, path, body) => {
		const response = await wahaClient(sim).post(`/api/${connected.name}/status/${path}`, body);
		expect(response.status).toBe(status);
		if (status === 400)
			expect(response.data).toEqual({ statusCode: 400, message: NO_STORE, error: 'Bad Request' });
	});
});
