/**
 * The bad-input matrix: values an expression can produce that no field should accept, for every
 * operation. Each case runs two items carrying the bad value with "On Error: Continue (using error
 * output)" in n8n's engine against the simulator, and asserts that both items fail with a
 * NodeOperationError that names the field and points at its own item, go to the error output
 * paired to their item, and that nothing reached the gateway.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEED } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { byId, runGateway } from '../support/gateway-node.cts';
import { expectReadmeSection } from '../support/readme-section.cts';

const simulator = useSimulator();

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice.number;
const GROUP = SEED.groups.hikers.id;
const MESSAGE_ID = `false_${ALICE}@c.us_3EB0C767D26A1D3BB2F1`;
const OWN_MESSAGE_ID = `true_${ALICE}@c.us_3EB0C767D26A1D3BB2F1`;
const FROM_ITEM = '={{ $json.value }}';

/** Valid parameters of each operation: a case replaces one field with the bad value. */
const VALID: Record<string, INodeParameters> = {
	'message/sendText': { chatId: byId(ALICE), text: 'Hello' },
	'message/sendLocation': { chatId: byId(ALICE), latitude: -23.55, longitude: -46.63 },
	'message/sendPoll': { chatId: byId(ALICE), question: 'Lunch?', pollOptions: ['Yes', 'No'] },
	'message/sendButtons': {
		chatId: byId(ALICE),
		body: 'Pick one',
		buttons: { button: [{ type: 'reply', text: 'Yes' }] },
	},
	'message/sendLinkPreview': {
		chatId: byId(ALICE),
		text: 'Menu: https://bistro.example.com/menu',
		previewUrl: 'https://bistro.example.com/menu',
	},
	'message/react': { messageId: MESSAGE_ID, reaction: '👍' },
	'message/get': { messageId: MESSAGE_ID },
	'message/downloadMedia': { messageId: MESSAGE_ID },
	'message/findStatus': { limit: 10 },
	'webhook/set': { url: 'https://hooks.example.com/in', events: ['MESSAGES_UPSERT'] },
	'session/setPresence': { presence: 'available' },
	'session/requestPairingCode': { phoneNumber: '+55 11 99999-0000' },
	'session/restart': {},
	'profile/setPicture': { pictureSource: 'url', pictureUrl: 'https://cdn.example.com/me.png' },
	'profile/deletePicture': {},
	'group/get': { groupId: byId(GROUP) },
	'group/leave': { groupId: byId(GROUP) },
	'group/sendInvite': { groupId: byId(GROUP), numbers: ALICE, description: 'Join us' },
	'group/refresh': {},
	'chat/getMany': { limit: 10 },
	'contact/get': { contact: byId(ALICE) },
	'contact/getMany': { limit: 10 },
	'contact/getBusinessProfile': { contact: byId(ALICE) },
	'contact/getProfilePicture': { contact: byId(ALICE) },
	'channel/create': { name: 'Acme Deals' },
	'channel/search': { view: 'POPULAR', countries: 'US', limit: 10 },
	'message/sendMedia': {
		chatId: byId(ALICE),
		mediaSource: 'url',
		mediaUrl: 'https://cdn.example.com/a.png',
	},
	'message/sendAudio': { chatId: byId(ALICE), mediaSource: 'base64', mediaBase64: 'SUQz' },
	'message/sendContact': {
		chatId: byId(ALICE),
		contacts: { contact: [{ fullName: 'Acme', phoneNumber: ALICE }] },
	},
	'message/sendList': {
		chatId: byId(ALICE),
		title: 'Menu',
		description: 'Pick one',
		buttonText: 'Open',
		rows: { row: [{ title: 'Soup' }] },
	},
	'message/markAsRead': { messageIds: MESSAGE_ID },
	'message/sendAndWait': { chatId: byId(ALICE), message: 'Approve?' },
	'message/edit': { messageId: OWN_MESSAGE_ID, text: 'Fixed' },
	'message/deleteForEveryone': { messageId: OWN_MESSAGE_ID },
	'contact/checkNumber': { numbers: ALICE },
	'group/create': { subject: 'Crew', participants: ALICE },
	'group/updateParticipants': {
		groupId: byId(GROUP),
		participantAction: 'add',
		participants: ALICE,
	},
};

interface BadInput {
	/** The defect class the case belongs to. */
	kind: string;
	operation: string;
	/** The parameters that take the value from the item (the rest stay valid). */
	use: INodeParameters;
	value: unknown;
	/** What the error message must say: it names the field. */
	message: RegExp;
}

function fieldCases(
	kind: string,
	operation: string,
	use: INodeParameters,
	message: RegExp,
	values: unknown[],
): BadInput[] {
	return values.map((value) => ({ kind, operation, use, value, message }));
}

const OBJECT = { not: 'text' };
const LIST = ['a', 'b'];
const SESSION_OPERATIONS = [
	'message/sendText',
	'profile/deletePicture',
	'session/restart',
	'webhook/set',
	'group/refresh',
];

const CASES: BadInput[] = [
	// A session is one path segment: never empty, ".", "..", or an object from an expression.
	...SESSION_OPERATIONS.flatMap((operation) =>
		fieldCases('session name', operation, { session: FROM_ITEM }, /^Session must /, [
			'..',
			'.',
			'  ',
			OBJECT,
			LIST,
			null,
		]),
	),
	// Chats, contacts, groups and message IDs as people paste them, or junk.
	...fieldCases('chat ID', 'message/sendText', { chatId: byId(FROM_ITEM) }, /^Chat must be /, [
		'nobody',
		'123',
		'abc@g.us',
		OBJECT,
	]),
	...fieldCases('chat ID', 'contact/get', { contact: byId(FROM_ITEM) }, /^Contact must be /, [
		GROUP,
		'+55',
	]),
	...fieldCases('group ID', 'group/leave', { groupId: byId(FROM_ITEM) }, /^Group ID must be /, [
		`${ALICE}@c.us`,
		'hikers',
	]),
	...fieldCases('message ID', 'message/react', { messageId: FROM_ITEM }, /^Message ID must be /, [
		'abc',
		'true_nobody_X',
		OBJECT,
	]),
	...fieldCases('message ID', 'message/get', { messageId: FROM_ITEM }, /^Message ID must be /, [
		'',
		42,
	]),
	...fieldCases(
		'phone number',
		'session/requestPairingCode',
		{ phoneNumber: FROM_ITEM },
		/^Phone Number must be /,
		['call me', '12'],
	),
	...fieldCases('phone number', 'group/sendInvite', { numbers: FROM_ITEM }, /^Numbers /, [
		'abc',
		[ALICE, 'x'],
	]),
	// Text fields: objects and lists are refused by name; blank (also invisible) text where text is needed.
	...fieldCases('text', 'message/sendText', { text: FROM_ITEM }, /^Text must /, [
		'',
		'   ',
		'\u200B\u200C\u200D\uFEFF',
		OBJECT,
		LIST,
	]),
	...fieldCases('text', 'message/react', { reaction: FROM_ITEM }, /^Reaction must be text/, [
		{ emoji: '👍' },
		['👍'],
	]),
	// Only a really empty text removes a reaction: not a missing field, not invisible characters.
	...fieldCases(
		'text',
		'message/react',
		{ reaction: FROM_ITEM },
		/^Reaction must be an emoji such as 👍, or empty to remove the reaction/,
		[null, '   ', '\u200B\u2060'],
	),
	...fieldCases(
		'text',
		'contact/getProfilePicture',
		{ options: { downloadPicture: true, binaryPropertyName: FROM_ITEM } },
		/^Put Output File in Field must /,
		[OBJECT, '\u200B'],
	),
	...fieldCases('text', 'group/sendInvite', { description: FROM_ITEM }, /^Description must /, [
		'\u2060',
		OBJECT,
	]),
	...fieldCases('text', 'message/sendPoll', { question: FROM_ITEM }, /^Question must /, [
		'',
		OBJECT,
	]),
	...fieldCases('text', 'message/sendButtons', { header: FROM_ITEM }, /^Header must be text/, [
		OBJECT,
	]),
	...fieldCases('text', 'message/sendButtons', { body: FROM_ITEM }, /^Body must /, [
		'\u200B',
		LIST,
	]),
	...fieldCases('text', 'message/sendLocation', { name: FROM_ITEM }, /^Name must be text/, [
		OBJECT,
	]),
	...fieldCases('text', 'channel/create', { name: FROM_ITEM }, /^Name must /, ['', OBJECT]),
	...fieldCases(
		'text',
		'message/sendLinkPreview',
		{ previewTitle: FROM_ITEM },
		/^Preview Title must be text/,
		[LIST],
	),
	// Files: only http(s) URLs go to the gateway, base64 must be base64, the type must be one offered.
	...fieldCases('URL', 'message/sendMedia', { mediaUrl: FROM_ITEM }, /^File URL must /, [
		'file:///etc/passwd',
		'javascript:alert(1)',
		'ftp://cdn.example.com/a.png',
		OBJECT,
	]),
	...fieldCases('text', 'message/sendMedia', { caption: FROM_ITEM }, /^Caption must be text/, [
		OBJECT,
		LIST,
	]),
	...fieldCases('option', 'message/sendMedia', { mediaType: FROM_ITEM }, /^Media Type must /, [
		'gif',
		OBJECT,
	]),
	...fieldCases(
		'file content',
		'message/sendAudio',
		{ mediaBase64: FROM_ITEM },
		/^Base64 Content must /,
		['', 'not base64!', 'data:audio/mpeg;base64,', OBJECT],
	),
	...fieldCases(
		'phone number',
		'message/sendContact',
		{ contacts: { contact: [{ fullName: 'Acme', phoneNumber: FROM_ITEM }] } },
		/^Contacts: Phone Number must /,
		['call me', '+55', OBJECT],
	),
	...fieldCases('text', 'message/sendList', { title: FROM_ITEM }, /^Title must /, [
		'',
		'\u200B',
		OBJECT,
	]),
	...fieldCases('text', 'message/sendAndWait', { message: FROM_ITEM }, /^Message must /, [
		'',
		'\u200B',
		OBJECT,
	]),
	...fieldCases(
		'date',
		'message/sendAndWait',
		{
			options: {
				limitWaitTime: { values: { limitType: 'atSpecifiedTime', maxDateAndTime: FROM_ITEM } },
			},
		},
		/^Max Date and Time must be /,
		['soon', '', OBJECT],
	),
	...fieldCases('message ID', 'message/markAsRead', { messageIds: FROM_ITEM }, /^Message IDs /, [
		'abc',
		[],
		[MESSAGE_ID, 'x'],
		OBJECT,
	]),
	...fieldCases('message ID', 'message/edit', { messageId: FROM_ITEM }, /^Message ID /, [
		MESSAGE_ID,
		'3EB0C767D26A1D3BB2F1',
	]),
	...fieldCases('text', 'message/edit', { text: FROM_ITEM }, /^New Text must /, [
		'\u200B\u2060',
		OBJECT,
	]),
	...fieldCases(
		'message ID',
		'message/deleteForEveryone',
		{ messageId: FROM_ITEM },
		/^Message ID /,
		[
			MESSAGE_ID,
			LIST,
			// Anything after a group message's ID is its participant: only a member's ID may go there.
			`true_${GROUP}_3EB0C767D26A1D3BB2F1_not-a-jid`,
			`true_${GROUP}_3EB0C767D26A1D3BB2F1_../../instance/logout`,
			`true_${GROUP}_3EB0C767D26A1D3BB2F1_${GROUP}`,
			`true_${ALICE}@c.us_3EB0C767D26A1D3BB2F1_${ALICE}@c.us`,
		],
	),
	...fieldCases('phone number', 'contact/checkNumber', { numbers: FROM_ITEM }, /^Numbers/, [
		'abc',
		[ALICE, ''],
		OBJECT,
	]),
	...fieldCases('phone number', 'group/create', { participants: FROM_ITEM }, /^Participants/, [
		'nobody',
		[],
	]),
	...fieldCases('text', 'group/create', { subject: FROM_ITEM }, /^Group Name must /, ['', OBJECT]),
	...fieldCases(
		'option',
		'group/updateParticipants',
		{ participantAction: FROM_ITEM },
		/^Action must /,
		['ban', OBJECT],
	),
	// Numbers: plain decimal only, within range.
	...fieldCases(
		'number',
		'message/sendLocation',
		{ latitude: FROM_ITEM },
		/^Latitude must be a decimal number between -90 and 90/,
		['0x1A', '91', 'Infinity', '', '1e1', OBJECT],
	),
	...fieldCases(
		'number',
		'message/sendLocation',
		{ longitude: FROM_ITEM },
		/^Longitude must be a decimal number between -180 and 180/,
		['-181', 'east'],
	),
	...fieldCases(
		'number',
		'message/sendText',
		{ options: { delay: FROM_ITEM } },
		/^Delay \(Ms\) must be a whole number/,
		['0x10', '1.5', -1],
	),
	...fieldCases(
		'number',
		'chat/getMany',
		{ limit: FROM_ITEM },
		/^Limit must be a whole number of at least 1/,
		[0, '0x10', 'ten'],
	),
	...fieldCases(
		'number',
		'message/findStatus',
		{ limit: FROM_ITEM },
		/^Limit must be a whole number/,
		[-5],
	),
	...fieldCases(
		'number',
		'message/sendText',
		{ options: { waitBetweenItems: FROM_ITEM } },
		/^Wait Between Items \(Ms\) must be a whole number/,
		['soon'],
	),
	...fieldCases(
		'number',
		'message/sendText',
		{ options: { pacePerMinute: FROM_ITEM } },
		/^Pace Sends \(Messages per Minute\) must be (a whole number of at least 0|at most 600)/,
		['fast', -1, 2.5, 601, OBJECT],
	),
	...fieldCases(
		'number',
		'message/sendText',
		{ options: { pacePerMinute: 20, paceWorkers: FROM_ITEM } },
		/^Pace Workers Sending must be a whole number of at least 1/,
		[0, 'two'],
	),
	// Yes/no fields take booleans, or "true"/"false" from an expression, nothing else.
	...fieldCases(
		'boolean',
		'webhook/set',
		{ enabled: FROM_ITEM },
		/^Enabled must be true or false/,
		['nope', 'yes', 2, OBJECT],
	),
	...fieldCases(
		'boolean',
		'webhook/set',
		{ webhookByEvents: FROM_ITEM },
		/^Webhook by Events must be true or false/,
		['1'],
	),
	...fieldCases(
		'boolean',
		'message/sendPoll',
		{ multipleAnswers: FROM_ITEM },
		/^Allow Multiple Answers must be true or false/,
		['maybe'],
	),
	...fieldCases(
		'boolean',
		'message/get',
		{ downloadMedia: FROM_ITEM },
		/^Download Media must be true or false/,
		['sure'],
	),
	...fieldCases(
		'boolean',
		'message/sendText',
		{ options: { linkPreview: FROM_ITEM } },
		/^Link Preview must be true or false/,
		['on'],
	),
	// Read before the request, not after the download.
	...fieldCases(
		'boolean',
		'message/downloadMedia',
		{ options: { keepBase64: FROM_ITEM } },
		/^Keep Base64 in JSON must be true or false/,
		['yes'],
	),
	...fieldCases(
		'boolean',
		'chat/getMany',
		{ returnAll: FROM_ITEM },
		/^Return All must be true or false/,
		['all'],
	),
	// Options: only the listed values.
	...fieldCases(
		'option',
		'session/setPresence',
		{ presence: FROM_ITEM },
		/^Presence must be one of available, composing, paused, recording, unavailable/,
		['hacking', 'AVAILABLE', OBJECT],
	),
	...fieldCases(
		'option',
		'message/sendText',
		{ options: { presence: FROM_ITEM, delay: 10 } },
		/^Presence While Delaying must be composing or recording/,
		['shouting'],
	),
	...fieldCases('option', 'webhook/set', { events: FROM_ITEM }, /^Events /, ['NOPE', [OBJECT]]),
	...fieldCases('option', 'channel/search', { view: FROM_ITEM }, /^View must be one of NEW, /, [
		'hacking',
		OBJECT,
	]),
	...fieldCases(
		'option',
		'channel/search',
		{ categories: FROM_ITEM },
		/^Categories must be one of BUSINESS, /,
		[['SPORTS', 'HACKING'], 'gossip'],
	),
	// Set Picture offers no "None": an expression may not choose it and send no file.
	...fieldCases(
		'option',
		'profile/setPicture',
		{ pictureSource: FROM_ITEM },
		/^Picture Source must be one of url, binary/,
		['none', 'ftp'],
	),
	// Lists with limits.
	...fieldCases('list', 'message/sendPoll', { pollOptions: FROM_ITEM }, /^Poll Options /, [
		Array.from({ length: 13 }, (_, index) => `Option ${index}`),
		Array.from({ length: 100 }, (_, index) => `Option ${index}`),
		[OBJECT, 'b'],
		['same', 'same'],
		['only one'],
	]),
	...fieldCases('list', 'message/sendButtons', { buttons: FROM_ITEM }, /^Buttons /, [
		Array.from({ length: 11 }, (_, index) => ({ type: 'reply', text: `B${index}` })),
		[],
		[{ type: 'teleport', text: 'Go' }],
	]),
	// URLs and files.
	...fieldCases('URL', 'webhook/set', { url: FROM_ITEM }, /^URL must /, [
		'ftp://hooks.example.com',
		'hooks',
		OBJECT,
	]),
	...fieldCases('URL', 'message/sendLinkPreview', { previewUrl: FROM_ITEM }, /^Preview URL must /, [
		'not a url',
		'file:///etc/passwd',
	]),
	...fieldCases(
		'URL',
		'message/sendLinkPreview',
		{ previewImageSource: 'url', previewImageUrl: FROM_ITEM },
		/^Preview Image URL must be an http\(s\) URL/,
		['file:///etc/passwd', 'javascript:alert(1)'],
	),
	...fieldCases('file type', 'profile/setPicture', { pictureUrl: FROM_ITEM }, /^Picture /, [
		'https://cdn.example.com/setup.exe',
		'https://cdn.example.com/notes.txt',
	]),
	...fieldCases(
		'file type',
		'profile/setPicture',
		{ pictureMimeType: FROM_ITEM },
		/^Picture (must be image\/jpeg or image\/png|MIME Type must be text)/,
		['text/plain', 42, OBJECT],
	),
	...fieldCases(
		'file type',
		'message/sendButtons',
		{ headerImageSource: FROM_ITEM, headerImageUrl: 'https://cdn.example.com/h.png' },
		/^Header Image Source must /,
		['binary', 'anything'],
	),
	...fieldCases(
		'file type',
		'channel/create',
		{ pictureSource: 'url', pictureUrl: FROM_ITEM },
		/^Picture /,
		['https://cdn.example.com/logo.gif'],
	),
];

/** Per operation and class, what the matrix covered, for docs/reliability.md. */
const covered: Array<{ kind: string; operation: string }> = [];

describe('bad input is refused by name before any request', () => {
	it.each(
		CASES.map((badInput) => [
			badInput.kind,
			badInput.operation,
			JSON.stringify(badInput.use),
			badInput,
		]),
	)('%s: %s %s', async (_kind, _operation, _use, badInput) => {
		const [resource, operation] = badInput.operation.split('/');
		const run = async (onError?: 'continueErrorOutput') =>
			await runGateway(
				simulator,
				{ resource, operation, session: SESSION, ...VALID[badInput.operation], ...badInput.use },
				{
					items: [
						{ json: { value: badInput.value } as never },
						{ json: { value: badInput.value } as never },
					],
					onError,
				},
			);

		// Stopping on the first item: n8n's validation error class, naming the field and the item.
		const stopped = await run();
		expect(stopped.status).toBe('error');
		expect(stopped.error?.name).toBe('NodeOperationError');
		expect(stopped.error?.message).toMatch(badInput.message);
		expect((stopped.error?.context as { itemIndex?: number } | undefined)?.itemIndex).toBe(0);

		// Going on: every item on the error output, paired to its item, with its input merged in.
		const continued = await run('continueErrorOutput');
		expect(continued.status).toBe('success');
		expect(continued.outputs[0] ?? []).toEqual([]);
		const failed = continued.outputs[1] ?? [];
		expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		failed.forEach((item) => {
			expect(String(item.json.error)).toMatch(badInput.message);
			expect(item.json).toHaveProperty('value');
		});

		expect(simulator.requests).toEqual([]);
		covered.push({ kind: badInput.kind, operation: badInput.operation });
	});
});

describe('docs/reliability.md', () => {
	it('shows what the bad-input matrix covered', () => {
		expect(covered).toHaveLength(CASES.length);
		const operations = new Set(covered.map((entry) => entry.operation));
		const byKind = new Map<string, number>();
		for (const entry of covered) byKind.set(entry.kind, (byKind.get(entry.kind) ?? 0) + 1);
		expectReadmeSection(
			'reliability:bad-input',
			[
				`${covered.length} bad values over ${operations.size} operations, each from an expression in two input items: stopping, the run failed with a validation error that names the field and points at the item; with "Continue (using error output)", every item went to the error output paired to its item; and **0 requests reached the gateway**.`,
				'',
				'| Kind of input | Cases |',
				'| --- | --- |',
				...[...byKind].map(([kind, count]) => `| ${kind} | ${count} |`),
			].join('\n'),
		);
	});
});

describe('what expressions produce is taken as meant', () => {
	it.each([
		['webhook/set', { enabled: FROM_ITEM }, 'false', (body: IDataObject) => body.enabled, false],
		['webhook/set', { enabled: FROM_ITEM }, 'TRUE', (body: IDataObject) => body.enabled, true],
		[
			'group/sendInvite',
			{ description: FROM_ITEM },
			42,
			(body: IDataObject) => body.description,
			'42',
		],
		[
			'message/sendLocation',
			{ latitude: FROM_ITEM },
			'-23.5',
			(body: IDataObject) => (body.locationMessage as IDataObject).latitude,
			-23.5,
		],
		[
			'channel/search',
			{ view: FROM_ITEM },
			' trending ',
			(body: IDataObject) => body.view,
			'TRENDING',
		],
		[
			'channel/search',
			{ categories: FROM_ITEM },
			'sports, people',
			(body: IDataObject) => body.categories,
			['SPORTS', 'PEOPLE'],
		],
		[
			'message/sendText',
			{ options: { delay: FROM_ITEM } },
			'15',
			(body: IDataObject) => (body.options as IDataObject).delay,
			15,
		],
	] as const)('%s %j with %j', async (path, use, value, read, expected) => {
		const [resource, operation] = path.split('/');
		const result = await runGateway(
			simulator,
			{ resource, operation, session: SESSION, ...VALID[path], ...use },
			{ items: [{ json: { value } as never }] },
		);

		expect(result.status).toBe('success');
		expect(read(simulator.requests[0].body as IDataObject)).toEqual(expected);
	});
});
