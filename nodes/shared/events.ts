/**
 * Events the instance family's webhook can subscribe to (POST /webhook/set/{instance}).
 * Subscriptions use the UPPER_SNAKE name; deliveries carry the lower.dotted `event`.
 * Listed in the order a person looks for them: messages first, then pairing and connection, groups,
 * contacts and chats, history sync, and the rare integration events last.
 */
export interface InstanceEvent {
	/** Name to subscribe with and the stored option value, e.g. MESSAGES_UPSERT. Never rename: saved workflows hold it. */
	name: string;
	/** `event` field of a delivered payload, e.g. messages.upsert. */
	payloadEvent: string;
	/** What a person calls it, e.g. "Message Received". */
	displayName: string;
	description: string;
}

export const INSTANCE_EVENTS: InstanceEvent[] = [
	{
		name: 'MESSAGES_UPSERT',
		payloadEvent: 'messages.upsert',
		displayName: 'Message Received',
		description: 'A message arrived, or was typed on the phone of the account',
	},
	{
		name: 'MESSAGES_UPDATE',
		payloadEvent: 'messages.update',
		displayName: 'Message Status Changed',
		description: 'The status of a message changed (sent, delivered, read, played)',
	},
	{
		name: 'MESSAGES_DELETE',
		payloadEvent: 'messages.delete',
		displayName: 'Message Deleted',
		description: 'A message was deleted for everyone',
	},
	{
		name: 'SEND_MESSAGE',
		payloadEvent: 'send.message',
		displayName: 'Message Sent Through the API',
		description: 'A message was sent through the gateway API',
	},
	{
		name: 'QRCODE_UPDATED',
		payloadEvent: 'qrcode.updated',
		displayName: 'QR Code Updated',
		description:
			'A new QR code to scan was generated while pairing, or the QR code limit was reached',
	},
	{
		name: 'CONNECTION_UPDATE',
		payloadEvent: 'connection.update',
		displayName: 'Connection Changed',
		description: 'The session connected, is connecting, closed or was refused',
	},
	{
		name: 'CALL',
		payloadEvent: 'call',
		displayName: 'Call Received',
		description: 'A voice or video call was offered, accepted or rejected',
	},
	{
		name: 'PRESENCE_UPDATE',
		payloadEvent: 'presence.update',
		displayName: 'Presence Changed',
		description: 'A contact came online, went offline, or is typing or recording',
	},
	{
		name: 'GROUPS_UPSERT',
		payloadEvent: 'groups.upsert',
		displayName: 'Group Joined or Created',
		description: 'The account joined or created groups',
	},
	{
		name: 'GROUP_UPDATE',
		payloadEvent: 'groups.update',
		displayName: 'Group Settings Changed',
		description: 'Group settings changed (some gateway versions never deliver it)',
	},
	{
		name: 'GROUP_PARTICIPANTS_UPDATE',
		payloadEvent: 'group-participants.update',
		displayName: 'Group Participants Changed',
		description: 'Participants were added, removed, promoted or demoted in a group',
	},
	{
		name: 'CONTACTS_UPSERT',
		payloadEvent: 'contacts.upsert',
		displayName: 'Contact Added',
		description: 'Contacts were added or updated',
	},
	{
		name: 'CONTACTS_UPDATE',
		payloadEvent: 'contacts.update',
		displayName: 'Contact Changed',
		description: 'Contacts changed (for example push name or profile picture)',
	},
	{
		name: 'CHATS_UPSERT',
		payloadEvent: 'chats.upsert',
		displayName: 'Chat Added',
		description: 'Chats were created or updated',
	},
	{
		name: 'CHATS_UPDATE',
		payloadEvent: 'chats.update',
		displayName: 'Chat Changed',
		description: 'Chats changed (for example unread count or archive state)',
	},
	{
		name: 'CHATS_DELETE',
		payloadEvent: 'chats.delete',
		displayName: 'Chat Deleted',
		description: 'Chats were deleted',
	},
	{
		name: 'LABELS_ASSOCIATION',
		payloadEvent: 'labels.association',
		displayName: 'Chat Label Added or Removed',
		description: 'A label was added to or removed from a chat',
	},
	{
		name: 'LABELS_EDIT',
		payloadEvent: 'labels.edit',
		displayName: 'Label Edited',
		description: 'A label was created, changed or deleted',
	},
	{
		name: 'MESSAGES_SET',
		payloadEvent: 'messages.set',
		displayName: 'Message History Loaded',
		description: 'A batch of past messages was loaded (history sync)',
	},
	{
		name: 'CHATS_SET',
		payloadEvent: 'chats.set',
		displayName: 'Chat List Loaded',
		description: 'The chat list was loaded (history sync)',
	},
	{
		name: 'CONTACTS_SET',
		payloadEvent: 'contacts.set',
		displayName: 'Contact List Loaded',
		description: 'The contact list was loaded (history sync)',
	},
	{
		name: 'APPLICATION_STARTUP',
		payloadEvent: 'application.startup',
		displayName: 'Gateway Started',
		description: 'The gateway started (accepted, but many gateways never send it)',
	},
	{
		name: 'NEW_JWT_TOKEN',
		payloadEvent: 'new.jwt',
		displayName: 'Access Token Renewed',
		description: "The gateway renewed the instance's JWT (JWT authentication only)",
	},
	{
		name: 'TYPEBOT_START',
		payloadEvent: 'typebot.start',
		displayName: 'Typebot Session Started',
		description: 'A Typebot session started',
	},
	{
		name: 'TYPEBOT_CHANGE_STATUS',
		payloadEvent: 'typebot.change-status',
		displayName: 'Typebot Session Status Changed',
		description: 'A Typebot session changed status',
	},
	{
		name: 'CHAMA_AI_ACTION',
		payloadEvent: 'chama-ai.action',
		displayName: 'Chama AI Action Taken',
		description: 'The Chama AI integration took an action',
	},
];

/** Every subscription name, for checks that run on every delivery. */
export const INSTANCE_EVENT_NAMES: ReadonlySet<string> = new Set(
	INSTANCE_EVENTS.map((event) => event.name),
);

const LABELS = new Map(INSTANCE_EVENTS.map((event) => [event.name, event.displayName]));

/** An event as the Events list names it ("Message Received" for MESSAGES_UPSERT), or null. */
export function eventLabel(event: string): string | null {
	return LABELS.get(event) ?? null;
}

/** The events most workflows start from, by their labels. */
export const COMMON_EVENT_LABELS = ['Message Received', 'QR Code Updated', 'Message Deleted'];
