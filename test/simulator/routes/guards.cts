// Authentication and lookup guards of both families, in the order each product runs them.
import type { RequestContext } from '../core.cts';
import { evolutionError, nestError } from '../errors.cts';
import { sessionStatus, type Instance } from '../state.cts';

function judge(context: RequestContext, acceptedKeys: string[]): boolean {
	const valid = context.apiKey !== undefined && acceptedKeys.includes(context.apiKey);
	context.setAuth(valid ? 'valid' : context.apiKey === undefined ? 'missing' : 'invalid');
	return valid;
}

/**
 * Evolution: the instance must exist (404) before the key is checked (401). The global key
 * and the instance's own token are both accepted.
 */
export function instanceGuard(context: RequestContext): Instance {
	const name = context.params.instance;
	const instance = context.core.instance(name);
	if (!instance) throw evolutionError.instanceNotFound(name);
	if (!judge(context, [context.core.apiKey, instance.token])) throw evolutionError.unauthorized();
	return instance;
}

/** Evolution calls that go through the socket fail like this while the instance is not connected. */
export function requireConnected(instance: Instance): void {
	if (instance.state !== 'open') throw evolutionError.connectionClosed();
}

/** WAHA: one global key, checked before anything else. */
export function sessionKeyGuard(context: RequestContext): void {
	if (!judge(context, [context.core.apiKey])) throw nestError.unauthorized();
}

export function findSession(context: RequestContext, name: string): Instance {
	const instance = context.core.instance(name);
	if (!instance) throw nestError.sessionNotFound(name);
	return instance;
}

/** WAHA answers 422 with an object body when the session is not in the status the call needs. */
export function requireSessionStatus(
	instance: Instance,
	expected: 'WORKING' | 'SCAN_QR_CODE',
): void {
	const status = sessionStatus(instance);
	if (status !== expected) throw nestError.sessionStatus(instance.name, status, [expected]);
}

export function workingSession(context: RequestContext, name: string): Instance {
	const instance = findSession(context, name);
	requireSessionStatus(instance, 'WORKING');
	return instance;
}
