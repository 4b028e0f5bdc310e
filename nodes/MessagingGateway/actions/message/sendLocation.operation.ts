import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { ChatReference } from '../../../shared/identifiers';
import { delayAndPresence, delayOption, presenceOption, readChat } from '../../helpers/message';
import { sendToChat } from '../../helpers/instance-send';
import {
	readSession,
	sendTargetField,
	sessionFields,
	showOnlyFor,
	simultaneousChatsOption,
	paceSendsOptions,
	waitBetweenItemsOption,
} from '../common/descriptions';
import { decimalFrom, readOptions, readText } from '../../helpers/fields';

const properties: INodeProperties[] = [
	...sessionFields,
	sendTargetField('send the location to'),
	{
		displayName: 'Latitude',
		name: 'latitude',
		type: 'number',
		required: true,
		default: 0,
		typeOptions: { minValue: -90, maxValue: 90, numberPrecision: 7 },
		placeholder: 'e.g. -23.5558',
		description: 'Latitude in decimal degrees, from -90 (south) to 90 (north)',
	},
	{
		displayName: 'Longitude',
		name: 'longitude',
		type: 'number',
		required: true,
		default: 0,
		typeOptions: { minValue: -180, maxValue: 180, numberPrecision: 7 },
		placeholder: 'e.g. -46.6621',
		description: 'Longitude in decimal degrees, from -180 (west) to 180 (east)',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: 'e.g. Acme Store',
		description: 'Name of the place, shown above the map (optional)',
	},
	{
		displayName: 'Address',
		name: 'address',
		type: 'string',
		default: '',
		placeholder: 'e.g. Rua Augusta 1500, São Paulo',
		description: 'Address of the place, shown under the name (optional)',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			delayOption,
			...paceSendsOptions,
			presenceOption,
			simultaneousChatsOption,
			waitBetweenItemsOption,
		],
	},
];

export const description = showOnlyFor('message', 'sendLocation', properties);

function readCoordinate(
	this: IExecuteFunctions,
	itemIndex: number,
	name: string,
	displayName: string,
	limit: number,
): number {
	return decimalFrom.call(this, this.getNodeParameter(name, itemIndex), displayName, itemIndex, {
		min: -limit,
		max: limit,
	});
}

/** What the user asked Send Location to do, checked; each gateway sends it its own way. */
export interface SendLocationRequest {
	session: string;
	chat: ChatReference;
	latitude: number;
	longitude: number;
	/** '' when not given. */
	name: string;
	/** '' when not given. */
	address: string;
	/** Delay and presence, as instance-family sends take them. */
	sendOptions: IDataObject;
}

/** Reads and checks every field of Send Location for one item, before any request. */
export function readSendLocation(this: IExecuteFunctions, itemIndex: number): SendLocationRequest {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	const latitude = readCoordinate.call(this, itemIndex, 'latitude', 'Latitude', 90);
	const longitude = readCoordinate.call(this, itemIndex, 'longitude', 'Longitude', 180);
	const name = readText.call(this, 'name', 'Name', itemIndex);
	const address = readText.call(this, 'address', 'Address', itemIndex);
	const options = readOptions.call(this, itemIndex);
	const sendOptions = delayAndPresence.call(this, itemIndex, options);
	return { session, chat, latitude, longitude, name, address, sendOptions };
}

/** Send Location on the Messaging Gateway API: `POST /message/sendLocation/<session>`. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, chat, latitude, longitude, name, address, sendOptions } = readSendLocation.call(
		this,
		itemIndex,
	);
	const locationMessage: IDataObject = {};
	if (name !== '') locationMessage.name = name;
	if (address !== '') locationMessage.address = address;
	locationMessage.latitude = latitude;
	locationMessage.longitude = longitude;
	return sendToChat.call(this, itemIndex, session, 'sendLocation', chat, sendOptions, {
		locationMessage,
	});
}
