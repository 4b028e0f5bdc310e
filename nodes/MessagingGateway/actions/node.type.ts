import type { AllEntities } from 'n8n-workflow';

import type { resources } from './resources';

type Resources = typeof resources;

/** Each resource with its operations, read from `resources` so it cannot fall behind them. */
type NodeMap = {
	[Resource in keyof Resources]: keyof Resources[Resource]['operations'] & string;
};

export type MessagingGatewayType = AllEntities<NodeMap>;
