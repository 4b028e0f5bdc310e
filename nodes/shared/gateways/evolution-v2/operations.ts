/**
 * The action node's operations on Evolution API v2 (2.3.6): its routes and bodies, as its own
 * routers and validation schemas have them. Each operation reads what the user asked with the
 * reader of its operation file, so the fields and their checks are the same on every gateway.
 */
import * as sendAudio from '../../../MessagingGateway/actions/message/sendAudio.operation';
import * as sendContact from '../../../MessagingGateway/actions/message/sendContact.operation';
import * as sendList from '../../../MessagingGateway/actions/message/sendList.operation';
import * as sendLocation from '../../../MessagingGateway/actions/message/sendLocation.operation';
import * as sendMedia from '../../../MessagingGateway/actions/message/sendMedia.operation';
import * as sendSticker from '../../../MessagingGateway/actions/message/sendSticker.operation';
import * as sendText from '../../../MessagingGateway/actions/message/sendText.operation';
import type { GatewayOperations } from '../index';

export const evolutionV2Operations: GatewayOperations = {
	// Sends go out through the Messaging Gateway API's code; its body becomes v2's in send-bodies.ts.
	offered: {
		'message.sendAudio': sendAudio.execute,
		'message.sendContact': sendContact.execute,
		'message.sendList': sendList.execute,
		'message.sendLocation': sendLocation.execute,
		'message.sendMedia': sendMedia.execute,
		'message.sendSticker': sendSticker.execute,
		'message.sendText': sendText.execute,
	},
	notOffered: {
		'channel.create':
			'Evolution API v2 has no channels (newsletters): it offers no route to create one.',
		'channel.search':
			'Evolution API v2 has no channels (newsletters): it offers no route to search them.',
		'group.refresh':
			'Evolution API v2 keeps no group cache to refresh: Group → Get Many reads the groups live.',
	},
};
