// Every route Evolution API 2.3.6 answers in the simulator (its evolution-v2 dialect).
import type { Route } from '../core.cts';
import { evolutionV2ChatRoutes } from './evolution-v2-chat.cts';
import { evolutionV2GroupRoutes } from './evolution-v2-groups.cts';
import { evolutionV2InstanceRoutes } from './evolution-v2-instance.cts';
import { evolutionV2MessageRoutes } from './evolution-v2-messages.cts';
import { evolutionV2LabelRoutes } from './labels.cts';

export const evolutionV2Routes: Route[] = [
	...evolutionV2InstanceRoutes,
	...evolutionV2MessageRoutes,
	...evolutionV2ChatRoutes,
	...evolutionV2GroupRoutes,
	...evolutionV2LabelRoutes,
];
