import type { INodeProperties } from 'n8n-workflow';

import * as checkNumber from './checkNumber.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as getProfilePicture from './getProfilePicture.operation';
import * as getBusinessProfile from './getBusinessProfile.operation';
import * as getPhoneOrLid from './getPhoneOrLid.operation';

/** The operations of this resource by value, for the router. */
export const operations = {
	checkNumber,
	get,
	getMany,
	getPhoneOrLid,
	getProfilePicture,
	getBusinessProfile,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: [
			{
				name: 'Check Number',
				value: 'checkNumber',
				description:
					'Check whether phone numbers are on the messaging network, and get the JID and name of each',
				action: 'Check whether numbers are on the network',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get one contact of the session (JID, saved name, push name, business name) by phone number, chat ID or JID',
				action: 'Get a contact',
			},
			{
				name: 'Get Business Profile',
				value: 'getBusinessProfile',
				description:
					'Get the business profile of a contact (description, category, email, website, hours), or whether it is not a business',
				action: 'Get the business profile of a contact',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the contacts the session knows',
				action: 'Get many contacts',
			},
			{
				name: 'Get Phone Number or LID',
				value: 'getPhoneOrLid',
				description:
					'Find the phone number of a person WhatsApp addresses by LID (…@lid), or the LID of a phone number, where the gateway knows it',
				action: 'Get the phone number or LID of a person',
			},
			{
				name: 'Get Profile Picture',
				value: 'getProfilePicture',
				description:
					'Get the profile picture URL of a contact, and optionally download the picture as a file',
				action: 'Get the profile picture of a contact',
			},
		],
		default: 'get',
	},
	...checkNumber.description,
	...get.description,
	...getMany.description,
	...getPhoneOrLid.description,
	...getProfilePicture.description,
	...getBusinessProfile.description,
];
