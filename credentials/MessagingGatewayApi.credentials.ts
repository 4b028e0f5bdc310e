import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/** The header names a gateway may read its API key from: the spec's `apikey`, or WAHA's `X-Api-Key`. */
const API_KEY_HEADERS = ['apikey', 'X-Api-Key'] as const;

/**
 * The header the credential sends its key in: Evolution API v2 reads `apikey`, WAHA `X-Api-Key`; the spec's gateway
 * the one chosen, and anything unknown falls back to the spec's `apikey`.
 */
export function apiKeyHeaderOf(credentials: ICredentialDataDecryptedObject): string {
	if (credentials.gateway === 'evolutionV2') return 'apikey';
	if (credentials.gateway === 'waha') return 'X-Api-Key';
	return API_KEY_HEADERS.find((header) => header === credentials.keyHeader) ?? 'apikey';
}

/** The credential test's method: POST for Evolution API v2's /verify-creds, GET for the others. */
const TEST_METHOD: string = '={{ $credentials.gateway === "evolutionV2" ? "POST" : "GET" }}';

/** What a key check answering 401 or 404 tells, in the order people get it wrong. */
const GATEWAY_FIRST =
	'1. Gateway: it decides the route asked and the header the key goes in (Evolution API v1 and v2 read apikey, WAHA reads X-Api-Key), so a server of another kind than the one chosen refuses a right key or lacks the route.';

/**
 * Evolution API v2's instances as its fetchInstances lists them (the integration beside the name;
 * v1 nests it in the instance): a key that works there with Gateway "Evolution API v1 / Messaging
 * Gateway API" would have the nodes speak v1 to a v2 server.
 */
const V2_INTEGRATIONS = ['WHATSAPP-BAILEYS', 'WHATSAPP-BUSINESS', 'EVOLUTION'];

export class MessagingGatewayApi implements ICredentialType {
	name = 'messagingGatewayApi';

	// "WhatsApp" in the name: n8n's credential search looks at the display name only.
	displayName = 'Messaging Gateway (WhatsApp) API';

	icon: Icon = {
		light: 'file:../icons/messaging-gateway.svg',
		dark: 'file:../icons/messaging-gateway.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-messaging-gateway/n8n-nodes-messaging-gateway#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Gateway',
			name: 'gateway',
			type: 'options',
			// The first choice stays the default: credentials saved before the field existed use it.
			default: 'messagingGatewayApi',
			options: [
				{
					name: 'Evolution API v1 / Messaging Gateway API',
					value: 'messagingGatewayApi',
					description:
						'Evolution API 1.x, or another gateway that offers the Messaging Gateway API these nodes were first built on',
				},
				{
					name: 'Evolution API v2',
					value: 'evolutionV2',
					description: 'Evolution API 2.x (checked with 2.3.0 to 2.4.0)',
				},
				{
					name: 'WAHA',
					value: 'waha',
					description: 'WAHA (WhatsApp HTTP API), any engine',
				},
			],
			description:
				'The gateway server you run. It decides the addresses the nodes call and the header the API key goes in (Evolution API: apikey; WAHA: X-Api-Key).',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://gateway.example.com',
			// The rule is told here, not in a notice shown on a condition: n8n evaluates display
			// conditions at every credential read (a regular expression there fails on a stalled
			// process), and n8n 1.x's API refuses an "includes" condition holding "?" as a bad pattern.
			description:
				'Root URL of your gateway, starting with http:// or https://, without a query (?…) or fragment (#…): API paths are appended to it. A trailing slash or surrounding spaces are ignored.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The gateway's API key (Evolution API: AUTHENTICATION_API_KEY, or an instance's token; WAHA: WAHA_API_KEY), sent with every request to the Base URL and nowhere else",
		},
		{
			displayName: 'API Key Header',
			name: 'keyHeader',
			displayOptions: { show: { gateway: ['messagingGatewayApi'] } },
			type: 'options',
			default: 'apikey',
			options: [
				{
					name: 'apikey (Evolution API v1 and Most Gateways)',
					value: 'apikey',
					description: 'The header Evolution API and most gateways read',
				},
				{
					name: 'X-Api-Key',
					value: 'X-Api-Key',
					description: 'For a gateway whose documentation names the X-Api-Key header',
				},
			],
			description:
				'The HTTP header that carries the API key. Keep apikey unless your gateway documents X-Api-Key.',
		},
		{
			displayName: 'Request Body Style',
			name: 'requestBodyStyle',
			displayOptions: { show: { gateway: ['messagingGatewayApi'] } },
			type: 'options',
			default: 'chatIdSession',
			options: [
				{
					name: 'chatId + session (Most Gateways)',
					value: 'chatIdSession',
					description:
						'Bodies name the chat "chatId" (e.g. 5511999999999@c.us) and the session "session"',
				},
				{
					name: 'jid + sessionId (Wappfy-Style Gateways)',
					value: 'jidSessionId',
					description:
						'Bodies name the chat "jid" (e.g. 5511999999999@s.whatsapp.net) and the session "sessionId"',
				},
				{
					name: 'Detect Automatically',
					value: 'auto',
					description:
						'Start with chatId + session; if the gateway rejects a body with 400, try jid + sessionId once and keep what works',
				},
			],
			description:
				'How your gateway names the chat and the session in the body of polls, reactions, link previews, pairing codes and channel searches. Keep the first choice unless those operations fail with 400 naming jid or sessionId; then pick the second, or let the node detect it. Everything else is the same in all choices.',
		},
		{
			displayName: 'Fetch Files From Private Addresses',
			name: 'allowPrivateFileHosts',
			type: 'boolean',
			default: false,
			description:
				"Whether n8n may download a file from a loopback, private, link-local or other internal address when an input item or the gateway names its URL (a link preview's image, a message's media elsewhere than the Base URL). Off, such URLs are refused before anything is sent, so a URL in an incoming message cannot make n8n fetch from your internal network. Turn on only if those files live on your own network. The Base URL is always used as given.",
		},
	];

	// A function rather than a generic header map: the header's name is a setting of the credential.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, [apiKeyHeaderOf(credentials)]: credentials.apiKey },
		};
	}

	/**
	 * Each gateway's own check of the key: Evolution API v2's `POST /verify-creds` (only the global
	 * key passes; no other gateway has it), WAHA's `GET /api/server/version`, else the instance list
	 * (a route that needs a valid key and no session). n8n resolves the expressions of the test's
	 * request as it does for a declarative node. A rule's message is fixed text, so it cannot name
	 * the Gateway chosen: it says what to check in the order people get it wrong.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ $credentials.baseUrl.trim().replace(/\\/+$/, "") }}',
			url: '={{ $credentials.gateway === "evolutionV2" ? "/verify-creds" : $credentials.gateway === "waha" ? "/api/server/version" : "/instance/fetchInstances" }}',
			// An expression n8n resolves before sending; the type names only the methods it resolves to.
			method: TEST_METHOD as IHttpRequestMethods,
			// n8n would follow a redirect with the key in its header, to wherever it points.
			disableFollowRedirect: true,
		},
		// n8n reads both kinds of rule from one list (the codes on an error answer, the bodies on a
		// 2xx), though its type names one kind per list.
		rules: [
			...V2_INTEGRATIONS.map((integration) => ({
				type: 'responseSuccessBody' as const,
				properties: {
					// n8n reads the first item of the answer: the first instance of the list.
					key: 'integration',
					value: integration,
					message:
						'The key works, but the server at this Base URL answers as Evolution API v2: choose Gateway "Evolution API v2" (with "Evolution API v1 / Messaging Gateway API" the nodes would call routes and send bodies of v1).',
				},
			})),
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: `The gateway refused the key (401). Check, in this order: ${GATEWAY_FIRST} 2. API Key: copy it again from the gateway's configuration (with Gateway "Evolution API v1 / Messaging Gateway API", also the API Key Header field). Evolution API v2's check takes only the global key (AUTHENTICATION_API_KEY on the server); the nodes also work with an instance's token, for its instance.`,
				},
			},
			...[301, 302, 303, 307, 308].map((status) => ({
				type: 'responseCode' as const,
				properties: {
					value: status,
					message: `The Base URL redirects (${status}): use the address it redirects to as the Base URL (the API key is never sent on a redirect). An http:// address that redirects to https:// is the most common case.`,
				},
			})),
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The gateway accepted this key for single instances only (403). Use the global API key to test, or save and use the credential as it is.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: `The chosen Gateway's check is not at this Base URL (404). Check, in this order: ${GATEWAY_FIRST} Each asks its own route: Evolution API v1 / Messaging Gateway API GET /instance/fetchInstances, Evolution API v2 POST /verify-creds, WAHA GET /api/server/version. 2. Base URL: the gateway's root address, without /api, /manager or /instance at the end.`,
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 503,
					message:
						"The gateway is unavailable (503). Evolution API 2.4.0 answers 503 LICENSE_REQUIRED until its server is activated: open /manager on the server's address and follow its licence steps (or set AUTHENTICATION_API_KEY in its .env to a valid licensing key). Otherwise the gateway is starting or overloaded: try again in a minute.",
				},
			},
		] as ICredentialTestRequest['rules'],
	};
}
