import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath, getRequestBodyStyle } from '../../../shared/transport';
import { phoneDigits } from '../../../shared/identifiers';
import { readSession, sessionField } from '../common.descriptions';

const properties: INodeProperties[] = [
	sessionField,
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +55 11 99999-9999',
		description:
			'The phone number of the account to pair, with country code. Enter the returned code in the messaging app under Linked Devices.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['session'], operation: ['requestPairingCode'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const phone = phoneDigits.call(
		this,
		this.getNodeParameter('phoneNumber', itemIndex),
		'Phone Number',
		itemIndex,
	);
	// Shape A (WAHA) names the field phoneNumber; shape B (Wappfy-style gateways) names it phone.
	const body =
		(await getRequestBodyStyle.call(this)) === 'jidSessionId' ? { phone } : { phoneNumber: phone };
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/api/${session}/auth/request-code`,
		{
			body,
			itemIndex,
		},
	);
	return [{ json: { session, phoneNumber: phone, ...(response as object) } }];
}
