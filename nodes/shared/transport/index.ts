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

interface ResolvedGateway {
	baseUrl: string;
	apiKey: string;
}

async function resolveGateway(
	this: GatewayRequestContext,
	itemIndex?: number,
): Promise<ResolvedGateway> {
	const credentials = await this.getCredentials<GatewayCredentials>(CREDENTIAL_TYPE);
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	const baseUrlCheck = normalizeBaseUrl(credentials.baseUrl);
	if (!baseUrlCheck.ok) {
		throw new NodeOperationError(this.getNode(), redactSecret(baseUrlCheck.reason, apiKey), {
			itemIndex,
			description: 'Open the Messaging Gateway API credential and fix its Base URL.',
		});
	}
	return { baseUrl: baseUrlCheck.baseUrl, apiKey };
}

/**
 * Sends a request (with the credential, or without it for files hosted elsewhere), retries
 * 429/503, and turns every failure into an n8n error with the HTTP code, the gateway's own
 * message and a hint. Returns the full response of a 1xx-3xx answer.
 */
async function sendWithRetries(
	this: GatewayRequestContext,
	request: IHttpRequestOptions,
	gateway: ResolvedGateway,
	itemIndex: number | undefined,
	authenticated: boolean,
): Promise<IN8nHttpFullResponse> {
	const { baseUrl, apiKey } = gateway;
	const fullRequest: IHttpRequestOptions = {
		...request,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	for (let retryNumber = 0; ; retryNumber++) {
		let response: IN8nHttpFullResponse;
		try {
			response = (
				authenticated
					? await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, {
							...fullRequest,
						})
					: await this.helpers.httpRequest({ ...fullRequest })
			) as IN8nHttpFullResponse;
		} catch (error) {
			const failure = networkFailureOf(error);
			const target = authenticated ? baseUrl : new URL(request.url).origin;
			throw new NodeApiError(
				this.getNode(),
				{ message: redactSecret(failure.message ?? 'request failed', apiKey) },
				{
					message: `${authenticated ? 'Gateway' : 'File host'} unreachable at ${target} (${redactSecret(describeNetworkFailure(failure), apiKey)})`,
					description: authenticated
						? 'Check that the gateway is running and that the Base URL of the Messaging Gateway API credential (scheme, host and port) is right and reachable from n8n.'
						: 'Check that the file URL is right and reachable from n8n.',
					itemIndex,
				},
			);
		}

		const { statusCode } = response;
		if (statusCode < 400) return response;

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
	const gateway = await resolveGateway.call(this, itemIndex);
	const request: IHttpRequestOptions = {
		method,
		url: joinUrl(gateway.baseUrl, path),
		json: true,
		arrayFormat: 'repeat',
		timeout: timeoutMs,
	};
	if (body !== undefined) request.body = body;
	if (qs !== undefined) request.qs = qs;
	const response = await sendWithRetries.call(this, request, gateway, itemIndex, true);
	return response.body as T;
}

export interface DownloadedFile {
	data: Buffer;
	mimeType?: string;
	fileName?: string;
}

function fileNameFromDisposition(header: unknown): string | undefined {
	if (typeof header !== 'string') return undefined;
	const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
	return match ? decodeURIComponent(match[1]) : undefined;
}

/**
 * Downloads a media file the gateway points at. The API key is sent only when the file is on
 * the gateway itself (same origin as the Base URL), never to another host.
 */
export async function gatewayDownloadFile(
	this: GatewayRequestContext,
	fileUrl: string,
	itemIndex?: number,
): Promise<DownloadedFile> {
	const gateway = await resolveGateway.call(this, itemIndex);
	const absoluteUrl = new URL(fileUrl, `${gateway.baseUrl}/`).toString();
	const onGateway = new URL(absoluteUrl).origin === new URL(gateway.baseUrl).origin;
	const response = await sendWithRetries.call(
		this,
		{ method: 'GET', url: absoluteUrl, encoding: 'arraybuffer', timeout: DEFAULT_TIMEOUT_MS },
		gateway,
		itemIndex,
		onGateway,
	);
	const contentType = response.headers?.['content-type'];
	return {
		data: Buffer.from(response.body as ArrayBuffer),
		mimeType: typeof contentType === 'string' ? contentType.split(';')[0].trim() : undefined,
		fileName:
			fileNameFromDisposition(response.headers?.['content-disposition']) ??
			(decodeURIComponent(new URL(absoluteUrl).pathname.split('/').pop() ?? '') || undefined),
	};
}
