import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { delayOption, fieldError, presenceOption, readChat } from '../../helpers/message';
import { readSendOptions, replyToOption, sendToChat } from '../../helpers/instance-send';
import { mediaSourceProperties, readMediaFile } from '../../helpers/media-source';
import {
	readSession,
	sendTargetField,
	sessionFields,
	showOnlyFor,
	simultaneousChatsOption,
	paceSendsOptions,
	waitBetweenItemsOption,
} from '../common/descriptions';
import { readOptions } from '../../helpers/fields';

/** What the gateway turns into a sticker (it converts to WebP itself). */
const STICKER_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

const properties: INodeProperties[] = [
	...sessionFields,
	sendTargetField('send the sticker to'),
	...mediaSourceProperties('image', 'https://example.com/sticker.png'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			delayOption,
			...paceSendsOptions,
			presenceOption,
			replyToOption,
			simultaneousChatsOption,
			waitBetweenItemsOption,
		],
	},
];

export const description = showOnlyFor('message', 'sendSticker', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	const file = await readMediaFile.call(this, itemIndex);
	if (file.mimeType !== undefined && !STICKER_TYPES.includes(file.mimeType)) {
		throw fieldError.call(
			this,
			itemIndex,
			`The sticker must be a PNG, JPEG, GIF or WebP image (got a file of type ${file.mimeType})`,
			'The gateway converts the image to a WebP sticker; a square image of 512×512 pixels looks best.',
		);
	}
	const options = readOptions.call(this, itemIndex);
	const sendOptions = readSendOptions.call(this, itemIndex, options);
	return sendToChat.call(this, itemIndex, session, 'sendSticker', chat, sendOptions, {
		stickerMessage: { image: file.media },
	});
}
