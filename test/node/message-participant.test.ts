// The participant at the end of a group message ID (`<true|false>_<group ID>_<id>_<participant>`):
// every operation that takes a full message ID refuses anything but a member's ID there before any
// request, and sends the member it names.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEED } from '../simulator/index.cts';
import type { RecordedRequest } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import type { RunGatewayOptions } from '../support/gateway-node.cts';
import { byId, expectValidationError, resourceRunner } from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const HIKERS = SEED.groups.hikers;
const { alice, carla } = SEED.contacts;
const { aliceText, hikersQuestion } = SEED.messages;
/** A message this account sent in the group (Edit takes only those). */
const OWN_GROUP_MESSAGE = `true_${HIKERS.id}_3EB0AAAABBBBCCCCDDDD`;

const simulator = useSimulator();
const runMessage = resourceRunner(simulator, 'message', SESSION);

/** Runs an operation on one item that also carries the message ID (for fields mapped from it). */
async function runWithId(operation: Operation, messageId: string) {
	return await runMessage(operation.operation, operation.parameters(messageId), {
		...operation.options,
		items: [{ json: { messageId } }],
	});
}

const toHikers = { chatId: byId(HIKERS.id) };
const body = (request: RecordedRequest) => request.body as IDataObject;
const path = (request: RecordedRequest) => decodeURIComponent(request.path);
const quotedId = (request: RecordedRequest) =>
	(((body(request).options as IDataObject).quoted as IDataObject).key as IDataObject).id;

interface Operation {
	operation: string;
	/** The field the error names. */
	field: string;
	parameters: (messageId: string) => INodeParameters;
	options?: RunGatewayOptions;
	/** The group message the ID points at (default: Carla's question in the hikers group). */
	base?: string;
	/** What of the ID the request carries: the participant's JID, the whole ID, or the message's own ID. */
	carries: 'participant' | 'whole ID' | 'short ID';
	sent: (request: RecordedRequest) => unknown;
}

const OPERATIONS: Operation[] = [
	{
		operation: 'deleteForEveryone',
		field: 'Message ID',
		parameters: (messageId) => ({ messageId }),
		carries: 'participant',
		sent: (request) => body(request).participant,
	},
	{
		operation: 'react',
		field: 'Message ID',
		parameters: (messageId) => ({ messageId, reaction: '👍' }),
		options: { requestBodyStyle: 'jidSessionId' },
		carries: 'participant',
		sent: (request) => body(request).sender,
	},
	{
		operation: 'react',
		field: 'Message ID',
		parameters: (messageId) => ({ messageId, reaction: '👍' }),
		carries: 'whole ID',
		sent: (request) => body(request).messageId,
	},
	{
		operation: 'get',
		field: 'Message ID',
		parameters: (messageId) => ({ messageId, downloadMedia: false }),
		carries: 'whole ID',
		sent: (request) => path(request).split('/messages/')[1],
	},
	{
		operation: 'sendLinkPreview',
		field: 'Reply To Message ID',
		parameters: (replyTo) => ({
			...toHikers,
			text: 'Menu: https://bistro.example.com/menu',
			previewUrl: 'https://bistro.example.com/menu',
			options: { replyTo },
		}),
		carries: 'whole ID',
		sent: (request) => body(request).reply_to,
	},
	{
		operation: 'sendPoll',
		field: 'Reply To Message ID',
		parameters: (replyTo) => ({
			...toHikers,
			question: 'Lunch?',
			pollOptions: ['Yes', 'No'],
			options: { replyTo },
		}),
		carries: 'whole ID',
		sent: (request) => body(request).reply_to,
	},
	{
		operation: 'markAsRead',
		field: 'Message IDs',
		// Mapped as a list, so that a new line in the ID does not start another entry.
		parameters: () => ({ messageIds: '={{ [$json.messageId] }}' }),
		carries: 'short ID',
		sent: (request) => ((body(request).read_messages as IDataObject[])[0] as IDataObject).id,
	},
	{
		operation: 'edit',
		field: 'Message ID',
		parameters: (messageId) => ({ messageId, text: 'Fixed' }),
		base: OWN_GROUP_MESSAGE,
		carries: 'short ID',
		sent: (request) => (body(request).key as IDataObject).id,
	},
	{
		operation: 'downloadMedia',
		field: 'Message ID',
		parameters: (messageId) => ({ messageId }),
		carries: 'short ID',
		sent: (request) => ((body(request).message as IDataObject).key as IDataObject).id,
	},
	{
		operation: 'findStatus',
		field: 'Message ID',
		parameters: (messageId) => ({ filters: { messageId }, limit: 10 }),
		carries: 'short ID',
		sent: (request) => (body(request).where as IDataObject).id,
	},
	{
		operation: 'sendText',
		field: 'Reply To Message ID',
		parameters: (replyTo) => ({ ...toHikers, text: 'Yes!', options: { replyTo } }),
		carries: 'short ID',
		sent: quotedId,
	},
	{
		operation: 'sendMedia',
		field: 'Reply To Message ID',
		parameters: (replyTo) => ({
			...toHikers,
			mediaSource: 'url',
			mediaUrl: 'https://cdn.example.com/map.png',
			options: { replyTo },
		}),
		carries: 'short ID',
		sent: quotedId,
	},
	{
		operation: 'sendSticker',
		field: 'Reply To Message ID',
		parameters: (replyTo) => ({
			...toHikers,
			mediaSource: 'url',
			mediaUrl: 'https://cdn.example.com/cat.png',
			options: { replyTo },
		}),
		carries: 'short ID',
		sent: quotedId,
	},
	{
		operation: 'sendContact',
		field: 'Reply To Message ID',
		parameters: (replyTo) => ({
			...toHikers,
			contacts: { contact: [{ fullName: 'Acme', phoneNumber: alice.number }] },
			options: { replyTo },
		}),
		carries: 'short ID',
		sent: quotedId,
	},
	{
		operation: 'sendList',
		field: 'Reply To Message ID',
		parameters: (replyTo) => ({
			...toHikers,
			title: 'Menu',
			description: 'Pick one',
			buttonText: 'Open',
			rows: { row: [{ title: 'Soup' }] },
			options: { replyTo },
		}),
		carries: 'short ID',
		sent: quotedId,
	},
];

const baseOf = (operation: Operation) => operation.base ?? hikersQuestion.id;
const label = (operation: Operation) =>
	`${operation.operation}${operation.options?.requestBodyStyle === 'jidSessionId' ? ' (jid + sessionId)' : ''}`;

const NOT_A_MEMBER = 'must name a group member after the message ID';
const NOT_A_GROUP = 'must end with the message ID';

/** What may follow the ID of a group message, and is not a member's ID. */
const BAD_PARTICIPANTS: Array<{ case: string; participant: string }> = [
	{ case: 'a word', participant: 'not-a-jid' },
	{ case: 'a path', participant: '../../instance/logout' },
	{ case: 'a parent folder', participant: '..' },
	{ case: 'percent-encoded dots', participant: '%2e%2e' },
	{ case: 'a group ID', participant: '120363012345678901@g.us' },
	{ case: 'a phone number as a group', participant: '5511999999999@g.us' },
	{ case: 'a channel ID', participant: '120363150000000001@newsletter' },
	{ case: 'nothing after the underscore', participant: '' },
	{ case: 'a chat ID with a path after it', participant: '5511999999999@c.us/../x' },
	{ case: 'a chat ID and a new line', participant: '5511999999999@c.us\nx' },
	{ case: 'a chat ID and a space', participant: '5511999999999@c.us x' },
	{ case: 'two participants', participant: `${carla.chatId}_${alice.chatId}` },
	{ case: 'digits without a domain', participant: '5511999999999' },
	{ case: 'a JID of another domain', participant: '5511999999999@example.com' },
	{ case: 'a LID with letters', participant: 'abc@lid' },
];

/** Message IDs of chats that are not groups, with a participant after them. */
const NOT_GROUPS: Array<{ case: string; messageId: string }> = [
	{ case: 'a direct chat', messageId: `${aliceText.id}_${carla.chatId}` },
	{
		case: 'a direct chat by LID',
		messageId: `false_123456789012345@lid_3EB0AAAABBBBCCCCDDDD_${carla.chatId}`,
	},
	{
		case: 'a channel',
		messageId: `true_${SEED.channels.updates.id}_3EB0AAAABBBBCCCCDDDD_${carla.chatId}`,
	},
];

/** The member written as people and gateways write it, and the JID the gateway gets. */
const GOOD_PARTICIPANTS = [
	{ participant: carla.chatId, jid: carla.jid },
	{ participant: `${carla.number}@s.whatsapp.net`, jid: carla.jid },
	{ participant: carla.jid, jid: carla.jid },
	{ participant: '123456789012345@lid', jid: '123456789012345@lid' },
];

function expectRefused(
	result: Awaited<ReturnType<typeof runWithId>>,
	field: string,
	problem: string,
	messageId: string,
): void {
	// The field, what is wrong (then an example of the right shape), and what was given.
	expectValidationError(simulator, result, new RegExp(`^${field} ${problem}: `));
	expect(result.error?.message.endsWith(`(got "${messageId}")`)).toBe(true);
	expect((result.error?.context as { itemIndex?: number } | undefined)?.itemIndex).toBe(0);
}

describe('a group message ID names a member after the ID, or nothing', () => {
	it.each(
		OPERATIONS.flatMap((operation) =>
			BAD_PARTICIPANTS.map((bad) => ({ ...bad, operation, name: label(operation) })),
		),
	)('$name refuses $case before any request', async ({ operation, participant }) => {
		const messageId = `${baseOf(operation)}_${participant}`;

		const refused = await runWithId(operation, messageId);

		expectRefused(refused, operation.field, NOT_A_MEMBER, messageId);
	});

	it.each(
		OPERATIONS.flatMap((operation) =>
			NOT_GROUPS.map((notGroup) => ({ ...notGroup, operation, name: label(operation) })),
		),
	)('$name refuses a participant on $case before any request', async ({ operation, messageId }) => {
		const result = await runWithId(operation, messageId);

		expectRefused(result, operation.field, NOT_A_GROUP, messageId);
		expect(result.error?.message).toContain('is not a group (…@g.us)');
	});

	it.each(
		OPERATIONS.flatMap((operation) =>
			GOOD_PARTICIPANTS.map((good) => ({ ...good, operation, name: label(operation) })),
		),
	)(
		'$name takes $participant and sends it where the gateway wants it',
		async ({ operation, participant, jid }) => {
			const messageId = `${baseOf(operation)}_${participant}`;

			await runWithId(operation, messageId);

			expect(simulator.requests).toHaveLength(1);
			const expected = {
				participant: jid,
				'whole ID': messageId,
				'short ID': baseOf(operation).split('_')[2],
			}[operation.carries];
			expect(operation.sent(simulator.requests[0])).toBe(expected);
		},
	);
});
