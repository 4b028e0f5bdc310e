// The one place that chooses what the simulator plays. A gateway is its routes, the family each path
// belongs to (which decides the words of its errors and of unknown routes), what the control API's
// happenings raise, and how its webhooks are posted. Another gateway: its own files and an entry here.
import type { Family, Route } from './core.cts';
import { EVOLUTION_V1_EVENTS, type GatewayEvents } from './events.cts';
import { EVOLUTION_V2_DELIVERY, EVOLUTION_V2_EVENTS } from './evolution-v2-events.cts';
import { controlRoutes } from './routes/control.cts';
import { evolutionV2Routes } from './routes/evolution-v2.cts';
import { instanceAdminRoutes } from './routes/instance-admin.cts';
import { instanceContactsRoutes } from './routes/instance-contacts.cts';
import { instanceGroupsRoutes } from './routes/instance-groups.cts';
import { instanceMessageExtraRoutes } from './routes/instance-message-extras.cts';
import { instanceMessagingRoutes } from './routes/instance-messaging.cts';
import { fileRoute, sessionAccountRoutes } from './routes/session-account.cts';
import { sessionMessagingRoutes } from './routes/session-messaging.cts';
import { wahaRoutes } from './routes/waha.cts';
import { SEED } from './seed.cts';
import { isControlPath, specFamilyOf } from './server.cts';
import type { WireRewrite } from './server.cts';
import type { Gateway } from './types.cts';
import { WAHA_EVENTS_OF_HAPPENINGS, wahaDelivery } from './waha-events.cts';
import { EVOLUTION_V1_DELIVERY, type DeliveryFlavour } from './webhooks.cts';

export interface Dialect {
	routes: Route[];
	familyOf(rawPath: string): Family;
	events: GatewayEvents;
	delivery: DeliveryFlavour;
	/** How the gateway writes identifiers on the wire, where it differs from the spec's (the simulator's own). */
	wire?: WireRewrite;
	/** The header the gateway reads its key from, unless the options name one; `apikey` when not given. */
	apiKeyHeader?: 'apikey' | 'x-api-key';
}

/**
 * WhatsApp's own contact JIDs (`…@s.whatsapp.net`), which Evolution API writes, for the spec's
 * `…@s.messenger.net` that the simulator keeps inside; requests naming either reach the same contact.
 */
const WHATSAPP_JIDS: WireRewrite = {
	outgoing: (json) => json.replace(/(\d)@s\.messenger\.net\b/g, '$1@s.whatsapp.net'),
	incoming: (json) => json.replace(/(\d)@s\.whatsapp\.net\b/g, '$1@s.messenger.net'),
};

/** The spec: WAHA-style `/api/...` session routes beside Evolution v1's instance routes. */
const SPEC: Dialect = {
	routes: [
		...sessionAccountRoutes,
		...sessionMessagingRoutes,
		...instanceAdminRoutes,
		...instanceMessagingRoutes,
		...instanceMessageExtraRoutes,
		...instanceGroupsRoutes,
		...instanceContactsRoutes,
		...controlRoutes,
	],
	familyOf: specFamilyOf,
	events: EVOLUTION_V1_EVENTS,
	delivery: EVOLUTION_V1_DELIVERY,
};

/**
 * Evolution API 2.3.6: its routes only, every unknown path answered as Express does. The media
 * files (`/api/files/...`) stay: they stand in for WhatsApp's media servers the URLs point to.
 */
const EVOLUTION_V2: Dialect = {
	routes: [...evolutionV2Routes, fileRoute, ...controlRoutes],
	familyOf: (rawPath) => (isControlPath(rawPath) ? 'control' : 'instance'),
	events: EVOLUTION_V2_EVENTS,
	delivery: { ...EVOLUTION_V2_DELIVERY, wire: WHATSAPP_JIDS },
	wire: WHATSAPP_JIDS,
};

/**
 * WAHA 2026.x: its routes only (key in X-Api-Key), every unknown path answered as NestJS does, its
 * session webhooks and envelope, WhatsApp's JIDs where NOWEB writes JIDs (`_data`, group members). The media files (`/api/files/...`) are WAHA's own file route too.
 */
const WAHA: Dialect = {
	routes: [...wahaRoutes, fileRoute, ...controlRoutes],
	familyOf: (rawPath) => (isControlPath(rawPath) ? 'control' : 'session'),
	events: WAHA_EVENTS_OF_HAPPENINGS,
	delivery: wahaDelivery(WHATSAPP_JIDS),
	wire: WHATSAPP_JIDS,
	apiKeyHeader: 'x-api-key',
};

/** The seed as Evolution API v2 answers it (WhatsApp's JIDs), for tests that compare its answers. */
export const EVOLUTION_V2_SEED: typeof SEED = JSON.parse(
	WHATSAPP_JIDS.outgoing(JSON.stringify(SEED)),
);

export const DIALECTS: Record<Gateway, Dialect> = {
	spec: SPEC,
	'evolution-v2': EVOLUTION_V2,
	waha: WAHA,
};
