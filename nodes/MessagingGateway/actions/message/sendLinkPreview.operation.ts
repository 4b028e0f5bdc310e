import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	BODY_STYLE_LABELS,
	fetchPublicFile,
	gatewayStyledRequest,
	PUBLIC_FILE_LIMITS,
} from '../../../shared/transport';
import type { RequestBodyStyle } from '../../../shared/transport';
import { fileSourceProperties } from '../../helpers/files';
import { sessionAndChat } from '../../../shared/identifiers';
import type { ChatReference } from '../../../shared/identifiers';
import {
	fieldError,
	readChat,
	responseObject,
	replyToShapeAOption,
	readShapeAReplyTo,
} from '../../helpers/message';
import { isHttpUrl } from '../../helpers/urls';
import {
	readSession,
	sendTargetField,
	sessionFields,
	showOnlyFor,
	simultaneousChatsOption,
	paceSendsOptions,
	waitBetweenItemsOption,
} from '../common/descriptions';
import { booleanFrom, isBlank, optionBoolean, readOptions, readText } from '../../helpers/fields';

/** Evolution API v2 has no custom preview: it builds the card from the page, and the output says what it did not get. */
const NOT_SENT_ON_EVOLUTION_V2 =
	'Not sent to Evolution API v2, which builds the preview from the page itself; the output lists it in previewFieldsNotSent.';

const PREVIEW_IMAGE_URL_RULE = `A public http(s) link to the image. With the Request Body Style "chatId + session" the gateway downloads it; with "jid + sessionId" n8n downloads it and sends it inline: never with the API key, at most ${PUBLIC_FILE_LIMITS.maxBytes / (1024 * 1024)} MB within ${PUBLIC_FILE_LIMITS.deadlineMs / 1000} s, and only if the host says it is an image. ${NOT_SENT_ON_EVOLUTION_V2}`;

const properties: INodeProperties[] = [
	...sessionFields,
	sendTargetField('write to'),
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		default: '',
		typeOptions: { rows: 3 },
		placeholder: 'e.g. Our new menu is online: https://example.com/menu',
		description:
			'The message text. It must contain the Preview URL; by default the URL is added at the end when it is missing. Evolution API v2 previews the first https link of the text, which must be the Preview URL.',
	},
	{
		displayName: 'Preview URL',
		name: 'previewUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/menu',
		description: 'The http(s) link the preview card opens (https on Evolution API v2)',
	},
	{
		displayName: 'Preview Title',
		name: 'previewTitle',
		type: 'string',
		default: '',
		placeholder: 'e.g. Our New Menu',
		description: `Title of the preview card. Required with the Request Body Style "jid + sessionId". ${NOT_SENT_ON_EVOLUTION_V2}`,
	},
	{
		displayName: 'Preview Description',
		name: 'previewDescription',
		type: 'string',
		default: '',
		placeholder: 'e.g. Seasonal dishes, fresh bread every morning',
		description: `Text under the title of the preview card. Required with the Request Body Style "jid + sessionId". ${NOT_SENT_ON_EVOLUTION_V2}`,
	},
	// The gateway takes the image as a URL or as base64, so no MIME type is asked for.
	...fileSourceProperties('previewImage', 'Preview Image', true)
		.filter((property) => property.name !== 'previewImageMimeType')
		.map((property) =>
			property.name === 'previewImageUrl'
				? { ...property, description: PREVIEW_IMAGE_URL_RULE }
				: property.name === 'previewImageSource'
					? { ...property, description: `${property.description}. ${NOT_SENT_ON_EVOLUTION_V2}` }
					: property,
		),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Append URL to Text If Missing',
				name: 'appendUrl',
				type: 'boolean',
				default: true,
				description:
					'Whether to add the Preview URL at the end of the text when the text does not contain it (the gateway requires the text to contain it)',
			},
			{
				displayName: 'High Quality Preview',
				name: 'highQuality',
				type: 'boolean',
				default: true,
				description:
					'Whether to send the preview image in high quality. Ignored with the Request Body Style "jid + sessionId" of the credential, and not sent to Evolution API v2 (listed in previewFieldsNotSent).',
			},
			...paceSendsOptions,
			replyToShapeAOption,
			simultaneousChatsOption,
			waitBetweenItemsOption,
		],
	},
];

export const description = showOnlyFor('message', 'sendLinkPreview', properties);

/** Where the user's preview image is: a checked http(s) URL or a binary field the item has. */
export type PreviewImageSource = { url: string } | { binaryProperty: string };

/** The Preview Image fields, checked (the URL is http(s), the item has the binary field); nothing is fetched or loaded. */
export function readPreviewImageSource(
	this: IExecuteFunctions,
	itemIndex: number,
): PreviewImageSource | undefined {
	const source = this.getNodeParameter('previewImageSource', itemIndex, 'none') as string;
	if (source === 'url') {
		const url = readText.call(this, 'previewImageUrl', 'Preview Image URL', itemIndex);
		if (!isHttpUrl(url)) {
			throw fieldError.call(
				this,
				itemIndex,
				`Preview Image URL must be an http(s) URL (got "${url}")`,
			);
		}
		return { url };
	}
	if (source === 'binary') {
		const binaryProperty = readText.call(
			this,
			'previewImageBinaryProperty',
			'Input Binary Field',
			itemIndex,
		);
		this.helpers.assertBinaryData(itemIndex, binaryProperty);
		return { binaryProperty };
	}
	return undefined;
}

/** The preview image as the body style wants it: `{url}` or base64 (shape B takes base64 only). */
async function readPreviewImage(
	this: IExecuteFunctions,
	itemIndex: number,
	style: RequestBodyStyle,
): Promise<IDataObject | string | undefined> {
	const source = readPreviewImageSource.call(this, itemIndex);
	if (source === undefined) return undefined;
	if ('binaryProperty' in source) {
		const buffer = await this.helpers.getBinaryDataBuffer(itemIndex, source.binaryProperty);
		return buffer.toString('base64');
	}
	if (style === 'chatIdSession') return { url: source.url };
	// Shape B takes the image inline: n8n fetches it, never with the API key (see fetchPublicFile).
	const file = await fetchPublicFile.call(
		this,
		source.url,
		'Preview Image URL',
		itemIndex,
		'image/',
	);
	return file.data.toString('base64');
}

/** The links in a text, in order, without the trailing punctuation that is not part of them. */
export function linksIn(text: string): string[] {
	return (text.match(/https?:\/\/[^\s<>"']+/gi) ?? []).map((link) =>
		link.replace(/[.,!?;:)\]}'"]+$/, ''),
	);
}

/**
 * Whether the text holds the URL as a link of its own: "…/menu-old" or "…/menu/2024" do not
 * contain the link "…/menu", while "see …/menu." does (trailing punctuation is not part of a link).
 */
function containsUrl(text: string, url: string): boolean {
	return linksIn(text).includes(url);
}

/** What the user asked Send Link With Custom Preview to do; each gateway sends it its own way. */
export interface SendLinkPreviewRequest {
	session: string;
	chat: ChatReference;
	options: IDataObject;
	url: string;
	/** The text, holding the URL (added at its end when asked to). */
	text: string;
	title: string;
	description: string;
}

/** Reads and checks the fields every gateway sends (the preview image: readPreviewImageSource). */
export function readSendLinkPreview(
	this: IExecuteFunctions,
	itemIndex: number,
): SendLinkPreviewRequest {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	const options = readOptions.call(this, itemIndex);

	const url = readText.call(this, 'previewUrl', 'Preview URL', itemIndex);
	if (!isHttpUrl(url)) {
		throw fieldError.call(
			this,
			itemIndex,
			`Preview URL must be an http(s) URL such as https://example.com/menu (got "${url}")`,
		);
	}
	let text = readText.call(this, 'text', 'Text', itemIndex, true);
	if (!containsUrl(text, url)) {
		if (
			!optionBoolean.call(
				this,
				options,
				'appendUrl',
				'Append URL to Text If Missing',
				itemIndex,
				true,
			)
		) {
			throw fieldError.call(
				this,
				itemIndex,
				`Text must contain the Preview URL ${url}`,
				'Put the URL in the text, or turn on the option "Append URL to Text If Missing".',
			);
		}
		text = isBlank(text) ? url : `${text.trimEnd()}\n${url}`;
	}

	return {
		session,
		chat,
		options,
		url,
		text,
		title: readText.call(this, 'previewTitle', 'Preview Title', itemIndex),
		description: readText.call(this, 'previewDescription', 'Preview Description', itemIndex),
	};
}

/** The High Quality Preview option, or undefined when it is not set. */
export function readHighQuality(
	this: IExecuteFunctions,
	options: IDataObject,
	itemIndex: number,
): boolean | undefined {
	if (options.highQuality === undefined) return undefined;
	return booleanFrom.call(this, options.highQuality, 'High Quality Preview', itemIndex);
}

/** Send Link With Custom Preview on the Messaging Gateway API: `POST /api/send/link-custom-preview`. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const {
		session,
		chat,
		options,
		url,
		text,
		title,
		description: previewDescription,
	} = readSendLinkPreview.call(this, itemIndex);
	const build = async (style: RequestBodyStyle): Promise<IDataObject> => {
		if (style === 'jidSessionId') {
			const missing = isBlank(title)
				? 'Preview Title'
				: isBlank(previewDescription)
					? 'Preview Description'
					: '';
			if (missing !== '') {
				throw fieldError.call(
					this,
					itemIndex,
					`${missing} must not be empty`,
					`The gateway needs a title and a description for the preview with the Request Body Style "${BODY_STYLE_LABELS.jidSessionId}".`,
				);
			}
		}
		const replyToId = readShapeAReplyTo.call(this, itemIndex, options, style, 'link previews');
		const image = await readPreviewImage.call(this, itemIndex, style);

		const preview: IDataObject = { url, title, description: previewDescription };
		if (image !== undefined) preview.image = image;
		const body: IDataObject = { ...sessionAndChat(style, session, chat), text, preview };
		if (style === 'chatIdSession') {
			if (replyToId !== undefined) body.reply_to = replyToId;
			const highQuality = readHighQuality.call(this, options, itemIndex);
			if (highQuality !== undefined) body.linkPreviewHighQuality = highQuality;
		}
		return body;
	};

	const { response } = await gatewayStyledRequest.call(
		this,
		'POST',
		'/api/send/link-custom-preview',
		build,
		{ itemIndex },
	);
	return [{ json: responseObject.call(this, response, itemIndex) }];
}
