import type { IDataObject } from 'n8n-workflow';

/**
 * A value from a gateway as text, or undefined when it is none. Never `String()` on objects a
 * gateway sent: a body such as `{"toString": 1}` makes that throw.
 */
export function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return undefined;
}

/** The text of a WhatsApp message's content (Baileys' `message`): its text, caption, place, card or question. */
export function messageText(message: IDataObject | undefined): string {
	if (!message) return '';
	if (typeof message.conversation === 'string') return message.conversation;
	for (const [type, content] of Object.entries(message)) {
		if (!content || typeof content !== 'object') continue;
		const part = content as IDataObject;
		if (type === 'extendedTextMessage' && typeof part.text === 'string') return part.text;
		if (typeof part.caption === 'string') return part.caption;
		if (type === 'locationMessage') {
			return [textOf(part.name), textOf(part.address)].filter(Boolean).join(', ');
		}
		if (type === 'contactMessage' && typeof part.displayName === 'string') return part.displayName;
		if (type === 'pollCreationMessage' && typeof part.name === 'string') return part.name;
	}
	return '';
}
