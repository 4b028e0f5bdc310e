/**
 * What Evolution API cannot do with a LID, by version: where the server knows the person's phone
 * number (its number check), the request goes to the number instead; where it does not, the
 * node says so before anything is sent.
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
import { evolutionLidPair } from './lids';
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

async function evolutionServerVersion(this: IExecuteFunctions): Promise<Version | undefined> {
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

const isLid = (jid: unknown): jid is string => typeof jid === 'string' && jid.endsWith('@lid');

interface LidNeed {
	/** The first version that can. */
	since: Version;
	why: string;
	hint: string;
	/** The LIDs the request names where a version before `since` needs a phone number. */
	lids: string[];
	/** The request with each LID's phone number JID in its place. */
	withPhones: (phoneJidOf: (lid: string) => string) => InstanceRequest;
}

/** What a request asks of a LID that some versions cannot do. */
function lidNeed(request: InstanceRequest): LidNeed | undefined {
	const body = request.body ?? {};
	if (request.route === 'chat/markMessageAsRead') {
		const keys = Array.isArray(body.readMessages) ? (body.readMessages as IDataObject[]) : [];
		const lids = keys.map((key) => asObject(key)?.remoteJid).filter(isLid);
		if (lids.length === 0) return undefined;
		return {
			since: [2, 4, 0],
			why: 'marks nothing read in a chat addressed by LID (it answers success and drops the receipt)',
			hint: 'Evolution API 2.4.0 marks them. On 2.3.x, mark messages of the phone-number chat (the trigger gives chatId with the phone number on 2.3.7 and later), or leave the receipt out.',
			lids: [...new Set(lids)],
			withPhones: (phoneJidOf) => ({
				...request,
				body: {
					...body,
					readMessages: keys.map((key) =>
						isLid(key.remoteJid) ? { ...key, remoteJid: phoneJidOf(key.remoteJid) } : key,
					),
				},
			}),
		};
	}
	// v2's sends are flat: it shows typing (recording for audio) while it waits out `delay`.
	const typing = Number(body.delay) > 0;
	if (request.route.startsWith('message/') && isLid(body.number) && typing) {
		return {
			since: [2, 3, 6],
			why: 'cannot show typing or recording to a LID: WhatsApp drops the connection (Baileys #1538)',
			hint: 'Evolution API 2.3.6 and later can. Send to the phone number instead (the trigger gives it as phone), or remove Delay and Presence.',
			lids: [body.number],
			withPhones: (phoneJidOf) => ({
				...request,
				body: { ...body, number: phoneJidOf(body.number as string) },
			}),
		};
	}
	return undefined;
}

/**
 * The request as this server's version can do it: as it is, unless it names a LID for what the
 * version cannot do with one (see above); then with the person's phone number where the server
 * knows it, or refused before anything is sent where it does not. Any other request goes on
 * without reading the version.
 */
export async function fitLidsToVersion(
	this: IExecuteFunctions,
	request: InstanceRequest,
	session: string,
	itemIndex: number,
): Promise<InstanceRequest> {
	const need = lidNeed(request);
	if (!need) return request;
	const version = await evolutionServerVersion.call(this);
	if (!version || !before(version, need.since)) return request;
	const phones = new Map<string, string>();
	for (const lid of need.lids) {
		const { phone } = await evolutionLidPair.call(
			this,
			session,
			{ kind: 'lid', value: lid },
			undefined,
			{ itemIndex },
		);
		if (!phone) {
			throw new NodeOperationError(
				this.getNode(),
				`Evolution API ${version.join('.')} ${need.why}, and it knows no phone number for ${lid}: nothing was sent`,
				{ itemIndex, description: need.hint },
			);
		}
		phones.set(lid, `${phone}@s.whatsapp.net`);
	}
	return need.withPhones((lid) => phones.get(lid) as string);
}
