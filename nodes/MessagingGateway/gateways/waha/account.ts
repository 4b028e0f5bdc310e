/**
 * Contacts, chats, groups, sessions, the profile, channels and webhooks on WAHA (2026.x). Where
 * the Messaging Gateway API's request is already WAHA's (its session-family `/api/…` routes), the
 * operation file's own `execute` runs; the others speak WAHA's routes, in the files beside this one.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import * as getManyChats from '../../actions/chat/getMany.operation';
import * as createChannelOperation from '../../actions/channel/create.operation';
import * as searchChannels from '../../actions/channel/search.operation';
import * as leaveGroup from '../../actions/group/leave.operation';
import * as refreshGroups from '../../actions/group/refresh.operation';
import * as getProfile from '../../actions/profile/get.operation';
import * as setPicture from '../../actions/profile/setPicture.operation';
import * as deletePicture from '../../actions/profile/deletePicture.operation';
import * as requestPairingCode from '../../actions/session/requestPairingCode.operation';
import { expectObject, missingFromAnswer } from '../../helpers/responses';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import type { GatewayOperations } from '../../../shared/gateways';
import { wahaContactOperations } from './contacts';
import { wahaGroupOperations } from './groups';
import { wahaSessionOperations } from './sessions';
import { wahaWebhookOperations } from './webhook-operations';

/**
 * `POST /api/{session}/channels` `{name, description?, picture?}`: the picture as WAHA's
 * `RemoteFile` `{mimetype, url}` or `BinaryFile` `{mimetype, data}`; answered with the channel.
 */
async function createChannel(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, name, description, picture } =
		await createChannelOperation.readCreateChannel.call(this, itemIndex);
	const body: IDataObject = { name };
	if (description !== '') body.description = description;
	if (picture) body.picture = picture as IDataObject;
	const channel = expectObject.call(
		this,
		await gatewayApiRequest.call(this, 'POST', gatewayPath`/api/${session}/channels`, {
			body,
			itemIndex,
		}),
		itemIndex,
	);
	if (typeof channel.id !== 'string' || channel.id === '') {
		throw missingFromAnswer.call(
			this,
			channel,
			'channel ID',
			'WAHA did not say which channel it created. Check in the app whether the channel exists before trying again.',
			itemIndex,
		);
	}
	return [{ json: channel }];
}

export const wahaAccountOperations: GatewayOperations = {
	offered: {
		// The Messaging Gateway API's request is WAHA's route and body (shape A), its answer read as it is.
		'chat.getMany': getManyChats.execute,
		'channel.search': searchChannels.execute,
		'group.leave': leaveGroup.execute,
		'group.refresh': refreshGroups.execute,
		'profile.get': getProfile.execute,
		'profile.setPicture': setPicture.execute,
		'profile.deletePicture': deletePicture.execute,
		'session.requestPairingCode': requestPairingCode.execute,
		// WAHA's own routes and answers, read into the outputs the node documents.
		'channel.create': createChannel,
		...wahaContactOperations,
		...wahaGroupOperations,
		...wahaSessionOperations,
		...wahaWebhookOperations,
	},
	notOffered: {
		'contact.getBusinessProfile':
			"WAHA has no route for a contact's business profile: its contacts API gives a contact's basic info, about text and picture. Use Contact → Get for what WAHA knows of the contact.",
	},
};
