import type { IDataObject } from 'n8n-workflow';

/**
 * The gateway's answer when it is an object, else `fallback`: some gateways answer an operation
 * with nothing, `true` or an empty body, and an item should still say what was done.
 */
export function responseOr(response: unknown, fallback: IDataObject): IDataObject {
	return typeof response === 'object' && response !== null && !Array.isArray(response)
		? (response as IDataObject)
		: fallback;
}
