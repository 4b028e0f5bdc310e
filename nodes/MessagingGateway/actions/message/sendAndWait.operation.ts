import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ChatReference } from '../../../shared/identifiers';
import { sendButtonsMessage, sendToChat } from '../../helpers/instance-send';
import type { ButtonsSender } from '../../helpers/instance-send';
import { fieldError, optionFrom, readRequiredText } from '../../helpers/fields';
import { readChat } from '../../helpers/message';
import { readSession, showOnlyFor } from '../common/descriptions';
import { sendAndWaitFields } from './sendAndWait.fields';
import { answersOf, waitTillOf } from './sendAndWait.request';
import type { ResponseType } from './sendAndWait.request';

export const description = showOnlyFor('message', 'sendAndWait', sendAndWaitFields);

/** How a gateway sends the question with its links as text, without a link preview. */
export type LinksTextSender = (
	this: IExecuteFunctions,
	session: string,
	chat: ChatReference,
	text: string,
	itemIndex: number,
) => Promise<unknown>;

/** The instance-family sendText (`/message/sendText/<session>`), as the Messaging Gateway API and Evolution API take it. */
async function sendLinksText(
	this: IExecuteFunctions,
	session: string,
	chat: ChatReference,
	text: string,
	itemIndex: number,
): Promise<unknown> {
	// No preview: a preview fetcher opening an approve link must not answer for the person.
	return await sendToChat.call(
		this,
		itemIndex,
		session,
		'sendText',
		chat,
		{ linkPreview: false },
		{ textMessage: { text } },
	);
}

/**
 * Sends the question with its signed links (URL buttons through `sendButtons`, text through
 * `sendText`, each the gateway's way) and puts the execution to wait for the answer.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	sendButtons: ButtonsSender = sendButtonsMessage,
	sendText: LinksTextSender = sendLinksText,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	const message = readRequiredText.call(this, 'message', 'Message', itemIndex, {
		keepSpaces: true,
		hint: 'Enter the question to ask.',
	});
	const responseType = optionFrom.call(
		this,
		this.getNodeParameter('responseType', itemIndex, 'approval'),
		'Response Type',
		itemIndex,
		['approval', 'freeText'],
	);
	const delivery = optionFrom.call(
		this,
		this.getNodeParameter('delivery', itemIndex, 'text'),
		'Deliver Links As',
		itemIndex,
		['text', 'buttons'],
	);
	const waitTill = waitTillOf.call(this, itemIndex);
	// An execution waits for one answer: more items would each need an execution of their own.
	const count = this.getInputData().length;
	if (count > 1) {
		throw fieldError.call(
			this,
			itemIndex,
			`Send and Wait for Response waits for one answer per execution, and got ${count} items: nothing was sent`,
			'Ask each person in an execution of their own: put the node in a sub-workflow (Execute Workflow, one item each) or after a trigger that starts one execution per message.',
		);
	}
	const answers = answersOf.call(this, itemIndex, responseType as ResponseType);

	if (delivery === 'buttons') {
		await sendButtons.call(
			this,
			{
				session,
				chat,
				header: '',
				body: message,
				footer: '',
				buttons: answers.map(({ label, url }) => ({ type: 'url', text: label, url })),
			},
			itemIndex,
		);
	} else {
		const text = [message, '', ...answers.map(({ label, url }) => `${label}: ${url}`)].join('\n');
		await sendText.call(this, session, chat, text, itemIndex);
	}
	await this.putExecutionToWait(waitTill);
	// An answer replaces this output (see `webhook`). When the limit passes, n8n resumes with this
	// node disabled, so the input item goes on unchanged whatever is returned here.
	return [this.getInputData()[itemIndex]];
}
