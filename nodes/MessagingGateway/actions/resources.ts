import type { INodeProperties } from 'n8n-workflow';

import * as channel from './channel/Channel.resource';
import * as chat from './chat/Chat.resource';
import * as contact from './contact/Contact.resource';
import * as group from './group/Group.resource';
import * as label from './label/Label.resource';
import * as message from './message/Message.resource';
import * as profile from './profile/Profile.resource';
import * as session from './session/Session.resource';
import * as status from './status/Status.resource';
import * as webhook from './webhook/Webhook.resource';

/** Every resource of the node, in the order of the Resource dropdown. */
export const resources = {
	channel,
	chat,
	contact,
	group,
	label,
	message,
	profile,
	session,
	status,
	webhook,
};

/**
 * Operations beyond the spec: Evolution API v1's instance API has them, the spec does not list them.
 * The README's reference marks them, and the compatibility table shows which gateways have them.
 */
export const INSTANCE_API_EXTRAS: readonly string[] = [
	'contact.checkNumber',
	'group.create',
	'group.getMany',
	'group.getParticipants',
	'group.updateParticipants',
	'label.addToChat',
	'label.getMany',
	'label.removeFromChat',
	'message.combineRapid',
	'message.deleteForEveryone',
	'message.edit',
	'message.markAsRead',
	'message.pauseWhilePersonAnswers',
	'message.sendAudio',
	'message.sendContact',
	'message.sendList',
	'message.sendMedia',
	'message.sendSticker',
	'session.connect',
	'session.getConnectionState',
	'session.getMany',
	'session.logout',
	'status.post',
	'webhook.get',
];

export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Channel', value: 'channel' },
		{ name: 'Chat', value: 'chat' },
		{ name: 'Contact', value: 'contact' },
		{ name: 'Group', value: 'group' },
		{ name: 'Label', value: 'label' },
		{ name: 'Message', value: 'message' },
		{ name: 'Profile', value: 'profile' },
		{ name: 'Session', value: 'session' },
		{ name: 'Status', value: 'status' },
		{ name: 'Webhook', value: 'webhook' },
	],
	default: 'message',
};

export const operationProperties: INodeProperties[] = Object.values(resources).flatMap(
	(resource) => resource.description,
);

/**
 * The canvas subtitle, "Message: Send Text": the resource and operation as the form names them
 * (n8n would show the raw values, "sendText: message"). A flat lookup inside the expression.
 */
export const subtitle = ((): string => {
	const resourceNames = new Map(
		(resourceProperty.options ?? []).map((option) => [
			'value' in option ? option.value : '',
			option.name,
		]),
	);
	const labels: Record<string, string> = {};
	for (const property of operationProperties) {
		if (property.name !== 'operation') continue;
		for (const resource of property.displayOptions?.show?.resource ?? []) {
			for (const option of property.options ?? []) {
				if (!('value' in option)) continue;
				labels[`${String(resource)}.${String(option.value)}`] =
					`${resourceNames.get(String(resource)) ?? String(resource)}: ${option.name}`;
			}
		}
	}
	return `={{ ${JSON.stringify(labels)}[$parameter["resource"] + "." + $parameter["operation"]] }}`;
})();
