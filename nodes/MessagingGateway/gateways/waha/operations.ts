/**
 * The action node's operations on WAHA (2026.x, its published OpenAPI): which it offers, and why it
 * has no others. An offered operation reads what the user asked with its operation file's code, so
 * the fields and their checks are the same on every gateway; WAHA's routes, bodies and answers are
 * in the files beside this one.
 */
import type { GatewayOperations } from '../../../shared/gateways';
import { wahaMessageOperations, wahaMessagesNotOffered } from './messages';
import { wahaAccountOperations } from './account';
import { wahaLabelOperations } from './labels';
import { wahaStatusOperations } from './status';

export const wahaOperations: GatewayOperations = {
	offered: {
		...wahaMessageOperations,
		...wahaAccountOperations.offered,
		...wahaStatusOperations,
		...wahaLabelOperations,
	},
	notOffered: { ...wahaMessagesNotOffered, ...wahaAccountOperations.notOffered },
};
