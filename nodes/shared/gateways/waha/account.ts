/** Contacts, chats, groups, sessions, the profile, channels and webhooks on WAHA. */
import type { GatewayOperations } from '../index';

export const wahaAccountOperations: GatewayOperations = { offered: {}, notOffered: {} };
