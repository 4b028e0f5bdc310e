/**
 * The Messaging Gateway API credential as every request reads it: once per node run, its Base URL
 * checked and its secrets known, so that no message shows them.
 */
import type {
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { redactSecret } from './errors';
import { normalizeBaseUrl } from './url';

export const CREDENTIAL_TYPE = 'messagingGatewayApi';

/**
 * The gateway products a credential can name (its Gateway field), here with the credential that
 * picks one. Each is spoken in its own routes, bodies and answers, kept in a folder per gateway
 * (`nodes/shared/gateways/<gateway>/` for what both nodes read, and each node's `gateways/`); the
 * Messaging Gateway API (this package's own) is the default, so a credential saved before the
 * choice existed behaves as it always did.
 */
export const GATEWAY_LABELS = {
	messagingGatewayApi: 'Evolution API v1 / Messaging Gateway API',
	evolutionV2: 'Evolution API v2',
	waha: 'WAHA',
} as const;

export type GatewayName = keyof typeof GATEWAY_LABELS;

export const DEFAULT_GATEWAY = 'messagingGatewayApi' satisfies GatewayName;

/** The credential's Gateway field as a gateway; anything else (a credential from before) is the default. */
export function gatewayNamed(raw: unknown): GatewayName {
	return typeof raw === 'string' && Object.prototype.hasOwnProperty.call(GATEWAY_LABELS, raw)
		? (raw as GatewayName)
		: DEFAULT_GATEWAY;
}

/** Shape A: `chatId` + `session`; shape B: `jid` + `sessionId` (see the credential's Request Body Style). */
export type RequestBodyStyle = 'chatIdSession' | 'jidSessionId';

/** What the credential says: one of the styles, or `auto` to find out from the gateway's answers. */
export type BodyStyleSetting = RequestBodyStyle | 'auto';

export interface GatewayCredentials {
	baseUrl: string;
	apiKey: string;
	requestBodyStyle?: BodyStyleSetting;
	/** Fetch Files From Private Addresses: URLs named by items or the gateway may be internal. */
	allowPrivateFileHosts?: boolean;
	/** The gateway product (see GATEWAY_LABELS); absent on credentials saved before the choice. */
	gateway?: string;
}

export type GatewayRequestContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

export interface ResolvedGateway {
	baseUrl: string;
	origin: string;
	/** The API key and a Base URL password: never in a message. */
	secrets: string[];
	/** Handed to n8n's authentication with each request, so it does not read them again. */
	credentials: ICredentialsDecrypted;
	/** Whether files named by items or the gateway may be fetched from internal addresses. */
	allowPrivateFiles: boolean;
}

/**
 * The credential, read once per node run (its context) and handed to n8n with each request: n8n
 * loads and decrypts it from its database on every read (about 3 ms in n8n 2.41.1 with SQLite,
 * more than a request to a local gateway), and `httpRequestWithAuthentication` reads it again for
 * every request unless it is given. A failed read is not kept, so the next request tries again.
 */
interface ReadCredentials {
	data: GatewayCredentials;
	/** The same data as n8n's authentication takes it. */
	decrypted: ICredentialsDecrypted;
	/** The Base URL checked, once for the run. */
	baseUrlCheck: ReturnType<typeof normalizeBaseUrl>;
}

const credentialsByContext = new WeakMap<GatewayRequestContext, Promise<ReadCredentials>>();

async function readCredentials(this: GatewayRequestContext): Promise<ReadCredentials> {
	const data = await this.getCredentials(CREDENTIAL_TYPE);
	const reference = this.getNode().credentials?.[CREDENTIAL_TYPE];
	return {
		data: data as unknown as GatewayCredentials,
		baseUrlCheck: normalizeBaseUrl(data.baseUrl),
		decrypted: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: CREDENTIAL_TYPE,
			data,
		},
	};
}

async function credentialsOf(this: GatewayRequestContext): Promise<ReadCredentials> {
	let pending = credentialsByContext.get(this);
	if (!pending) {
		pending = readCredentials.call(this);
		credentialsByContext.set(this, pending);
		pending.catch(() => credentialsByContext.delete(this));
	}
	return await pending;
}

/** The gateway product the credential names, read with the rest of the credential (once per run). */
export async function selectedGateway(this: GatewayRequestContext): Promise<GatewayName> {
	const { data } = await credentialsOf.call(this);
	return gatewayNamed(data.gateway);
}

export async function resolveGateway(
	this: GatewayRequestContext,
	itemIndex?: number,
): Promise<ResolvedGateway> {
	const { data: credentials, decrypted, baseUrlCheck } = await credentialsOf.call(this);
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	const description = 'Open the Messaging Gateway API credential and fix it.';
	if (!baseUrlCheck.ok) {
		throw new NodeOperationError(this.getNode(), redactSecret(baseUrlCheck.reason, apiKey), {
			itemIndex,
			description: 'Open the Messaging Gateway API credential and fix its Base URL.',
		});
	}
	if (apiKey.trim() === '') {
		throw new NodeOperationError(this.getNode(), 'The credential has no API Key', {
			itemIndex,
			description: `${description} Copy the API key from the gateway's dashboard or its configuration.`,
		});
	}
	return {
		baseUrl: baseUrlCheck.baseUrl,
		origin: baseUrlCheck.origin,
		secrets: [apiKey, ...baseUrlCheck.secrets],
		credentials: decrypted,
		allowPrivateFiles: credentials.allowPrivateFileHosts === true,
	};
}
