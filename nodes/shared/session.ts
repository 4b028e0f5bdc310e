import type { IExecuteFunctions, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { describeValue, isBlank } from './values';

/** A session name as it goes into a path, or why it cannot. */
export type SessionNameCheck = { ok: true; session: string } | { ok: false; reason: string };

/**
 * The session (instance) name is one path segment: text or a number from an expression, trimmed,
 * not empty, and never `.` or `..`, which would step out of the segment (`/message/sendText/..`).
 */
export function checkSessionName(raw: unknown): SessionNameCheck {
	if (typeof raw !== 'string' && !(typeof raw === 'number' && Number.isFinite(raw))) {
		return {
			ok: false,
			reason: `Session must be a name such as default (got ${describeValue(raw)})`,
		};
	}
	const session = String(raw).trim();
	if (isBlank(session)) return { ok: false, reason: 'Session must not be empty' };
	if (session === '.' || session === '..') {
		return {
			ok: false,
			reason: `Session must be a name such as default, not "${session}"`,
		};
	}
	return { ok: true, session };
}

/**
 * The node's Session parameter, checked before any request. `itemIndex` is given by action
 * nodes; the trigger reads it once for the whole workflow.
 */
export function readSessionParameter(
	this: IExecuteFunctions | IHookFunctions | IWebhookFunctions,
	itemIndex?: number,
): string {
	const raw =
		itemIndex === undefined
			? (this as IHookFunctions).getNodeParameter('session')
			: (this as IExecuteFunctions).getNodeParameter('session', itemIndex);
	const check = checkSessionName(raw);
	if (!check.ok) {
		throw new NodeOperationError(this.getNode(), check.reason, {
			itemIndex,
			description: 'Enter the session name, also called instance name, e.g. default.',
		});
	}
	return check.session;
}
