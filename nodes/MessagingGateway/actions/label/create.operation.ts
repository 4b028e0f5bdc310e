import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { fieldError, integerFrom, readText } from '../../helpers/fields';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { notOnTheMessagingGatewayApi } from './labels';

/** WhatsApp Business's label colours, by the number its gateways take (WAHA's table of hex colours). */
const COLORS = [
	'Salmon',
	'Sky Blue',
	'Yellow',
	'Lilac',
	'Grey Blue',
	'Teal',
	'Pink',
	'Mustard',
	'Indigo',
	'Lime',
	'Cyan',
	'Blush',
	'Sage',
	'Red',
	'Blue',
	'Green',
	'Orange',
	'Ice Blue',
	'Periwinkle',
	'Purple',
];

const properties: INodeProperties[] = [
	...sessionFields,
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Follow up',
		description: 'The name of the new label, different from the names of the others',
	},
	{
		displayName: 'Color',
		name: 'color',
		type: 'options',
		default: 0,
		options: COLORS.map((name, value) => ({ name: `${name} (${value})`, value })),
		description: "The label's colour, one of WhatsApp Business's 20 (0 to 19)",
	},
];

export const description = showOnlyFor('label', 'create', properties);

export interface CreateLabelRequest {
	session: string;
	name: string;
	/** 0 to 19. */
	color: number;
}

export function readCreateLabel(this: IExecuteFunctions, itemIndex: number): CreateLabelRequest {
	const name = readText.call(this, 'name', 'Name', itemIndex);
	if (name === '') {
		throw fieldError.call(this, itemIndex, 'Name must not be empty', 'Enter the label’s name.');
	}
	const color = integerFrom.call(
		this,
		this.getNodeParameter('color', itemIndex, 0),
		'Color',
		itemIndex,
		0,
	);
	if (color >= COLORS.length) {
		throw fieldError.call(
			this,
			itemIndex,
			`Color must be one of WhatsApp Business's colours, 0 to ${COLORS.length - 1} (got ${color})`,
		);
	}
	return { session: readSession.call(this, itemIndex), name, color };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	readCreateLabel.call(this, itemIndex);
	throw notOnTheMessagingGatewayApi.call(this, 'Label → Create', 'creates no labels', itemIndex);
}
