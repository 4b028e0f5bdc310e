/**
 * The fields of the label events (WhatsApp Business), the same on every gateway: Evolution API's
 * `labels.association` `{type: add|remove, chatId, labelId}` and `labels.edit` (the label, with
 * `deleted`), WAHA's `label.chat.added` / `label.chat.deleted` `{labelId, chatId, label}` and
 * `label.upsert` / `label.deleted` (the label).
 */
import type { IDataObject } from 'n8n-workflow';

import { chatIdOf } from '../../shared/identifiers';
import { asObject, isNonEmptyText, labelColorNumber } from '../../shared/values';

const idText = (value: unknown): string | null =>
	isNonEmptyText(value) ? value : typeof value === 'number' ? String(value) : null;

/** *Chat Label Added or Removed*: which label, which chat, and whether it was added or removed. */
export function chatLabelFields(
	labelId: unknown,
	chatId: unknown,
	action: 'added' | 'removed',
	label?: unknown,
): IDataObject {
	const name = asObject(label)?.name;
	return {
		labelId: idText(labelId),
		labelName: isNonEmptyText(name) ? name : null,
		chatId: typeof chatId === 'string' ? (chatIdOf(chatId) ?? chatId) : null,
		action,
	};
}

/** *Label Edited*: the label as it is now, or that it was deleted. */
export function editedLabelFields(label: IDataObject, deleted: boolean): IDataObject {
	return {
		labelId: idText(label.id),
		name: typeof label.name === 'string' ? label.name : null,
		color: labelColorNumber(label.color),
		deleted,
	};
}
