import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import {
	groupIdLocator,
	readGroupId,
	readSession,
	sessionFields,
	showOnlyFor,
	simultaneousChatsOption,
	paceSendsOptions,
	waitBetweenItemsOption,
} from '../common/descriptions';
import { readRequiredText } from '../../helpers/fields';
import { expectObject } from '../../helpers/responses';
import { readMemberNumbers } from './numbers';

const properties: INodeProperties[] = [
	...sessionFields,
	{
		...groupIdLocator,
		description: 'The group whose invite link is sent, e.g. 120363012345678901@g.us',
	},
	{
		displayName: 'Numbers',
		name: 'numbers',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +55 11 99999-9999, +55 21 98888-7777',
		description:
			'Phone numbers with country code that receive the invite, separated by commas or new lines (an expression may also return a list)',
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 3 },
		placeholder: 'e.g. Join our weekend hiking group!',
		description: 'The text sent with the invite link; the link is added after it',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [...paceSendsOptions, simultaneousChatsOption, waitBetweenItemsOption],
	},
];

export const description = showOnlyFor('group', 'sendInvite', properties);

/** What Send Invite was asked for one item, checked before any request. */
export interface SendInviteRequest {
	session: string;
	groupJid: string;
	/** Recipients: digits with country code. */
	numbers: string[];
	/** The text the link follows. */
	text: string;
}

export function readSendInvite(this: IExecuteFunctions, itemIndex: number): SendInviteRequest {
	const session = readSession.call(this, itemIndex);
	const groupJid = readGroupId.call(this, itemIndex);
	const numbers = readMemberNumbers.call(this, 'numbers', 'Numbers', itemIndex);
	const text = readRequiredText.call(this, 'description', 'Description', itemIndex, {
		hint: 'The gateway sends this text followed by the invite link, and requires it.',
	});
	return { session, groupJid, numbers, text };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, groupJid, numbers, text } = readSendInvite.call(this, itemIndex);
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/group/sendInvite/${session}`,
		{ body: { groupJid, description: text, numbers }, itemIndex },
	);
	return [{ json: expectObject.call(this, response, itemIndex) }];
}
