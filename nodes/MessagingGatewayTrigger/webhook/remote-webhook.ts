/**
 * A session's webhook at a gateway with one per session (Evolution API, the Messaging Gateway
 * API): read through /webhook/find (or found unreadable: no such route, an answer that is no
 * configuration) and set through /webhook/set, in the dialect each gateway speaks.
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../shared/transport';
import type { RemoteWebhook, WebhookDialect } from '../../shared/gateways';
import { asObject } from '../../shared/values';
import { Redactor } from '../../shared/secrets';

/** Whether a failed /webhook/find means "this gateway cannot tell" rather than a real error. */
function cannotTell(error: unknown, session: string): boolean {
	const { httpCode, message } = error as { httpCode?: string | null; message?: unknown };
	// A 2xx that is no JSON (an HTML page, plain text) says nothing about the registration.
	if (/^2\d\d$/.test(httpCode ?? '') || httpCode === '405' || httpCode === '501') return true;
	if (httpCode !== '404') return false;
	// No such route ("Cannot GET /webhook/find/x", a proxy's "Not Found" page), unless it is the
	// session that is unknown: that must be said, not hidden.
	const words = (typeof message === 'string' ? message : '').split(session).join('');
	return !/instance|session|does not exist/i.test(words);
}

/**
 * The webhook configuration in a /webhook/find answer, or undefined when the answer is no
 * configuration. Accepted: the flat object (Evolution), or it under `webhook`, once or twice (the
 * shape POST /webhook/set answers with); `{}` means nothing was ever set (Evolution's file store).
 */
export function parseRemoteWebhook(found: unknown): RemoteWebhook | undefined {
	let config = asObject(found);
	while (config && asObject(config.webhook)) config = asObject(config.webhook);
	if (!config) return undefined;
	const { enabled, url, events, webhook_by_events: byEvents, webhook_base64: base64 } = config;
	const isBooleanOrAbsent = (value: unknown) => value === undefined || typeof value === 'boolean';
	const readable =
		isBooleanOrAbsent(enabled) &&
		isBooleanOrAbsent(byEvents) &&
		isBooleanOrAbsent(base64) &&
		(url === undefined || typeof url === 'string') &&
		(events === undefined ||
			(Array.isArray(events) && events.every((event) => typeof event === 'string')));
	const nothingSet = Object.keys(config).length === 0;
	// Something must say whether a webhook is set, and an enabled one must say where it points.
	if (!readable || (!nothingSet && enabled === undefined && url === undefined)) return undefined;
	if (enabled === true && (typeof url !== 'string' || url === '')) return undefined;
	return {
		enabled: enabled === true || (enabled === undefined && typeof url === 'string' && url !== ''),
		url: typeof url === 'string' ? url : '',
		events: Array.isArray(events) ? (events as string[]) : [],
		webhook_by_events: byEvents === true,
		webhook_base64: base64 === true,
	};
}

/** The Messaging Gateway API's webhook (Evolution API v1's `/webhook/set` body and answers). */
export const MESSAGING_GATEWAY_WEBHOOKS: WebhookDialect = {
	gatewayLabel: 'Messaging Gateway API',
	parseFound: parseRemoteWebhook,
	setBody: (config) =>
		config.enabled
			? {
					enabled: true,
					url: config.url,
					events: config.events,
					webhook_by_events: config.webhook_by_events,
					webhook_base64: config.webhook_base64,
				}
			: // Disabling still needs a syntactically valid URL on the real gateway.
				{ enabled: false, url: config.url, events: [] },
	echoedUrl: (answer) => asObject(asObject(answer?.webhook)?.webhook)?.url,
};

/**
 * The session's current webhook, or undefined when this gateway cannot tell: no find endpoint, or
 * an answer that is no webhook configuration (a web page, text, null, a list, unknown fields).
 * `tokens` are redacted from errors (the answer may hold our URL).
 */
export async function readRemoteWebhook(
	this: IHookFunctions,
	dialect: WebhookDialect,
	session: string,
	tokens: string[] = [],
): Promise<RemoteWebhook | undefined> {
	try {
		const found: unknown = await gatewayApiRequest.call(
			this,
			'GET',
			gatewayPath`/webhook/find/${session}`,
		);
		return dialect.parseFound(found);
	} catch (error) {
		if (cannotTell(error, session)) return undefined;
		throw new Redactor(tokens).error(error);
	}
}

export async function setRemoteWebhook(
	this: IHookFunctions,
	dialect: WebhookDialect,
	session: string,
	config: RemoteWebhook,
	tokens: string[],
): Promise<IDataObject | undefined> {
	try {
		return asObject(
			await gatewayApiRequest.call(this, 'POST', gatewayPath`/webhook/set/${session}`, {
				body: dialect.setBody(config),
			}),
		);
	} catch (error) {
		throw new Redactor(tokens).error(error);
	}
}
