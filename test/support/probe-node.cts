/**
 * A test-only node that sends one gateway request per input item through the shared transport,
 * so the transport is exercised inside n8n's real execution context and request helpers.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeType,
} from 'n8n-workflow';

import {
	CREDENTIAL_TYPE,
	gatewayApiRequest,
	gatewayDownloadFile,
} from '../../nodes/shared/transport';

export const PROBE_NODE_TYPE = 'test.gatewayProbe';

export const probeNode: INodeType = {
	description: {
		displayName: 'Gateway Probe',
		name: PROBE_NODE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Sends one gateway request per item',
		defaults: { name: 'Gateway Probe' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'Path', name: 'path', type: 'string', default: '/' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '' },
			{ displayName: 'Query', name: 'qs', type: 'json', default: '' },
			{ displayName: 'Timeout (Ms)', name: 'timeoutMs', type: 'number', default: 0 },
			{ displayName: 'Download URL', name: 'downloadUrl', type: 'string', default: '' },
			/** "true" or "false" sets GatewayRequestOptions.read; empty leaves it to the method. */
			{ displayName: 'Read', name: 'read', type: 'string', default: '' },
		],
	},
	async execute(this: IExecuteFunctions) {
		const output: INodeExecutionData[] = [];
		const items = this.getInputData();
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				const parseJson = (name: string) => {
					const raw = this.getNodeParameter(name, itemIndex, '') as string | IDataObject;
					return typeof raw === 'string'
						? raw.trim() === ''
							? undefined
							: (JSON.parse(raw) as IDataObject)
						: raw;
				};
				const downloadUrl = this.getNodeParameter('downloadUrl', itemIndex, '') as string;
				if (downloadUrl) {
					const file = await gatewayDownloadFile.call(this, downloadUrl, itemIndex);
					output.push({
						json: {
							mimeType: file.mimeType,
							fileName: file.fileName,
							text: file.data.toString('utf8'),
						},
						pairedItem: { item: itemIndex },
					});
					continue;
				}
				const timeoutMs = this.getNodeParameter('timeoutMs', itemIndex, 0) as number;
				const read = this.getNodeParameter('read', itemIndex, '') as string;
				const response = await gatewayApiRequest.call(
					this,
					this.getNodeParameter('method', itemIndex) as IHttpRequestMethods,
					this.getNodeParameter('path', itemIndex) as string,
					{
						body: parseJson('body'),
						qs: parseJson('qs'),
						itemIndex,
						...(timeoutMs ? { timeoutMs } : {}),
						...(read ? { read: read === 'true' } : {}),
					},
				);
				output.push({
					json: { response: response as IDataObject },
					pairedItem: { item: itemIndex },
				});
			} catch (error) {
				if (this.continueOnFail()) {
					output.push({
						json: { error: (error as Error).message },
						pairedItem: { item: itemIndex },
					});
					continue;
				}
				throw error;
			}
		}
		return [output];
	},
};
