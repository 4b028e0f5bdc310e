/** Sending, reading and changing messages on WAHA. */
import type { GatewayOperation } from '../index';

export const wahaMessageOperations: Record<string, GatewayOperation> = {};
