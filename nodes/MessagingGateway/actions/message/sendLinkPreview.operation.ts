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
	waitBetweenItemsOption,
} from '../common.descriptions';
import { booleanFrom, isBlank, optionBoolean, readOptions, readText } from '../../helpers/fields';

const PREVIEW_IMAGE_URL_RULE = `A public http(s) link to the image. With the Request Body Style "chatId + session" the gateway downloads it; with "jid + sessionId" n8n downloads it and sends it inline: never with the API key, at most ${PUBLIC_FILE_LIMITS.maxBytes / (1024 * 1024)} MB within ${PUBLIC_FILE_LIMITS.deadlineMs / 1000} s, and only if the host says it is an image.`;

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
			'The message text. It must contain the Preview URL; by default the URL is added at the end when it is missing.',
	},
	{
		displayName: 'Preview URL',
		name: 'previewUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/menu',
		description: 'The http(s) link the preview card opens',
	},
	{
		displayName: 'Preview Title',
		name: 'previewTitle',
		type: 'string',
		default: '',
		placeholder: 'e.g. Our New Menu',
		description:
			'Title of the preview card. Required with the Request Body Style "jid + sessionId".',
	},
	{
		displayName: 'Preview Description',
		name: 'previewDescription',
		type: 'string',
		default: '',
		placeholder: 'e.g. Seasonal dishes, fresh bread every morning',
		description:
			'Text under the title of the preview card. Required with the Request Body Style "jid + sessionId".',
	},
	// The gateway takes the image as a URL or as base64, so no MIME type is asked for.
	...fileSourceProperties('previewImage', 'Preview Image', true)
		.filter((property) => property.name !== 'previewImageMimeType')
		.map((property) =>
			property.name === 'previewImageUrl'
				? { ...property, description: PREVIEW_IMAGE_URL_RULE }
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
					'Whether to send the preview image in high quality. Ignored with the Request Body Style "jid + sessionId" of the credential.',
			},
			replyToShapeAOption,
			simultaneousChatsOption,
			waitBetweenItemsOption,
		],
	},
];

export const description = showOnlyFor('message', 'sendLinkPreview', properties);

/** The preview image as the body style wants it: `{url}` or base64 (shape B takes base64 only). */
async function readPreviewImage(
	this: IExecuteFunctions,
	itemIndex: number,
	style: RequestBodyStyle,
): Promise<IDataObject | string | undefined> {
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
		if (style === 'chatIdSession') return { url };
		// Shape B takes the image inline: n8n fetches it, never with the API key (see fetchPublicFile).
		const file = await fetchPublicFile.call(this, url, 'Preview Image URL', itemIndex, 'image/');
		return file.data.toString('base64');
	}
	if (source === 'binary') {
		const property = readText.call(
			this,
			'previewImageBinaryProperty',
			'Input Binary Field',
			itemIndex,
		);
		this.helpers.assertBinaryData(itemIndex, property);
		const buffer = await this.helpers.getBinaryDataBuffer(itemIndex, property);
		return buffer.toString('base64');
	}
	return undefined;
}

/**
 * Whether the text holds the URL as a link of its own: "…/menu-old" or "…/menu/2024" do not
 * contain the link "…/menu", while "see …/menu." does (trailing punctuation is not part of a link).
 */
function containsUrl(text: string, url: string): boolean {
	const links = text.match(/https?:\/\/[^\s<>"']+/gi) ?? [];
	return links.some((link) => link.replace(/[.,!?;:)\]}'"]+$/, '') === url);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
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

	const title = readText.call(this, 'previewTitle', 'Preview Title', itemIndex);
	const previewDescription = readText.call(
		this,
		'previewDescription',
		'Preview Description',
		itemIndex,
	);
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
			if (options.highQuality !== undefined) {
				body.linkPreviewHighQuality = booleanFrom.call(
					this,
					options.highQuality,
					'High Quality Preview',
					itemIndex,
				);
			}
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
