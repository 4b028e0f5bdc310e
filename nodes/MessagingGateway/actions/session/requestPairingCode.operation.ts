import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { gatewayPath, gatewayStyledRequest } from '../../../shared/transport';
import { phoneDigits } from '../../../shared/identifiers';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
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

/** What Request Pairing Code was asked: the session and the phone number as digits. */
export interface PairingCodeRequest {
	session: string;
	phone: string;
}

export function readRequestPairingCode(
	this: IExecuteFunctions,
	itemIndex: number,
): PairingCodeRequest {
	return {
		session: readSession.call(this, itemIndex),
		phone: phoneDigits.call(
			this,
			this.getNodeParameter('phoneNumber', itemIndex),
			'Phone Number',
			itemIndex,
		),
	};
}

/**
 * The output: the session, the phone number, the answer's fields and the pairing code as `code`.
 * The code is the whole point of the answer: without it there is nothing to enter in the app, so
 * an answer without one fails with `hint`.
 */
export function pairingCodeOutput(
	this: IExecuteFunctions,
	request: PairingCodeRequest,
	answer: IDataObject,
	code: unknown,
	hint: string,
	itemIndex: number,
): INodeExecutionData[] {
	if (typeof code !== 'string' || code.trim() === '') {
		throw missingFromAnswer.call(this, answer, 'pairing code', hint, itemIndex);
	}
	return [{ json: { session: request.session, phoneNumber: request.phone, ...answer, code } }];
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = readRequestPairingCode.call(this, itemIndex);
	const { session, phone } = request;
	// Shape A (WAHA) names the field phoneNumber; shape B (Wappfy-style gateways) names it phone.
	const { response } = await gatewayStyledRequest.call(
		this,
		'POST',
		gatewayPath`/api/${session}/auth/request-code`,
		(style) => (style === 'jidSessionId' ? { phone } : { phoneNumber: phone }),
		{ itemIndex },
	);
	const answer = expectObject.call(this, response, itemIndex);
	return pairingCodeOutput.call(
		this,
		request,
		answer,
		answer.code,
		'The gateway answered with success but without a code. Check that the session is waiting for pairing (not connected yet) and try again.',
		itemIndex,
	);
}
