import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { describeValue } from '../../shared/values';

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A 2xx answer that is not what the operation returns, as an error with what came instead. */
function unexpectedAnswer(
	this: IExecuteFunctions,
	response: unknown,
	itemIndex: number,
): NodeApiError {
	const got = describeValue(response);
	return new NodeApiError(this.getNode(), { message: 'unexpected answer' } as JsonObject, {
		message: `Gateway error: the answer is not an object (got ${got.length > 200 ? `${got.slice(0, 199)}…` : got})`,
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
	if (isObject(response)) return response;
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
