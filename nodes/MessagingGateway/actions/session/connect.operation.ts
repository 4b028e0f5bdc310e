import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { fileFromDataUri } from '../../../shared/data-uri';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { isObject } from '../../../shared/values';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { binaryPropertyField, readBinaryPropertyName } from '../../helpers/message';
import { expectObject, sessionStateOf } from '../../helpers/responses';

const properties: INodeProperties[] = [
	...sessionFields,
	{
		...binaryPropertyField,
		description:
			'The binary field to put the QR code in, as a PNG to show or send to the person who scans it',
	},
];

export const description = showOnlyFor('session', 'connect', properties);

/** What Connect was asked for one item: the session and the binary field for the QR code. */
export function readConnect(
	this: IExecuteFunctions,
	itemIndex: number,
): { session: string; binaryPropertyName: string } {
	return {
		session: readSession.call(this, itemIndex),
		binaryPropertyName: readBinaryPropertyName.call(this, itemIndex),
	};
}

/** The output item with the QR code image (`base64`, as `mimeType`) in the binary field. */
export async function qrCodeItem(
	this: IExecuteFunctions,
	json: IDataObject,
	image: { base64: string; mimeType: string },
	session: string,
	binaryPropertyName: string,
): Promise<INodeExecutionData> {
	const binary = await this.helpers.prepareBinaryData(
		Buffer.from(image.base64, 'base64'),
		`qrcode-${session}.png`,
		image.mimeType,
	);
	return { json, binary: { [binaryPropertyName]: binary } };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, binaryPropertyName } = readConnect.call(this, itemIndex);
	const answer = expectObject.call(
		this,
		await gatewayApiRequest.call(this, 'GET', gatewayPath`/instance/connect/${session}`, {
			itemIndex,
		}),
		itemIndex,
	);
	// A connected session answers its state instead of a QR code: nothing to scan.
	if (isObject<IDataObject>(answer.instance)) {
		return [{ json: { ...sessionStateOf(answer, session), qrCode: false } }];
	}
	const { base64, ...rest } = answer;
	const json: IDataObject = { session, state: 'connecting', qrCode: base64 !== undefined, ...rest };
	const file = fileFromDataUri(base64, `qrcode-${session}.png`);
	if (!file) return [{ json }];
	return [await qrCodeItem.call(this, json, file, session, binaryPropertyName)];
}
