/**
 * Events the instance family's webhook can subscribe to (POST /webhook/set/{instance}).
 * Subscriptions use the UPPER_SNAKE name; deliveries carry the lower.dotted `event`.
 * Kept in alphabetical order of `displayName`, so option lists built from it are sorted.
 */
export interface InstanceEvent {
	/** Name to subscribe with, e.g. MESSAGES_UPSERT. */
	name: string;
	/** `event` field of a delivered payload, e.g. messages.upsert. */
	payloadEvent: string;
	/** Title Case label for option lists, e.g. "Messages Upsert". */
	displayName: string;
	description: string;
}

export const INSTANCE_EVENTS: InstanceEvent[] = [
	{
		name: 'APPLICATION_STARTUP',
		payloadEvent: 'application.startup',
		displayName: 'Application Startup',
		description: 'The gateway started (accepted, but many gateways never send it)',
	},
	{
		name: 'CALL',
		payloadEvent: 'call',
		displayName: 'Call',
		description: 'A voice or video call was offered, accepted or rejected',
	},
	{
		name: 'CHAMA_AI_ACTION',
		payloadEvent: 'chama-ai.action',
		displayName: 'Chama AI Action',
		description: 'The Chama AI integration took an action',
	},
	{
		name: 'CHATS_DELETE',
		payloadEvent: 'chats.delete',
		displayName: 'Chats Delete',
		description: 'Chats were deleted',
	},
	{
		name: 'CHATS_SET',
		payloadEvent: 'chats.set',
		displayName: 'Chats Set',
		description: 'The chat list was loaded (history sync)',
	},
	{
		name: 'CHATS_UPDATE',
		payloadEvent: 'chats.update',
		displayName: 'Chats Update',
		description: 'Chats changed (for example unread count or archive state)',
	},
	{
		name: 'CHATS_UPSERT',
		payloadEvent: 'chats.upsert',
		displayName: 'Chats Upsert',
		description: 'Chats were created or updated',
	},
	{
		name: 'CONNECTION_UPDATE',
		payloadEvent: 'connection.update',
		displayName: 'Connection Update',
		description: 'The session connected, is connecting, closed or was refused',
	},
	{
		name: 'CONTACTS_SET',
		payloadEvent: 'contacts.set',
		displayName: 'Contacts Set',
		description: 'The contact list was loaded (history sync)',
	},
	{
		name: 'CONTACTS_UPDATE',
		payloadEvent: 'contacts.update',
		displayName: 'Contacts Update',
		description: 'Contacts changed (for example push name or profile picture)',
	},
	{
		name: 'CONTACTS_UPSERT',
		payloadEvent: 'contacts.upsert',
		displayName: 'Contacts Upsert',
		description: 'Contacts were added or updated',
	},
	{
		name: 'GROUP_PARTICIPANTS_UPDATE',
		payloadEvent: 'group-participants.update',
		displayName: 'Group Participants Update',
		description: 'Participants were added, removed, promoted or demoted in a group',
	},
	{
		name: 'GROUP_UPDATE',
		payloadEvent: 'groups.update',
		displayName: 'Group Update',
		description: 'Group settings changed (some gateway versions never deliver it)',
	},
	{
		name: 'GROUPS_UPSERT',
		payloadEvent: 'groups.upsert',
		displayName: 'Groups Upsert',
		description: 'The account joined or created groups',
	},
	{
		name: 'LABELS_ASSOCIATION',
		payloadEvent: 'labels.association',
		displayName: 'Labels Association',
		description: 'A label was added to or removed from a chat',
	},
	{
		name: 'LABELS_EDIT',
		payloadEvent: 'labels.edit',
		displayName: 'Labels Edit',
		description: 'A label was created, changed or deleted',
	},
	{
		name: 'MESSAGES_DELETE',
		payloadEvent: 'messages.delete',
		displayName: 'Messages Delete',
		description: 'A message was deleted for everyone',
	},
	{
		name: 'MESSAGES_SET',
		payloadEvent: 'messages.set',
		displayName: 'Messages Set',
		description: 'A batch of past messages was loaded (history sync)',
	},
	{
		name: 'MESSAGES_UPDATE',
		payloadEvent: 'messages.update',
		displayName: 'Messages Update',
		description: 'The status of a message changed (sent, delivered, read, played)',
	},
	{
		name: 'MESSAGES_UPSERT',
		payloadEvent: 'messages.upsert',
		displayName: 'Messages Upsert',
		description: 'A message arrived, or was typed on the phone of the account',
	},
	{
		name: 'NEW_JWT_TOKEN',
		payloadEvent: 'new.jwt',
		displayName: 'New JWT Token',
		description: "The gateway renewed the instance's JWT (JWT authentication only)",
	},
	{
		name: 'PRESENCE_UPDATE',
		payloadEvent: 'presence.update',
		displayName: 'Presence Update',
		description: 'A contact came online, went offline, or is typing or recording',
	},
	{
		name: 'QRCODE_UPDATED',
		payloadEvent: 'qrcode.updated',
		displayName: 'QR Code Updated',
		description:
			'A new QR code to scan was generated while pairing, or the QR code limit was reached',
	},
	{
		name: 'SEND_MESSAGE',
		payloadEvent: 'send.message',
		displayName: 'Send Message',
		description: 'A message was sent through the gateway API',
	},
	{
		name: 'TYPEBOT_CHANGE_STATUS',
		payloadEvent: 'typebot.change-status',
		displayName: 'Typebot Change Status',
		description: 'A Typebot session changed status',
	},
	{
		name: 'TYPEBOT_START',
		payloadEvent: 'typebot.start',
		displayName: 'Typebot Start',
		description: 'A Typebot session started',
	},
];
