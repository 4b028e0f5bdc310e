/**
 * The action node's operations on Evolution API v2 (2.3.6): which it offers, and why it has no
 * others. An offered operation reads what the user asked with its operation file's code, so the
 * fields and their checks are the same on every gateway; what v2 sends differently is in
 * the core's nodes/shared/gateways/evolution-v2/ (requests.ts, send-bodies.ts), which the
 * instance-family sends of every operation go through.
 */
import * as checkNumber from '../../actions/contact/checkNumber.operation';
import * as getProfilePicture from '../../actions/contact/getProfilePicture.operation';
import * as getBusinessProfile from '../../actions/contact/getBusinessProfile.operation';
import * as phoneOrLid from '../../actions/contact/getPhoneOrLid.operation';
import * as findStatus from '../../actions/message/findStatus.operation';
import * as createGroup from '../../actions/group/create.operation';
import * as getGroup from '../../actions/group/get.operation';
import * as getManyGroups from '../../actions/group/getMany.operation';
import * as getParticipants from '../../actions/group/getParticipants.operation';
import * as sendInvite from '../../actions/group/sendInvite.operation';
import * as setPresence from '../../actions/session/setPresence.operation';
import * as getConnectionState from '../../actions/session/getConnectionState.operation';
import * as getManySessions from '../../actions/session/getMany.operation';
import * as connect from '../../actions/session/connect.operation';
import * as logout from '../../actions/session/logout.operation';
import * as updateParticipants from '../../actions/group/updateParticipants.operation';
import * as deleteForEveryone from '../../actions/message/deleteForEveryone.operation';
import * as edit from '../../actions/message/edit.operation';
import * as markAsRead from '../../actions/message/markAsRead.operation';
import * as restart from '../../actions/session/restart.operation';
import * as leaveOperation from '../../actions/group/leave.operation';
import * as reactOperation from '../../actions/message/react.operation';
import * as sendPollOperation from '../../actions/message/sendPoll.operation';
import * as sendAudio from '../../actions/message/sendAudio.operation';
import * as sendContact from '../../actions/message/sendContact.operation';
import * as sendList from '../../actions/message/sendList.operation';
import * as sendLocation from '../../actions/message/sendLocation.operation';
import * as sendMedia from '../../actions/message/sendMedia.operation';
import * as sendSticker from '../../actions/message/sendSticker.operation';
import * as sendText from '../../actions/message/sendText.operation';
import * as postStatus from '../../actions/status/post.operation';
import * as addLabel from '../../actions/label/addToChat.operation';
import * as getLabels from '../../actions/label/getMany.operation';
import * as removeLabel from '../../actions/label/removeFromChat.operation';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { combineRapidWith } from '../../actions/message/combineRapid.operation';
import { pauseWhilePersonAnswersWith } from '../../actions/message/pauseWhilePersonAnswers.operation';

import { messageKey, readQuoted } from '../../helpers/instance-send';
import { fullIdFromKey, responseObject } from '../../helpers/message';
import { toChatId, toNumber } from '../../../shared/identifiers';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import type { GatewayOperations } from '../../../shared/gateways';
import { evolutionV2AccountOperations } from './account';
import { evolutionV2InteractiveSends } from './interactive';
import { evolutionV2History } from './history';
import { evolutionV2Reads } from './reads';
import { keyForV2 } from '../../../shared/gateways/evolution-v2/send-bodies';
import { evolutionLidPair } from '../../../shared/gateways/evolution-v2/lids';

/** `POST /message/sendReaction/{instance}` `{key: {id, remoteJid, fromMe}, reaction}` (v2 needs no sender). */
async function react(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const request = reactOperation.readReact.call(this, itemIndex);
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/message/sendReaction/${request.session}`,
		{
			body: { key: keyForV2(messageKey(request.messageId)), reaction: request.reaction },
			itemIndex,
		},
	);
	return reactOperation.reactOutput.call(this, request, response, itemIndex);
}

/**
 * `POST /message/sendPoll/{instance}` `{number, name, selectableCount, values, quoted?}`: one
 * answer is `selectableCount` 1, any number of answers 0.
 */
async function sendPoll(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const request = sendPollOperation.readSendPoll.call(this, itemIndex);
	const body: IDataObject = {
		number: toNumber(request.chat),
		name: request.name,
		selectableCount: request.multipleAnswers ? 0 : 1,
		values: request.pollOptions,
	};
	const quoted = readQuoted.call(this, itemIndex, request.options);
	if (quoted) body.quoted = { key: keyForV2(quoted.key as IDataObject) };
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/message/sendPoll/${request.session}`,
		{ body, itemIndex },
	);
	// v2 answers the sent message: its key gives the full ID React, Edit or Delete take.
	const json = responseObject.call(this, response, itemIndex);
	const messageId = fullIdFromKey(response, toChatId(request.chat));
	return [{ json: messageId ? { ...json, messageId } : json }];
}

/** Contact → Get Phone Number or LID: what the group's members and the number check say. */
export async function getPhoneOrLid(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = phoneOrLid.readPhoneOrLid.call(this, itemIndex);
	return phoneOrLid.phoneOrLidOutput(
		await evolutionLidPair.call(this, request.session, request.person, request.groupId, {
			itemIndex,
		}),
	);
}

/** `DELETE /group/leaveGroup/{instance}?groupJid=`: v2 answers `{groupJid, leave}`. */
async function leaveGroup(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await leaveOperation.leaveGroup.call(
		this,
		itemIndex,
		async (session, groupJid) =>
			await gatewayApiRequest.call(this, 'DELETE', gatewayPath`/group/leaveGroup/${session}`, {
				qs: { groupJid },
				itemIndex,
			}),
	);
}

export const evolutionV2Operations: GatewayOperations = {
	// These go out through the Messaging Gateway API's code: its instance-family requests become
	// v2's in requests.ts (sends: send-bodies.ts).
	offered: {
		// The same route and body on v2, and answers the operations read as they are.
		'contact.checkNumber': checkNumber.execute,
		'contact.getProfilePicture': getProfilePicture.execute,
		'contact.getBusinessProfile': getBusinessProfile.execute,
		'contact.getPhoneOrLid': getPhoneOrLid,
		'message.findStatus': findStatus.execute,
		'group.create': createGroup.execute,
		'group.get': getGroup.execute,
		'group.getMany': getManyGroups.execute,
		'group.getParticipants': getParticipants.execute,
		'group.sendInvite': sendInvite.execute,
		'session.setPresence': setPresence.execute,
		'session.getConnectionState': getConnectionState.execute,
		'session.getMany': getManySessions.execute,
		'session.connect': connect.execute,
		'session.logout': logout.execute,
		// Changed on v2 (requests.ts, send-bodies.ts).
		'group.leave': leaveGroup,
		'group.updateParticipants': updateParticipants.execute,
		'message.deleteForEveryone': deleteForEveryone.execute,
		'message.edit': edit.execute,
		'message.markAsRead': markAsRead.execute,
		'message.react': react,
		'message.sendPoll': sendPoll,
		'session.restart': restart.execute,
		'message.sendAudio': sendAudio.execute,
		'message.sendContact': sendContact.execute,
		'message.sendList': sendList.execute,
		'message.sendLocation': sendLocation.execute,
		'message.sendMedia': sendMedia.execute,
		'message.sendSticker': sendSticker.execute,
		'message.sendText': sendText.execute,
		'status.post': postStatus.execute,
		'label.getMany': getLabels.execute,
		'label.addToChat': addLabel.execute,
		'label.removeFromChat': removeLabel.execute,
		// v2's own routes and answers, read into the outputs the node documents.
		...evolutionV2Reads,
		'message.combineRapid': combineRapidWith(evolutionV2History),
		'message.pauseWhilePersonAnswers': pauseWhilePersonAnswersWith(evolutionV2History),
		...evolutionV2AccountOperations,
		...evolutionV2InteractiveSends,
	},
	notOffered: {
		'channel.create':
			'Evolution API v2 has no channels (newsletters): it offers no route to create one.',
		'channel.search':
			'Evolution API v2 has no channels (newsletters): it offers no route to search them.',
		'label.create':
			'Evolution API v2 has no route to create a label: make it in the WhatsApp Business app, and Label → Get Many lists it.',
		'label.delete':
			'Evolution API v2 has no route to delete a label: delete it in the WhatsApp Business app.',
		'label.getChats':
			"Evolution API v2 has no route that lists the chats with a label: the trigger's Chat Label Added or Removed event tells each change as it happens.",
		'status.delete':
			'Evolution API v2 has no route to take a status down: on WhatsApp it disappears by itself after 24 hours.',
		'group.refresh':
			'Evolution API v2 keeps no group cache to refresh: Group → Get Many reads the groups live.',
	},
};
