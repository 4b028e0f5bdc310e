/**
 * The contracts a gateway's adapters fill, one per part of a node that changes with the gateway:
 * the action node's operations, pickers, instance-family requests and chat history, and the
 * webhook configuration both nodes read. Here in the core, so that the code that runs an adapter
 * names its shape without importing any adapter.
 */
import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodeListSearchResult,
} from 'n8n-workflow';

import type { DEFAULT_GATEWAY, GatewayName } from '../transport';

/** One operation of the action node as a gateway performs it, for one input item. */
export type GatewayOperation = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<INodeExecutionData[]>;

/**
 * How a gateway other than the default performs the action node's operations, keyed
 * `<resource>.<operation>`: `offered` runs it; `notOffered` says why the product has no such
 * thing and what to use instead (refused before any request).
 */
export interface GatewayOperations {
	offered: Record<string, GatewayOperation>;
	notOffered: Record<string, string>;
}

/**
 * Each gateway other than the default (whose operations are the operation files' own), with how it
 * performs the action node's operations: the table the node hands its router.
 */
export type OtherGatewaysOperations = Record<
	Exclude<GatewayName, typeof DEFAULT_GATEWAY>,
	GatewayOperations
>;

/** One picker's list for the Session the editor shows (checked before), as a gateway gives it. */
export type GatewayListSearch = (
	this: ILoadOptionsFunctions,
	session: string,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/** The pickers of the action node whose lists depend on the gateway. */
export interface GatewayLists {
	searchChats: GatewayListSearch;
	searchContacts: GatewayListSearch;
	searchGroups: GatewayListSearch;
	searchLabels: GatewayListSearch;
}

/**
 * A request to an instance-family route (`<family>/<action>/<session>`, Evolution API v1's), as
 * the Messaging Gateway API takes it; each other gateway turns it into its own.
 */
export interface InstanceRequest {
	method: IHttpRequestMethods;
	/** `<family>/<action>`, e.g. `message/sendText`, `chat/markMessageAsRead`. */
	route: string;
	body?: IDataObject;
	qs?: IDataObject;
	/** A read sent with POST (a search): retried as reads are. */
	read?: boolean;
}

/** One message of a chat's history, in the fields the trigger gives a message. */
export interface BurstMessage {
	/** Full message ID (`false_<chat>_<id>`), as the trigger and Get give it. */
	messageId: string;
	/** The ID the sending device gave the message (the last part of the full ID). */
	shortId: string;
	chatId: string;
	fromMe: boolean;
	/** The account's own message, typed by a person on its phone (not sent through the API). */
	typedByPerson: boolean;
	/** The gateway's timestamp, in seconds. */
	timestamp: number;
	sender: string | null;
	pushName: string | null;
	text: string;
	messageType: string | null;
	hasMedia: boolean;
	mimetype: string | null;
	/** The gateway's own record of the message. */
	raw: unknown;
}

/**
 * A chat's message history as a gateway keeps it, for Combine Rapid Messages: pages newest first
 * (the session's own messages included, marked `fromMe`), and a message's file.
 */
export interface ChatHistory {
	page: (
		this: IExecuteFunctions,
		session: string,
		chatId: string,
		offset: number,
		limit: number,
		itemIndex: number,
	) => Promise<BurstMessage[]>;
	mediaFile: (
		this: IExecuteFunctions,
		session: string,
		message: BurstMessage,
		itemIndex: number,
	) => Promise<IBinaryData>;
	/** What to check when a message the trigger received is not in the history. */
	missingHint: string;
}

/** The gateway's webhook configuration of one session, as GET /webhook/find returns it. */
export interface RemoteWebhook {
	enabled: boolean;
	url: string;
	events: string[];
	webhook_by_events: boolean;
	webhook_base64: boolean;
	/** Headers the gateway sends with each delivery (Evolution API v2); kept to put them back. */
	headers?: IDataObject;
}

/**
 * How a gateway keeps a session's webhook: the body of POST /webhook/set, what /webhook/find and
 * set answer, and where the trigger's secret token travels. The Messaging Gateway API's is in
 * the trigger's webhook/registration.ts; Evolution API v2's in evolution-v2/webhook.ts beside this file (its
 * Webhook → Get and Set read it too).
 */
export interface WebhookDialect {
	/** The event names the gateway has; undefined: every event the trigger offers. */
	events?: ReadonlySet<string>;
	gatewayLabel: string;
	/** The header the gateway sends the token in, lower case; undefined: in the URL's query. */
	tokenHeader?: string;
	/** The configuration in a find answer; undefined when the answer is none (the gateway cannot tell). */
	parseFound(found: unknown): RemoteWebhook | undefined;
	setBody(config: RemoteWebhook): IDataObject;
	/** The URL a set answer says is now registered. */
	echoedUrl(answer: IDataObject | undefined): unknown;
}
