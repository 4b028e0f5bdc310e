import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNumber } from '../../../shared/identifiers';
import { showOnlyFor } from '../common/descriptions';
import { checkNumbers } from '../../helpers/numbers';
import { instanceRequest, sentMessageOutput } from '../../helpers/instance-send';
import { sendTextFields } from './sendText.fields';
import { readSendText } from './sendText.request';
import type { SendTextRequest } from './sendText.request';
import { sendTextInParts } from './sendText.parts';

// WAHA's Send Text takes these from here: it reads and splits the text as this one does.
export { readSendText, sendTextInParts };
export type { SendTextRequest };

export const description = showOnlyFor('message', 'sendText', sendTextFields);

/**
 * The number a text goes to: the chat's, or with Check the Number First the JID the network
 * knows it by (e.g. a Brazilian number with or without its 9th digit); a number that is not on
 * the network fails the item before anything is sent.
 */
export async function recipientOf(
	this: IExecuteFunctions,
	request: SendTextRequest,
	itemIndex: number,
): Promise<string> {
	const number = toNumber(request.chat);
	// Some gateways answer 201 for numbers that are not on the network, and nothing arrives.
	if (!request.checkFirst || request.chat.kind !== 'contact') return number;
	const [check] = await checkNumbers.call(this, request.session, [number], itemIndex);
	if (!check.exists) throw notOnNetwork.call(this, number, itemIndex);
	return check.jid ?? number;
}

/** Check the Number First found no account for `number`: the item fails before anything is sent. */
export function notOnNetwork(
	this: IExecuteFunctions,
	number: string,
	itemIndex: number,
): NodeOperationError {
	return new NodeOperationError(
		this.getNode(),
		`Number ${number} is not on the network: nothing was sent`,
		{
			itemIndex,
			description:
				'The gateway says no account uses this number. Check the country code and the area code, or turn off Check the Number First to send anyway.',
		},
	);
}

/**
 * POSTs a text's body to `/message/sendText/<session>` (the route of both Evolution API versions and
 * the spec) and outputs the gateway's answer with the full message ID, so React, Edit or Delete
 * can follow.
 */
export async function postText(
	this: IExecuteFunctions,
	request: SendTextRequest,
	body: IDataObject,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await instanceRequest.call(
		this,
		{ method: 'POST', route: 'message/sendText', body },
		request.session,
		itemIndex,
	);
	return [{ json: sentMessageOutput.call(this, response, request.chat, itemIndex) }];
}

/** Send Text on the Messaging Gateway API: Evolution API v1's body (`textMessage`, `options`). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = readSendText.call(this, itemIndex);
	const number = await recipientOf.call(this, request, itemIndex);
	return await sendTextInParts.call(this, request, itemIndex, async (part) => {
		const sendOptions: IDataObject = {};
		if (part.delay !== undefined) sendOptions.delay = part.delay;
		if (part.presence !== undefined) sendOptions.presence = part.presence;
		if (part.linkPreview !== undefined) sendOptions.linkPreview = part.linkPreview;
		if (part.quoted) sendOptions.quoted = { key: part.quoted };
		const mentions: IDataObject = {};
		if (part.mentionEveryone) mentions.everyOne = true;
		if (part.mentioned.length > 0) mentions.mentioned = part.mentioned;
		if (Object.keys(mentions).length > 0) sendOptions.mentions = mentions;
		const body: IDataObject = { number };
		if (Object.keys(sendOptions).length > 0) body.options = sendOptions;
		body.textMessage = { text: part.text };
		const [output] = await postText.call(this, part, body, itemIndex);
		return output.json;
	});
}
