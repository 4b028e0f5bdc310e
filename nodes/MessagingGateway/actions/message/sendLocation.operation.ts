import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { toChatId, toNumber } from '../../../shared/identifiers';
import {
	delayAndPresence,
	delayOption,
	fullIdFromKey,
	fieldError,
	presenceOption,
	readChat,
	responseObject,
	textOf,
} from '../../helpers/message';
import {
	readSession,
	sendTargetField,
	sessionField,
	waitBetweenItemsOption,
} from '../common.descriptions';

const properties: INodeProperties[] = [
	sessionField,
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
		options: [delayOption, presenceOption, waitBetweenItemsOption],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['message'], operation: ['sendLocation'] } },
	properties,
);

function readCoordinate(
	this: IExecuteFunctions,
	itemIndex: number,
	name: string,
	displayName: string,
	limit: number,
): number {
	const raw = this.getNodeParameter(name, itemIndex) as unknown;
	const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
	if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > limit) {
		throw fieldError.call(
			this,
			itemIndex,
			`${displayName} must be a number from -${limit} to ${limit} (got "${String(raw)}")`,
			'Use decimal degrees, e.g. -23.5558 for latitude and -46.6621 for longitude.',
		);
	}
	return value;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	const latitude = readCoordinate.call(this, itemIndex, 'latitude', 'Latitude', 90);
	const longitude = readCoordinate.call(this, itemIndex, 'longitude', 'Longitude', 180);
	const name = textOf(this.getNodeParameter('name', itemIndex, ''));
	const address = textOf(this.getNodeParameter('address', itemIndex, ''));
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const sendOptions = delayAndPresence.call(this, itemIndex, options);

	const locationMessage: IDataObject = {};
	if (name !== '') locationMessage.name = name;
	if (address !== '') locationMessage.address = address;
	locationMessage.latitude = latitude;
	locationMessage.longitude = longitude;
	const body: IDataObject = { number: toNumber(chat) };
	if (Object.keys(sendOptions).length > 0) body.options = sendOptions;
	body.locationMessage = locationMessage;

	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/message/sendLocation/${session}`,
		{ body, itemIndex },
	);
	const json = responseObject(response);
	const messageId = fullIdFromKey(response, toChatId(chat));
	return [{ json: messageId ? { ...json, messageId } : json }];
}
