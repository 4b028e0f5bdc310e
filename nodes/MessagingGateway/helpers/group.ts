import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { parseChat } from './identifiers';

const GROUP_ID_PATTERN = '^\\s*\\d+(-\\d+)?@g\\.us\\s*$';

/**
 * Picker for a group: from the session's chats (groups show as "Name (…@g.us)"), or typed in
 * as a group ID. Read it with `readGroupId`.
 */
export const groupIdLocator: INodeProperties = {
	displayName: 'Group ID',
	name: 'groupId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The group, e.g. 120363012345678901@g.us',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			// The session's chat list; pick an entry whose ID ends in @g.us.
			typeOptions: { searchListMethod: 'searchGroups', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 120363012345678901@g.us',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: GROUP_ID_PATTERN,
						errorMessage: 'Enter a group ID such as 120363012345678901@g.us',
					},
				},
			],
		},
	],
};

/** The group ID chosen in `groupIdLocator`, or an error naming the field before any request. */
export function readGroupId(this: IExecuteFunctions, itemIndex: number): string {
	const raw = this.getNodeParameter('groupId', itemIndex, undefined, { extractValue: true });
	return parseChat.call(this, raw, 'Group ID', itemIndex, ['group']).value;
}
