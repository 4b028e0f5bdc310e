/**
 * The account's own profile, pairing and webhook on Evolution API v2 (2.3.6): v2's own routes, read
 * into the outputs these operations document on the Messaging Gateway API. What the user asked is
 * read by each operation file's own code, so fields and checks are the same on every gateway.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readSetPicture } from '../../actions/profile/setPicture.operation';
import {
	pairingCodeOutput,
	readRequestPairingCode,
} from '../../actions/session/requestPairingCode.operation';
import { webhookOutput, withoutSecrets } from '../../actions/webhook/get.operation';
import { readSetWebhook } from '../../actions/webhook/set.operation';
import { readSession } from '../../actions/common/descriptions';
import { expectList, expectObject, missingFromAnswer } from '../../helpers/responses';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { asObject } from '../../../shared/values';
import type { GatewayOperation } from '../../../shared/gateways';
import {
	EVOLUTION_V2_EVENTS,
	EVOLUTION_V2_WEBHOOKS,
} from '../../../shared/gateways/evolution-v2/webhook';

/**
 * The account's own number: `GET /instance/fetchInstances?instanceName=` gives the instance's row,
 * whose `ownerJid` (`<digits>@s.whatsapp.net`) v2 fills once the session has connected.
 */
async function ownAccount(
	this: IExecuteFunctions,
	session: string,
	itemIndex: number,
): Promise<{ number: string; row: IDataObject }> {
	const rows = expectList.call(
		this,
		await gatewayApiRequest.call(this, 'GET', '/instance/fetchInstances', {
			qs: { instanceName: session },
			itemIndex,
		}),
		undefined,
		itemIndex,
	);
	const row = rows.find((candidate) => candidate.name === session);
	const owner = /^(\d+)@/.exec(typeof row?.ownerJid === 'string' ? row.ownerJid : '');
	if (!row || !owner) {
		// Only these fields: a row also holds the instance's token, a secret.
		const shown = { name: row?.name ?? null, connectionStatus: row?.connectionStatus ?? null };
		throw missingFromAnswer.call(
			this,
			{ ...shown, ownerJid: row?.ownerJid ?? null },
			`number for session "${session}"`,
			"Evolution API v2 knows the account's own number once the session has connected. Connect it (Session → Connect) and try again.",
			itemIndex,
		);
	}
	return { number: owner[1], row };
}

/** The about text: Baileys gives `{status, setAt}`, older versions the text itself. */
function aboutText(status: unknown): IDataObject[string] {
	const text = asObject(status)?.status ?? status;
	return typeof text === 'string' ? text : null;
}

/**
 * Profile → Get: `POST /chat/fetchProfile/{instance}` `{number: <own number>}` answers
 * `{wuid, name, numberExists, picture, status, isBusiness, email, description, website}`; the
 * output adds the documented `id`, `name`, `picture` and `status` (name and picture from the
 * instance's row when the profile has none).
 */
async function getProfile(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const own = await ownAccount.call(this, session, itemIndex);
	const profile = expectObject.call(
		this,
		await gatewayApiRequest.call(this, 'POST', gatewayPath`/chat/fetchProfile/${session}`, {
			body: { number: own.number },
			itemIndex,
			read: true,
		}),
		itemIndex,
	);
	return [
		{
			json: {
				...profile,
				id: `${own.number}@c.us`,
				name: own.row.profileName ?? profile.name ?? null,
				picture: profile.picture ?? own.row.profilePicUrl ?? null,
				status: aboutText(profile.status),
			},
		},
	];
}

/** v2's picture routes answer `{update: 'success'}`: the documented `{success: true}` and that. */
function pictureUpdated(
	this: IExecuteFunctions,
	response: unknown,
	itemIndex: number,
): INodeExecutionData[] {
	const answer = expectObject.call(this, response, itemIndex);
	if (answer.update !== 'success') {
		throw missingFromAnswer.call(
			this,
			answer,
			'update: "success"',
			'Evolution API v2 answered with success but did not say the picture was updated. Check the session with Profile → Get.',
			itemIndex,
		);
	}
	return [{ json: { success: true, ...answer } }];
}

/** `POST /chat/updateProfilePicture/{instance}` `{picture}`: a URL v2 downloads, or plain base64. */
async function setPicture(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, file } = await readSetPicture.call(this, itemIndex);
	const picture = 'url' in file ? file.url : file.data;
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/chat/updateProfilePicture/${session}`,
		{ body: { picture }, itemIndex },
	);
	return pictureUpdated.call(this, response, itemIndex);
}

/** `DELETE /chat/removeProfilePicture/{instance}`, no body. */
async function deletePicture(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const response = await gatewayApiRequest.call(
		this,
		'DELETE',
		gatewayPath`/chat/removeProfilePicture/${session}`,
		{ itemIndex },
	);
	return pictureUpdated.call(this, response, itemIndex);
}

const PAIRING_HINT =
	'Evolution API v2 makes a pairing code only when a closed session starts connecting with a number: a connected session (open) needs none, and one already pairing (connecting) keeps the QR code it started with. Log the session out (Session → Log Out), then request the code again.';

/**
 * `GET /instance/connect/{instance}?number=<digits>`: a closed session starts connecting and
 * answers `{pairingCode, code, base64, count}`, where `code` and `base64` are the QR code (Session →
 * Connect shows it); the output's `code` is the pairing code, as on the Messaging Gateway API.
 */
async function requestPairingCode(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = readRequestPairingCode.call(this, itemIndex);
	const answer = expectObject.call(
		this,
		await gatewayApiRequest.call(this, 'GET', gatewayPath`/instance/connect/${request.session}`, {
			qs: { number: request.phone },
			itemIndex,
		}),
		itemIndex,
	);
	const withoutQrCode = Object.fromEntries(
		Object.entries(answer).filter(([key]) => key !== 'code' && key !== 'base64'),
	);
	return pairingCodeOutput.call(
		this,
		request,
		withoutQrCode,
		answer.pairingCode,
		PAIRING_HINT,
		itemIndex,
	);
}

/** Every header value hidden: a trigger keeps its secret token in one, other tools their keys. */
function redactedHeaders(headers: unknown): IDataObject | null {
	const given = asObject(headers);
	return given ? Object.fromEntries(Object.keys(given).map((name) => [name, '***'])) : null;
}

/** A webhook row (or what came instead) with its secrets hidden: every header value, the URL's token. */
function withoutRowSecrets(answer: unknown): unknown {
	if (Array.isArray(answer)) return answer.map(withoutRowSecrets);
	const row = asObject(answer);
	if (!row) return answer;
	return {
		...row,
		...('headers' in row ? { headers: redactedHeaders(row.headers) } : {}),
		...('url' in row ? { url: withoutSecrets(row.url) } : {}),
	};
}

/**
 * v2's webhook row (`{id, url, headers, enabled, events, webhookByEvents, webhookBase64, …}`) as
 * Webhook → Get and Set output it: the row with its secrets hidden, plus the documented
 * `webhook_by_events` and `webhook_base64`. Find answers null (or nothing, with v2's webhook
 * integration off) when no webhook was ever set (`noneIsNoWebhook`); set always answers a row.
 */
function webhookRowOutput(
	this: IExecuteFunctions,
	session: string,
	answer: unknown,
	itemIndex: number,
	noneIsNoWebhook: boolean,
): INodeExecutionData[] {
	const none = answer === null || answer === undefined;
	const shown =
		none && noneIsNoWebhook ? {} : expectObject.call(this, withoutRowSecrets(answer), itemIndex);
	const config = EVOLUTION_V2_WEBHOOKS.parseFound(answer);
	if (!config) {
		throw missingFromAnswer.call(
			this,
			shown,
			'webhook configuration',
			'Evolution API v2 answers its webhook row or null. Check that the Base URL points at Evolution API v2 and that its version is 2.3.x.',
			itemIndex,
		);
	}
	const { enabled, url, events, webhook_by_events, webhook_base64 } = config;
	return webhookOutput(session, {
		...shown,
		enabled,
		url,
		events,
		webhook_by_events,
		webhook_base64,
	});
}

/** `GET /webhook/find/{instance}`. */
async function getWebhook(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const answer = await gatewayApiRequest.call(this, 'GET', gatewayPath`/webhook/find/${session}`, {
		itemIndex,
	});
	return webhookRowOutput.call(this, session, answer, itemIndex, true);
}

/**
 * `POST /webhook/set/{instance}` `{webhook: {enabled, url, events, byEvents, base64, headers}}`,
 * answered with the stored row. The node's event names are v2's; the two v2 lacks are refused.
 * `headers: {}` replaces the stored headers too (v2 keeps them when none are sent), so a trigger's
 * token does not go on to the new URL: the whole webhook is replaced, as on other gateways.
 */
async function setWebhook(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, webhook } = readSetWebhook.call(this, itemIndex);
	const unknown = webhook.events.filter((event) => !EVOLUTION_V2_EVENTS.has(event));
	if (unknown.length > 0) {
		throw new NodeOperationError(
			this.getNode(),
			`Evolution API v2 has no event ${unknown.join(', ')}`,
			{ itemIndex, description: `Remove ${unknown.join(', ')} from Events.` },
		);
	}
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/webhook/set/${session}`,
		{ body: EVOLUTION_V2_WEBHOOKS.setBody({ ...webhook, headers: {} }), itemIndex },
	);
	return webhookRowOutput.call(this, session, response, itemIndex, false);
}

export const evolutionV2AccountOperations: Record<string, GatewayOperation> = {
	'profile.get': getProfile,
	'profile.setPicture': setPicture,
	'profile.deletePicture': deletePicture,
	'session.requestPairingCode': requestPairingCode,
	'webhook.get': getWebhook,
	'webhook.set': setWebhook,
};
