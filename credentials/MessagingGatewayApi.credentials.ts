import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

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
			description:
				'Root URL of your gateway, starting with http:// or https://. A trailing slash or surrounding spaces are ignored.',
		},
		{
			// Shown while the Base URL has a query or fragment: the nodes refuse such a Base URL before any request.
			displayName:
				'The Base URL must not contain a query (?…) or a fragment (#…): API paths are appended to it. Use the root URL of the gateway, e.g. https://gateway.example.com',
			name: 'baseUrlQueryNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { baseUrl: [{ _cnd: { regex: '[?#]' } }] } },
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The gateway's API key from its dashboard, sent as the <code>apikey</code> header on every request",
		},
		{
			displayName: 'Request Body Style',
			name: 'requestBodyStyle',
			type: 'options',
			default: 'chatIdSession',
			options: [
				{
					name: 'Chat ID + Session (Shape A)',
					value: 'chatIdSession',
					description: 'Bodies carry "chatId" (e.g. 5511999999999@c.us) and "session"',
				},
				{
					name: 'JID + Session ID (Shape B)',
					value: 'jidSessionId',
					description: 'Bodies carry "jid" (e.g. 5511999999999@s.messenger.net) and "sessionId"',
				},
			],
			description:
				'How your gateway expects the body of the /api/ send, poll, reaction, link-preview, pairing-code and channel-search operations. Shape A is the WAHA-style default; pick Shape B if your gateway rejects Shape A with 400. Paths, the apikey header and the instance operations are the same in both.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				apikey: '={{$credentials.apiKey}}',
			},
		},
	};

	// Lists the instances: the one gateway call that needs a valid key but no session name.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ $credentials.baseUrl.trim().replace(/\\/+$/, "") }}',
			url: '/instance/fetchInstances',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'API key rejected: the gateway answered 401 Unauthorized. Copy the key again from the gateway dashboard.',
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
						'No messaging gateway answers at this Base URL (404). Use the root URL of the gateway, without /api or /instance at the end.',
				},
			},
		],
	};
}
