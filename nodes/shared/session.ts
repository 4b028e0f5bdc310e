import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodeProperties,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { matchesFilter } from './lists';
import { gatewayApiRequest, selectedGateway } from './transport';
import { asObject, describeValue, isBlank, isObject } from './values';
import { itemParameter } from './parameters';

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
 * nodes; the trigger reads it once for the whole workflow. Version 1 stores a name, version 2 a
 * picker value; `extractValue` gives the name for both.
 */
export function readSessionParameter(
	this: IExecuteFunctions | IHookFunctions | IWebhookFunctions,
	itemIndex?: number,
): string {
	const raw =
		itemIndex === undefined
			? (this as IHookFunctions).getNodeParameter('session', undefined, { extractValue: true })
			: itemParameter.call(this as IExecuteFunctions, 'session', itemIndex);
	const check = checkSessionName(raw);
	if (!check.ok) {
		throw new NodeOperationError(this.getNode(), check.reason, {
			itemIndex,
			description: 'Pick the session from the list, or enter its name (also called instance name).',
		});
	}
	return check.session;
}

/** The Session the editor currently shows (for lists that depend on it), whatever the node version. */
export function currentSessionValue(this: ILoadOptionsFunctions): unknown {
	return this.getCurrentNodeParameter('session', { extractValue: true });
}

const SESSION_DESCRIPTION = 'The session, also called instance, that the node works with';

/** Version 1: the session name typed as text (kept for saved workflows). */
const sessionNameField: INodeProperties = {
	displayName: 'Session',
	name: 'session',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. default',
	description: SESSION_DESCRIPTION,
	displayOptions: { show: { '@version': [1] } },
};

/** Version 2 on: picked from the gateway's sessions, or typed by name. */
const sessionPickerField: INodeProperties = {
	displayName: 'Session',
	name: 'session',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: SESSION_DESCRIPTION,
	displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchSessions', searchable: true },
		},
		{
			displayName: 'By Name',
			name: 'name',
			type: 'string',
			placeholder: 'e.g. default',
		},
	],
};

/** The Session field of both nodes, per node version. */
export const sessionFields: INodeProperties[] = [sessionNameField, sessionPickerField];

/** The Session field with a description that says what this operation does with the session. */
export function sessionFieldsDescribed(description: string): INodeProperties[] {
	return sessionFields.map((field) => ({ ...field, description }));
}

/** The subtitle part that names the session, for a stored name (version 1) or picker value (version 2). */
export const SESSION_SUBTITLE =
	'(typeof $parameter["session"] === "object" ? $parameter["session"].value : $parameter["session"])';

/** One entry of GET /instance/fetchInstances: `{instance: {...}}` (Evolution v1) or the instance itself. */
export function fetchedInstance(entry: unknown): IDataObject | undefined {
	if (!isObject<IDataObject>(entry)) return undefined;
	return isObject<IDataObject>(entry.instance) ? entry.instance : entry;
}

function sessionLabel(instance: IDataObject, name: string): string {
	// WAHA names the account in `me.pushName`, Evolution API in `profileName`.
	const profileName = instance.profileName ?? asObject(instance.me)?.pushName;
	const details = [instance.status ?? instance.connectionStatus, profileName].filter(
		(detail) => typeof detail === 'string' && detail !== '',
	);
	return details.length > 0 ? `${name} (${details.join(', ')})` : name;
}

/** A session as the gateway lists it: its name, and a label with its state and account. */
export interface ListedSession {
	name: string;
	label: string;
}

/**
 * The gateway's sessions (GET /instance/fetchInstances, WAHA's GET /api/sessions with the stopped
 * ones), each with a usable name; throws when the gateway cannot list them.
 */
export async function gatewaySessions(
	this: ILoadOptionsFunctions | IHookFunctions,
): Promise<ListedSession[]> {
	// WAHA lists its sessions (`{name, status, me}`) at /api/sessions, stopped ones with `all`.
	const answer: unknown =
		(await selectedGateway.call(this)) === 'waha'
			? await gatewayApiRequest.call(this, 'GET', '/api/sessions', { qs: { all: true } })
			: await gatewayApiRequest.call(this, 'GET', '/instance/fetchInstances');
	if (!Array.isArray(answer)) {
		throw new NodeApiError(this.getNode(), { message: 'unexpected answer' } as JsonObject, {
			message: `Gateway error: the answer is not a list of sessions (got ${describeValue(answer).slice(0, 200)})`,
			description:
				"Evolution API lists its instances at GET /instance/fetchInstances, WAHA its sessions at GET /api/sessions. Check the Base URL and the credential's Gateway.",
		});
	}
	const sessions: ListedSession[] = [];
	for (const entry of answer) {
		const instance = fetchedInstance(entry);
		const name = instance?.instanceName ?? instance?.name;
		if (!instance || typeof name !== 'string' || !checkSessionName(name).ok) continue;
		sessions.push({ name, label: sessionLabel(instance, name) });
	}
	return sessions;
}

/**
 * The Session picker's list. A gateway that cannot list them gets one entry that says so and
 * what to do, instead of an error or an empty list that looks like "no sessions".
 */
export async function searchSessions(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	let sessions: ListedSession[];
	try {
		sessions = await gatewaySessions.call(this);
	} catch (error) {
		const reason = error instanceof Error ? error.message : 'unknown error';
		return { results: [cannotList(reason)] };
	}
	return {
		results: sessions
			.filter(({ name }) => matchesFilter(filter, name))
			.map(({ name, label }) => ({ name: label, value: name })),
	};
}

function cannotList(reason: string): INodeListSearchItems {
	return {
		name: `Cannot list the sessions (${reason}). Choose "By Name" and type the session name.`,
		value: '',
	};
}
