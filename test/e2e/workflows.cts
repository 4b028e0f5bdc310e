/** Workflow and credential JSON for the end-to-end tests and the sandbox. */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { IConnections, IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { PROJECT_ROOT } from '../support/paths.cts';

/** n8n prefixes node types with the package name; nodes loaded from `.n8n/custom` (n8n-node dev) get CUSTOM. */
export type NodeTypePrefix = 'n8n-nodes-messaging-gateway' | 'CUSTOM';

export const ACTION_TYPE = 'n8n-nodes-messaging-gateway.messagingGateway';
export const TRIGGER_TYPE = 'n8n-nodes-messaging-gateway.messagingGatewayTrigger';
/** The action node as an AI Agent's tool (n8n makes this variant of every `usableAsTool` node). */
export const TOOL_TYPE = `${ACTION_TYPE}Tool`;

function typesFor(prefix: NodeTypePrefix) {
	return { action: `${prefix}.messagingGateway`, trigger: `${prefix}.messagingGatewayTrigger` };
}
export const CREDENTIAL_TYPE = 'messagingGatewayApi';

export interface CredentialRef {
	id: string;
	name: string;
}

export interface WorkflowJson {
	name: string;
	nodes: INode[];
	connections: IConnections;
	settings: IDataObject;
}

const SETTINGS = {
	executionOrder: 'v1',
	saveDataSuccessExecution: 'all',
	saveDataErrorExecution: 'all',
	saveManualExecutions: true,
};

/** A Session as version 2 of the nodes stores it: picked from the list. */
const pickedSession = (value: string) => ({ __rl: true, mode: 'list', value });

/** An echo bot: every incoming text is answered with "Echo: <text>" in the same chat. */
export function echoBotWorkflow(
	credential: CredentialRef,
	session: string,
	prefix: NodeTypePrefix = 'n8n-nodes-messaging-gateway',
): WorkflowJson {
	const types = typesFor(prefix);
	return {
		name: 'Echo bot (Messaging Gateway)',
		settings: SETTINGS,
		nodes: [
			{
				id: randomUUID(),
				name: 'On Message',
				type: types.trigger,
				// The trigger's newest version, as a new node gets it (Ignore Own Messages and Simplify shown).
				typeVersion: 3,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { session: pickedSession(session), events: ['MESSAGES_UPSERT'] },
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
			{
				id: randomUUID(),
				name: 'Reply',
				type: types.action,
				typeVersion: 2,
				position: [300, 0],
				parameters: {
					resource: 'message',
					operation: 'sendText',
					session: pickedSession(session),
					chatId: { __rl: true, mode: 'id', value: '={{ $json.chatId }}' },
					text: '=Echo: {{ $json.text }}',
				},
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: { 'On Message': { main: [[{ node: 'Reply', type: 'main', index: 0 }]] } },
	};
}

/** QR login: every new QR code of a session arrives as a PNG image (and the pairing code). */
export function qrLoginWorkflow(
	credential: CredentialRef,
	session: string,
	prefix: NodeTypePrefix = 'n8n-nodes-messaging-gateway',
): WorkflowJson {
	const types = typesFor(prefix);
	return {
		name: 'QR login (Messaging Gateway)',
		settings: SETTINGS,
		nodes: [
			{
				id: randomUUID(),
				name: 'On QR Code',
				type: types.trigger,
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: {
					session: pickedSession(session),
					events: ['QRCODE_UPDATED'],
					options: { qrCodeAsBinary: true },
				},
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: {},
	};
}

/** A node without parameters yet, at a position on the canvas. */
export function plainNode(
	name: string,
	type: string,
	typeVersion: number,
	x: number,
	y = 0,
): INode {
	return { id: randomUUID(), name, type, typeVersion, position: [x, y], parameters: {} };
}

export interface OperationCase {
	/** Node name in the workflow, e.g. "message.sendText". */
	name: string;
	parameters: IDataObject;
}

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** One node per operation of the action node, each with parameters that work against the simulator's seed. */
export function operationCases(seed: {
	session: string;
	pairingSession: string;
	alice: { number: string; chatId: string };
	/** A person WhatsApp addresses by LID (`…@lid`). */
	lidPerson: string;
	bruno: { number: string };
	bakery: { number: string };
	hikersGroup: string;
	teamGroup: string;
	aliceTextId: string;
	aliceImageId: string;
}): OperationCase[] {
	const { session } = seed;
	const cases: Array<[string, string, IDataObject]> = [
		[
			'channel',
			'create',
			{ name: 'E2E Channel', description: 'Made by the end-to-end test', pictureSource: 'none' },
		],
		['channel', 'search', { view: 'RECOMMENDED', countries: 'US', returnAll: false, limit: 3 }],
		['chat', 'getMany', { returnAll: false, limit: 5 }],
		['contact', 'checkNumber', { numbers: `${seed.alice.number}, ${seed.bruno.number}` }],
		['contact', 'get', { contact: byId('+55 (11) 98765-0001') }],
		['contact', 'getBusinessProfile', { contact: byId(seed.bakery.number) }],
		['contact', 'getMany', { returnAll: true }],
		['contact', 'getPhoneOrLid', { contact: byId(seed.lidPerson) }],
		[
			'contact',
			'getProfilePicture',
			{ contact: byId(seed.alice.number), options: { downloadPicture: true } },
		],
		[
			'group',
			'create',
			{ subject: 'E2E Group', participants: '+55 11 98765-0001, +55 11 98765-0002' },
		],
		['group', 'get', { groupId: byId(seed.hikersGroup) }],
		['group', 'getMany', { returnAll: true, options: { includeParticipants: true } }],
		['group', 'getParticipants', { groupId: byId(seed.hikersGroup) }],
		['group', 'leave', { groupId: byId(seed.teamGroup) }],
		['group', 'refresh', {}],
		[
			'group',
			'sendInvite',
			{ groupId: byId(seed.hikersGroup), numbers: '+55 11 98765-0002', description: 'Join us' },
		],
		[
			'group',
			'updateParticipants',
			{
				groupId: byId(seed.hikersGroup),
				participantAction: 'add',
				participants: seed.bakery.number,
			},
		],
		['label', 'addToChat', { chatId: byId(seed.alice.number), labelId: byId('1') }],
		['label', 'create', { name: 'E2E label', color: 3 }],
		['label', 'delete', { labelId: byId('1') }],
		['label', 'getChats', { labelId: byId('2') }],
		['label', 'getMany', {}],
		['label', 'removeFromChat', { chatId: byId(seed.alice.number), labelId: byId('2') }],
		[
			'message',
			'deleteForEveryone',
			{ messageId: `true_${seed.alice.chatId}_3EB0E2E0000000000001` },
		],
		['message', 'downloadMedia', { messageId: seed.aliceImageId }],
		[
			'message',
			'edit',
			{ messageId: `true_${seed.alice.chatId}_3EB0E2E0000000000001`, text: 'Edited from n8n' },
		],
		['message', 'findStatus', { limit: 10 }],
		['message', 'get', { messageId: seed.aliceTextId, downloadMedia: false }],
		['message', 'markAsRead', { messageIds: seed.aliceTextId }],
		['message', 'pauseWhilePersonAnswers', { messageId: seed.aliceTextId }],
		['message', 'react', { messageId: seed.aliceTextId, reaction: '👍' }],
		[
			'message',
			'sendAudio',
			{
				chatId: byId(seed.alice.number),
				mediaSource: 'url',
				mediaUrl: 'https://example.com/hello.mp3',
			},
		],
		[
			'message',
			'sendButtons',
			{
				chatId: byId(seed.alice.chatId),
				body: 'Pick one',
				buttons: { button: [{ type: 'reply', text: 'Yes' }] },
				headerImageSource: 'none',
			},
		],
		[
			'message',
			'sendContact',
			{
				chatId: byId(seed.alice.number),
				contacts: { contact: [{ fullName: 'Acme Bakery', phoneNumber: seed.bakery.number }] },
			},
		],
		[
			'message',
			'sendLinkPreview',
			{
				chatId: byId(seed.alice.chatId),
				text: 'See https://example.com',
				previewUrl: 'https://example.com',
				previewTitle: 'Example',
				previewDescription: 'An example page',
				previewImageSource: 'none',
			},
		],
		[
			'message',
			'sendList',
			{
				chatId: byId(seed.alice.number),
				title: 'Menu',
				description: 'Pick a dish',
				buttonText: 'See the Menu',
				rows: { row: [{ section: 'Mains', title: 'Feijoada' }] },
			},
		],
		[
			'message',
			'sendLocation',
			{ chatId: byId(seed.alice.number), latitude: -23.5505, longitude: -46.6333, name: 'Office' },
		],
		[
			'message',
			'sendMedia',
			{
				chatId: byId(seed.alice.number),
				mediaSource: 'url',
				mediaUrl: 'https://example.com/menu.pdf',
				caption: 'Our menu',
			},
		],
		[
			'message',
			'sendPoll',
			{
				chatId: byId(seed.hikersGroup),
				question: 'Where do we hike?',
				pollOptions: ['North Ridge', 'South Valley'],
			},
		],
		[
			'message',
			'sendSticker',
			{
				chatId: byId(seed.alice.number),
				mediaSource: 'url',
				mediaUrl: 'https://example.com/sticker.png',
			},
		],
		['message', 'sendText', { chatId: byId(seed.alice.number), text: 'Hello from n8n' }],
		['profile', 'deletePicture', {}],
		['profile', 'get', {}],
		['profile', 'setPicture', { pictureSource: 'url', pictureUrl: 'https://example.com/me.png' }],
		[
			'session',
			'requestPairingCode',
			{ session: seed.pairingSession, phoneNumber: '+55 11 98765-0099' },
		],
		['session', 'connect', { session: seed.pairingSession }],
		['session', 'getConnectionState', {}],
		['session', 'getMany', {}],
		['session', 'restart', {}],
		['session', 'setPresence', { presence: 'available' }],
		[
			'status',
			'post',
			{ statusType: 'text', text: 'Open on Sunday from 9 to 13!', font: 'bebasNeueRegular' },
		],
		['status', 'delete', { statusId: '3EB0E2E0000000000002' }],
		['webhook', 'get', {}],
		[
			'webhook',
			'set',
			{
				session: seed.pairingSession,
				url: 'https://example.com/hook',
				events: ['MESSAGES_UPSERT'],
			},
		],
		// Last: it closes the pairing session, which the operations above use (v1 order runs them top to bottom).
		['session', 'logout', { session: seed.pairingSession }],
	];
	// Version 2 nodes: the Session is a picker value, picked from the list or typed by name.
	return cases.map(
		([resource, operation, { session: sessionName = session, ...parameters }], index) => ({
			name: `${resource}.${operation}`,
			parameters: {
				resource,
				operation,
				session: { __rl: true, mode: index % 2 === 0 ? 'list' : 'name', value: sessionName },
				...parameters,
			},
		}),
	);
}

/**
 * A file made in the workflow (Convert to File from base64) sent with Send Media from its binary
 * field, then fetched back with Download Media: the bytes must survive the round trip.
 */
export function mediaRoundTripWorkflow(
	credential: CredentialRef,
	session: string,
	chatId: string,
	file: { base64: string; fileName: string; mimeType: string },
): WorkflowJson {
	const gatewayNode = (name: string, x: number, parameters: IDataObject): INode => ({
		...plainNode(name, ACTION_TYPE, 2, x),
		parameters: {
			resource: 'message',
			session: { __rl: true, mode: 'name', value: session },
			...parameters,
		} as INode['parameters'],
		credentials: { [CREDENTIAL_TYPE]: credential },
	});
	return {
		name: 'Media round trip (Messaging Gateway)',
		settings: SETTINGS,
		nodes: [
			plainNode('Start', 'n8n-nodes-base.manualTrigger', 1, 0),
			{
				...plainNode('File As Base64', 'n8n-nodes-base.set', 3.4, 200),
				parameters: { mode: 'raw', jsonOutput: JSON.stringify({ content: file.base64 }) },
			},
			{
				...plainNode('To File', 'n8n-nodes-base.convertToFile', 1.1, 400),
				parameters: {
					operation: 'toBinary',
					sourceProperty: 'content',
					binaryPropertyName: 'data',
					options: { fileName: file.fileName, mimeType: file.mimeType },
				},
			},
			gatewayNode('Send Media', 600, {
				operation: 'sendMedia',
				chatId: byId(chatId),
				caption: 'Round trip',
			}),
			gatewayNode('Download Media', 800, {
				operation: 'downloadMedia',
				messageId: '={{ $json.messageId }}',
				binaryPropertyName: 'file',
			}),
		],
		connections: {
			Start: { main: [[{ node: 'File As Base64', type: 'main', index: 0 }]] },
			'File As Base64': { main: [[{ node: 'To File', type: 'main', index: 0 }]] },
			'To File': { main: [[{ node: 'Send Media', type: 'main', index: 0 }]] },
			'Send Media': { main: [[{ node: 'Download Media', type: 'main', index: 0 }]] },
		},
	};
}

/** Manual Trigger -> every operation in parallel; each node continues on error, so one failure shows as an error item. */
export function operationsWorkflow(
	credential: CredentialRef,
	cases: OperationCase[],
	start: 'manual' | { webhookPath: string } = 'manual',
): WorkflowJson {
	// Manual for `n8n execute`; a Webhook node where the run must come in as a production call.
	const trigger: INode =
		start === 'manual'
			? {
					id: randomUUID(),
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				}
			: {
					id: randomUUID(),
					name: 'Start',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: randomUUID(),
					parameters: { httpMethod: 'POST', path: start.webhookPath, responseMode: 'onReceived' },
				};
	const nodes: INode[] = cases.map((operationCase, index) => ({
		id: randomUUID(),
		name: operationCase.name,
		type: ACTION_TYPE,
		typeVersion: 2,
		position: [300, index * 120],
		parameters: operationCase.parameters as INode['parameters'],
		credentials: { [CREDENTIAL_TYPE]: credential },
		onError: 'continueRegularOutput',
	}));
	return {
		name: 'Every operation (Messaging Gateway)',
		settings: SETTINGS,
		nodes: [trigger, ...nodes],
		connections: {
			Start: { main: [nodes.map((node) => ({ node: node.name, type: 'main', index: 0 }))] },
		},
	};
}

/**
 * Items → the Messaging Gateway node with `parameters` and "On Error" `onError` → "Sent" (success
 * output) and "Failed" (error output, when there is one). The items are given as JSON and split
 * into items by n8n's own Edit Fields and Split Out nodes.
 */
export function itemsThroughNodeWorkflow(
	credential: CredentialRef,
	items: IDataObject[],
	parameters: IDataObject,
	onError: 'continueRegularOutput' | 'continueErrorOutput',
): WorkflowJson {
	const send: INode = {
		...plainNode('Send', ACTION_TYPE, 1, 900),
		parameters: parameters as INode['parameters'],
		credentials: { [CREDENTIAL_TYPE]: credential },
		onError,
	};
	const sendOutputs = [[{ node: 'Sent', type: 'main' as const, index: 0 }]];
	if (onError === 'continueErrorOutput') {
		sendOutputs.push([{ node: 'Failed', type: 'main' as const, index: 0 }]);
	}
	return {
		name: `Items through the node (${onError})`,
		settings: SETTINGS,
		nodes: [
			plainNode('Start', 'n8n-nodes-base.manualTrigger', 1, 0),
			{
				...plainNode('Items', 'n8n-nodes-base.set', 3.4, 300),
				parameters: { mode: 'raw', jsonOutput: JSON.stringify({ items }) },
			},
			{
				...plainNode('Split', 'n8n-nodes-base.splitOut', 1, 600),
				parameters: { fieldToSplitOut: 'items' },
			},
			send,
			plainNode('Sent', 'n8n-nodes-base.noOp', 1, 1200, -100),
			plainNode('Failed', 'n8n-nodes-base.noOp', 1, 1200, 100),
		],
		connections: {
			Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'Split', type: 'main', index: 0 }]] },
			Split: { main: [[{ node: 'Send', type: 'main', index: 0 }]] },
			Send: { main: sendOutputs },
		},
	};
}

/** A trigger on incoming messages of `session` that does nothing else: one execution per message. */
export function countingTriggerWorkflow(
	credential: CredentialRef,
	session: string,
	trigger: { typeVersion?: number; events?: string[]; options?: INodeParameters } = {},
): WorkflowJson {
	const { typeVersion = 1, events = ['MESSAGES_UPSERT'], options } = trigger;
	return {
		name: 'Counting trigger (Messaging Gateway)',
		settings: SETTINGS,
		nodes: [
			{
				id: randomUUID(),
				name: 'On Message',
				type: TRIGGER_TYPE,
				typeVersion,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: {
					session: typeVersion >= 2 ? pickedSession(session) : session,
					events,
					...(options ? { options } : {}),
				},
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: {},
	};
}

/**
 * The same counting workflow started by n8n's own Webhook node (answering on receipt, as the
 * trigger does): the yardstick the trigger's burst is measured against in the same n8n.
 */
export function countingWebhookNodeWorkflow(webhookPath: string): WorkflowJson {
	return {
		name: "Counting Webhook node (n8n's own)",
		settings: SETTINGS,
		nodes: [
			{
				id: randomUUID(),
				name: 'On Message',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived' },
			},
		],
		connections: {},
	};
}

/** The importable example workflows users download: `examples/*.json`. */
export const EXAMPLES_FOLDER = path.join(PROJECT_ROOT, 'examples');

/** The file names of the example workflows, sorted. */
export function exampleFileNames(): string[] {
	return fs
		.readdirSync(EXAMPLES_FOLDER)
		.filter((name) => name.endsWith('.json'))
		.sort();
}

/** One example workflow as a user's "Import from File" reads it. */
export function readExample(fileName: string): WorkflowJson {
	return JSON.parse(fs.readFileSync(path.join(EXAMPLES_FOLDER, fileName), 'utf8')) as WorkflowJson;
}
