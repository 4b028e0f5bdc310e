import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import {
	describeNetworkFailure,
	errorBodyForDetails,
	extractGatewayMessage,
	hintForStatus,
	networkFailureOf,
	redactSecret,
} from './errors';
import { isRetryableStatus, retryDelayMs, RETRY_POLICY } from './retry';
import { joinUrl, normalizeBaseUrl } from './url';

export { gatewayPath, joinUrl, normalizeBaseUrl } from './url';

export const CREDENTIAL_TYPE = 'messagingGatewayApi';

/** Shape A: `chatId` + `session`; shape B: `jid` + `sessionId` (see the credential's Request Body Style). */
export type RequestBodyStyle = 'chatIdSession' | 'jidSessionId';

export interface GatewayCredentials {
	baseUrl: string;
	apiKey: string;
	requestBodyStyle?: RequestBodyStyle;
}

export type GatewayRequestContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

export interface GatewayRequestOptions {
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	/** The input item the request is made for, so errors point at it. */
	itemIndex?: number;
	/** Per-attempt timeout; a gateway that does not answer in time is reported as unreachable. */
	timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

export async function getRequestBodyStyle(this: GatewayRequestContext): Promise<RequestBodyStyle> {
	const credentials = await this.getCredentials<GatewayCredentials>(CREDENTIAL_TYPE);
	return credentials.requestBodyStyle === 'jidSessionId' ? 'jidSessionId' : 'chatIdSession';
}

/**
 * The one way both nodes talk to the gateway: JSON in, JSON out, the apikey header added by
 * the credential, 429/503 retried with backoff, every failure turned into an n8n error that
 * names the HTTP code, the gateway's own message and what to do about it.
 * `path` must come from `gatewayPath`, which encodes the user-supplied segments.
 */
export async function gatewayApiRequest<T = unknown>(
	this: GatewayRequestContext,
	method: IHttpRequestMethods,
	path: string,
	options: GatewayRequestOptions = {},
): Promise<T> {
	const { body, qs, itemIndex, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
	const credentials = await this.getCredentials<GatewayCredentials>(CREDENTIAL_TYPE);
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	const baseUrlCheck = normalizeBaseUrl(credentials.baseUrl);
	if (!baseUrlCheck.ok) {
		throw new NodeOperationError(this.getNode(), redactSecret(baseUrlCheck.reason, apiKey), {
			itemIndex,
			description: 'Open the Messaging Gateway API credential and fix its Base URL.',
		});
	}
	const { baseUrl } = baseUrlCheck;

	const request: IHttpRequestOptions = {
		method,
		url: joinUrl(baseUrl, path),
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		arrayFormat: 'repeat',
		timeout: timeoutMs,
	};
	if (body !== undefined) request.body = body;
	if (qs !== undefined) request.qs = qs;

	for (let retryNumber = 0; ; retryNumber++) {
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, {
				...request,
			})) as IN8nHttpFullResponse;
		} catch (error) {
			const failure = networkFailureOf(error);
			throw new NodeApiError(
				this.getNode(),
				{ message: redactSecret(failure.message ?? 'request failed', apiKey) },
				{
					message: `Gateway unreachable at ${baseUrl} (${redactSecret(describeNetworkFailure(failure), apiKey)})`,
					description:
						'Check that the gateway is running and that the Base URL of the Messaging Gateway API credential (scheme, host and port) is right and reachable from n8n.',
					itemIndex,
				},
			);
		}

		const { statusCode } = response;
		if (statusCode < 400) return response.body as T;

		if (isRetryableStatus(statusCode) && retryNumber < RETRY_POLICY.maxRetries) {
			await sleep(retryDelayMs(retryNumber, response.headers?.['retry-after']));
			continue;
		}

		const gatewayMessage = redactSecret(extractGatewayMessage(response.body, statusCode), apiKey);
		throw new NodeApiError(this.getNode(), errorBodyForDetails(response.body, statusCode, apiKey), {
			message: `Gateway error ${statusCode}: ${gatewayMessage}`,
			description: hintForStatus(statusCode),
			httpCode: String(statusCode),
			itemIndex,
		});
	}
}
