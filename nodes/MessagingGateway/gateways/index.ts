/**
 * The action node's gateway adapters: one folder per gateway other than the Messaging Gateway API,
 * each saying how that gateway performs the operations (its routes, bodies and answers), built on
 * the operation files' readers. The node hands this table to the router.
 */
import type { OtherGatewaysOperations } from '../../shared/gateways';
import { evolutionV2Operations } from './evolution-v2/operations';
import { wahaOperations } from './waha/operations';

export const GATEWAY_OPERATIONS: OtherGatewaysOperations = {
	evolutionV2: evolutionV2Operations,
	waha: wahaOperations,
};
