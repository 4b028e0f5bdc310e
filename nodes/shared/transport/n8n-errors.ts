/**
 * A request that got no usable answer, or an error answer, as the n8n error the user sees: what
 * failed, where, in the gateway's own words with secrets removed, and what to do about it.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { GatewayRequestContext, ResolvedGateway } from './credentials';
import {
	errorBodyForDetails,
	extractGatewayMessage,
	hintForStatus,
	licenceHint,
	licenceRequired,
	redactSecret,
} from './errors';
import { megabytes, seconds } from './fetch';
import type { Answer, FetchFailure, FetchPlan } from './fetch';
import { displayUrl } from './url';
import { isObject } from '../values';

/** Whether n8n's own SSRF protection refused the request (its SsrfBlocked…Error, maybe wrapped). */
function blockedByN8n(error: unknown): boolean {
	for (let cause = error, depth = 0; isObject(cause) && depth < 5; depth++) {
		if (typeof cause.name === 'string' && cause.name.startsWith('SsrfBlocked')) return true;
		cause = cause.cause;
	}
	return false;
}

/** The error for a request that got no usable answer: unreachable, too slow, too large, redirected away. */
export function failureError(
	this: GatewayRequestContext,
	failure: FetchFailure,
	plan: FetchPlan,
	gateway: ResolvedGateway,
): NodeApiError | NodeOperationError {
	const onGateway = plan.target === 'Gateway';
	const where = onGateway ? displayUrl(gateway.baseUrl) : displayUrl(new URL(plan.url).origin);
	const reason = redactSecret(failure.message, gateway.secrets);
	const what = onGateway ? 'Gateway' : `${plan.target}: the file host`;
	const message =
		failure.kind === 'network' || failure.kind === 'deadline'
			? `${what} unreachable at ${where} (${reason})`
			: `${what} at ${where} could not be used (${reason})`;
	if (failure.kind === 'network' && blockedByN8n(failure.original)) {
		return new NodeApiError(
			this.getNode(),
			{ message: reason },
			{
				message: `${what} at ${where} was blocked by n8n's SSRF protection (${reason})`,
				description: onGateway
					? "n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED) blocks private and local addresses for every node. If the gateway runs on your own network, allow it in n8n's environment: N8N_SSRF_ALLOWED_HOSTNAMES=<its host name> or N8N_SSRF_ALLOWED_IP_RANGES=<its address>/32."
					: "n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED) blocks this address for every node; an n8n administrator can allow it with N8N_SSRF_ALLOWED_HOSTNAMES or N8N_SSRF_ALLOWED_IP_RANGES.",
				itemIndex: plan.itemIndex,
			},
		);
	}
	if (failure.kind === 'internalAddress') {
		return new NodeOperationError(
			this.getNode(),
			`${onGateway ? 'A file the gateway named' : plan.target}: n8n does not fetch files from internal addresses (${reason})`,
			{
				itemIndex: plan.itemIndex,
				description:
					'Loopback, private, link-local, carrier-grade NAT and unique-local addresses are refused in every spelling, also when a name resolves to one or a redirect leads there, so a URL in a message cannot reach your internal network. If the file is on your own network, turn on "Fetch Files From Private Addresses" in the Messaging Gateway API credential.',
			},
		);
	}
	const descriptions: Record<Exclude<FetchFailure['kind'], 'internalAddress'>, string> = {
		network: onGateway
			? 'Check that the gateway is running and that the Base URL of the Messaging Gateway API credential (scheme, host and port) is right and reachable from n8n.'
			: 'Check that the URL is right and reachable from n8n.',
		deadline: onGateway
			? `Every request has ${seconds(plan.deadlineMs)} to be answered completely. Check the gateway's load and logs, or the network between n8n and the gateway.`
			: `The file must arrive completely within ${seconds(plan.deadlineMs)}.`,
		tooLarge: `Answers are limited to ${megabytes(plan.maxBytes)}.`,
		redirect: onGateway
			? 'If the gateway moved (for example from http:// to https://), put its new address as the Base URL of the credential.'
			: 'Use a direct http(s) link to the file.',
	};
	const cause = failure.original ?? failure;
	return new NodeApiError(
		this.getNode(),
		{
			message: redactSecret(
				cause instanceof Error ? cause.message : String(cause),
				gateway.secrets,
			),
		},
		{ message, description: descriptions[failure.kind], itemIndex: plan.itemIndex },
	);
}

/**
 * "Gateway error <code>: <words>" with the answer, secrets removed, in the error's details. `words`
 * defaults to the gateway's own message found in `body`.
 */
export function gatewayError(
	this: GatewayRequestContext,
	body: unknown,
	statusCode: number,
	gateway: ResolvedGateway,
	itemIndex: number | undefined,
	explanation: { description: string; words?: string },
): NodeApiError {
	const words =
		explanation.words ?? redactSecret(extractGatewayMessage(body, statusCode), gateway.secrets);
	return new NodeApiError(this.getNode(), errorBodyForDetails(body, statusCode, gateway.secrets), {
		message: `Gateway error ${statusCode}: ${words}`,
		description: explanation.description,
		httpCode: String(statusCode),
		itemIndex,
	});
}

/** An HTTP error answer: the gateway's, or a file host's (which never got the key). */
export function statusError(
	this: GatewayRequestContext,
	answer: Answer,
	plan: FetchPlan,
	gateway: ResolvedGateway,
): NodeApiError {
	const { statusCode } = answer;
	const body = answer.body.toString('utf8');
	if (plan.target === 'Gateway') {
		const licence = licenceRequired(statusCode, body);
		if (licence) {
			return gatewayError.call(this, body, statusCode, gateway, plan.itemIndex, {
				words: 'the Evolution API server is not activated (LICENSE_REQUIRED)',
				description: redactSecret(licenceHint(licence.registerUrl), gateway.secrets),
			});
		}
		const words = redactSecret(extractGatewayMessage(body, statusCode), gateway.secrets);
		// Express and NestJS answer a route they do not have with "Cannot <METHOD> <path>".
		const missingRoute = /\bCannot (GET|POST|PUT|PATCH|DELETE) (\/[^\s"'<]*)/.exec(words);
		return gatewayError.call(this, body, statusCode, gateway, plan.itemIndex, {
			words,
			description:
				statusCode === 404 && missingRoute
					? `This gateway does not offer this operation: it has no ${missingRoute[1]} ${missingRoute[2].replace(/[.,;:]+$/, '')} endpoint. It may be another product or version than the one this operation comes from; the README's compatibility table says which gateways have it.`
					: hintForStatus(statusCode),
		});
	}
	const hostMessage = redactSecret(extractGatewayMessage(body, statusCode), gateway.secrets);
	return new NodeApiError(this.getNode(), errorBodyForDetails(body, statusCode, gateway.secrets), {
		message: `${plan.target}: the file host answered ${statusCode} (${hostMessage})`,
		description:
			statusCode === 401 || statusCode === 403
				? "The API key is sent only to the Base URL's own address. If this file is on the gateway under another address, make the gateway write its file links with the Base URL's address."
				: 'Check that the URL is right and public.',
		httpCode: String(statusCode),
		itemIndex: plan.itemIndex,
	});
}
