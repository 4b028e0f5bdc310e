/**
 * What the Label operations share: the Label picker, a label as an item, the labels of a session
 * as Evolution API (v1 and v2 alike) lists them, and the chat-label change every gateway is asked.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ChatReference } from '../../../shared/identifiers';
import { toChatId, toNumber } from '../../../shared/identifiers';
import { listItem, matchesFilter } from '../../../shared/lists';
import { itemParameter } from '../../../shared/parameters';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { asObject, labelColorNumber } from '../../../shared/values';
import { fieldError, textFrom } from '../../helpers/fields';
import { instanceRequest } from '../../helpers/instance-send';
import { readChat, responseObject } from '../../helpers/message';
import {
	labelLocator,
	readSession,
	sendTargetField,
	sessionFields,
	showOnlyFor,
} from '../common/descriptions';

/** A label as the operations output it: the gateway's fields, its colour as WhatsApp's number (0 to 19). */
export function labelItem(label: IDataObject): IDataObject {
	return { ...label, id: String(label.id), color: labelColorNumber(label.color) };
}

/** The answer of a label list: records that each have an ID, or the answer is not one. */
export function labelRecords(answer: unknown): IDataObject[] | undefined {
	if (!Array.isArray(answer)) return undefined;
	const records = answer.map((entry) => asObject(entry));
	return records.every(
		(record) =>
			record !== undefined && (typeof record.id === 'string' || typeof record.id === 'number'),
	)
		? (records as IDataObject[])
		: undefined;
}

/** The Label picker's list from a gateway's label list (every label at once), by name and ID. */
export function labelPickerList(answer: unknown, filter?: string): INodeListSearchResult {
	const results = (labelRecords(answer) ?? [])
		.filter((label) => matchesFilter(filter, label.name, label.id))
		.map((label) => listItem(label.name, String(label.id)));
	return { results };
}

/** Evolution API's labels of a session (`GET /label/findLabels/{instance}`, v1 and v2 alike): the answer as it came. */
export async function evolutionLabels(
	this: IExecuteFunctions | ILoadOptionsFunctions,
	session: string,
	itemIndex?: number,
): Promise<unknown> {
	return await gatewayApiRequest.call(this, 'GET', gatewayPath`/label/findLabels/${session}`, {
		itemIndex,
		read: true,
	});
}

/** The Label ID chosen in the picker or typed, checked before any request. */
export function readLabelId(this: IExecuteFunctions, itemIndex: number): string {
	const raw = itemParameter.call(this, 'labelId', itemIndex, '');
	const labelId = textFrom.call(this, raw, 'Label', itemIndex).trim();
	if (!/^[\w:-]+$/.test(labelId)) {
		throw fieldError.call(
			this,
			itemIndex,
			`Label must be a label's ID, e.g. 3 (got "${labelId}")`,
			'Pick the label from the list, or map the ID field of Label → Get Many.',
		);
	}
	return labelId;
}

/** What Add to Chat and Remove From Chat ask, checked; each gateway does it its own way. */
export interface ChatLabelChange {
	session: string;
	chat: ChatReference;
	labelId: string;
	action: 'add' | 'remove';
}

export function readChatLabelChange(
	this: IExecuteFunctions,
	itemIndex: number,
	action: 'add' | 'remove',
): ChatLabelChange {
	return {
		session: readSession.call(this, itemIndex),
		chat: readChat.call(this, itemIndex),
		labelId: readLabelId.call(this, itemIndex),
		action,
	};
}

/** What Add to Chat and Remove From Chat output: the gateway's answer, with the chat, label and action. */
export function chatLabelOutput(
	this: IExecuteFunctions,
	change: ChatLabelChange,
	answer: unknown,
	itemIndex: number,
): INodeExecutionData[] {
	return [
		{
			json: {
				...responseObject.call(this, answer, itemIndex),
				chatId: toChatId(change.chat),
				labelId: change.labelId,
				action: change.action === 'add' ? 'added' : 'removed',
			},
		},
	];
}

/**
 * A chat's label added or removed through Evolution API's `/label/handleLabel/<session>`
 * `{number, labelId, action}` (v1 PUT; v2 POST, as its requests say).
 */
export async function changeChatLabel(
	this: IExecuteFunctions,
	change: ChatLabelChange,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const answer = await instanceRequest.call(
		this,
		{
			method: 'PUT',
			route: 'label/handleLabel',
			body: { number: toNumber(change.chat), labelId: change.labelId, action: change.action },
		},
		change.session,
		itemIndex,
	);
	return chatLabelOutput.call(this, change, answer, itemIndex);
}

/** A gateway's way of adding a label to a chat or removing it. */
type ChatLabelChanger = (
	this: IExecuteFunctions,
	change: ChatLabelChange,
	itemIndex: number,
) => Promise<INodeExecutionData[]>;

/** Add to Chat or Remove From Chat as `changer` performs it: the item's change read, then made. */
export function chatLabelRun(action: 'add' | 'remove', changer: ChatLabelChanger) {
	return async function (this: IExecuteFunctions, itemIndex: number) {
		return await changer.call(this, readChatLabelChange.call(this, itemIndex, action), itemIndex);
	};
}

/** Add to Chat or Remove From Chat: its fields, and its run on the Messaging Gateway API. */
export function chatLabelOperation(
	operation: 'addToChat' | 'removeFromChat',
	action: 'add' | 'remove',
	purpose: string,
): {
	description: INodeProperties[];
	execute: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;
} {
	return {
		description: showOnlyFor('label', operation, [
			...sessionFields,
			sendTargetField(purpose),
			labelLocator,
		]),
		execute: chatLabelRun(action, changeChatLabel),
	};
}

/**
 * An operation the Messaging Gateway API, like Evolution API v1 whose routes it takes, has no
 * route for (WAHA has): the error every item fails with, before any request.
 */
export function notOnTheMessagingGatewayApi(
	this: IExecuteFunctions,
	operation: string,
	what: string,
	itemIndex: number,
): NodeOperationError {
	return new NodeOperationError(
		this.getNode(),
		`${operation} is not available on the Messaging Gateway API: it ${what}`,
		{
			itemIndex,
			description:
				"WAHA has it: pick that Gateway in the credential if your server is WAHA. On Evolution API, manage labels in the WhatsApp Business app; the trigger's label events tell each change.",
		},
	);
}
