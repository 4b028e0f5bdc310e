import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { ChatReference } from '../../../shared/identifiers';
import { delayOption, fieldError, presenceOption, readChat } from '../../helpers/message';
import { isBlank, optionFrom, readOptions, readText, textFrom } from '../../helpers/fields';
import { readSendOptions, replyToOption, sendToChat } from '../../helpers/instance-send';
import type { MediaFile } from '../../helpers/media-source';
import {
	fallbackFileName,
	mediaSourceProperties,
	mimeTypeFromFileName,
	readMediaFile,
} from '../../helpers/media-source';
import {
	readSession,
	sendTargetField,
	sessionFields,
	showOnlyFor,
	simultaneousChatsOption,
	paceSendsOptions,
	waitBetweenItemsOption,
} from '../common/descriptions';

export type MediaKind = 'image' | 'video' | 'audio' | 'document';

const properties: INodeProperties[] = [
	...sessionFields,
	sendTargetField('send the file to'),
	...mediaSourceProperties('file', 'https://example.com/catalogue.pdf'),
	{
		displayName: 'Media Type',
		name: 'mediaType',
		type: 'options',
		default: 'auto',
		options: [
			{
				name: 'Audio File',
				value: 'audio',
				description: 'An audio file with a player (for a voice note use Send Audio)',
			},
			{
				name: 'Automatic',
				value: 'auto',
				description:
					'From the MIME type: images as images, videos as videos, audio as audio, anything else as a document',
			},
			{ name: 'Document', value: 'document', description: 'Any file, shown with its file name' },
			{ name: 'Image', value: 'image', description: 'A picture shown in the chat' },
			{ name: 'Video', value: 'video', description: 'A video shown in the chat' },
		],
		description: 'How the chat shows the file',
	},
	{
		displayName: 'Caption',
		name: 'caption',
		type: 'string',
		default: '',
		typeOptions: { rows: 2 },
		placeholder: 'e.g. Your invoice for October',
		description: 'Text shown under the image, video or document (optional; audio has none)',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			delayOption,
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'e.g. invoice-1042.pdf',
				description:
					'Name the recipient sees for a document. By default the binary file name or the last part of the URL.',
			},
			{
				displayName: 'MIME Type',
				name: 'mimeType',
				type: 'string',
				default: '',
				placeholder: 'e.g. application/pdf',
				description:
					'Type of the file. By default taken from the binary data, the data: URI or the file name.',
			},
			...paceSendsOptions,
			presenceOption,
			replyToOption,
			simultaneousChatsOption,
			waitBetweenItemsOption,
		],
	},
];

export const description = showOnlyFor('message', 'sendMedia', properties);

function kindOfMimeType(mimeType: string | undefined): MediaKind {
	const family = mimeType?.split('/')[0];
	return family === 'image' || family === 'video' || family === 'audio' ? family : 'document';
}

/** What the user asked Send Media to do, checked; each gateway sends it its own way. */
export interface SendMediaRequest {
	session: string;
	chat: ChatReference;
	file: MediaFile;
	kind: MediaKind;
	/** The File Name option, else the binary's or the URL's; undefined when none is known. */
	fileName?: string;
	mimeType?: string;
	caption: string;
	/** Delay, presence and the quoted message, as instance-family sends take them. */
	sendOptions: IDataObject;
	options: IDataObject;
}

/** Reads and checks every field of Send Media for one item, before any request. */
export async function readSendMedia(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<SendMediaRequest> {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	const file = await readMediaFile.call(this, itemIndex);
	const options = readOptions.call(this, itemIndex);
	const sendOptions = readSendOptions.call(this, itemIndex, options);
	const fileName =
		textFrom.call(this, options.fileName, 'File Name', itemIndex).trim() || file.fileName;
	const mimeType =
		textFrom.call(this, options.mimeType, 'MIME Type', itemIndex).trim().toLowerCase() ||
		file.mimeType ||
		mimeTypeFromFileName(fileName);
	if (mimeType !== undefined && !/^[a-z0-9.+-]+\/[a-z0-9.+-]+(;.*)?$/.test(mimeType)) {
		throw fieldError.call(
			this,
			itemIndex,
			`MIME Type must look like type/subtype, e.g. application/pdf (got "${mimeType}")`,
		);
	}
	const chosen = optionFrom.call(
		this,
		this.getNodeParameter('mediaType', itemIndex, 'auto'),
		'Media Type',
		itemIndex,
		['auto', 'image', 'video', 'audio', 'document'],
	);
	const kind = chosen === 'auto' ? kindOfMimeType(mimeType) : (chosen as MediaKind);
	// Any file can go as a document; an image, video or audio must be one.
	if (kind !== 'document' && mimeType !== undefined && kindOfMimeType(mimeType) !== kind) {
		throw fieldError.call(
			this,
			itemIndex,
			`Media Type ${kind} does not match the file, which is ${mimeType}`,
			'Choose Media Type Automatic or Document, or set the MIME Type option if the file type is wrong.',
		);
	}
	const caption = readText.call(this, 'caption', 'Caption', itemIndex, true);
	if (kind === 'audio' && !isBlank(caption)) {
		throw fieldError.call(
			this,
			itemIndex,
			'Caption cannot be sent with an audio file: the chat shows no caption under audio',
			'Leave Caption empty, send the text as its own message, or choose Media Type Document.',
		);
	}
	return { session, chat, file, kind, fileName, mimeType, caption, sendOptions, options };
}

/** Send Media on the Messaging Gateway API: `POST /message/sendMedia/<session>` (`mediaMessage`). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, chat, file, kind, fileName, mimeType, caption, sendOptions } =
		await readSendMedia.call(this, itemIndex);
	const mediaMessage: IDataObject = { mediatype: kind };
	// The gateway names a document after its URL when no name is given, and fails on base64 content.
	const name =
		fileName ?? (kind === 'document' ? fallbackFileName('document', mimeType) : undefined);
	if (name) mediaMessage.fileName = name;
	if (!isBlank(caption)) mediaMessage.caption = caption;
	// Without it the gateway guesses from the file name and calls every unnamed image a PNG.
	if (mimeType) mediaMessage.mimetype = mimeType;
	mediaMessage.media = file.media;
	return sendToChat.call(this, itemIndex, session, 'sendMedia', chat, sendOptions, {
		mediaMessage,
	});
}
