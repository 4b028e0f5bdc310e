/**
 * Whether a WAHA session keeps the messages the trigger's catch-up reads back (waha/missed.ts).
 * The NOWEB engine keeps messages only with its store on (`config.noweb.store.enabled`, WAHA's
 * default is off); WEBJS and GOWS keep them on their own. Checked at activation, on the session as
 * registration reads it (`GET /api/sessions/{session}`: `config`, and `engine: {engine}`), so the
 * check asks WAHA nothing more; an answer that names no engine is not judged.
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LOG_PREFIX } from '../../webhook/registration';
import { asObject } from '../../../shared/values';

/** Activations a person starts in the editor (the workflow switched on, a test listen): they see an error. */
const ACTIVATED_BY_A_PERSON: ReadonlySet<string> = new Set(['activate', 'manual']);

/** Whether the session runs NOWEB without its store (`info` is WAHA's answer, `config` its config). */
export function keepsNoMessages(info: IDataObject, config: IDataObject): boolean {
	const engine = asObject(info.engine)?.engine ?? info.engine;
	return engine === 'NOWEB' && asObject(asObject(config.noweb)?.store)?.enabled !== true;
}

/**
 * With Catch Up Missed Messages on, a session that keeps no messages: refused when a person
 * activates the workflow; when n8n starts (an error there would switch the workflow off unseen),
 * a warning in the log, and the trigger runs without catch-up.
 */
export function checkMessageStore(
	this: IHookFunctions,
	session: string,
	catchUpHours: number,
	info: IDataObject,
	config: IDataObject,
): void {
	if (catchUpHours <= 0 || !keepsNoMessages(info, config)) return;
	const message = `Session "${session}" runs WAHA's NOWEB engine without its store, and NOWEB keeps no messages without it: messages that arrive while n8n is down longer than WAHA tries again cannot be caught up on`;
	const description =
		"Enable the session's store (config.noweb.store.enabled and config.noweb.store.fullSync), or set Catch Up Missed Messages (Hours) to 0.";
	if (ACTIVATED_BY_A_PERSON.has(this.getActivationMode())) {
		throw new NodeOperationError(this.getNode(), message, { description });
	}
	this.logger.warn(`${LOG_PREFIX} ${message}. ${description}`);
}
