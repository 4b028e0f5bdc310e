import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { CREDENTIAL_TYPE, DEFAULT_GATEWAY, gatewayNamed } from './credentials';
import type { BodyStyleSetting, GatewayRequestContext, RequestBodyStyle } from './credentials';
import { gatewayApiRequest } from './request';
import type { GatewayRequestOptions } from './request';

/** The choices' names in the credential, for messages that tell which one to pick. */
export const BODY_STYLE_LABELS: Record<RequestBodyStyle, string> = {
	chatIdSession: 'chatId + session (Most Gateways)',
	jidSessionId: 'jid + sessionId (Wappfy-Style Gateways)',
};

/** The field names that give a style away in a gateway's error message. */
const FIELDS_OF: Record<RequestBodyStyle, string> = {
	chatIdSession: '"chatId" or "session"',
	jidSessionId: '"jid" or "sessionId"',
};

function otherStyle(style: RequestBodyStyle): RequestBodyStyle {
	return style === 'chatIdSession' ? 'jidSessionId' : 'chatIdSession';
}

/**
 * The style each gateway took, by Base URL, found by "Detect Automatically". Kept for the life of
 * the n8n process, so only the first request of the first run pays for a rejected try.
 */
const detectedStyles = new Map<string, RequestBodyStyle>();

async function readSetting(
	this: GatewayRequestContext,
): Promise<{ setting: BodyStyleSetting; gateway: string }> {
	const credentials = await this.getCredentials<{
		requestBodyStyle?: unknown;
		baseUrl?: unknown;
		gateway?: unknown;
	}>(CREDENTIAL_TYPE);
	// The setting belongs to the Messaging Gateway API; another gateway speaks its own bodies (WAHA's
	// are chatId + session), whatever a hidden field kept from before the Gateway was changed.
	const raw =
		gatewayNamed(credentials.gateway) === DEFAULT_GATEWAY
			? credentials.requestBodyStyle
			: undefined;
	const setting: BodyStyleSetting =
		raw === 'jidSessionId' || raw === 'auto' ? raw : 'chatIdSession';
	return { setting, gateway: String(credentials.baseUrl ?? '').trim() };
}

/** The style to build a body in now: the credential's, or for `auto` the one detected (shape A until then). */
export async function getRequestBodyStyle(this: GatewayRequestContext): Promise<RequestBodyStyle> {
	const { setting, gateway } = await readSetting.call(this);
	if (setting !== 'auto') return setting;
	return detectedStyles.get(gateway) ?? 'chatIdSession';
}

function isRejectedBody(error: unknown): error is NodeApiError {
	return error instanceof NodeApiError && error.httpCode === '400';
}

/**
 * A request whose body depends on the body style (`build` makes it for a style). With "Detect
 * Automatically", a 400 makes one more try in the other style; the style that works is kept for
 * this gateway. A gateway refuses a body it cannot read with 400 before doing anything, so the
 * second try never repeats an action. With a fixed style, a 400 says which style to try.
 */
export async function gatewayStyledRequest<T = unknown>(
	this: GatewayRequestContext,
	method: IHttpRequestMethods,
	path: string,
	build: (style: RequestBodyStyle) => Promise<IDataObject> | IDataObject,
	options: Omit<GatewayRequestOptions, 'body'> = {},
): Promise<{ response: T; style: RequestBodyStyle }> {
	const { setting, gateway } = await readSetting.call(this);
	const first = setting === 'auto' ? (detectedStyles.get(gateway) ?? 'chatIdSession') : setting;
	// Each try settles to its answer or its error (already a NodeApiError or NodeOperationError
	// from the transport), so a rejected body can be told apart from every other failure.
	const attempt = async (style: RequestBodyStyle): Promise<{ response: T } | { error: unknown }> =>
		await gatewayApiRequest.call(this, method, path, { ...options, body: await build(style) }).then(
			(response) => ({ response: response as T }),
			(error: unknown) => ({ error }),
		);

	const firstTry = await attempt(first);
	if ('response' in firstTry) {
		if (setting === 'auto') detectedStyles.set(gateway, first);
		return { response: firstTry.response, style: first };
	}
	const rejected = firstTry.error;
	if (!isRejectedBody(rejected)) throw rejected;
	const second = otherStyle(first);
	if (setting !== 'auto') {
		rejected.description =
			`${rejected.description ?? ''} If the message names ${FIELDS_OF[second]}, this gateway reads the other body style: open the Messaging Gateway API credential and set Request Body Style to "${BODY_STYLE_LABELS[second]}" or "Detect Automatically".`.trim();
		throw rejected;
	}
	const secondTry = await attempt(second);
	if ('response' in secondTry) {
		detectedStyles.set(gateway, second);
		return { response: secondTry.response, style: second };
	}
	if (!isRejectedBody(secondTry.error)) throw secondTry.error;
	rejected.description =
		`${rejected.description ?? ''} Both body styles were tried (${BODY_STYLE_LABELS[first]}, then ${BODY_STYLE_LABELS[second]}) and the gateway rejected both, so the problem is in the fields themselves.`.trim();
	throw rejected;
}
