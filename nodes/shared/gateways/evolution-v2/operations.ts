/**
 * The action node's operations on Evolution API v2 (2.3.6): which it offers, and why it has no
 * others. An offered operation reads what the user asked with its operation file's code, so the
 * fields and their checks are the same on every gateway; what v2 sends differently is in
 * requests.ts and send-bodies.ts.
 */
import * as updateParticipants from '../../../MessagingGateway/actions/group/updateParticipants.operation';
import * as deleteForEveryone from '../../../MessagingGateway/actions/message/deleteForEveryone.operation';
import * as edit from '../../../MessagingGateway/actions/message/edit.operation';
import * as markAsRead from '../../../MessagingGateway/actions/message/markAsRead.operation';
import * as restart from '../../../MessagingGateway/actions/session/restart.operation';
import * as sendAudio from '../../../MessagingGateway/actions/message/sendAudio.operation';
import * as sendContact from '../../../MessagingGateway/actions/message/sendContact.operation';
import * as sendList from '../../../MessagingGateway/actions/message/sendList.operation';
import * as sendLocation from '../../../MessagingGateway/actions/message/sendLocation.operation';
import * as sendMedia from '../../../MessagingGateway/actions/message/sendMedia.operation';
import * as sendSticker from '../../../MessagingGateway/actions/message/sendSticker.operation';
import * as sendText from '../../../MessagingGateway/actions/message/sendText.operation';
import type { GatewayOperations } from '../index';

export const evolutionV2Operations: GatewayOperations = {
	// These go out through the Messaging Gateway API's code: its instance-family requests become
	// v2's in requests.ts (sends: send-bodies.ts).
	offered: {
		'group.updateParticipants': updateParticipants.execute,
		'message.deleteForEveryone': deleteForEveryone.execute,
		'message.edit': edit.execute,
		'message.markAsRead': markAsRead.execute,
		'session.restart': restart.execute,
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
