/**
 * Which sessions a trigger watches (Sessions to Watch: one, several, or all the gateway has at
 * activation), where each one's state lives in the node's static data, how activation registers
 * on each and deactivation undoes each, and which session's registration a delivery proves it
 * comes through.
 */
import type {
	IHookFunctions,
	WorkflowActivateMode,
	ILoadOptionsFunctions,
	INodePropertyOptions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { splitList } from '../shared/lists';
import { checkSessionName, gatewaySessions, readSessionParameter } from '../shared/session';
import { asObject, describeValue } from '../shared/values';
import { forgetCatchUps, noteActivation } from './catch-up';
import { isAuthentic, messageOf } from './checked-delivery';
import { DELIVERIES } from './delivery-memory';
import type {
	SessionState,
	TriggerStaticData,
	WatchedSession,
	WantedRegistration,
	WebhookRegistrar,
} from './webhook/registration';
import { LOG_PREFIX } from './webhook/registration';

export type SessionScope = 'one' | 'several' | 'all';

const SCOPES: readonly SessionScope[] = ['one', 'several', 'all'];

/** What activation registers on each session: everything but the session. */
export type WantedOnEach = Omit<WantedRegistration, 'session'>;

/** What one activation works with: the gateway's registrar, the static data, the sessions and what each gets. */
export interface Activation {
	registrar: WebhookRegistrar;
	staticData: TriggerStaticData;
	scope: SessionScope;
	sessions: string[];
	wanted: WantedOnEach;
}

/** Sessions to Watch; One Session for triggers saved before there was a choice. */
export function readSessionScope(this: IHookFunctions): SessionScope {
	const scope = this.getNodeParameter('sessionScope', 'one');
	if (!SCOPES.includes(scope as SessionScope)) {
		throw new NodeOperationError(
			this.getNode(),
			`Sessions to Watch must be one of ${SCOPES.join(', ')} (got ${describeValue(scope)})`,
		);
	}
	return scope as SessionScope;
}

/** Session Names or IDs read: the names, each once, or why they cannot be watched. */
export type PickedSessions = { ok: true; sessions: string[] } | { ok: false; reason: string };

/**
 * Session Names or IDs as picked, or from an expression: a list, comma-separated names, or one
 * name (a number too: instances are often named after their phone number); each once.
 */
export function readPickedSessions(raw: unknown): PickedSessions {
	if (typeof raw !== 'string' && typeof raw !== 'number' && !Array.isArray(raw)) {
		return {
			ok: false,
			reason: `Session Names or IDs must be a list of session names (got ${describeValue(raw)})`,
		};
	}
	const names = new Set<string>();
	for (const entry of splitList(raw)) {
		const check = checkSessionName(entry);
		if (!check.ok) {
			return {
				ok: false,
				reason: `Session Names or IDs must list session names such as acme-sales (got ${describeValue(entry)})`,
			};
		}
		names.add(check.session);
	}
	if (names.size === 0) {
		return { ok: false, reason: 'Session Names or IDs must name at least one session' };
	}
	return { ok: true, sessions: [...names] };
}

function pickedSessions(this: IHookFunctions): string[] {
	const picked = readPickedSessions(this.getNodeParameter('sessions', []));
	if (!picked.ok) {
		throw new NodeOperationError(this.getNode(), picked.reason, {
			description: 'Pick the sessions from the list, or give their names separated by commas.',
		});
	}
	return picked.sessions;
}

/**
 * The sessions the trigger watches now: the Session field's, the ones picked, or (All Sessions)
 * every session the gateway lists, read at activation.
 */
export async function watchedSessions(
	this: IHookFunctions,
	scope: SessionScope,
): Promise<string[]> {
	if (scope === 'one') return [readSessionParameter.call(this)];
	if (scope === 'several') return pickedSessions.call(this);
	const names = [...new Set((await gatewaySessions.call(this)).map(({ name }) => name))];
	if (names.length === 0) {
		throw new NodeOperationError(this.getNode(), 'The gateway has no sessions to watch', {
			description: 'Create a session (instance) first, then activate the workflow again.',
		});
	}
	return names;
}

/** Every session state the static data holds (One Session's at its top, the others under `sessions`). */
export function sessionStates(staticData: TriggerStaticData): SessionState[] {
	const states: SessionState[] = staticData.registration ? [staticData] : [];
	if (staticData.sessions) states.push(...staticData.sessions);
	return states;
}

/** Where `session`'s state is kept for `scope`: made (several, all) when `make`. */
function stateOf(
	staticData: TriggerStaticData,
	scope: SessionScope,
	session: string,
	make: boolean,
): SessionState | undefined {
	if (scope === 'one') return staticData;
	const found = staticData.sessions?.find((watched) => watched.session === session);
	if (found || !make) return found;
	const made: WatchedSession = { session };
	(staticData.sessions ??= []).push(made);
	return made;
}

/** States activation no longer wants: another scope's, or a session no longer among `sessions`. */
function staleStates(
	staticData: TriggerStaticData,
	scope: SessionScope,
	sessions: string[],
): SessionState[] {
	const nested = staticData.sessions ?? [];
	if (scope === 'one') return [...nested];
	return [
		...(staticData.registration ? [staticData] : []),
		...nested.filter(({ session }) => !sessions.includes(session)),
	];
}

/**
 * checkExists: every watched session holds this trigger's webhook as wanted, and nothing else is
 * left registered.
 */
export async function allRegistered(
	this: IHookFunctions,
	{ registrar, staticData, scope, sessions, wanted }: Activation,
): Promise<boolean> {
	if (staleStates(staticData, scope, sessions).length > 0) return false;
	for (const session of sessions) {
		const state = stateOf(staticData, scope, session, false);
		if (!state || !(await registrar.isRegistered.call(this, state, { ...wanted, session }))) {
			return false;
		}
	}
	return true;
}

/** Each watched session was registered on activation (see noteActivation). */
export function noteActivations(mode: WorkflowActivateMode, staticData: TriggerStaticData): void {
	for (const state of sessionStates(staticData)) noteActivation(mode, state);
}

/** Undoes one session's registration and forgets what the trigger kept for it. */
async function unregisterState(
	this: IHookFunctions,
	registrar: WebhookRegistrar,
	staticData: TriggerStaticData,
	state: SessionState,
): Promise<void> {
	const token = state.registration?.token;
	await registrar.unregister.call(this, state);
	// No redelivery reaches a session not registered, and what comes while it is not is not caught up on.
	delete state.delivered;
	delete state.activatedAt;
	if (token) {
		DELIVERIES.forgetTrigger(token);
		forgetCatchUps(token);
	}
	const nested = staticData.sessions;
	const index = nested?.indexOf(state as WatchedSession) ?? -1;
	if (index !== -1) nested!.splice(index, 1);
	if (nested?.length === 0) delete staticData.sessions;
}

/**
 * create: registers on each watched session, after undoing what is no longer wanted. A trigger
 * that cannot register on every session it names registers on none: the webhooks it had put in
 * place get theirs back, and the error says which session failed.
 */
export async function registerSessions(
	this: IHookFunctions,
	{ registrar, staticData, scope, sessions, wanted }: Activation,
): Promise<void> {
	for (const state of staleStates(staticData, scope, sessions)) {
		await unregisterState.call(this, registrar, staticData, state);
	}
	let failure: unknown;
	try {
		for (const session of sessions) {
			const state = stateOf(staticData, scope, session, true)!;
			await registrar.register.call(this, state, { ...wanted, session });
		}
	} catch (error) {
		failure = error;
	}
	if (failure === undefined) return;
	if (scope !== 'one') await unregisterSessions.call(this, registrar, staticData, false);
	throw failure;
}

/**
 * delete: undoes every session's registration. One that fails does not keep the others
 * registered: the first failure is thrown once all were tried (`throwFirst`).
 */
export async function unregisterSessions(
	this: IHookFunctions,
	registrar: WebhookRegistrar,
	staticData: TriggerStaticData,
	throwFirst = true,
): Promise<void> {
	let failure: unknown;
	for (const state of sessionStates(staticData)) {
		try {
			await unregisterState.call(this, registrar, staticData, state);
		} catch (error) {
			this.logger.warn(
				`${LOG_PREFIX} could not undo the webhook of session "${state.registration?.session ?? ''}": ${messageOf(error)}`,
			);
			failure ??= error;
		}
	}
	if (throwFirst && failure !== undefined) throw failure;
}

/** The first of `candidates` whose registration the delivery proves it comes through. */
function firstAuthentic(
	this: IWebhookFunctions,
	candidates: SessionState[],
	from: number,
): SessionState | undefined | Promise<SessionState | undefined> {
	for (let index = from; index < candidates.length; index++) {
		const authentic = isAuthentic.call(this, candidates[index].registration);
		if (authentic instanceof Promise) {
			return authentic.then((yes) =>
				yes ? candidates[index] : firstAuthentic.call(this, candidates, index + 1),
			);
		}
		if (authentic) return candidates[index];
	}
	return undefined;
}

/** Continues with the states `more` gives once `first` found none. */
function orElse(
	this: IWebhookFunctions,
	first: SessionState | undefined | Promise<SessionState | undefined>,
	more: () => SessionState[],
): SessionState | undefined | Promise<SessionState | undefined> {
	if (first instanceof Promise) {
		return first.then((found) => found ?? firstAuthentic.call(this, more(), 0));
	}
	return first ?? firstAuthentic.call(this, more(), 0);
}

/**
 * The state of the session a delivery comes through, once it proves that (see isAuthentic), or
 * undefined. The session the envelope names is checked first: one token or signature check,
 * however many sessions are watched (each check reads the request anew). WAHA signs with the session's own key: only that session's
 * key is checked. A token says which registration it is: the other sessions are tried after the
 * named one, so a token of one session on an envelope naming another is told apart as such.
 */
export function authenticState(
	this: IWebhookFunctions,
	staticData: TriggerStaticData,
): SessionState | undefined | Promise<SessionState | undefined> {
	// One session (every trigger saved before there was a choice): no list to search.
	if (!staticData.sessions) {
		return staticData.registration ? firstAuthentic.call(this, [staticData], 0) : undefined;
	}
	const onWaha = registeredOnWaha(staticData);
	const envelope = asObject(this.getBodyData());
	const named = onWaha ? envelope?.session : envelope?.instance;
	const namedState =
		typeof named === 'string' ? stateOf(staticData, 'several', named, false) : undefined;
	const found = namedState ? firstAuthentic.call(this, [namedState], 0) : undefined;
	if (onWaha) return found;
	return orElse.call(this, found, () =>
		sessionStates(staticData).filter((state) => state !== namedState),
	);
}

/** Whether the trigger's registrations are WAHA's (one credential, one gateway: the first says). */
export function registeredOnWaha(staticData: TriggerStaticData): boolean {
	return (staticData.registration ?? staticData.sessions?.[0]?.registration)?.gateway === 'waha';
}

/** Session Names or IDs' list: the gateway's sessions with their state and account. */
export async function getSessions(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return (await gatewaySessions.call(this)).map(({ name, label }) => ({
		name: label,
		value: name,
	}));
}
