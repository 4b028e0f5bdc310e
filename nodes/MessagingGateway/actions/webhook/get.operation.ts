import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { displayUrl } from '../../../shared/transport/url';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { expectObject } from '../../helpers/responses';

const properties: INodeProperties[] = [...sessionFields];

export const description = showOnlyFor('webhook', 'get', properties);

/**
 * The registered URL without its secrets: a Messaging Gateway Trigger's URL carries its delivery
 * token in `token=`, and a URL may carry a password. Neither belongs in an output item.
 */
export function withoutSecrets(url: IDataObject[string]): IDataObject[string] {
	if (typeof url !== 'string') return url;
	return displayUrl(url).replace(/([?&]token=)[^&#]*/gi, '$1***');
}

/** Webhook → Get's output: the session and the saved configuration, its URL without secrets. */
export function webhookOutput(session: string, saved: IDataObject): INodeExecutionData[] {
	return [{ json: { session, ...saved, url: withoutSecrets(saved.url) } }];
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const response = expectObject.call(
		this,
		await gatewayApiRequest.call(this, 'GET', gatewayPath`/webhook/find/${session}`, {
			itemIndex,
		}),
		itemIndex,
	);
	// Some gateway versions nest the configuration as {webhook: {...}}, others answer it flat.
	const saved = (
		typeof response.webhook === 'object' && response.webhook !== null ? response.webhook : response
	) as IDataObject;
	return webhookOutput(session, saved);
}
