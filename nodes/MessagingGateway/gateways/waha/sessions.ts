/**
 * Sessions on WAHA (2026.x): `GET /api/sessions`, `GET /api/sessions/{session}` and its
 * start/logout/restart actions, the QR code of `GET /api/{session}/auth/qr` and the presence of
 * `POST /api/{session}/presence`. WAHA's session rows (`{name, status, me, config, …}`) are
 * output with the documented `session` and `state`, their secrets hidden.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as connectOperation from '../../actions/session/connect.operation';
import { readSetPresence } from '../../actions/session/setPresence.operation';
import { readSession } from '../../actions/common/descriptions';
import { expectList, expectObject, missingFromAnswer, responseOr } from '../../helpers/responses';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { asObject } from '../../../shared/values';
import type { GatewayOperation } from '../../../shared/gateways';
import { withoutSecrets } from '../../actions/webhook/get.operation';

/** WAHA's session statuses as the node's documented states: open, connecting or close. */
const STATE_OF_STATUS: Record<string, string> = {
	WORKING: 'open',
	STARTING: 'connecting',
	SCAN_QR_CODE: 'connecting',
	PASSKEY_REQUIRED: 'connecting',
	PASSKEY_CONFIRMATION_REQUIRED: 'connecting',
	STOPPED: 'close',
	FAILED: 'close',
};

/** The node's state for a WAHA status; null for a status this version does not know. */
export function stateOfStatus(status: unknown): string | null {
	return typeof status === 'string' ? (STATE_OF_STATUS[status] ?? null) : null;
}

/** A webhook entry without its secrets: the URL's token and password, the HMAC key, header values. */
export function withoutWebhookSecrets(entry: unknown): unknown {
	const given = asObject(entry);
	if (!given) return entry;
	const shown: IDataObject = { ...given };
	if ('url' in given) shown.url = withoutSecrets(given.url);
	const hmac = asObject(given.hmac);
	if (hmac && hmac.key !== undefined && hmac.key !== null) shown.hmac = { ...hmac, key: '***' };
	if (Array.isArray(given.customHeaders)) {
		shown.customHeaders = given.customHeaders.map((header) => {
			const fields = asObject(header);
			return fields ? { ...fields, value: '***' } : header;
		});
	}
	return shown;
}

/** A session's `config` without its secrets: webhook HMAC keys and header values, the proxy password. */
function withoutConfigSecrets(config: unknown): unknown {
	const given = asObject(config);
	if (!given) return config;
	const shown: IDataObject = { ...given };
	if (Array.isArray(given.webhooks)) shown.webhooks = given.webhooks.map(withoutWebhookSecrets);
	const proxy = asObject(given.proxy);
	if (proxy && typeof proxy.password === 'string') shown.proxy = { ...proxy, password: '***' };
	return shown;
}

/**
 * A WAHA session row as the session operations output it: `session` (its name) and `state` (open,
 * connecting, close) first, then WAHA's own fields (`status`, `me`, …), its config's secrets hidden.
 */
export function sessionOutput(row: IDataObject, session: string): IDataObject {
	const name = typeof row.name === 'string' && row.name !== '' ? row.name : session;
	const shown: IDataObject = { session: name, state: stateOfStatus(row.status), ...row };
	if ('config' in row) shown.config = withoutConfigSecrets(row.config) as IDataObject;
	return shown;
}

/** A session row answered by WAHA; one without a known status is no answer to a session operation. */
function expectSessionRow(
	this: IExecuteFunctions,
	response: unknown,
	itemIndex: number,
): IDataObject {
	const row = expectObject.call(this, response, itemIndex);
	if (stateOfStatus(row.status) === null) {
		throw missingFromAnswer.call(
			this,
			sessionOutput(row, ''),
			'session status',
			'WAHA answers a session with its status (STOPPED, STARTING, SCAN_QR_CODE, WORKING or FAILED). Check that the Base URL points at WAHA 2026.x.',
			itemIndex,
		);
	}
	return row;
}

/** `GET /api/sessions/{session}`: the session's row (404 from WAHA when there is none). */
export async function sessionInfo(
	this: IExecuteFunctions,
	session: string,
	itemIndex: number,
): Promise<IDataObject> {
	return expectSessionRow.call(
		this,
		await gatewayApiRequest.call(this, 'GET', gatewayPath`/api/sessions/${session}`, {
			itemIndex,
		}),
		itemIndex,
	);
}

/** `GET /api/sessions?all=true`: every session, stopped ones too (WAHA lists only running ones without `all`). */
async function getManySessions(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const rows = expectList.call(
		this,
		await gatewayApiRequest.call(this, 'GET', '/api/sessions', {
			qs: { all: true },
			itemIndex,
		}),
		undefined,
		itemIndex,
	);
	return rows.map((row) => ({ json: sessionOutput(row, '') }));
}

/** `GET /api/sessions/{session}`: its state from WAHA's status. */
async function getConnectionState(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	return [{ json: sessionOutput(await sessionInfo.call(this, session, itemIndex), session) }];
}

/** `POST /api/sessions/{session}/<action>`, answered with the session's row. */
async function sessionAction(
	this: IExecuteFunctions,
	session: string,
	action: 'start' | 'logout' | 'restart',
	itemIndex: number,
): Promise<IDataObject> {
	return expectSessionRow.call(
		this,
		await gatewayApiRequest.call(this, 'POST', gatewayPath`/api/sessions/${session}/${action}`, {
			itemIndex,
		}),
		itemIndex,
	);
}

/** `POST /api/sessions/{session}/restart`: the state it restarts into. */
async function restart(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	return [
		{ json: sessionOutput(await sessionAction.call(this, session, 'restart', itemIndex), session) },
	];
}

/**
 * `POST /api/sessions/{session}/logout`: WAHA unlinks the phone and, for a running session, starts
 * it again waiting for a new pairing. Output: the documented `{session, loggedOut, message}` and the
 * session's row.
 */
async function logout(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const row = await sessionAction.call(this, session, 'logout', itemIndex);
	return [{ json: { ...sessionOutput(row, session), loggedOut: true, message: 'Logged out' } }];
}

/**
 * Connect: `GET /api/sessions/{session}` first. A connected session (WORKING) has nothing to scan;
 * a stopped one is started (`POST …/start`), a failed one restarted; then the QR code comes from
 * `GET /api/{session}/auth/qr?format=image`, which WAHA answers `{mimetype, data}` to a JSON
 * request (it waits there for the session to reach SCAN_QR_CODE).
 */
async function connect(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { session, binaryPropertyName } = connectOperation.readConnect.call(this, itemIndex);
	let row = await sessionInfo.call(this, session, itemIndex);
	if (row.status === 'STOPPED') row = await sessionAction.call(this, session, 'start', itemIndex);
	else if (row.status === 'FAILED') {
		row = await sessionAction.call(this, session, 'restart', itemIndex);
	}
	// WORKING needs no QR code; a passkey step has none to give.
	if (!['STARTING', 'SCAN_QR_CODE'].includes(String(row.status))) {
		return [{ json: { ...sessionOutput(row, session), qrCode: false } }];
	}
	const image = responseOr.call(
		this,
		await gatewayApiRequest.call(this, 'GET', gatewayPath`/api/${session}/auth/qr`, {
			qs: { format: 'image' },
			itemIndex,
		}),
		{},
		itemIndex,
	);
	if (typeof image.data !== 'string' || image.data === '') {
		throw missingFromAnswer.call(
			this,
			{ mimetype: image.mimetype ?? null },
			'QR code',
			'WAHA gives the QR code while the session waits to be paired (SCAN_QR_CODE). Check the session with Session → Get Connection State and try again.',
			itemIndex,
		);
	}
	const mimeType = typeof image.mimetype === 'string' ? image.mimetype : 'image/png';
	const json: IDataObject = {
		...sessionOutput(row, session),
		state: 'connecting',
		status: 'SCAN_QR_CODE',
		qrCode: true,
	};
	return [
		await connectOperation.qrCodeItem.call(
			this,
			json,
			{ base64: image.data, mimeType },
			session,
			binaryPropertyName,
		),
	];
}

/** The node's presences as WAHA's; typing, recording and paused belong to one chat on WAHA. */
const WAHA_PRESENCE: Record<string, string> = { available: 'online', unavailable: 'offline' };

/** `POST /api/{session}/presence` `{presence: online|offline}`: the account-wide presences WAHA has. */
async function setPresence(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, presence } = readSetPresence.call(this, itemIndex);
	const wahaPresence = WAHA_PRESENCE[presence];
	if (!wahaPresence) {
		throw new NodeOperationError(
			this.getNode(),
			`WAHA shows the presence "${presence}" only in one chat, not for the whole account`,
			{
				itemIndex,
				description:
					'Choose Available or Unavailable: WAHA sets typing, recording and paused for one chat at a time, which this operation does not name.',
			},
		);
	}
	await gatewayApiRequest.call(this, 'POST', gatewayPath`/api/${session}/presence`, {
		body: { presence: wahaPresence },
		itemIndex,
	});
	return [{ json: { success: true, session, presence } }];
}

export const wahaSessionOperations: Record<string, GatewayOperation> = {
	'session.getMany': getManySessions,
	'session.getConnectionState': getConnectionState,
	'session.connect': connect,
	'session.logout': logout,
	'session.restart': restart,
	'session.setPresence': setPresence,
};
