/** Runs the Messaging Gateway node (from source) in n8n's engine against a gateway, usually the simulator. */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { MessagingGatewayApi } from '../../credentials/MessagingGatewayApi.credentials';
import { MessagingGateway } from '../../nodes/MessagingGateway/MessagingGateway.node';
import type { BodyStyleSetting } from '../../nodes/shared/transport';
import { runNode } from './n8n-harness.cts';
import type { RunNodeOptions, RunNodeResult } from './n8n-harness.cts';
import type { RecordedRequest } from '../simulator/index.cts';

export const GATEWAY_NODE_TYPE = 'n8n-nodes-messaging-gateway.messagingGateway';

export interface GatewayTarget {
	url: string;
	apiKey: string;
}

export interface RunGatewayOptions {
	items?: INodeExecutionData[];
	requestBodyStyle?: BodyStyleSetting;
	onError?: RunNodeOptions['onError'];
	/** Overrides the API key sent (e.g. a wrong one). */
	apiKey?: string;
	/** The node version (default 1, which saved workflows of the first release have). */
	typeVersion?: number;
	/** The credential's API Key Header (default: unset, which means apikey). */
	keyHeader?: 'apikey' | 'X-Api-Key';
	/**
	 * The credential's Fetch Files From Private Addresses: tests whose file hosts (all on loopback
	 * here) stand for public ones turn it on, as a user with files on their own network would.
	 */
	allowPrivateFileHosts?: boolean;
	/** The credential's Gateway (default: unset, which means the Messaging Gateway API). */
	gateway?: 'messagingGatewayApi' | 'evolutionV2' | 'waha';
}

export async function runGateway(
	gateway: GatewayTarget,
	parameters: INodeParameters,
	options: RunGatewayOptions = {},
): Promise<RunNodeResult> {
	return await runNode({
		nodeTypes: { [GATEWAY_NODE_TYPE]: new MessagingGateway() },
		credentialTypes: { messagingGatewayApi: new MessagingGatewayApi() },
		credentials: {
			messagingGatewayApi: {
				baseUrl: gateway.url,
				apiKey: options.apiKey ?? gateway.apiKey,
				requestBodyStyle: options.requestBodyStyle ?? 'chatIdSession',
				...(options.keyHeader ? { keyHeader: options.keyHeader } : {}),
				...(options.allowPrivateFileHosts ? { allowPrivateFileHosts: true } : {}),
				...(options.gateway ? { gateway: options.gateway } : {}),
			},
		},
		type: GATEWAY_NODE_TYPE,
		parameters,
		items: options.items,
		onError: options.onError,
		typeVersion: options.typeVersion,
	});
}

/**
 * A runner for one resource: `run(operation, parameters, options)` with the resource and the
 * session filled in (a `session` in `parameters` wins).
 */
export function resourceRunner(gateway: GatewayTarget, resource: string, session: string) {
	return async (
		operation: string,
		parameters: INodeParameters = {},
		options: RunGatewayOptions = {},
	) => await runGateway(gateway, { resource, operation, session, ...parameters }, options);
}

/** A resource-locator value typed "By ID". */
export const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** A resource-locator value picked "From List". */
export const fromList = (value: string) => ({ __rl: true, mode: 'list', value });

/** Input items with these JSON bodies. */
export function jsonItems(...bodies: IDataObject[]): INodeExecutionData[] {
	return bodies.map((json) => ({ json }));
}

/** An input item carrying a file in its binary field "data". */
export function binaryItem(
	base64: string,
	mimeType: string,
	fileName: string,
	json: IDataObject = {},
): INodeExecutionData {
	return { json, binary: { data: { data: base64, mimeType, fileName } } };
}

/** The JSON of every item of the node's first output. */
export function outputJson(result: RunNodeResult) {
	return (result.outputs[0] ?? []).map((item) => item.json);
}

/** Exactly one request reached the gateway, with the API key, this method, path and query (default none); returns it. */
export function expectOneRequest(
	gateway: { requests: RecordedRequest[] },
	expected: { method: string; path: string; query?: Record<string, unknown> },
): RecordedRequest {
	expect(gateway.requests).toHaveLength(1);
	const [request] = gateway.requests;
	expect(request).toMatchObject({ query: {}, ...expected, auth: 'valid' });
	return request;
}

/** The run failed on bad input with a NodeOperationError, and nothing reached the gateway. */
export function expectValidationError(
	gateway: { requests: unknown[] },
	result: RunNodeResult,
	message: string | RegExp,
): void {
	expect(result.status).toBe('error');
	expect(result.error?.name).toBe('NodeOperationError');
	if (typeof message === 'string') expect(result.error?.message).toBe(message);
	else expect(result.error?.message).toMatch(message);
	expect(gateway.requests).toEqual([]);
}

/** The run failed on the gateway's answer to its one request, reported as the transport's NodeApiError. */
export function expectGatewayError(
	gateway: { requests: unknown[] },
	result: RunNodeResult,
	message: string,
	httpCode: string,
): void {
	expect(result.status).toBe('error');
	expect(result.error?.name).toBe('NodeApiError');
	expect(result.error?.message).toBe(message);
	expect(result.error?.httpCode).toBe(httpCode);
	expect(gateway.requests).toHaveLength(1);
}

/**
 * Wait Between Items at work: the requests reached the gateway at least `minGapMs` apart, one per
 * item, and each output item is paired to its input item in order.
 */
export function expectPacedAndPaired(
	gateway: { requests: RecordedRequest[] },
	result: RunNodeResult,
	minGapMs: number,
): void {
	const arrivals = gateway.requests.map((request) => request.at);
	const gaps = arrivals.slice(1).map((at, index) => at - arrivals[index]);
	expect(gaps.every((gap) => gap >= minGapMs)).toBe(true);
	expect(result.outputs[0].map((item) => item.pairedItem)).toEqual(
		arrivals.map((_, item) => ({ item })),
	);
}
