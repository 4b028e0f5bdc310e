/**
 * Split Into Messages: one Send Text sent as several messages, one after another, and a failed
 * part's error saying which parts went out. Shared by every gateway's send.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isBlank } from '../../../shared/values';
import { fieldError } from '../../helpers/message';
import { splitText, typingTimeOf } from '../../helpers/text-parts';
import type { SendTextRequest } from './sendText.request';

/**
 * The requests of one Send Text: the request itself when Split Into Messages is Off, else one per
 * part, in order, each with its typing time as Delay (Ms) and "composing" as presence (or Delay
 * (Ms) as set, with Typing Before Each Part off). The reply goes with the first part, Mention
 * Everyone too; a mentioned number with the parts that write `@<number>`, the first when none does.
 */
export function textPartRequests(request: SendTextRequest): SendTextRequest[] {
	const { split } = request;
	if (!split) return [request];
	// Parts of only invisible characters (a zero-width space) are not sent either.
	const texts = splitText(request.text, split.mode, split.maxLength).filter(
		(text) => !isBlank(text),
	);
	const unplaced = request.mentioned.filter(
		(number) => !texts.some((text) => text.includes(`@${number}`)),
	);
	return texts.map((text, index) => {
		const part: SendTextRequest = {
			...request,
			text,
			quoted: index === 0 ? request.quoted : undefined,
			mentionEveryone: index === 0 && request.mentionEveryone,
			mentioned: [
				...(index === 0 ? unplaced : []),
				...request.mentioned.filter((number) => text.includes(`@${number}`)),
			],
		};
		if (!part.quoted) delete part.quoted;
		if (split.typing) {
			part.delay = typingTimeOf(text, split.typing);
			part.presence = 'composing';
		}
		return part;
	});
}

/** `1–2` or `3`: a range of part numbers as the error names them. */
function partRange(first: number, last: number): string {
	return first === last ? `${first}` : `${first}–${last}`;
}

/**
 * A part that failed, with which parts went out (their message IDs) and which did not, in the
 * error's message and description, where "On Error: Continue" items carry them too. The error
 * keeps its class and the gateway's words.
 */
function partFailure(
	this: IExecuteFunctions,
	caught: unknown,
	sent: IDataObject[],
	total: number,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	const error =
		caught instanceof NodeApiError || caught instanceof NodeOperationError
			? caught
			: new NodeOperationError(this.getNode(), caught as Error, { itemIndex });
	const failed = sent.length + 1;
	const outcome =
		sent.length === 0
			? `nothing was sent`
			: `part${sent.length > 1 ? 's' : ''} ${partRange(1, sent.length)} sent, ${partRange(failed, total)} not`;
	error.message = `${error.message} (part ${failed} of ${total} failed: ${outcome})`;
	const sentList = sent
		.map((part, index) => `part ${index + 1}: ${String(part.messageId ?? 'no message ID')}`)
		.join(', ');
	const summary =
		sent.length === 0
			? `None of the ${total} parts was sent.`
			: `Sent: ${sentList}. Not sent: part${failed < total ? 's' : ''} ${partRange(failed, total)} of ${total}.`;
	error.description = error.description ? `${summary} ${error.description}` : summary;
	return error;
}

/**
 * Sends Send Text's request, or with Split Into Messages its parts one after another with
 * `sendOne` (the gateway's own send, which shows the typing); outputs the last part's answer with
 * `parts: [{text, messageId}]`. A failed part stops the rest and says which parts went out.
 */
export async function sendTextInParts(
	this: IExecuteFunctions,
	request: SendTextRequest,
	itemIndex: number,
	sendOne: (part: SendTextRequest, index: number) => Promise<IDataObject>,
): Promise<INodeExecutionData[]> {
	if (!request.split) return [{ json: await sendOne(request, 0) }];
	const parts = textPartRequests(request);
	if (parts.length === 0) {
		throw fieldError.call(this, itemIndex, 'Text has nothing to send once split into messages');
	}
	const sent: IDataObject[] = [];
	let last: IDataObject = {};
	for (const [index, part] of parts.entries()) {
		try {
			last = await sendOne(part, index);
		} catch (caught) {
			throw partFailure.call(this, caught, sent, parts.length, itemIndex);
		}
		sent.push({ text: part.text, messageId: last.messageId });
	}
	return [{ json: { ...last, parts: sent } }];
}
