/** Buttons, send-and-wait and link previews on Evolution API v2. */
import type { GatewayOperation } from '../index';

export const evolutionV2InteractiveSends: Record<string, GatewayOperation> = {};
