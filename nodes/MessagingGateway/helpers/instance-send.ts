import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { ChatReference, FullMessageId } from '../../shared/identifiers';
import { parseFullMessageId, toChatId, toNumber } from '../../shared/identifiers';
import type { InstanceRequest } from '../../shared/gateways';
import { evolutionV2Request } from '../../shared/gateways/evolution-v2/requests';
import { fitLidsToVersion } from '../../shared/gateways/evolution-v2/versions';
import type { GatewayName } from '../../shared/transport';
import { gatewayApiRequest, gatewayPath, selectedGateway } from '../../shared/transport';
import { textFrom } from './fields';
import { chatIdToJid, delayAndPresence, fullIdFromKey, responseObject } from './message';

/** Quoting a message in an instance-family send (`options.quoted`). */
export const replyToOption: INodeProperties = {
	displayName: 'Reply To Message ID',
	name: 'replyTo',
	type: 'string',
	default: '',
	placeholder: 'e.g. false_5511999999999@c.us_3EB0C767D26A1D3BB2F1',
	description:
		'Full ID of the message to quote and reply to, as the trigger, Get or a send operation output it (field ID or Message ID)',
};

/** `options.quoted` from the Reply To Message ID option, or undefined when it is empty. */
export function readQuoted(
	this: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): IDataObject | undefined {
	const replyTo = textFrom.call(this, options.replyTo, 'Reply To Message ID', itemIndex).trim();
	if (replyTo === '') return undefined;
	const quoted = parseFullMessageId.call(this, replyTo, 'Reply To Message ID', itemIndex);
	return { key: messageKey(quoted) };
}

/** The `options` of an instance-family send: delay, presence and the quoted message. */
export function readSendOptions(
	this: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): IDataObject {
	const sendOptions = delayAndPresence.call(this, itemIndex, options);
	const quoted = readQuoted.call(this, itemIndex, options);
	if (quoted) sendOptions.quoted = quoted;
	return sendOptions;
}

/**
 * How each gateway other than the Messaging Gateway API takes an instance-family request, and
 * how it fits it to what the server can do (what its version cannot do with a LID).
 */
const INSTANCE_REQUESTS: Partial<
	Record<
		GatewayName,
		{
			translate: (request: InstanceRequest) => InstanceRequest;
			fit: (
				this: IExecuteFunctions,
				request: InstanceRequest,
				session: string,
				itemIndex: number,
			) => Promise<InstanceRequest>;
		}
	>
> = { evolutionV2: { translate: evolutionV2Request, fit: fitLidsToVersion } };

/**
 * Sends a request to an instance-family route (`/<family>/<action>/<session>`) as the
 * credential's gateway takes it, and returns its answer.
 */
export async function instanceRequest(
	this: IExecuteFunctions,
	request: InstanceRequest,
	session: string,
	itemIndex: number,
): Promise<unknown> {
	const gateway = INSTANCE_REQUESTS[await selectedGateway.call(this)];
	const sent = gateway
		? await gateway.fit.call(this, gateway.translate(request), session, itemIndex)
		: request;
	const [family, action] = sent.route.split('/');
	return await gatewayApiRequest.call(
		this,
		sent.method,
		gatewayPath`/${family}/${action}/${session}`,
		{ body: sent.body, qs: sent.qs, itemIndex, read: sent.read },
	);
}

/**
 * POSTs `/message/<endpoint>/<session>` with `{number, options?, ...content}` and outputs the
 * gateway's answer with the full message ID, so React, Edit or Delete can follow.
 */
export async function sendToChat(
	this: IExecuteFunctions,
	itemIndex: number,
	session: string,
	endpoint: string,
	chat: ChatReference,
	sendOptions: IDataObject,
	content: IDataObject,
): Promise<INodeExecutionData[]> {
	const specBody: IDataObject = { number: toNumber(chat) };
	if (Object.keys(sendOptions).length > 0) specBody.options = sendOptions;
	Object.assign(specBody, content);
	const response = await instanceRequest.call(
		this,
		{ method: 'POST', route: `message/${endpoint}`, body: specBody },
		session,
		itemIndex,
	);
	return [{ json: sentMessageOutput.call(this, response, chat, itemIndex) }];
}

/**
 * A send's answer (`{key: {remoteJid, fromMe, id}, …}`) as an object with the full message ID of
 * its key, so React, Edit or Delete can follow; anything but an object (or nothing) fails.
 */
export function sentMessageOutput(
	this: IExecuteFunctions,
	response: unknown,
	chat: ChatReference,
	itemIndex: number,
): IDataObject {
	const json = responseObject.call(this, response, itemIndex);
	const messageId = fullIdFromKey(response, toChatId(chat));
	return messageId ? { ...json, messageId } : json;
}

/** The Baileys key (`{id, remoteJid, fromMe}`) of a full message ID, as /chat/* bodies take it. */
export function messageKey(messageId: FullMessageId): IDataObject {
	return { id: messageId.id, remoteJid: chatIdToJid(messageId.chatId), fromMe: messageId.fromMe };
}

/** A full message ID field (trigger, Get and send operations output it). */
export function fullMessageIdField(description: string): INodeProperties {
	return {
		displayName: 'Message ID',
		name: 'messageId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. false_5511999999999@c.us_3EB0C767D26A1D3BB2F1',
		description: `${description}: its full ID, as the trigger, Get or a send operation output it (field ID or Message ID)`,
	};
}

export function readFullMessageId(this: IExecuteFunctions, itemIndex: number): FullMessageId {
	return parseFullMessageId.call(
		this,
		this.getNodeParameter('messageId', itemIndex, ''),
		'Message ID',
		itemIndex,
	);
}

/** A message with buttons, as Send Buttons and Send and Wait for Response ask for it. */
export interface ButtonsMessage {
	session: string;
	chat: ChatReference;
	header: string;
	body: string;
	footer: string;
	/** `{type, text, id? | phoneNumber? | copyCode? | url?}` each, checked by Send Buttons' rules. */
	buttons: IDataObject[];
	/** `{mimetype, url, filename?}`: a URL only. */
	headerImage?: IDataObject;
}

/** How a gateway sends a message with buttons; its answer as an object. */
export type ButtonsSender = (
	this: IExecuteFunctions,
	message: ButtonsMessage,
	itemIndex: number,
) => Promise<IDataObject>;

/**
 * POSTs /api/sendButtons, which the spec gives one body shape (chatId + session) whatever the
 * credential says, and returns the gateway's answer as an object.
 */
export async function sendButtonsMessage(
	this: IExecuteFunctions,
	message: ButtonsMessage,
	itemIndex: number,
): Promise<IDataObject> {
	const { session, chat, header, body: text, footer, buttons, headerImage } = message;
	const body: IDataObject = {
		session,
		chatId: toChatId(chat),
		header,
		body: text,
		footer,
		buttons,
	};
	if (headerImage) body.headerImage = headerImage;
	const response = await gatewayApiRequest.call(this, 'POST', '/api/sendButtons', {
		body,
		itemIndex,
	});
	return responseObject.call(this, response, itemIndex);
}
