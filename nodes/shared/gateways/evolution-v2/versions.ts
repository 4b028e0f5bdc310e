/**
 * What Evolution API cannot do with a LID, by version, said before anything is sent:
 * - 2.3.x take read receipts for a LID chat, answer success and mark nothing (their
 *   markMessageAsRead keeps phone-number chats and groups only); 2.4.0 marks them.
 * - Before 2.3.6 (Baileys 6.7 and 7.0.0-rc.5), showing typing or recording to a LID is sent
 *   from the phone number, and WhatsApp drops the connection (Baileys #1538, fixed in 7.0.0-rc.6).
 * The version is the server's `GET /` (`{version: "2.3.6", …}`, never behind the licence gate),
 * read at most once per run and only when a request names a LID.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { InstanceRequest } from '../index';
import { gatewayApiRequest } from '../../transport';
import { asObject } from '../../values';

type Version = readonly number[];

const versionsByRun = new WeakMap<IExecuteFunctions, Promise<Version | undefined>>();

/** The server's version as numbers (`2.4.0` -> [2, 4, 0]), or undefined when it does not say. */
async function readVersion(this: IExecuteFunctions): Promise<Version | undefined> {
	try {
		const version = asObject(
			await gatewayApiRequest.call(this, 'GET', '/', { read: true }),
		)?.version;
		const parts = typeof version === 'string' ? /^(\d+)\.(\d+)\.(\d+)/.exec(version) : null;
		return parts ? parts.slice(1).map(Number) : undefined;
	} catch {
		// A server that cannot say its version is not refused for it: the request goes as asked.
		return undefined;
	}
}

export async function evolutionServerVersion(
	this: IExecuteFunctions,
): Promise<Version | undefined> {
	let pending = versionsByRun.get(this);
	if (!pending) {
		pending = readVersion.call(this);
		versionsByRun.set(this, pending);
	}
	return await pending;
}

function before(version: Version, limit: Version): boolean {
	for (let index = 0; index < limit.length; index++) {
		const part = version[index] ?? 0;
		if (part !== limit[index]) return part < limit[index];
	}
	return false;
}

const isLid = (jid: unknown) => typeof jid === 'string' && /@lid$/.test(jid);

/** What a request asks of a LID that some versions cannot do, with the first version that can. */
function lidNeed(
	request: InstanceRequest,
): { since: Version; why: string; hint: string } | undefined {
	const body = request.body ?? {};
	if (request.route === 'chat/markMessageAsRead') {
		const keys = Array.isArray(body.readMessages) ? (body.readMessages as IDataObject[]) : [];
		if (!keys.some((key) => isLid(asObject(key)?.remoteJid))) return undefined;
		return {
			since: [2, 4, 0],
			why: 'marks nothing read in a chat addressed by LID (it answers success and drops the receipt)',
			hint: 'Evolution API 2.4.0 marks them. On 2.3.x, mark messages of the phone-number chat (the trigger gives chatId with the phone number on 2.3.7 and later), or leave the receipt out.',
		};
	}
	const options = asObject(body.options) ?? body;
	const typing =
		Number(options.delay) > 0 || (options.presence !== undefined && options.presence !== null);
	if (request.route.startsWith('message/') && isLid(body.number) && typing) {
		return {
			since: [2, 3, 6],
			why: 'cannot show typing or recording to a LID: WhatsApp drops the connection (Baileys #1538)',
			hint: 'Evolution API 2.3.6 and later can. Send to the phone number instead (the trigger gives it as phone), or remove Delay and Presence.',
		};
	}
	return undefined;
}

/**
 * Refuses, before anything is sent, a request that names a LID for what this server's version
 * cannot do with one (see above); any other request goes on without reading the version.
 */
export async function checkLidSupport(
	this: IExecuteFunctions,
	request: InstanceRequest,
	itemIndex: number,
): Promise<void> {
	const need = lidNeed(request);
	if (!need) return;
	const version = await evolutionServerVersion.call(this);
	if (!version || !before(version, need.since)) return;
	throw new NodeOperationError(
		this.getNode(),
		`Evolution API ${version.join('.')} ${need.why}: nothing was sent`,
		{ itemIndex, description: need.hint },
	);
}
