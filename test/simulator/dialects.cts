// The one place that chooses what the simulator plays. A gateway is its routes, the family each path
// belongs to (which decides the words of its errors and of unknown routes), what the control API's
// happenings raise, and how its webhooks are posted. Another gateway: its own files and an entry here.
import type { Family, Played, Reply, RequestContext, Route } from './core.cts';
import { licenceGate, licenceRoutes } from './evolution-licence.cts';
import { EVOLUTION_V1_EVENTS, type GatewayEvents } from './events.cts';
import { EVOLUTION_V2_DELIVERY, evolutionV2Events } from './evolution-v2-events.cts';
import { controlRoutes } from './routes/control.cts';
import { evolutionV2Routes } from './routes/evolution-v2.cts';
import { instanceAdminRoutes } from './routes/instance-admin.cts';
import { instanceContactsRoutes } from './routes/instance-contacts.cts';
import { instanceGroupsRoutes } from './routes/instance-groups.cts';
import { instanceMessageExtraRoutes } from './routes/instance-message-extras.cts';
import { instanceMessagingRoutes } from './routes/instance-messaging.cts';
import { evolutionV1LabelRoutes } from './routes/labels.cts';
import { evolutionV1StatusRoutes } from './routes/status.cts';
import { fileRoute, sessionAccountRoutes } from './routes/session-account.cts';
import { sessionMessagingRoutes } from './routes/session-messaging.cts';
import { wahaRoutes } from './routes/waha.cts';
import { SEED } from './seed.cts';
import { isControlPath, specFamilyOf } from './server.cts';
import type { WireRewrite } from './server.cts';
import type { Gateway } from './types.cts';
import { wahaDelivery, wahaEventsOf } from './waha-events.cts';
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
	/** Answers a request before its route does (and before any key check), when the gateway refuses it outright. */
	gate?(context: RequestContext): Reply | undefined;
}

/**
 * WhatsApp's own contact JIDs (`…@s.whatsapp.net`), which Evolution API writes, for the spec's
 * `…@s.messenger.net` that the simulator keeps inside; requests naming either reach the same contact,
 * except where a route reads the body as sent (`sentBody`: Evolution v2's searches match exactly).
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
		...evolutionV1StatusRoutes,
		...instanceGroupsRoutes,
		...instanceContactsRoutes,
		...evolutionV1LabelRoutes,
		...controlRoutes,
	],
	familyOf: specFamilyOf,
	events: EVOLUTION_V1_EVENTS,
	delivery: EVOLUTION_V1_DELIVERY,
};

/**
 * Evolution API 2.3.x / 2.4.0: its routes only, every unknown path answered as Express does. The
 * media files (`/api/files/...`) stay: they stand in for WhatsApp's media servers the URLs point
 * to. 2.4.0 adds its licence: the public /license routes and the gate in front of the rest.
 */
function evolutionV2(played: Played): Dialect {
	const licensing = played.evolutionVersion === '2.4.0';
	return {
		routes: [
			...evolutionV2Routes,
			...(licensing ? licenceRoutes : []),
			fileRoute,
			...controlRoutes,
		],
		familyOf: (rawPath) => (isControlPath(rawPath) ? 'control' : 'instance'),
		events: evolutionV2Events(played.evolutionVersion, played.evolutionNumberCache),
		delivery: { ...EVOLUTION_V2_DELIVERY, wire: WHATSAPP_JIDS },
		wire: WHATSAPP_JIDS,
		gate: licensing ? licenceGate : undefined,
	};
}

/**
 * WAHA 2026.x: its routes only (key in X-Api-Key), every unknown path answered as NestJS does, its
 * session webhooks and envelope, WhatsApp's JIDs where the engine writes JIDs (`_data`, group
 * members). The media files (`/api/files/...`) are WAHA's own file route too.
 */
function waha(played: Played): Dialect {
	return {
		routes: [...wahaRoutes, fileRoute, ...controlRoutes],
		familyOf: (rawPath) => (isControlPath(rawPath) ? 'control' : 'session'),
		events: wahaEventsOf(played.wahaEngine),
		delivery: wahaDelivery(played.wahaEngine, WHATSAPP_JIDS),
		wire: WHATSAPP_JIDS,
		apiKeyHeader: 'x-api-key',
	};
}

/** The seed as Evolution API v2 answers it (WhatsApp's JIDs), for tests that compare its answers. */
export const EVOLUTION_V2_SEED: typeof SEED = JSON.parse(
	WHATSAPP_JIDS.outgoing(JSON.stringify(SEED)),
);

/** The gateway the options ask for, playing the release or engine they name. */
export const DIALECTS: Record<Gateway, (played: Played) => Dialect> = {
	spec: () => SPEC,
	'evolution-v2': evolutionV2,
	waha,
};
