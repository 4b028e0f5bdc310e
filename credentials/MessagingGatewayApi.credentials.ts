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

export class MessagingGatewayApi implements ICredentialType {
	name = 'messagingGatewayApi';

	displayName = 'Messaging Gateway API';

	icon: Icon = {
		light: 'file:../icons/messaging-gateway.svg',
		dark: 'file:../icons/messaging-gateway.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-messaging-gateway/n8n-nodes-messaging-gateway#credentials';

	properties: INodeProperties[] = [
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
				"The gateway's API key from its dashboard, sent on every request in the header chosen below",
		},
		{
			displayName: 'Gateway',
			name: 'gateway',
			type: 'options',
			default: 'messagingGatewayApi',
			options: [
				{
					name: 'Messaging Gateway API',
					value: 'messagingGatewayApi',
					description:
						"The API these nodes are built on: WAHA-style /api routes and Evolution API v1's instance routes",
				},
				{
					name: 'Evolution API v2',
					value: 'evolutionV2',
					description:
						'Evolution API 2.x (2.3.6 and compatible), spoken as its own routes and bodies',
				},
				{
					name: 'WAHA',
					value: 'waha',
					description:
						'WAHA (WhatsApp HTTP API) 2026.x, spoken as its own routes and bodies; the key goes in X-Api-Key',
				},
			],
			description:
				'Which gateway product answers at the Base URL: each is spoken in its own routes and bodies. Keep Messaging Gateway API for the API these nodes are built on (and Evolution API v1).',
		},
		{
			displayName: 'API Key Header',
			name: 'keyHeader',
			displayOptions: { show: { gateway: ['messagingGatewayApi'] } },
			type: 'options',
			default: 'apikey',
			options: [
				{
					name: 'apikey (Evolution API and Compatible Gateways)',
					value: 'apikey',
					description: "The header this package's gateway API and Evolution API read",
				},
				{
					name: 'X-Api-Key (WAHA)',
					value: 'X-Api-Key',
					description: 'The header WAHA reads; with apikey, a WAHA that has a key answers 401',
				},
			],
			description:
				'The HTTP header that carries the API key. Keep apikey unless your gateway is WAHA or documents X-Api-Key.',
		},
		{
			displayName: 'Request Body Style',
			name: 'requestBodyStyle',
			displayOptions: { show: { gateway: ['messagingGatewayApi'] } },
			type: 'options',
			default: 'chatIdSession',
			options: [
				{
					name: 'chatId + session (WAHA and Most Gateways)',
					value: 'chatIdSession',
					description:
						'Bodies name the chat "chatId" (e.g. 5511999999999@c.us) and the session "session", as WAHA does',
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
	 * Evolution API v2: `POST /verify-creds`, which only the global API key passes and no other
	 * gateway has (404 there, so a wrong Gateway choice shows). Others: list the instances, the one
	 * gateway call that needs a valid key but no session name. n8n resolves expressions in every
	 * field of the test's request, as it does for a declarative node's routing.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ $credentials.baseUrl.trim().replace(/\\/+$/, "") }}',
			// Each gateway's own check of the key: v2's /verify-creds, WAHA's server version, else the sessions.
			url: '={{ $credentials.gateway === "evolutionV2" ? "/verify-creds" : $credentials.gateway === "waha" ? "/api/server/version" : "/instance/fetchInstances" }}',
			// An expression n8n resolves before sending; the type names only the methods it resolves to.
			method: TEST_METHOD as IHttpRequestMethods,
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						"API key rejected: the gateway answered 401 Unauthorized. Copy the key again from the gateway dashboard. With Gateway: Evolution API v2 the test needs the global API key (the server's AUTHENTICATION_API_KEY): an instance's token is refused there, though the nodes can use it for that instance.",
				},
			},
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
					message:
						'No messaging gateway answers at this Base URL (404). Use the root URL of the gateway, without /api or /instance at the end. With Gateway: Evolution API v2 or WAHA, no such gateway answers there; if the gateway is Evolution API v1 or another gateway these nodes speak, choose Gateway: Messaging Gateway API.',
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
		],
	};
}
