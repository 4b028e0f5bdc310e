/**
 * Which gateways take the requests this package really sends. Every operation runs in n8n's engine
 * against the gateway simulator (the spec's gateway), once per Request Body Style of the credential,
 * with its usual fields and with the variants that change the request; the simulator's log gives
 * the exact method, path, query and body. Each request is then judged two ways: the simulator's
 * answer (2xx) and Evolution API 1.8.2's own routes and jsonschema validation. Every case runs again
 * with the credential's Gateway set to each other gateway (Evolution API v2, WAHA), against the
 * simulator playing it, each request judged by that gateway's own routes and validation. The
 * verdicts make the table "Gateways, operation by operation" of docs/compatibility.md.
 */
import axios from 'axios';
import type { INodeExecutionData, INodeParameters, INodePropertyOptions } from 'n8n-workflow';

import { MessagingGatewayApi } from '../../credentials/MessagingGatewayApi.credentials';
import { MessagingGateway } from '../../nodes/MessagingGateway/MessagingGateway.node';
import type { GatewayName, RequestBodyStyle } from '../../nodes/shared/transport';
import { GATEWAY_LABELS } from '../../nodes/shared/transport';
import { SEED } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { gatewayClient, useSimulator } from '../simulator/testing.cts';
import { binaryItem, byId, fromList, runGateway } from '../support/gateway-node.cts';
import { expectReadmeSection } from '../support/readme-section.cts';
import type { GatewayOperations } from '../../nodes/shared/gateways';
import { evolutionV2Operations } from '../../nodes/MessagingGateway/gateways/evolution-v2/operations';
import { wahaOperations } from '../../nodes/MessagingGateway/gateways/waha/operations';
import { checkEvolution, EVOLUTION } from './evolution.cts';
import { checkEvolutionV2, EVOLUTION_V2 } from './evolution-v2.cts';
import { renderTable, SHAPE_OF, STYLES } from './table.cts';
import type { CaseResult, OperationResult } from './table.cts';
import { verdictReasons } from './verdicts.cts';
import type { SentRequest, Verdict } from './verdicts.cts';
import { checkWaha, WAHA } from './waha.cts';

const SESSION = SEED.instances.connected.name;
const { alice, bruno, bakery } = SEED.contacts;
const { hikers, team } = SEED.groups;
const { aliceText, aliceImage, hikersQuestion } = SEED.messages;
/** A 1x1 PNG, for the operations that take a file from a binary field. */
const PNG_ITEM = binaryItem(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
	'image/png',
	'logo.png',
);

/** The gateways a credential names besides the Messaging Gateway API. */
type OtherGateway = Exclude<GatewayName, 'messagingGatewayApi'>;

interface Variant {
	/** Says what differs from the main case, e.g. "with a binary picture". */
	label: string;
	parameters: INodeParameters;
	items?: INodeExecutionData[];
	/** Only in this style: the option is refused before sending in the other one. */
	only?: RequestBodyStyle;
	/** Gateways that have no such message: the node refuses it there before any request, saying why. */
	refusedOn?: OtherGateway[];
	/** Changes only what goes to these gateways (elsewhere it is, e.g., a second request for a file). */
	onlyOn?: OtherGateway[];
}

interface OperationCase {
	/** As the compatibility table names it: "Message: Send Text". */
	operation: string;
	resource: string;
	name: string;
	/** The fields a user fills in for the usual call. */
	parameters: INodeParameters;
	variants: Variant[];
	/** Per gateway, makes what the case names and the seed lacks there; returns the fields naming it. */
	prepare?: Partial<Record<OtherGateway, (gateway: Simulator) => Promise<INodeParameters>>>;
}

const NODE = new MessagingGateway().description;
const CREDENTIAL = new MessagingGatewayApi();

/** Every operation the node offers: "message.sendText" -> "Message: Send Text". */
function nodeOperations(): Map<string, string> {
	const resources = NODE.properties.find((property) => property.name === 'resource')!
		.options as INodePropertyOptions[];
	const operations = new Map<string, string>();
	for (const property of NODE.properties.filter((candidate) => candidate.name === 'operation')) {
		const [resource] = property.displayOptions!.show!.resource as string[];
		const resourceName = resources.find((option) => option.value === resource)!.name;
		for (const option of property.options as INodePropertyOptions[]) {
			operations.set(`${resource}.${String(option.value)}`, `${resourceName}: ${option.name}`);
		}
	}
	return operations;
}
/**
 * Operations that are not one request but a procedure over a gateway's reads: Combine Rapid
 * Messages waits, then reads a chat's history page by page, and Pause While a Person Answers reads
 * it back to the pause (test/node/combine-rapid.test.ts and pause-while-person-answers.test.ts run
 * them on each gateway and judge every request they send by that gateway's validation).
 */
const PROCEDURES = new Set(['message.combineRapid', 'message.pauseWhilePersonAnswers']);
/**
 * Operations the spec's gateway has no route for: the node refuses them there before any request,
 * saying why (the spec maps no LID to a phone number, manages no labels (lists no chats by one)
 * and deletes no status), and they run on the other gateways only.
 */
const SPEC_NOT_OFFERED = new Set([
	'contact.getPhoneOrLid',
	'label.create',
	'label.delete',
	'label.getChats',
	'status.delete',
]);
const NODE_OPERATIONS = new Map([...nodeOperations()].filter(([key]) => !PROCEDURES.has(key)));

/** `resource.operation` of an operation as the compatibility table names it ("Contact: Get" -> "contact.get"). */
function keyOf(operationName: string): string {
	return [...NODE_OPERATIONS].find(([, name]) => name === operationName)?.[0] ?? operationName;
}

/** A case for `resource.operation` with its usual fields and the variants that change the request. */
function op(
	key: string,
	parameters: INodeParameters,
	variants: Variant[] = [],
	prepare?: OperationCase['prepare'],
): OperationCase {
	const [resource, name] = key.split('.');
	return {
		operation: NODE_OPERATIONS.get(key) ?? key,
		resource,
		name,
		parameters,
		variants,
		prepare,
	};
}

/** A text the account sent, as each gateway sends it, for the operations that change one. */
const SENT_FIRST: OperationCase['prepare'] = {
	evolutionV2: async (gateway) => {
		const sent = await gatewayClient(gateway).post(`/message/sendText/${SESSION}`, {
			number: alice.number,
			text: 'Ready at 5pm.',
		});
		return { messageId: `true_${alice.chatId}_${String(sent.data.key.id)}` };
	},
	waha: async (gateway) => {
		const sent = await axios.post(
			`${gateway.url}/api/sendText`,
			{ session: SESSION, chatId: alice.chatId, text: 'Ready at 5pm.' },
			{ headers: { 'X-Api-Key': gateway.apiKey } },
		);
		return { messageId: String(sent.data.id._serialized ?? sent.data.id) };
	},
};

/** Channel Create and Profile Set Picture take their picture from the same kind of field. */
const BINARY_PICTURE: Variant = {
	label: 'with a binary picture',
	parameters: { pictureSource: 'binary', pictureBinaryProperty: 'data' },
	items: [PNG_ITEM],
};

/** The media sends take a file from a URL in their usual case, and from a binary field in a variant. */
const fromUrl = (file: string) => ({
	mediaSource: 'url',
	mediaUrl: `https://cdn.example.com/${file}`,
});
const FROM_BINARY = { mediaSource: 'binary', mediaBinaryProperty: 'data' };
/** A short MP3, for the voice note. */
const AUDIO_ITEM = binaryItem(
	Buffer.from('ID3 voice').toString('base64'),
	'audio/mpeg',
	'hello.mp3',
);

// One row per operation of the node, in the operation reference's order.
const OPERATIONS: OperationCase[] = [
	op('channel.create', { name: 'Acme News', description: 'Offers and opening hours' }, [
		{
			label: 'with a picture URL',
			parameters: { pictureSource: 'url', pictureUrl: 'https://cdn.example.com/logo.png' },
		},
		BINARY_PICTURE,
	]),
	op('channel.search', {
		view: 'RECOMMENDED',
		countries: 'US, BR',
		returnAll: false,
		limit: 5,
	}),
	op('chat.getMany', { returnAll: false, limit: 10 }, [
		{
			label: 'filtered by chats',
			parameters: { filters: { chats: `${alice.number}, ${hikers.id}` } },
		},
	]),
	op('contact.checkNumber', { numbers: `${alice.number}, +55 11 98765-0002` }),
	op('contact.get', { contact: byId(alice.number) }),
	op('contact.getBusinessProfile', {
		contact: byId(bakery.number),
	}),
	op('contact.getMany', { returnAll: false, limit: 10 }, [
		{ label: 'every contact', parameters: { returnAll: true } },
	]),
	op('contact.getPhoneOrLid', { contact: byId(SEED.lidPeople.dora.lid) }),
	op('contact.getProfilePicture', { contact: byId(bruno.number) }),
	op(
		'group.create',
		{ subject: 'Trail Crew', participants: `${alice.number}, +55 11 98765-0002` },
		[
			{
				label: 'with description and promoted participants',
				parameters: { options: { description: 'Saturday hikes', promoteParticipants: true } },
			},
		],
	),
	op('group.get', { groupId: byId(hikers.id) }),
	op('group.getMany', { returnAll: true }, [
		{ label: 'with participants', parameters: { options: { includeParticipants: true } } },
	]),
	op('group.getParticipants', { groupId: byId(hikers.id) }),
	op('group.leave', { groupId: byId(team.id) }),
	op('group.refresh', {}),
	op('group.sendInvite', {
		groupId: byId(hikers.id),
		numbers: `${bruno.number}, +55 11 98765-0003`,
		description: 'Join the hikers',
	}),
	op(
		'group.updateParticipants',
		{
			groupId: byId(hikers.id),
			participantAction: 'add',
			participants: `${bakery.number}, +55 21 98888-7777`,
		},
		[
			{
				label: 'promoting a member',
				parameters: { participantAction: 'promote', participants: bruno.number },
			},
		],
	),
	op('label.addToChat', { chatId: byId(alice.number), labelId: byId('1') }, [
		{ label: 'a group', parameters: { chatId: byId(hikers.id) } },
	]),
	op('label.create', { name: 'Follow up', color: 2 }),
	op('label.delete', { labelId: byId('1') }),
	op('label.getChats', { labelId: byId('2') }),
	op('label.getMany', {}),
	op('label.removeFromChat', { chatId: byId(alice.number), labelId: byId('2') }),
	op(
		'message.deleteForEveryone',
		{ messageId: `true_${alice.chatId}_3EB0AAAABBBBCCCCDDDD` },
		[
			{
				label: "a member's message in a group",
				parameters: {
					messageId: `false_${hikers.id}_${hikersQuestion.id.split('_')[2]}_${bruno.chatId}`,
				},
			},
		],
		// WAHA finds the message it deletes: one the account sent.
		{ waha: SENT_FIRST.waha },
	),
	op('message.downloadMedia', { messageId: aliceImage.id }, [
		{
			label: 'converting audio to MP4',
			parameters: { convertToMp4: true },
			refusedOn: ['waha'],
		},
	]),
	op(
		'message.edit',
		{ messageId: `true_${alice.chatId}_3EB0AAAABBBBCCCCDDDD`, text: 'Ready at 6pm.' },
		[],
		// v2 and WAHA edit only a message the account sent, and their seed has none: send one first.
		SENT_FIRST,
	),
	op('message.findStatus', { limit: 20 }, [
		{
			label: 'with every filter',
			parameters: { filters: { chat: alice.number, fromMe: false, messageId: aliceText.id } },
		},
	]),
	op('message.get', { messageId: aliceText.id }, [
		{
			label: 'a media message, its file as binary',
			parameters: { messageId: aliceImage.id, downloadMedia: true },
			onlyOn: ['evolutionV2'],
		},
	]),
	op('message.markAsRead', { messageIds: `${aliceText.id}, ${hikersQuestion.id}` }),
	op('message.react', { messageId: aliceText.id, reaction: '👍' }),
	op(
		'message.sendAndWait',
		{ chatId: byId(alice.number), message: 'Refund of $120 for order #1042?' },
		[
			{
				label: 'approve and decline, as URL buttons, with a time limit',
				parameters: {
					approvalOptions: { values: { approvalType: 'double' } },
					delivery: 'buttons',
					options: { limitWaitTime: { values: { resumeAmount: 2, resumeUnit: 'hours' } } },
				},
			},
			{ label: 'free text', parameters: { responseType: 'freeText' } },
		],
	),
	op('message.sendAudio', { chatId: byId(alice.number), ...fromUrl('hello.mp3') }, [
		{ label: 'from a binary file', parameters: FROM_BINARY, items: [AUDIO_ITEM] },
		{
			label: 'from a URL, not converted, with a delay',
			parameters: {
				mediaSource: 'url',
				mediaUrl: 'https://cdn.example.com/hello.ogg',
				options: { encoding: false, delay: 1200 },
			},
		},
	]),
	op(
		'message.sendButtons',
		{
			chatId: byId(alice.chatId),
			body: 'Are you coming on Saturday?',
			buttons: { button: [{ type: 'reply', text: 'Yes' }] },
		},
		[
			{
				label: 'with header, footer, reply buttons with IDs and a header image',
				parameters: {
					header: 'Trail day',
					footer: 'Reply by Friday',
					buttons: {
						button: [
							{ type: 'reply', text: 'Yes', id: 'yes' },
							{ type: 'reply', text: 'No', id: 'no' },
						],
					},
					headerImageSource: 'url',
					headerImageUrl: 'https://cdn.example.com/trail.jpg',
				},
			},
			{
				label: 'with a URL, a call and a copy button',
				parameters: {
					buttons: {
						button: [
							{ type: 'url', text: 'Map', url: 'https://maps.example.com/trail' },
							{ type: 'call', text: 'Call us', phoneNumber: '+55 11 98765-0000' },
							{ type: 'copy', text: 'Discount', copyCode: 'HIKE10' },
						],
					},
				},
			},
			{
				label: 'reply buttons mixed with other kinds',
				parameters: {
					buttons: {
						button: [
							{ type: 'reply', text: 'Yes', id: 'yes' },
							{ type: 'url', text: 'Map', url: 'https://maps.example.com/trail' },
						],
					},
				},
				refusedOn: ['evolutionV2'],
			},
		],
	),
	op(
		'message.sendContact',
		{
			chatId: byId(alice.number),
			contacts: { contact: [{ fullName: 'Acme', phoneNumber: bakery.number }] },
		},
		[
			{
				label: 'two cards with every field',
				parameters: {
					contacts: {
						contact: [
							{
								fullName: 'Acme Bakery',
								phoneNumber: bakery.number,
								organization: 'Acme',
								email: 'hello@acme.example',
								url: 'https://acme.example',
							},
							{ fullName: 'Bruno', phoneNumber: bruno.number },
						],
					},
				},
			},
		],
	),
	op(
		'message.sendLinkPreview',
		{
			chatId: byId(alice.chatId),
			text: 'Our new menu: https://acme.example.com/menu',
			previewUrl: 'https://acme.example.com/menu',
			previewTitle: 'Menu',
			previewDescription: 'Spring menu',
		},
		[
			{
				label: 'with a preview image URL',
				parameters: {
					previewImageSource: 'url',
					previewImageUrl: 'https://cdn.example.com/menu.png',
				},
				// Shape B fetches the image and sends it inline, like the binary variant.
				only: 'chatIdSession',
			},
			{
				label: 'with a binary preview image',
				parameters: { previewImageSource: 'binary', previewImageBinaryProperty: 'data' },
				items: [PNG_ITEM],
			},
			{
				label: 'replying, with a high-quality preview',
				parameters: { options: { replyTo: aliceText.id, highQuality: true } },
				only: 'chatIdSession',
			},
		],
	),
	op(
		'message.sendList',
		{
			chatId: byId(alice.number),
			title: 'Our menu',
			description: 'Pick a dish.',
			buttonText: 'See the Menu',
			rows: { row: [{ title: 'Feijoada' }] },
		},
		[
			{
				label: 'with a footer, sections, descriptions, IDs and a reply',
				parameters: {
					footerText: 'Acme Kitchen',
					rows: {
						row: [
							{ section: 'Mains', title: 'Feijoada', description: 'With rice', rowId: 'f1' },
							{ section: 'Drinks', title: 'Water', rowId: 'w1' },
						],
					},
					options: { replyTo: aliceText.id, delay: 1000, presence: 'composing' },
				},
			},
		],
	),
	op(
		'message.sendLocation',
		{ chatId: byId(alice.number), latitude: -23.5505, longitude: -46.6333 },
		[
			{
				label: 'with name, address, delay and presence',
				parameters: {
					name: 'Office',
					address: 'Av. Paulista, 1000',
					options: { delay: 1200, presence: 'composing' },
				},
			},
		],
	),
	op(
		'message.sendMedia',
		{ chatId: byId(alice.number), ...fromUrl('logo.png'), caption: 'Our logo' },
		[
			{ label: 'an image from a binary file', parameters: FROM_BINARY, items: [PNG_ITEM] },
			{
				label: 'a document from a URL with a file name and a reply',
				parameters: {
					mediaSource: 'url',
					mediaUrl: 'https://cdn.example.com/menu.pdf',
					mediaType: 'document',
					options: { fileName: 'Menu.pdf', replyTo: aliceText.id },
				},
			},
			{
				label: 'a PDF as base64 without a name',
				parameters: {
					mediaSource: 'base64',
					mediaBase64: Buffer.from('%PDF-1.4').toString('base64'),
					options: { mimeType: 'application/pdf' },
					caption: '',
				},
			},
		],
	),
	op(
		'message.sendPoll',
		{
			chatId: byId(hikers.id),
			question: 'Where do we hike?',
			pollOptions: ['North Ridge', 'South Valley'],
		},
		[
			{ label: 'with multiple answers', parameters: { multipleAnswers: true } },
			{
				label: 'replying to a message',
				parameters: { options: { replyTo: hikersQuestion.id } },
				only: 'chatIdSession',
			},
		],
	),
	op('message.sendSticker', { chatId: byId(alice.number), ...fromUrl('cat.png') }, [
		{ label: 'from a binary image', parameters: FROM_BINARY, items: [PNG_ITEM] },
	]),
	op('message.sendText', { chatId: byId(alice.number), text: 'Your order is ready.' }, [
		{
			label: 'with every option, in a group',
			parameters: {
				chatId: byId(hikers.id),
				options: {
					delay: 1500,
					presence: 'composing',
					linkPreview: false,
					replyTo: hikersQuestion.id,
					mentionEveryone: true,
					mentionNumbers: `${alice.number}, ${bruno.number}`,
				},
			},
		},
	]),
	op('profile.deletePicture', {}),
	op('profile.get', {}),
	op('profile.setPicture', { pictureSource: 'url', pictureUrl: 'https://cdn.example.com/me.png' }, [
		BINARY_PICTURE,
	]),
	op('session.connect', { session: fromList(SEED.instances.pairing.name) }),
	op('session.getConnectionState', {}),
	op('session.getMany', {}),
	op('session.logout', { session: fromList(SEED.instances.pairing.name) }),
	op(
		'session.requestPairingCode',
		{ session: fromList(SEED.instances.pairing.name), phoneNumber: '+55 11 98765-0099' },
		[],
		{
			// v2 makes a pairing code only when a closed session starts connecting.
			evolutionV2: async (gateway) => {
				await gatewayClient(gateway).delete(`/instance/logout/${SEED.instances.pairing.name}`);
				return {};
			},
		},
	),
	op('session.restart', {}),
	op('session.setPresence', { presence: 'available' }, [
		{ label: 'set to unavailable', parameters: { presence: 'unavailable' } },
	]),
	op('status.delete', { statusId: '3EB0C767D26A1D3BB2F1' }, [
		{
			label: 'posted to chosen contacts',
			parameters: { audience: 'chosenContacts', contacts: alice.number },
		},
	]),
	op('status.post', { statusType: 'text', text: 'Open on Sunday from 9 to 13!' }, [
		{
			label: 'an image from a URL with a caption, to chosen contacts',
			parameters: {
				statusType: 'image',
				...fromUrl('offer.jpg'),
				caption: 'This week only',
				audience: 'chosenContacts',
				contacts: `${alice.number}, ${bruno.number}`,
			},
		},
		{ label: 'a video from a URL', parameters: { statusType: 'video', ...fromUrl('tour.mp4') } },
		{
			label: 'a voice note from a URL',
			parameters: { statusType: 'voice', ...fromUrl('hello.ogg'), backgroundColor: '#112233' },
		},
		{
			label: 'an image from a binary file',
			parameters: { statusType: 'image', ...FROM_BINARY },
			items: [PNG_ITEM],
			onlyOn: ['waha'],
		},
	]),
	op('webhook.get', {}),
	op('webhook.set', { url: 'https://hooks.example.com/acme', events: ['MESSAGES_UPSERT'] }, [
		{ label: 'turned off', parameters: { enabled: false } },
		{
			label: 'every option on',
			refusedOn: ['waha'],
			parameters: {
				events: ['MESSAGES_UPSERT', 'QRCODE_UPDATED'],
				webhookByEvents: true,
				webhookBase64: true,
			},
		},
	]),
];

interface Run {
	operation: string;
	variant?: string;
	style: RequestBodyStyle;
	requests: Array<SentRequest & { auth: string; headers: Record<string, string> }>;
	/** The node's error, when the run failed. */
	error?: { name?: string; message: string; httpCode?: string };
}

/** The name the credential shows for a Request Body Style. */
function styleChoice(style: RequestBodyStyle): string {
	const property = CREDENTIAL.properties.find((candidate) => candidate.name === 'requestBodyStyle');
	const option = (property?.options as INodePropertyOptions[] | undefined)?.find(
		(candidate) => candidate.value === style,
	);
	return option?.name ?? style;
}

/** How a user makes the credential send the key in `header`, as its options say. */
function keyHeaderSetting(header: string): string {
	const property = CREDENTIAL.properties.find((candidate) =>
		candidate.options?.some((option) => 'value' in option && option.value === header),
	);
	return property
		? `set the credential's *${property.displayName}* to \`${header}\``
		: `the credential needs an option that sends the key in \`${header}\``;
}

const simulator = useSimulator();
/** A simulator that reads the key from WAHA's header instead of the spec's. */
const wahaKeySimulator = useSimulator({ apiKeyHeader: 'x-api-key' });
const runs: Run[] = [];
/**
 * The gateways a credential names besides the Messaging Gateway API, each a column of the table:
 * the simulator playing it (its routes, its validation and its answers), and its own validation.
 */
const GATEWAY_COLUMNS: Record<
	OtherGateway,
	{ simulator: Simulator; check(request: SentRequest): Verdict; operations: GatewayOperations }
> = {
	evolutionV2: {
		simulator: useSimulator({ gateway: 'evolution-v2' }),
		check: checkEvolutionV2,
		operations: evolutionV2Operations,
	},
	waha: {
		simulator: useSimulator({ gateway: 'waha' }),
		check: checkWaha,
		operations: wahaOperations,
	},
};
const OTHER_GATEWAYS = Object.keys(GATEWAY_COLUMNS) as OtherGateway[];
/** Every case again with the credential's Gateway set to each of them (they have no body styles). */
const gatewayRuns: Array<
	Omit<Run, 'style'> & { gateway: OtherGateway; key: string; refusedByDesign: boolean }
> = [];
/** The WAHA-family operations run again with the credential's API Key Header set to X-Api-Key. */
const wahaKeyRuns: Array<{ operation: string; auth: string[] }> = [];

/**
 * The spec's gateway took the request when the node's run succeeded on its answer; an operation
 * it has no route for must have been refused before any request, saying so.
 */
function specVerdict(run: Run): Verdict {
	if (run.requests.length === 0) {
		return run.error?.message.includes('is not available on the Messaging Gateway API')
			? { outcome: 'absent', reason: `not offered: ${firstSentence(run.error.message)}` }
			: {
					outcome: 'rejected',
					endpoint: '(none)',
					reasons: [`no request reached the gateway: ${run.error?.message ?? 'no error'}`],
				};
	}
	const endpoint = `${run.requests[0].method} ${run.requests[0].path}`;
	if (!run.error) return { outcome: 'accepted', endpoint };
	const status = run.error.httpCode ? `HTTP ${run.error.httpCode}` : (run.error.name ?? 'error');
	const message = run.error.message.replace(/^Gateway error \d+: /, '').split(/(?<=\.) /)[0];
	return { outcome: 'rejected', endpoint, reasons: [`${status}: ${message}`] };
}

const firstSentence = (text: string) => text.split(/(?<=\.) /)[0];

/**
 * A gateway took the operation when the node, set to it, ran without error against its simulator
 * and each of its requests passes the gateway's own routes and validation; an operation it does not
 * offer, or a variant it has no such thing for, must have been refused before any request, with the
 * reason the node gives.
 */
function gatewayVerdict(run: (typeof gatewayRuns)[number]): Verdict {
	const { check, operations } = GATEWAY_COLUMNS[run.gateway];
	const notOffered = operations.notOffered[run.key];
	const refusedBeforeSending = run.requests.length === 0 && run.error !== undefined;
	if (notOffered !== undefined) {
		const said = run.error?.message.includes(`is not available on ${GATEWAY_LABELS[run.gateway]}`);
		return refusedBeforeSending && said
			? { outcome: 'absent', reason: `not offered: ${notOffered}` }
			: {
					outcome: 'rejected',
					endpoint: '(none)',
					reasons: [`expected a refusal before any request, got ${run.error?.message ?? 'none'}`],
				};
	}
	if (run.refusedByDesign) {
		return {
			outcome: 'rejected',
			endpoint: '(none)',
			reasons: [
				refusedBeforeSending
					? `refused before sending: ${firstSentence(run.error!.message)}`
					: 'expected a refusal before any request',
			],
		};
	}
	// Files the answers point at (media, pictures) are downloads, not API requests: not judged.
	const verdicts = run.requests
		.filter((request) => !request.path.startsWith('/api/files/'))
		.map((request) => check(request));
	const reasons = verdicts.flatMap(verdictReasons);
	if (run.requests.length === 0) reasons.push('no request reached the gateway');
	if (run.error) reasons.push(firstSentence(run.error.message));
	const endpoints = [
		...new Set(
			verdicts.flatMap((verdict) => (verdict.outcome === 'absent' ? [] : [verdict.endpoint])),
		),
	];
	const endpoint = endpoints.join(' + ') || '(none)';
	return reasons.length > 0
		? { outcome: 'rejected', endpoint, reasons }
		: { outcome: 'accepted', endpoint };
}

function caseResult(run: Run): CaseResult {
	const [request] = run.requests;
	return {
		variant: run.variant,
		style: run.style,
		verdicts: {
			spec: specVerdict(run),
			evolution: request
				? checkEvolution(request)
				: { outcome: 'absent', reason: 'no such endpoint' },
		},
	};
}

function gatewayCaseResult(run: (typeof gatewayRuns)[number]): CaseResult {
	return {
		variant: run.variant,
		style: 'chatIdSession',
		verdicts: { [run.gateway]: gatewayVerdict(run) },
	};
}

/** The spec's route of an operation, as the product it comes from names it (else as sent). */
function specEndpoint(operation: string): string {
	const [request] = runs.find((run) => run.operation === operation && !run.variant)!.requests;
	if (!request) return 'none on the spec gateway';
	for (const verdict of [checkEvolution(request), checkWaha(request)]) {
		if (verdict.outcome !== 'absent') return verdict.endpoint;
	}
	return `${request.method} ${request.path}`;
}

/** Runs one case from the seed (Leave and Restart change the state) and returns what reached the gateway. */
async function runCase(
	gateway: typeof simulator,
	operationCase: OperationCase,
	variant: Omit<Variant, 'label'>,
	options: {
		requestBodyStyle: RequestBodyStyle;
		keyHeader?: 'X-Api-Key';
		gateway?: OtherGateway;
	},
) {
	gateway.reset();
	const prepared = options.gateway
		? await operationCase.prepare?.[options.gateway]?.(gateway)
		: undefined;
	const preparing = gateway.requests.length;
	const result = await runGateway(
		gateway,
		{
			resource: operationCase.resource,
			operation: operationCase.name,
			session: fromList(SESSION),
			...operationCase.parameters,
			...variant.parameters,
			...prepared,
		},
		{ ...options, items: variant.items, typeVersion: NODE.defaultVersion },
	);
	const requests = gateway.requests
		.slice(preparing)
		.map(({ method, path, query, body, auth, headers }) => ({
			method,
			path,
			query,
			body,
			auth,
			headers,
		}));
	return { requests, error: result.error };
}

beforeAll(async () => {
	for (const requestBodyStyle of STYLES) {
		for (const operationCase of OPERATIONS) {
			for (const variant of [{ parameters: {} }, ...operationCase.variants] as Variant[]) {
				if (variant.only && variant.only !== requestBodyStyle) continue;
				if (variant.onlyOn) continue;
				const sent = await runCase(simulator, operationCase, variant, { requestBodyStyle });
				runs.push({
					operation: operationCase.operation,
					variant: variant.label,
					style: requestBodyStyle,
					...sent,
				});
			}
		}
	}
	for (const gateway of OTHER_GATEWAYS) {
		for (const operationCase of OPERATIONS) {
			for (const variant of [{ parameters: {} }, ...operationCase.variants] as Variant[]) {
				if (variant.onlyOn && !variant.onlyOn.includes(gateway)) continue;
				const sent = await runCase(GATEWAY_COLUMNS[gateway].simulator, operationCase, variant, {
					requestBodyStyle: 'chatIdSession',
					gateway,
				});
				gatewayRuns.push({
					gateway,
					key: `${operationCase.resource}.${operationCase.name}`,
					operation: operationCase.operation,
					variant: variant.label,
					refusedByDesign: variant.refusedOn?.includes(gateway) ?? false,
					...sent,
				});
			}
		}
	}
	for (const operationCase of OPERATIONS) {
		const run = runs.find((candidate) => candidate.operation === operationCase.operation)!;
		if (run.requests.length === 0 || checkWaha(run.requests[0]).outcome === 'absent') continue;
		const sent = await runCase(
			wahaKeySimulator,
			operationCase,
			{ parameters: {} },
			{ requestBodyStyle: 'chatIdSession', keyHeader: 'X-Api-Key' },
		);
		wahaKeyRuns.push({
			operation: operationCase.operation,
			auth: sent.requests.map((request) => request.auth),
		});
	}
	// Every operation on every gateway, each variant: about 25 s on an idle machine, more on a busy one.
}, 300_000);

describe('the requests of every operation', () => {
	it('covers every operation of the node once, in its order', () => {
		const keys = OPERATIONS.map((operation) => `${operation.resource}.${operation.name}`);
		expect(keys).toEqual([...NODE_OPERATIONS.keys()]);
	});

	it('reached the gateway as exactly one API request each, with the key in the apikey header', () => {
		const reached = runs
			.filter((run) => !SPEC_NOT_OFFERED.has(keyOf(run.operation)))
			.map((run) => ({
				case: `${run.operation} ${run.variant ?? ''} (${run.style})`,
				auth: run.requests.map((request) => request.auth),
			}));
		expect(reached).toEqual(reached.map((entry) => ({ ...entry, auth: ['valid'] })));
		// An operation the spec's gateway has no route for reaches it not at all, refused as above.
		const refused = runs.filter((run) => SPEC_NOT_OFFERED.has(keyOf(run.operation)));
		expect(refused.map((run) => specVerdict(run).outcome)).toEqual(refused.map(() => 'absent'));
	});

	it('carry the key in X-Api-Key, where WAHA reads it, when the credential says so', () => {
		expect(wahaKeyRuns.length).toBeGreaterThan(0);
		expect(wahaKeyRuns).toEqual(wahaKeyRuns.map((run) => ({ ...run, auth: ['valid'] })));
	});

	it.each(OTHER_GATEWAYS)(
		'with the Gateway %s, carry the key where that gateway reads it',
		(gateway) => {
			const reached = gatewayRuns
				.filter((run) => run.gateway === gateway)
				.map((run) => ({
					case: `${run.operation} ${run.variant ?? ''}`,
					unauthenticated: run.requests.filter((request) => request.auth !== 'valid').length,
				}));
			expect(reached.length).toBeGreaterThan(0);
			expect(reached).toEqual(reached.map((entry) => ({ ...entry, unauthenticated: 0 })));
		},
	);

	it.each(OTHER_GATEWAYS)(
		'with the Gateway %s, each operation passes that gateway and its simulator, or is refused before any request as it has no such thing',
		(gateway) => {
			const failing = gatewayRuns
				.filter((run) => run.gateway === gateway)
				.map((run) => ({
					case: `${run.operation} ${run.variant ?? ''}`,
					verdict: gatewayVerdict(run),
				}))
				.filter(
					({ verdict }) =>
						verdict.outcome === 'rejected' &&
						!verdict.reasons.every((reason) => reason.startsWith('refused before sending: ')),
				);
			expect(failing).toEqual([]);
		},
	);

	it('each go to exactly one of the two products the spec merges', () => {
		const inBothOrNeither = runs
			.filter((run) => run.requests.length > 0)
			.map(({ requests: [request] }) => ({
				request: `${request.method} ${request.path}`,
				inEvolution: checkEvolution(request).outcome !== 'absent',
				inWaha: checkWaha(request).outcome !== 'absent',
			}))
			.filter((owner) => owner.inEvolution === owner.inWaha);
		expect(inBothOrNeither).toEqual([]);
	});

	it('are in docs/compatibility.md as the compatibility table', () => {
		const rows: OperationResult[] = OPERATIONS.map((operationCase) => ({
			operation: operationCase.operation,
			endpoint: specEndpoint(operationCase.operation),
			results: [
				...runs.filter((run) => run.operation === operationCase.operation).map(caseResult),
				...gatewayRuns
					.filter((run) => run.operation === operationCase.operation)
					.map(gatewayCaseResult),
			],
		}));
		const wahaKeyHeader = Object.values(WAHA.components.securitySchemes)
			.map((scheme) => scheme.name)
			.join(', ');
		const sentKeyHeaders = [
			...new Set(
				runs.flatMap((run) =>
					run.requests.flatMap((request) => [
						...(request.auth === 'valid' ? ['apikey'] : []),
						...Object.keys(request.headers).filter((name) => name === 'x-api-key'),
					]),
				),
			),
		];
		const variants = OPERATIONS.filter((operation) => operation.variants.length > 0).map(
			(operation) =>
				`*${operation.operation}* ${operation.variants
					.map(
						(variant) =>
							variant.label +
							(variant.only ? ` (${SHAPE_OF[variant.only]} only)` : '') +
							(variant.onlyOn
								? ` (${variant.onlyOn.map((gateway) => GATEWAY_LABELS[gateway]).join(', ')} only)`
								: ''),
					)
					.join(', ')}`,
		);
		const text = [
			renderTable(rows),
			'',
			`Measured by \`test/compatibility/requests.test.ts\` (\`npm run docs:compatibility\` rewrites this section): each operation ran in n8n's engine against the gateway simulator, once per Request Body Style of the credential, with its usual fields and with the variants below (${runs.filter((run) => run.requests.length > 0).length} requests), and again with the credential's Gateway set to each other gateway, against the simulator playing that gateway (${gatewayRuns.length} runs). Each request, as the gateway received it (method, path, query, body), was judged:`,
			'',
			'- **Spec gateway**: the gateway simulator, which implements the spec this package is written for, answered 2xx.',
			`- **Evolution API v1.8.2**: the route exists in its routers (tag ${EVOLUTION.source.tag}, commit ${EVOLUTION.source.commit.slice(0, 7)}) and the body passes the \`jsonschema\` validation its router runs before the controller (\`RouterBroker.dataValidate\`, and \`groupValidate\`, which takes \`groupJid\` from the query). Checks its controllers make later (that the webhook URL is a URL, that a number is on WhatsApp) are not part of it.`,
			`- **Evolution API v2.3.6**: with the credential's Gateway set to *Evolution API v2*, the node ran against the simulator's Evolution 2.3.6 dialect without error, and every request it sent exists in 2.3.6's routers (tag ${EVOLUTION_V2.source.tag}, commit ${EVOLUTION_V2.source.commit.slice(0, 7)}) and passes the same \`jsonschema\` validation with 2.3.6's schemas.`,
			`- **WAHA 2026**: with the credential's Gateway set to *WAHA*, the node ran against the simulator's WAHA mode without error, and every request it sent exists in WAHA's published OpenAPI document (version ${WAHA.info.version}) with its required path and query parameters, and its query values and JSON body are valid for its schemas (ajv). WAHA's own validation can be more lenient than its published schemas.`,
			'- In the columns of a Gateway choice (Evolution API v2.3.6, WAHA 2026): a route after the ✓ is where that gateway takes the operation; "— (not offered: …)": it has no such thing, and the node refuses it before any request with the reason shown; "✗ <variant> (refused before sending: …)": the same for one variant.',
			`- "✓": every request passed in both body styles; "✓ shape A": only with the Request Body Style *${styleChoice('chatIdSession')}*, "✓ shape B": only with *${styleChoice('jidSessionId')}* (*Detect Automatically* settles on one of the two per gateway); "✗ with …": a variant that failed; "— (no such endpoint)": the product has no route with that method and path (the spec merges the two products, so each operation exists in one of them only).`,
			`- Authentication: each simulator answered 401 to a request without the key where its gateway reads it, so every run of a Gateway choice carried it there (Evolution API: \`apikey\`; WAHA: \`${wahaKeyHeader}\`). With the Messaging Gateway API, requests carry it in \`${sentKeyHeaders.join('`, `')}\` by default; for another gateway that reads \`${wahaKeyHeader}\`, ${keyHeaderSetting(wahaKeyHeader)}: so set, the ${wahaKeyRuns.length} session-family operations were run again against a simulator reading the key from there, and each carried it there.`,
			`- Variants: ${variants.join('; ')}.`,
			'- Files fetched after an answer (media, profile pictures) go to URLs the gateway gives and are not checked. The schemas and where they come from: `test/compatibility/schemas/`.',
		].join('\n');
		expectReadmeSection('compatibility:operations', text);
	});
});

// Known-bad requests: each checker must be able to say no, with the product's own reason; and yes
// to the well-formed request the bad ones are made from.
describe('the checkers', () => {
	const SEND_TEXT = `/message/sendText/${SESSION}`;
	const TEXT_BODY = { number: alice.number, textMessage: { text: 'Hi' } };
	const POLL = { name: 'Coming?', options: ['Yes', 'No'], multipleAnswers: false };
	const POLL_BODY = { session: SESSION, chatId: alice.chatId, poll: POLL };
	const BUTTONS_BODY = {
		session: SESSION,
		chatId: alice.chatId,
		header: '',
		body: 'Hi',
		footer: '',
	};
	const CHECKERS = { Evolution: checkEvolution, WAHA: checkWaha };
	const request = (method: string, path: string, body?: unknown, query = {}): SentRequest => ({
		method,
		path,
		query,
		body,
	});
	/** The reasons of a rejection, or why the route is absent. */
	const saysWhy = (verdict: Verdict) =>
		verdict.outcome === 'rejected'
			? verdict.reasons
			: verdict.outcome === 'absent'
				? [verdict.reason]
				: [];

	it.each<[keyof typeof CHECKERS, string, SentRequest, Verdict['outcome'], string]>([
		['Evolution', 'a well-formed text', request('POST', SEND_TEXT, TEXT_BODY), 'accepted', ''],
		[
			'Evolution',
			'a text without number',
			request('POST', SEND_TEXT, { textMessage: { text: 'Hi' } }),
			'rejected',
			'instance requires property "number"',
		],
		[
			'Evolution',
			'an empty text',
			request('POST', SEND_TEXT, { ...TEXT_BODY, textMessage: { text: '' } }),
			'rejected',
			'The "text" cannot be empty',
		],
		[
			'Evolution',
			'a number that is not a string',
			request('POST', SEND_TEXT, { ...TEXT_BODY, number: 5511987650001 }),
			'rejected',
			'Invalid format',
		],
		[
			'Evolution',
			'a delay that is not whole',
			request('POST', SEND_TEXT, { ...TEXT_BODY, options: { delay: 1.5 } }),
			'rejected',
			'Enter a value in milliseconds',
		],
		[
			'Evolution',
			'a group lookup without groupJid',
			request('GET', `/group/findGroupInfos/${SESSION}`),
			'rejected',
			'The group id needs to be informed in the query',
		],
		[
			'Evolution',
			'an invite to a short number',
			request('POST', `/group/sendInvite/${SESSION}`, {
				groupJid: hikers.id,
				description: 'Join',
				numbers: ['12345'],
			}),
			'rejected',
			'"numbers" must be an array of numeric strings',
		],
		[
			'Evolution',
			'an unknown webhook event',
			request('POST', `/webhook/set/${SESSION}`, {
				url: 'https://h.example.com',
				events: ['MESSAGE_RECEIVED'],
			}),
			'rejected',
			'events[0] is not one of enum values',
		],
		[
			'Evolution',
			'a presence outside the enum',
			request('POST', `/instance/setPresence/${SESSION}`, { presence: 'busy' }),
			'rejected',
			'presence is not one of enum values',
		],
		[
			'Evolution',
			'a GET on a POST route',
			request('GET', SEND_TEXT),
			'absent',
			'no GET route, only POST',
		],
		[
			'Evolution',
			'a path of the session family',
			request('POST', '/api/sendText', TEXT_BODY),
			'absent',
			'no such endpoint',
		],
		['WAHA', 'a well-formed poll', request('POST', '/api/sendPoll', POLL_BODY), 'accepted', ''],
		[
			'WAHA',
			'a poll in shape B',
			request('POST', '/api/sendPoll', { sessionId: SESSION, jid: alice.jid, poll: POLL }),
			'rejected',
			'body lacks chatId, session',
		],
		[
			'WAHA',
			'multipleAnswers that is not a boolean',
			request('POST', '/api/sendPoll', { ...POLL_BODY, poll: { ...POLL, multipleAnswers: 'yes' } }),
			'rejected',
			'body.poll.multipleAnswers must be boolean',
		],
		[
			'WAHA',
			'a button of an unknown type',
			request('POST', '/api/sendButtons', {
				...BUTTONS_BODY,
				buttons: [{ type: 'link', text: 'Go' }],
			}),
			'rejected',
			'body.buttons.0.type must be equal to one of the allowed values',
		],
		[
			'WAHA',
			'a channel picture without a MIME type',
			request('POST', `/api/${SESSION}/channels`, {
				name: 'News',
				picture: { url: 'https://cdn.example.com/a.png' },
			}),
			'rejected',
			'body.picture lacks mimetype',
		],
		[
			'WAHA',
			'a contact lookup without contactId',
			request('GET', '/api/contacts', undefined, { session: SESSION }),
			'rejected',
			'query lacks contactId',
		],
		[
			'WAHA',
			'a chat list with a limit that is not a number',
			request('GET', `/api/${SESSION}/chats/overview`, undefined, { limit: 'ten' }),
			'rejected',
			'query.limit must be number',
		],
		[
			'WAHA',
			'a reaction without a body',
			request('PUT', '/api/reaction'),
			'rejected',
			'no JSON body',
		],
		[
			'WAHA',
			'a GET on a PUT route',
			request('GET', '/api/reaction'),
			'absent',
			'no GET route, only PUT',
		],
		[
			'WAHA',
			'a path of the instance family',
			request('POST', SEND_TEXT, TEXT_BODY),
			'absent',
			'no such endpoint',
		],
	])('%s: %s', (product, _name, sent, outcome, reason) => {
		const verdict = CHECKERS[product](sent);
		expect(verdict.outcome).toBe(outcome);
		expect(saysWhy(verdict)).toEqual(
			reason === '' ? [] : expect.arrayContaining([expect.stringContaining(reason)]),
		);
	});
});
