/** Reading messages, chats and contacts on Evolution API v2 (findMessages, findChats, findContacts, getBase64FromMediaMessage). */
import type { GatewayOperation } from '../index';

export const evolutionV2Reads: Record<string, GatewayOperation> = {};
