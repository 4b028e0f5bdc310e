import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Parameter values kept for the rest of a node run (keyed by its context, so nothing outlives the
 * run or crosses to another node). n8n copies and checks a value on every read, and n8n 2.x
 * evaluates each expression in an isolated VM (about a millisecond): per item, in a run of
 * thousands, that is most of a node's own time.
 */
const valuesByRun = new WeakMap<IExecuteFunctions, Map<string, unknown>>();

function runValues(context: IExecuteFunctions): Map<string, unknown> {
	let values = valuesByRun.get(context);
	if (!values) {
		values = new Map();
		valuesByRun.set(context, values);
	}
	return values;
}

function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (typeof value === 'object' && value !== null)
		return Object.values(value).some(holdsExpression);
	return false;
}

/**
 * A parameter's value for an item (resource locators as their value, unless `extractValue` is
 * false, as for collections and their fields). One whose saved value holds
 * no expression is the same for every item, so it is read once per run; one with an expression is
 * evaluated for each item. The value is shared between items: callers only read it. A read that
 * fails is not kept, so each item meets and reports the error.
 */
export function itemParameter(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallbackValue?: unknown,
	extractValue = true,
): unknown {
	const saved = this.getNodeParameter(name, itemIndex, fallbackValue, { rawExpressions: true });
	if (holdsExpression(saved)) {
		return this.getNodeParameter(name, itemIndex, fallbackValue, { extractValue });
	}
	const values = runValues(this);
	const key = `fixed\n${name}\n${extractValue}`;
	if (values.has(key)) return values.get(key);
	const value = this.getNodeParameter(name, itemIndex, fallbackValue, { extractValue });
	values.set(key, value);
	return value;
}

/**
 * A parameter's value for an item (resource locators as their value), evaluated once per item and
 * run: Simultaneous Chats reads each item's chat to plan its lanes before the operation reads it
 * again, and the second read takes the first one's value.
 */
export function rememberedParameter(
	this: IExecuteFunctions,
	name: 'chatId' | 'groupId' | 'messageId',
	itemIndex: number,
	fallbackValue?: unknown,
): unknown {
	const values = runValues(this);
	const key = `item ${itemIndex}\n${name}`;
	if (values.has(key)) return values.get(key);
	const value = itemParameter.call(this, name, itemIndex, fallbackValue);
	if (value !== fallbackValue) values.set(key, value);
	return value;
}
