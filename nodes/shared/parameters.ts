import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * What a node run keeps of its parameters (keyed by its context, so nothing outlives the run or
 * crosses to another node). n8n copies and checks a value on every read, and n8n 2.x evaluates
 * each expression in an isolated VM: per item, in a run of thousands, that is most of a node's own
 * time. Keyed by the parameter's name alone (a name is an interned string: no key is built per read).
 */
interface RunParameters {
	/** How a parameter is saved: the saved value is the run's own, the same for every item. */
	saved: Map<string, SavedShape>;
	/** Values of parameters without an expression, the same for every item: as read, and extracted. */
	fixed: Map<string, unknown>;
	fixedExtracted: Map<string, unknown>;
	/** Values read ahead for Simultaneous Chats' lanes, by parameter and item, for the operation's own read. */
	readAhead: Map<string, Map<number, unknown>>;
}

interface SavedShape {
	/** Whether it holds an expression (else its value is the same for every item). */
	expression: boolean;
	/** A resource locator (`{__rl, mode, value}`) as the editor saves it. */
	locator: boolean;
	/** A whole expression, which may produce anything, a locator too. */
	wholeExpression: boolean;
}

const parametersByRun = new WeakMap<IExecuteFunctions, RunParameters>();

function runParameters(context: IExecuteFunctions): RunParameters {
	let run = parametersByRun.get(context);
	if (!run) {
		run = { saved: new Map(), fixed: new Map(), fixedExtracted: new Map(), readAhead: new Map() };
		parametersByRun.set(context, run);
	}
	return run;
}

function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (typeof value === 'object' && value !== null)
		return Object.values(value).some(holdsExpression);
	return false;
}

function savedShape(
	this: IExecuteFunctions,
	run: RunParameters,
	name: string,
	itemIndex: number,
	fallbackValue: unknown,
): SavedShape {
	let shape = run.saved.get(name);
	if (shape) return shape;
	const saved = this.getNodeParameter(name, itemIndex, fallbackValue, { rawExpressions: true });
	shape = {
		expression: holdsExpression(saved),
		locator: typeof saved === 'object' && saved !== null && '__rl' in saved,
		wholeExpression: typeof saved === 'string' && saved.startsWith('='),
	};
	run.saved.set(name, shape);
	return shape;
}

/**
 * A parameter's value for an item (resource locators as their value, unless `extractValue` is
 * false, as for collections and their fields). One whose saved value holds no expression is the
 * same for every item, so it is read once per run; one with an expression is evaluated for each
 * item. The value is shared between items: callers only read it. A read that fails is not kept,
 * so each item meets and reports the error.
 */
export function itemParameter(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallbackValue?: unknown,
	extractValue = true,
): unknown {
	const run = runParameters(this);
	const shape = savedShape.call(this, run, name, itemIndex, fallbackValue);
	if (shape.expression)
		return readValue.call(this, name, itemIndex, fallbackValue, extractValue, shape);
	const fixed = extractValue ? run.fixedExtracted : run.fixed;
	if (fixed.has(name)) return fixed.get(name);
	const value = readValue.call(this, name, itemIndex, fallbackValue, extractValue, shape);
	fixed.set(name, value);
	return value;
}

/**
 * One read through n8n. Its schema check and its extraction each look the parameter up among the
 * node's properties (hundreds, by name and then by display options) on every read. For these
 * nodes neither changes a value (no property declares a `validateType`, an `extractValue` or a
 * filter; test/node/parameter-reads.test.ts holds the descriptions to that): a saved locator's
 * value is its `value`, as n8n takes it, and only a whole expression, which may produce a
 * locator, goes through n8n's own extraction.
 */
function readValue(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallbackValue: unknown,
	extractValue: boolean,
	shape: SavedShape,
): unknown {
	if (extractValue && shape.wholeExpression) {
		return this.getNodeParameter(name, itemIndex, fallbackValue, {
			extractValue: true,
			skipValidation: true,
		});
	}
	const value = this.getNodeParameter(name, itemIndex, fallbackValue, { skipValidation: true });
	if (!extractValue || !shape.locator) return value;
	// n8n's own test for a locator's value: an object with a mode and a value.
	return typeof value === 'object' && value !== null && 'mode' in value && 'value' in value
		? value.value
		: value;
}

type ReadAheadName = 'chatId' | 'groupId' | 'messageId';

/**
 * A parameter's value for an item, read while Simultaneous Chats plans its lanes and kept for the
 * operation's own read of the item (see rememberedParameter), so it is evaluated once.
 */
export function readAheadParameter(
	this: IExecuteFunctions,
	name: ReadAheadName,
	itemIndex: number,
	fallbackValue?: unknown,
): unknown {
	const value = itemParameter.call(this, name, itemIndex, fallbackValue);
	if (value === fallbackValue) return value;
	const { readAhead } = runParameters(this);
	let byItem = readAhead.get(name);
	if (!byItem) {
		byItem = new Map();
		readAhead.set(name, byItem);
	}
	byItem.set(itemIndex, value);
	return value;
}

/**
 * A parameter's value for an item (resource locators as their value): the value read ahead for
 * Simultaneous Chats' lanes when there is one, else read now.
 */
export function rememberedParameter(
	this: IExecuteFunctions,
	name: ReadAheadName,
	itemIndex: number,
	fallbackValue?: unknown,
): unknown {
	const byItem = runParameters(this).readAhead.get(name);
	if (byItem?.has(itemIndex)) return byItem.get(itemIndex);
	return itemParameter.call(this, name, itemIndex, fallbackValue);
}
