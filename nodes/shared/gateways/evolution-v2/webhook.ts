/**
 * The trigger's webhook on Evolution API v2 (2.3.6): `POST /webhook/set/{instance}` takes
 * `{webhook: {enabled, url, events, byEvents, base64, headers}}` and answers the stored row;
 * `GET /webhook/find/{instance}` answers that row (`webhookByEvents`, `webhookBase64`, `headers`),
 * or null when none was ever set. A set updates only the fields its body names (Prisma's upsert).
 * v2 sends the row's `headers` with every delivery, so the trigger's secret token travels there
 * instead of in the URL.
 */
import { asObject } from '../../values';
import type { RemoteWebhook, WebhookDialect } from '../index';

/** The header v2 sends the token in (`jwt_key` would make v2 sign a JWT with it instead). */
export const TOKEN_HEADER = 'x-messaging-gateway-token';

/** The events of v2's webhook configuration (its EventController.events). */
export const EVOLUTION_V2_EVENTS: ReadonlySet<string> = new Set([
	'APPLICATION_STARTUP',
	'QRCODE_UPDATED',
	'MESSAGES_SET',
	'MESSAGES_UPSERT',
	'MESSAGES_EDITED',
	'MESSAGES_UPDATE',
	'MESSAGES_DELETE',
	'SEND_MESSAGE',
	'SEND_MESSAGE_UPDATE',
	'CONTACTS_SET',
	'CONTACTS_UPSERT',
	'CONTACTS_UPDATE',
	'PRESENCE_UPDATE',
	'CHATS_SET',
	'CHATS_UPSERT',
	'CHATS_UPDATE',
	'CHATS_DELETE',
	'GROUPS_UPSERT',
	'GROUP_UPDATE',
	'GROUP_PARTICIPANTS_UPDATE',
	'CONNECTION_UPDATE',
	'LABELS_EDIT',
	'LABELS_ASSOCIATION',
	'CALL',
	'TYPEBOT_START',
	'TYPEBOT_CHANGE_STATUS',
	'REMOVE_INSTANCE',
	'LOGOUT_INSTANCE',
	'INSTANCE_CREATE',
	'INSTANCE_DELETE',
	'STATUS_INSTANCE',
]);

const NOTHING_SET: RemoteWebhook = {
	enabled: false,
	url: '',
	events: [],
	webhook_by_events: false,
	webhook_base64: false,
};

/** A find answer: the stored row, null for none; anything else is no configuration v2 gives. */
function parseFound(found: unknown): RemoteWebhook | undefined {
	if (found === null || found === undefined) return NOTHING_SET;
	const row = asObject(found);
	if (!row) return undefined;
	const { enabled, url, events, webhookByEvents, webhookBase64, headers } = row;
	if (typeof enabled !== 'boolean' || (url !== null && typeof url !== 'string')) return undefined;
	if (events !== undefined && events !== null && !Array.isArray(events)) return undefined;
	return {
		enabled,
		url: typeof url === 'string' ? url : '',
		events: Array.isArray(events)
			? events.filter((event): event is string => typeof event === 'string')
			: [],
		webhook_by_events: webhookByEvents === true,
		webhook_base64: webhookBase64 === true,
		...(asObject(headers) ? { headers: asObject(headers) } : {}),
	};
}

export const EVOLUTION_V2_WEBHOOKS: WebhookDialect = {
	gatewayLabel: 'Evolution API v2',
	events: EVOLUTION_V2_EVENTS,
	tokenHeader: TOKEN_HEADER,
	parseFound,
	setBody: (config) => ({
		webhook: {
			enabled: config.enabled,
			url: config.url,
			// With enabled true v2 needs the list (it fails on none); disabled, it keeps none.
			events: config.enabled ? config.events : [],
			byEvents: config.webhook_by_events,
			base64: config.webhook_base64,
			// v2 updates only the fields a body names: without headers, the row kept the ones set
			// before (our token, sent on to the next owner of the row). `{}` clears them; null is refused.
			headers: config.headers ?? {},
		},
	}),
	echoedUrl: (answer) => answer?.url,
};
