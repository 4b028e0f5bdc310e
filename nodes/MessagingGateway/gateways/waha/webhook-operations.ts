/**
 * Webhook → Get and Set on WAHA (2026.x). WAHA keeps a list of webhooks per session, in the
 * session's `config.webhooks` (`{url, events, hmac: {key}, retries, customHeaders: [{name,
 * value}]}`), read with `GET /api/sessions/{session}` and written with `PUT
 * /api/sessions/{session}`, whose `config` replaces the stored one whole (and restarts a running
 * session). So Set reads the whole config, adds, replaces or removes the one entry with its URL, and
 * writes every other webhook and setting back as it was read. Event names are the trigger's mapping
 * (nodes/shared/gateways/waha/events.ts).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { withoutSecrets } from '../../actions/webhook/get.operation';
import { readSetWebhook } from '../../actions/webhook/set.operation';
import { readSession } from '../../actions/common/descriptions';
import { Redactor } from '../../../shared/secrets';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { asObject } from '../../../shared/values';
import type { GatewayOperation } from '../../../shared/gateways';
import { sessionInfo, withoutWebhookSecrets } from './sessions';
import { eventsWahaLacks, wahaEventsFor } from '../../../shared/gateways/waha/events';

/** Every secret a session's config holds, to keep out of errors (WAHA's 500 quotes the request). */
function secretsOf(config: IDataObject, webhooks: IDataObject[]): string[] {
	const secrets: unknown[] = [asObject(config.proxy)?.password];
	for (const webhook of webhooks) {
		secrets.push(asObject(webhook.hmac)?.key);
		const headers = Array.isArray(webhook.customHeaders) ? webhook.customHeaders : [];
		secrets.push(...headers.map((header) => asObject(header)?.value));
	}
	return secrets.filter((secret): secret is string => typeof secret === 'string' && secret !== '');
}

/** What a value is, never what it holds (a config holds other webhooks' keys). */
function kindOf(value: unknown): string {
	if (value === null) return 'null';
	return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

function noWebhookList(this: IExecuteFunctions, session: string, what: string, itemIndex: number) {
	return new NodeApiError(
		this.getNode(),
		{ message: what },
		{
			message: `Gateway error: WAHA's answer for session "${session}" has no webhook list (${what})`,
			description:
				"WAHA keeps a session's webhooks in its config.webhooks. Check that the Base URL points at WAHA 2026.x.",
			itemIndex,
		},
	);
}

/** The session's config and its webhooks, as `GET /api/sessions/{session}` gives them. */
async function readWebhooks(
	this: IExecuteFunctions,
	session: string,
	itemIndex: number,
): Promise<{ config: IDataObject; webhooks: IDataObject[] }> {
	const row = await sessionInfo.call(this, session, itemIndex);
	// A session created without a config has none: no webhooks, nothing else to keep.
	const config = row.config === null || row.config === undefined ? {} : asObject(row.config);
	if (!config) {
		throw noWebhookList.call(this, session, `config is ${kindOf(row.config)}`, itemIndex);
	}
	const listed = config.webhooks ?? [];
	if (!Array.isArray(listed) || !listed.every((entry) => asObject(entry))) {
		throw noWebhookList.call(this, session, `config.webhooks is ${kindOf(listed)}`, itemIndex);
	}
	return { config, webhooks: listed as IDataObject[] };
}

/**
 * One webhook entry as Webhook → Get and Set output it: the session, WAHA's entry with its secrets
 * hidden, and the documented fields. WAHA posts every event of an entry to its one URL and never
 * puts media in a delivery, so `webhook_by_events` and `webhook_base64` are false.
 */
function webhookEntryOutput(session: string, entry: IDataObject): IDataObject {
	const shown = withoutWebhookSecrets(entry) as IDataObject;
	return {
		session,
		...shown,
		enabled: true,
		url: shown.url ?? '',
		events: Array.isArray(entry.events) ? entry.events : [],
		webhook_by_events: false,
		webhook_base64: false,
	};
}

/** Get's item when the session has no webhook (the workflow goes on and can tell). */
function noWebhookOutput(session: string): IDataObject {
	return {
		session,
		enabled: false,
		url: '',
		events: [],
		webhook_by_events: false,
		webhook_base64: false,
	};
}

/** `GET /api/sessions/{session}`: one item per webhook of the session, or one saying there is none. */
async function getWebhook(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const { webhooks } = await readWebhooks.call(this, session, itemIndex);
	if (webhooks.length === 0) return [{ json: noWebhookOutput(session) }];
	return webhooks.map((entry) => ({ json: webhookEntryOutput(session, entry) }));
}

/** Set's options WAHA has no such thing for: refused by name before any request. */
function refuseWhatWahaLacks(
	this: IExecuteFunctions,
	webhook: ReturnType<typeof readSetWebhook>['webhook'],
	itemIndex: number,
): void {
	const refuse = (message: string, description: string) => {
		throw new NodeOperationError(this.getNode(), message, { itemIndex, description });
	};
	if (webhook.webhook_by_events) {
		refuse(
			'WAHA posts every event of a webhook to its one URL: it has no Webhook by Events',
			'Turn Webhook by Events off; each delivery names its event in its "event" field.',
		);
	}
	if (webhook.webhook_base64) {
		refuse(
			'WAHA does not put media in webhook deliveries: it has no Include Media as Base64',
			"Turn Include Media as Base64 off, and download a message's file with Message → Download Media.",
		);
	}
	const lacking = eventsWahaLacks(webhook.events);
	if (lacking.length > 0) {
		refuse(`WAHA has no event ${lacking.join(', ')}`, `Remove ${lacking.join(', ')} from Events.`);
	}
}

/**
 * Adds the webhook (Enabled on) or replaces the entry with the same URL in its place, keeping that
 * entry's HMAC key, retries and custom headers (WAHA settings this node has no fields for); with
 * Enabled off, removes the entries with that URL. Every other webhook and setting of the session is
 * written back as it was read; with nothing to remove nothing is written (a write restarts a
 * running session). No events means all (`*`). The output: the entry set (or the URL removed), what
 * was done, and the session's webhooks after it, secrets hidden.
 */
async function setWebhook(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, webhook } = readSetWebhook.call(this, itemIndex);
	refuseWhatWahaLacks.call(this, webhook, itemIndex);
	const events = webhook.events.length === 0 ? ['*'] : wahaEventsFor(webhook.events, false);
	const read = await readWebhooks.call(this, session, itemIndex);
	const isThisUrl = (entry: IDataObject) => entry.url === webhook.url;
	const place = read.webhooks.findIndex(isThisUrl);
	let webhooks: IDataObject[];
	let action: 'added' | 'replaced' | 'removed' | 'none';
	if (webhook.enabled) {
		const entry = { ...(read.webhooks[place] ?? {}), url: webhook.url, events };
		action = place === -1 ? 'added' : 'replaced';
		webhooks =
			place === -1
				? [...read.webhooks, entry]
				: read.webhooks.map((current, index) => (index === place ? entry : current));
	} else {
		action = place === -1 ? 'none' : 'removed';
		webhooks = read.webhooks.filter((entry) => !isThisUrl(entry));
	}
	if (action !== 'none') {
		const redactor = new Redactor(secretsOf(read.config, [...read.webhooks, ...webhooks]));
		let answer: unknown;
		try {
			answer = await gatewayApiRequest.call(this, 'PUT', gatewayPath`/api/sessions/${session}`, {
				body: { config: { ...read.config, webhooks } },
				itemIndex,
			});
		} catch (error) {
			throw redactor.error(error);
		}
		webhooks = storedWebhooks.call(this, session, answer, webhooks, itemIndex);
		const stored = webhooks.some(isThisUrl);
		if (stored !== webhook.enabled) {
			throw new NodeApiError(
				this.getNode(),
				{ message: 'webhook list unchanged' },
				{
					message: `Gateway error: WAHA's answer for session "${session}" ${stored ? 'still lists' : 'does not list'} the webhook URL`,
					description:
						'WAHA answered the change of the session config without it. Check the session with Webhook → Get and the WAHA logs.',
					itemIndex,
				},
			);
		}
	}
	const entry = webhooks.find(isThisUrl);
	return [
		{
			json: {
				...(entry
					? webhookEntryOutput(session, entry)
					: { ...noWebhookOutput(session), url: withoutSecrets(webhook.url) }),
				action,
				webhooks: webhooks.map(withoutWebhookSecrets) as IDataObject[],
			},
		},
	];
}

/**
 * The webhooks WAHA answered the write with (its session row's `config.webhooks`), or those sent
 * when the row has no config; any other answer is no answer to the write.
 */
function storedWebhooks(
	this: IExecuteFunctions,
	session: string,
	answer: unknown,
	sent: IDataObject[],
	itemIndex: number,
): IDataObject[] {
	const row = asObject(answer);
	if (!row) throw noWebhookList.call(this, session, `got ${kindOf(answer)}`, itemIndex);
	if (row.config === undefined || row.config === null) return sent;
	const listed = asObject(row.config)?.webhooks ?? [];
	if (!Array.isArray(listed) || !listed.every((entry) => asObject(entry))) {
		throw noWebhookList.call(this, session, `config.webhooks is ${kindOf(listed)}`, itemIndex);
	}
	return listed as IDataObject[];
}

export const wahaWebhookOperations: Record<string, GatewayOperation> = {
	'webhook.get': getWebhook,
	'webhook.set': setWebhook,
};
