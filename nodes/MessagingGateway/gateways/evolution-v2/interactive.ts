/**
 * Buttons, send-and-wait and link previews on Evolution API v2 (2.3.6). Each reads what the user
 * asked with its operation file's code; what differs is v2's route, body and rules.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import * as sendAndWaitOperation from '../../actions/message/sendAndWait.operation';
import * as sendButtonsOperation from '../../actions/message/sendButtons.operation';
import * as sendLinkPreviewOperation from '../../actions/message/sendLinkPreview.operation';
import { fieldError } from '../../helpers/fields';
import type { ButtonsMessage } from '../../helpers/instance-send';
import { readQuoted, sendToChat, sentMessageOutput } from '../../helpers/instance-send';
import { toNumber } from '../../../shared/identifiers';
import { isBlank } from '../../../shared/values';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import type { GatewayOperation } from '../../../shared/gateways';

/** 2.3.6's buttonMessage sends at most this many reply buttons. */
const MAX_REPLY_BUTTONS = 3;

/**
 * 2.3.6's buttonMessage refuses reply buttons mixed with others, and more than three of them:
 * refused here before any request, saying what to do instead.
 */
function checkButtonsForV2(
	this: IExecuteFunctions,
	buttons: IDataObject[],
	itemIndex: number,
): void {
	const replies = buttons.filter((button) => button.type === 'reply').length;
	if (replies > 0 && replies < buttons.length) {
		throw fieldError.call(
			this,
			itemIndex,
			`Buttons cannot mix reply buttons with call, copy or URL buttons on Evolution API v2 (got ${replies} reply and ${buttons.length - replies} other)`,
			'Evolution API v2 sends reply buttons only on their own: send the call, copy and URL buttons in a message of their own.',
		);
	}
	if (replies > MAX_REPLY_BUTTONS) {
		throw fieldError.call(
			this,
			itemIndex,
			`Buttons must have at most ${MAX_REPLY_BUTTONS} reply buttons on Evolution API v2 (got ${replies})`,
			'Evolution API v2 sends at most 3 reply buttons in one message.',
		);
	}
}

/**
 * A button as 2.3.6's buttonMessage reads it: the label is `displayText`. A reply needs an `id`
 * (its label when none is given, so a tap still says which), and a call an international number
 * (WhatsApp dials it as written).
 */
function buttonForV2(button: IDataObject): IDataObject {
	const { type, text, ...action } = button;
	const v2Button: IDataObject = { type, displayText: text, ...action };
	if (type === 'reply' && v2Button.id === undefined) v2Button.id = text;
	if (type === 'call') v2Button.phoneNumber = `+${String(action.phoneNumber)}`;
	return v2Button;
}

/**
 * `POST /message/sendButtons/{instance}` `{number, title, description?, footer?, thumbnailUrl?,
 * buttons}`; the answer with the full message ID. v2 shows the title in bold with the description
 * under it: the header is the title and the body its description, or without a header the body
 * is the title.
 */
async function sendButtonsOnV2(
	this: IExecuteFunctions,
	message: ButtonsMessage,
	itemIndex: number,
): Promise<IDataObject> {
	checkButtonsForV2.call(this, message.buttons, itemIndex);
	const hasHeader = !isBlank(message.header);
	const body: IDataObject = {
		number: toNumber(message.chat),
		title: hasHeader ? message.header : message.body,
	};
	if (hasHeader) body.description = message.body;
	if (!isBlank(message.footer)) body.footer = message.footer;
	if (message.headerImage) body.thumbnailUrl = message.headerImage.url;
	body.buttons = message.buttons.map(buttonForV2);
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/message/sendButtons/${message.session}`,
		{ body, itemIndex },
	);
	return sentMessageOutput.call(this, response, message.chat, itemIndex);
}

/**
 * 2.3.6 (Baileys) builds the preview of the first https link of the text, from the page itself:
 * an http Preview URL, or another https link before it, would get no preview or another one.
 */
function checkPreviewUrlForV2(
	this: IExecuteFunctions,
	request: sendLinkPreviewOperation.SendLinkPreviewRequest,
	itemIndex: number,
): void {
	if (!request.url.startsWith('https://')) {
		throw fieldError.call(
			this,
			itemIndex,
			`Preview URL must be an https address on Evolution API v2 (got "${request.url}")`,
			'Evolution API v2 previews https links only: give the https address of the page.',
		);
	}
	const [first] = sendLinkPreviewOperation
		.linksIn(request.text)
		.filter((link) => link.startsWith('https://'));
	if (first !== request.url) {
		throw fieldError.call(
			this,
			itemIndex,
			`Text must have the Preview URL as its first https link on Evolution API v2 (the first is ${first})`,
			'Evolution API v2 previews the first https link of the text: put the Preview URL before the other links.',
		);
	}
}

/**
 * `POST /message/sendText/{instance}` `{number, text, linkPreview: true, quoted?}`: 2.3.6 has no
 * custom preview, so the custom parts the user gave (checked as on every gateway, the image never
 * fetched) are listed in `previewFieldsNotSent` instead of being dropped without a word.
 */
async function sendLinkPreview(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = sendLinkPreviewOperation.readSendLinkPreview.call(this, itemIndex);
	const image = sendLinkPreviewOperation.readPreviewImageSource.call(this, itemIndex);
	const highQuality = sendLinkPreviewOperation.readHighQuality.call(
		this,
		request.options,
		itemIndex,
	);
	checkPreviewUrlForV2.call(this, request, itemIndex);
	const sendOptions: IDataObject = { linkPreview: true };
	const quoted = readQuoted.call(this, itemIndex, request.options);
	if (quoted) sendOptions.quoted = quoted;
	const notSent = Object.entries({
		'Preview Title': !isBlank(request.title),
		'Preview Description': !isBlank(request.description),
		'Preview Image': image !== undefined,
		'High Quality Preview': highQuality !== undefined,
	})
		.filter(([, given]) => given)
		.map(([field]) => field);
	const [sent] = await sendToChat.call(
		this,
		itemIndex,
		request.session,
		'sendText',
		request.chat,
		sendOptions,
		{ textMessage: { text: request.text } },
	);
	return [{ json: { ...sent.json, previewFieldsNotSent: notSent } }];
}

export const evolutionV2InteractiveSends: Record<string, GatewayOperation> = {
	'message.sendButtons': async function (this: IExecuteFunctions, itemIndex: number) {
		return await sendButtonsOperation.execute.call(this, itemIndex, sendButtonsOnV2);
	},
	// The text variant goes through sendToChat, which speaks v2's sendText by itself.
	'message.sendAndWait': async function (this: IExecuteFunctions, itemIndex: number) {
		return await sendAndWaitOperation.execute.call(this, itemIndex, sendButtonsOnV2);
	},
	'message.sendLinkPreview': sendLinkPreview,
};
