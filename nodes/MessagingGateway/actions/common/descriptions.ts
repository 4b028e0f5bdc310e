import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { parseChat } from '../../../shared/identifiers';
import { readSessionParameter } from '../../../shared/session';
import { rememberedParameter } from '../../../shared/parameters';

export { sessionFields, sessionFieldsDescribed } from '../../../shared/session';

/**
 * A field whose default changed in a later node version. n8n does not store defaults in saved
 * workflows, so a saved node of an earlier version must keep seeing its own default: `property` (with
 * today's default) is shown from the newest version on, and a copy per earlier version carries the
 * default that version had.
 */
export function withEarlierDefaults(
	earlierDefaults: Record<number, INodeProperties['default']>,
	property: INodeProperties,
): INodeProperties[] {
	const earlierVersions = Object.keys(earlierDefaults).map(Number);
	return [
		{
			...property,
			displayOptions: {
				...property.displayOptions,
				hide: { ...property.displayOptions?.hide, '@version': earlierVersions },
			},
		},
		...earlierVersions.map((version) => ({
			...property,
			default: earlierDefaults[version],
			displayOptions: {
				...property.displayOptions,
				show: { ...property.displayOptions?.show, '@version': [version] },
			},
		})),
	];
}

/**
 * An operation's fields, shown only for its resource and operation: the same descriptions as
 * n8n-workflow's `updateDisplayOptions`, without its deep merge per field (slow at load).
 */
export function showOnlyFor(
	resource: string,
	operation: string,
	properties: INodeProperties[],
): INodeProperties[] {
	return properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...property.displayOptions?.show, resource: [resource], operation: [operation] },
		},
	}));
}

/** The Session of an item, checked before any request (see `readSessionParameter`). */
export function readSession(this: IExecuteFunctions, itemIndex: number): string {
	return readSessionParameter.call(this, itemIndex);
}

/** Client-side throttle for send operations; read by the router, which waits before every item but the first. */
export const waitBetweenItemsOption: INodeProperties = {
	displayName: 'Wait Between Items (Ms)',
	name: 'waitBetweenItems',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description:
		'Milliseconds to wait before sending each item after the first, so bulk sends do not hammer the gateway or the messaging network',
};

/** The most messages a minute Pace Sends takes: more is no pace. */
export const MAX_PACE_PER_MINUTE = 600;

/**
 * Pace Sends across executions (helpers/send-pace.ts); read by the router, which waits for the
 * item's turn from its session before sending it. Off (0) by default.
 */
export const paceSendsOptions: INodeProperties[] = [
	{
		displayName: 'Pace Sends (Messages per Minute)',
		name: 'pacePerMinute',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_PACE_PER_MINUTE },
		default: 0,
		description:
			'At most this many sends a minute from the session, across every execution and workflow of this n8n: each send waits its turn. WhatsApp bans numbers that send too fast. 0 sends at once.',
	},
	{
		displayName: 'Pace Jitter (Seconds)',
		name: 'paceJitterSeconds',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description:
			'With Pace Sends: each send goes up to this many seconds later again, at random, so the sends do not tick like a machine',
	},
	{
		displayName: 'Pace Workers Sending',
		name: 'paceWorkers',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 1,
		description:
			'With Pace Sends in queue mode: how many n8n workers send from this session. Each keeps its share of the pace, so together they stay within it.',
	},
];

/** The most chats Simultaneous Chats allows: enough to keep a local gateway busy, not a flood. */
export const MAX_SIMULTANEOUS_CHATS = 50;

/**
 * Sends to different chats at the same time. Off (1) by default: gateways and messaging networks
 * throttle or ban bursts, so going faster is a choice. Each chat still gets its messages one after
 * another in input order; the router (actions/router.ts) does the scheduling.
 */
export const simultaneousChatsOption: INodeProperties = {
	displayName: 'Simultaneous Chats',
	name: 'simultaneousChats',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_SIMULTANEOUS_CHATS },
	default: 1,
	description:
		'How many different chats are sent to at the same time. Messages to one chat still go one after another in input order, and the output keeps the input order. 1 sends one item after another. Wait Between Items sends one item after another whatever is set here.',
};

interface PickerOptions {
	name: string;
	displayName: string;
	description: string;
	/** The list search of methods/listSearch.ts behind "From List". */
	searchListMethod: 'searchChats' | 'searchContacts' | 'searchGroups' | 'searchLabels';
	placeholder: string;
	/** What "By ID" accepts, in a user's words; the operation checks it before any request. */
	hint: string;
}

/** A resource locator: "From List" (a list search) or "By ID" (typed; checked when the operation runs). Read it with `extractValue: true`. */
function pickerField(options: PickerOptions): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: options.placeholder,
				// No `validation` pattern: n8n checks it before every execution with a regular
				// expression that fails (a 250 ms watchdog) whenever the process stalls, failing the
				// execution; the operation refuses a wrong ID by name before any request instead.
				hint: options.hint,
			},
		],
	};
}

/** How a person is typed into a "By ID" field (the hints and descriptions end it as each field allows). */
const PERSON_IDS = 'phone number with country code, a chat ID (…@c.us), a JID (…@s.messenger.net)';

/** Picker for a chat: from the session's conversation list, or a phone number, chat ID, JID, group ID or channel ID. */
export function chatLocator(
	name: string,
	displayName: string,
	description: string,
): INodeProperties {
	return pickerField({
		name,
		displayName,
		description,
		searchListMethod: 'searchChats',
		placeholder: 'e.g. +55 11 99999-9999 or 120363012345678901@g.us',
		hint: `A ${PERSON_IDS}, a LID (…@lid), a group ID (…@g.us) or a channel ID (…@newsletter)`,
	});
}

/** The "Chat" a message is sent to: a contact or a group. */
export function sendTargetField(purpose: string): INodeProperties {
	return chatLocator(
		'chatId',
		'Chat',
		`The contact or group to ${purpose}: a ${PERSON_IDS}, a LID (…@lid) or a group ID (…@g.us)`,
	);
}

/** Picker for a contact: from the session's contacts, or typed in as a phone number, chat ID or JID. */
export function contactLocator(
	name: string,
	displayName: string,
	description: string,
): INodeProperties {
	return pickerField({
		name,
		displayName,
		description,
		searchListMethod: 'searchContacts',
		placeholder: 'e.g. +55 11 99999-9999',
		hint: `A ${PERSON_IDS} or a LID (…@lid)`,
	});
}

/** Picker for a group: from the session's groups, or typed in as a group ID. */
export const groupIdLocator: INodeProperties = pickerField({
	name: 'groupId',
	displayName: 'Group ID',
	description: 'The group, e.g. 120363012345678901@g.us',
	searchListMethod: 'searchGroups',
	placeholder: 'e.g. 120363012345678901@g.us',
	hint: 'A group ID such as 120363012345678901@g.us',
});

/** Picker for a label (WhatsApp Business): from the session's labels, or typed in as its ID. */
export const labelLocator: INodeProperties = pickerField({
	name: 'labelId',
	displayName: 'Label',
	description: 'The label, as WhatsApp Business names it; its ID when typed',
	searchListMethod: 'searchLabels',
	placeholder: 'e.g. 3',
	hint: 'A label ID such as 3: Label → Get Many lists them',
});

/** The group ID chosen in `groupIdLocator`, or an error naming the field before any request. */
export function readGroupId(this: IExecuteFunctions, itemIndex: number): string {
	const raw = rememberedParameter.call(this, 'groupId', itemIndex);
	return parseChat.call(this, raw, 'Group ID', itemIndex, ['group']).value;
}
