import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { delayOption, fieldError, readChat } from '../../helpers/message';
import { integerFrom, optionBoolean, readOptions } from '../../helpers/fields';
import { sendToChat } from '../../helpers/instance-send';
import type { ChatReference } from '../../../shared/identifiers';
import type { MediaFile } from '../../helpers/media-source';
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

const properties: INodeProperties[] = [
	...sessionFields,
	sendTargetField('send the voice note to'),
	...mediaSourceProperties('audio', 'https://example.com/greeting.mp3'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Convert to Voice Note Format',
				name: 'encoding',
				type: 'boolean',
				default: true,
				description:
					'Whether the gateway converts the audio (MP3, WAV, M4A…) for the voice note player. Turn off only for audio that is already OGG/Opus.',
			},
			{
				...delayOption,
				description: 'Milliseconds the gateway waits before sending, showing "recording audio…"',
			},
			...paceSendsOptions,
			simultaneousChatsOption,
			waitBetweenItemsOption,
		],
	},
];

export const description = showOnlyFor('message', 'sendAudio', properties);

/** What the user asked Send Audio to do, checked; each gateway sends it its own way. */
export interface SendAudioRequest {
	session: string;
	chat: ChatReference;
	file: MediaFile;
	/** Convert to Voice Note Format. */
	convert: boolean;
	delay?: number;
}

/** Reads and checks every field of Send Audio for one item, before any request. */
export async function readSendAudio(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<SendAudioRequest> {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	const file = await readMediaFile.call(this, itemIndex);
	if (file.mimeType !== undefined && !/^(audio|video)\//.test(file.mimeType)) {
		throw fieldError.call(
			this,
			itemIndex,
			`The voice note must be an audio file (got a file of type ${file.mimeType})`,
			'Send other files with Send Media.',
		);
	}
	const options = readOptions.call(this, itemIndex);
	const request: SendAudioRequest = {
		session,
		chat,
		file,
		convert: optionBoolean.call(
			this,
			options,
			'encoding',
			'Convert to Voice Note Format',
			itemIndex,
			true,
		),
	};
	if (options.delay !== undefined) {
		request.delay = integerFrom.call(this, options.delay, 'Delay (Ms)', itemIndex, 0);
	}
	return request;
}

/** Send Audio on the Messaging Gateway API: `POST /message/sendWhatsAppAudio/<session>`. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { session, chat, file, convert, delay } = await readSendAudio.call(this, itemIndex);
	// The gateway reads options.encoding unguarded and fails without an options object, so it is
	// always sent. The chat shows "recording audio…" during the delay whatever else is asked.
	const sendOptions: IDataObject = { encoding: convert };
	if (delay !== undefined) sendOptions.delay = delay;
	return sendToChat.call(this, itemIndex, session, 'sendWhatsAppAudio', chat, sendOptions, {
		audioMessage: { audio: file.media },
	});
}
