// Every route WAHA 2026.x answers in the simulator (its waha dialect).
import type { Route } from '../core.cts';
import { wahaContactRoutes } from './waha-contacts.cts';
import { wahaLidRoutes } from './waha-lids.cts';
import { wahaLabelRoutes } from './labels.cts';
import { wahaMessagingRoutes } from './waha-messaging.cts';
import { wahaSessionRoutes } from './waha-sessions.cts';

export const wahaRoutes: Route[] = [
	...wahaSessionRoutes,
	...wahaMessagingRoutes,
	...wahaContactRoutes,
	...wahaLidRoutes,
	...wahaLabelRoutes,
];
