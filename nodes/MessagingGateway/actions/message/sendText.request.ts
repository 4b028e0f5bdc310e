/**
 * What the user asked Send Text to do, read and checked before any request. Every gateway reads it
 * here and sends it its own way.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ChatReference } from '../../../shared/identifiers';
import { delayAndPresence, fieldError, readChat } from '../../helpers/message';
import { readSession } from '../common/descriptions';
import {
	booleanFrom,
	integerFrom,
	optionBoolean,
	optionFrom,
	readOptions,
	readRequiredText,
} from '../../helpers/fields';
import { readPhoneNumbers } from '../../helpers/numbers';
import { readQuoted } from '../../helpers/instance-send';
import { SPLIT_MODES } from '../../helpers/text-parts';
import type { SplitMode, TypingTime } from '../../helpers/text-parts';

/** What the user asked Send Text to do; each gateway sends it in its own way. */
export interface SendTextRequest {
	session: string;
	chat: ChatReference;
	/** As typed: line breaks and indentation matter. */
	text: string;
	delay?: number;
	presence?: string;
	linkPreview?: boolean;
	/** The quoted message's key (`{id, remoteJid, fromMe}`), from Reply To Message ID. */
	quoted?: IDataObject;
	mentionEveryone: boolean;
	/** Digits of the numbers to mention. */
	mentioned: string[];
	checkFirst: boolean;
	/** Split Into Messages, when not Off. */
	split?: TextSplit;
}

/** How Send Text cuts its text into messages, and the typing shown before each (none: Delay (Ms) as set). */
export interface TextSplit {
	mode: Exclude<SplitMode, 'off'>;
	maxLength: number;
	typing?: TypingTime;
}

/** Split Into Messages and the typing options; undefined when Off. */
function readSplit(this: IExecuteFunctions, options: IDataObject, itemIndex: number) {
	const mode = optionFrom.call(
		this,
		options.splitInto ?? 'off',
		'Split Into Messages',
		itemIndex,
		SPLIT_MODES,
	) as SplitMode;
	if (mode === 'off') return undefined;
	const whole = (key: string, displayName: string, fallback: number, min: number) =>
		integerFrom.call(this, options[key] ?? fallback, displayName, itemIndex, min);
	const split: TextSplit = {
		mode,
		maxLength: whole('maxPartLength', 'Maximum Part Length', 500, 1),
	};
	if (
		optionBoolean.call(
			this,
			options,
			'typingBeforeEachPart',
			'Typing Before Each Part',
			itemIndex,
			true,
		)
	) {
		split.typing = {
			perCharacter: whole('typingPerCharacter', 'Typing Per Character (Ms)', 40, 0),
			minimum: whole('typingMinimum', 'Typing Minimum (Ms)', 500, 0),
			maximum: whole('typingMaximum', 'Typing Maximum (Ms)', 4000, 0),
		};
		if (split.typing.minimum > split.typing.maximum) {
			throw fieldError.call(
				this,
				itemIndex,
				`Typing Minimum (Ms) must not be more than Typing Maximum (Ms) (got ${split.typing.minimum} and ${split.typing.maximum})`,
			);
		}
	}
	return split;
}

/** Reads and checks every field of Send Text for one item, before any request. */
export function readSendText(this: IExecuteFunctions, itemIndex: number): SendTextRequest {
	const session = readSession.call(this, itemIndex);
	const chat = readChat.call(this, itemIndex);
	// Sent as typed (line breaks and indentation matter); a number from an expression becomes text.
	const text = readRequiredText.call(this, 'text', 'Text', itemIndex, {
		keepSpaces: true,
		hint: 'Enter the message to send, or map it from an input field with an expression.',
	});
	const options = readOptions.call(this, itemIndex);
	const { delay, presence } = delayAndPresence.call(this, itemIndex, options);
	const request: SendTextRequest = {
		session,
		chat,
		text,
		mentionEveryone: optionBoolean.call(
			this,
			options,
			'mentionEveryone',
			'Mention Everyone',
			itemIndex,
			false,
		),
		mentioned: readPhoneNumbers
			.call(this, options.mentionNumbers ?? '', 'Mention Numbers', itemIndex, true)
			.map((entry) => entry.number),
		checkFirst: optionBoolean.call(
			this,
			options,
			'checkNumber',
			'Check the Number First',
			itemIndex,
			false,
		),
	};
	if (delay !== undefined) request.delay = delay as number;
	if (presence !== undefined) request.presence = presence as string;
	if (options.linkPreview !== undefined) {
		request.linkPreview = booleanFrom.call(this, options.linkPreview, 'Link Preview', itemIndex);
	}
	const quoted = readQuoted.call(this, itemIndex, options);
	if (quoted) request.quoted = quoted.key as IDataObject;
	const split = readSplit.call(this, options, itemIndex);
	if (split) request.split = split;
	if (request.mentionEveryone && chat.kind !== 'group') {
		throw fieldError.call(
			this,
			itemIndex,
			`Mention Everyone works only in groups, and Chat is a contact (${chat.value})`,
			'Pick a group as Chat, or turn Mention Everyone off.',
		);
	}
	return request;
}
