/** The account's own profile, pairing and webhook on Evolution API v2. */
import type { GatewayOperation } from '../index';

export const evolutionV2AccountOperations: Record<string, GatewayOperation> = {};
