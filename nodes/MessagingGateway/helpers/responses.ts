import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { describeValue, isObject } from '../../shared/values';

/** A 2xx answer that is not what the operation returns (`expected`), as an error with what came instead. */
export function unexpectedAnswer(
	this: IExecuteFunctions,
	response: unknown,
	itemIndex: number,
	expected = 'an object',
): NodeApiError {
	const got = describeValue(response);
	return new NodeApiError(this.getNode(), { message: 'unexpected answer' } as JsonObject, {
		message: `Gateway error: the answer is not ${expected} (got ${got.length > 200 ? `${got.slice(0, 199)}…` : got})`,
		description:
			'The gateway answered with success but not with what this operation returns. Check that the Base URL points at the gateway and that its version matches.',
		itemIndex,
	});
}

/** The gateway's answer, which must be an object. */
export function expectObject(
	this: IExecuteFunctions,
	response: unknown,
	itemIndex: number,
): IDataObject {
	if (isObject<IDataObject>(response)) return response;
	throw unexpectedAnswer.call(this, response, itemIndex);
}

/**
 * The gateway's answer when it is an object, else `fallback` when it answered nothing (or just
 * `true`): some gateways answer an operation that way, and an item should still say what was done.
 * Anything else (a list, a text, `false`) is not an answer to this operation and fails.
 */
export function responseOr(
	this: IExecuteFunctions,
	response: unknown,
	fallback: IDataObject,
	itemIndex: number,
): IDataObject {
	if (response === undefined || response === null || response === true) return fallback;
	return expectObject.call(this, response, itemIndex);
}

/**
 * A list of records in the gateway's answer: the answer itself (`key` undefined) or its field
 * `key` (a dotted path such as `messages.records` for a nested one). Anything else (an object
 * where a list belongs, a list of texts) is not an answer to a list operation: it fails instead of
 * becoming no items or items that are not objects.
 */
export function expectList(
	this: IExecuteFunctions,
	response: unknown,
	key: string | undefined,
	itemIndex: number,
): IDataObject[] {
	const list =
		key === undefined
			? response
			: key
					.split('.')
					.reduce<unknown>(
						(value, field) => (isObject<IDataObject>(value) ? value[field] : undefined),
						response,
					);
	if (Array.isArray(list) && list.every((entry) => isObject<IDataObject>(entry))) {
		return list as IDataObject[];
	}
	const expected = key === undefined ? 'a list of records' : `an object with a list "${key}"`;
	throw unexpectedAnswer.call(this, response, itemIndex, expected);
}

/**
 * A 2xx answer that lacks the one thing the operation is for (`what`, e.g. "pairing code"): an
 * error with what came instead and `hint`, not an item without it.
 */
export function missingFromAnswer(
	this: IExecuteFunctions,
	answer: IDataObject,
	what: string,
	hint: string,
	itemIndex: number,
): NodeApiError {
	return new NodeApiError(this.getNode(), answer as JsonObject, {
		message: `Gateway error: the answer has no ${what} (got ${describeValue(answer)})`,
		description: hint,
		itemIndex,
	});
}

/**
 * The session's name and connection state from an instance-family answer
 * `{instance: {instanceName (or instance), state}}` (or those fields at the top), flat as users read
 * it; `session` when the gateway does not name it, `state` null when it does not say.
 */
export function sessionStateOf(
	answer: IDataObject,
	session: string,
): { session: IDataObject[string]; state: IDataObject[string] } {
	const instance = isObject<IDataObject>(answer.instance) ? answer.instance : answer;
	const named = instance.instanceName ?? instance.instance;
	return {
		session: typeof named === 'string' && named !== '' ? named : session,
		state: instance.state ?? null,
	};
}
