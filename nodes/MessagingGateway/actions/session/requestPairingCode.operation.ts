import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { gatewayPath, gatewayStyledRequest } from '../../../shared/transport';
import { phoneDigits } from '../../../shared/identifiers';
import { readSession, sessionFields, showOnlyFor } from '../common.descriptions';
import { expectObject, missingFromAnswer } from '../../helpers/responses';

const properties: INodeProperties[] = [
	...sessionFields,
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

export const description = showOnlyFor('session', 'requestPairingCode', properties);

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
	const { response } = await gatewayStyledRequest.call(
		this,
		'POST',
		gatewayPath`/api/${session}/auth/request-code`,
		(style) => (style === 'jidSessionId' ? { phone } : { phoneNumber: phone }),
		{ itemIndex },
	);
	// The code is the whole point of the answer: without it there is nothing to enter in the app.
	const answer = expectObject.call(this, response, itemIndex);
	if (typeof answer.code !== 'string' || answer.code.trim() === '') {
		throw missingFromAnswer.call(
			this,
			answer,
			'pairing code',
			'The gateway answered with success but without a code. Check that the session is waiting for pairing (not connected yet) and try again.',
			itemIndex,
		);
	}
	return [{ json: { session, phoneNumber: phone, ...answer } }];
}
