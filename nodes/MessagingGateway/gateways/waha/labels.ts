/**
 * Labels (WhatsApp Business) on WAHA: `GET /api/{session}/labels`, a chat's labels at
 * `/api/{session}/labels/chats/{chatId}` (a PUT there replaces the whole set, so one label is added
 * or removed by reading the set first), and `GET /api/{session}/labels/{labelId}/chats`.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import * as createOperation from '../../actions/label/create.operation';
import * as deleteOperation from '../../actions/label/delete.operation';
import * as getChatsOperation from '../../actions/label/getChats.operation';
import { labelsOutput } from '../../actions/label/getMany.operation';
import type { ChatLabelChange } from '../../actions/label/labels';
import { chatLabelOutput, chatLabelRun, labelRecords } from '../../actions/label/labels';
import { responseObject } from '../../helpers/message';
import { unexpectedAnswer } from '../../helpers/responses';
import { readSession } from '../../actions/common/descriptions';
import type { GatewayOperation } from '../../../shared/gateways';
import { chatIdOf, toChatId } from '../../../shared/identifiers';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { asObject } from '../../../shared/values';

/** The session's labels, as WAHA answered. */
export async function wahaLabels(
	this: IExecuteFunctions | ILoadOptionsFunctions,
	session: string,
	itemIndex?: number,
): Promise<unknown> {
	return await gatewayApiRequest.call(this, 'GET', gatewayPath`/api/${session}/labels`, {
		itemIndex,
	});
}

async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	return labelsOutput.call(this, await wahaLabels.call(this, session, itemIndex), itemIndex);
}

/**
 * One label added to or removed from a chat: its labels read, then the whole set put back with
 * or without it (nothing is put when it is already so). Another change between the two requests
 * would be overwritten: WAHA offers no single add or remove.
 */
async function changeChatLabel(
	this: IExecuteFunctions,
	change: ChatLabelChange,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const path = gatewayPath`/api/${change.session}/labels/chats/${toChatId(change.chat)}`;
	const current = await gatewayApiRequest.call(this, 'GET', path, { itemIndex });
	const labels = labelRecords(current);
	if (!labels) {
		throw unexpectedAnswer.call(this, current, itemIndex, "a list of the chat's labels");
	}
	const ids = labels.map((label) => String(label.id));
	const has = ids.includes(change.labelId);
	const wanted =
		change.action === 'add'
			? has
				? ids
				: [...ids, change.labelId]
			: ids.filter((id) => id !== change.labelId);
	const changed = wanted.length !== ids.length;
	if (changed) {
		await gatewayApiRequest.call(this, 'PUT', path, {
			body: { labels: wanted.map((id) => ({ id })) },
			itemIndex,
		});
	}
	return chatLabelOutput.call(this, change, { labels: wanted, changed }, itemIndex);
}

async function getChats(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { session, labelId } = getChatsOperation.readGetChats.call(this, itemIndex);
	const answer = await gatewayApiRequest.call(
		this,
		'GET',
		gatewayPath`/api/${session}/labels/${labelId}/chats`,
		{ itemIndex },
	);
	// Each engine answers its own chat shape; every one names the chat by `id`.
	const chats = Array.isArray(answer) ? answer.map((chat) => asObject(chat)) : undefined;
	if (!chats || chats.some((chat) => typeof chat?.id !== 'string' && !asObject(chat?.id))) {
		throw unexpectedAnswer.call(this, answer, itemIndex, 'a list of chats, each with an "id"');
	}
	return (chats as IDataObject[]).map((chat) => {
		const id = typeof chat.id === 'string' ? chat.id : String(asObject(chat.id)?._serialized ?? '');
		return { json: { ...chat, chatId: chatIdOf(id) ?? id, labelId } };
	});
}

/** `POST /api/{session}/labels` `{name, color}`: WAHA answers the new label, with its ID. */
async function create(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { session, name, color } = createOperation.readCreateLabel.call(this, itemIndex);
	const answer = await gatewayApiRequest.call(this, 'POST', gatewayPath`/api/${session}/labels`, {
		body: { name, color },
		itemIndex,
	});
	return labelsOutput.call(this, [answer], itemIndex);
}

/** `DELETE /api/{session}/labels/{labelId}`: WAHA takes it off every chat too. */
async function deleteLabel(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, labelId } = deleteOperation.readDeleteLabel.call(this, itemIndex);
	const answer = await gatewayApiRequest.call(
		this,
		'DELETE',
		gatewayPath`/api/${session}/labels/${labelId}`,
		{ itemIndex },
	);
	return [{ json: { ...responseObject.call(this, answer, itemIndex), labelId, deleted: true } }];
}

export const wahaLabelOperations: Record<string, GatewayOperation> = {
	'label.create': create,
	'label.delete': deleteLabel,
	'label.getMany': getMany,
	'label.addToChat': chatLabelRun('add', changeChatLabel),
	'label.removeFromChat': chatLabelRun('remove', changeChatLabel),
	'label.getChats': getChats,
};
