/**
 * What Combine Rapid Messages was asked for one item, read and checked before any request: the
 * rule that cuts a turn, and how the turn comes out.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { FullMessageId } from '../../../shared/identifiers';
import type { BurstRule } from '../../helpers/bursts';
import {
	integerFrom,
	optionBoolean,
	optionFrom,
	readOptions,
	fieldError,
} from '../../helpers/fields';
import { readReceivedMessage } from './receivedMessage';
import {
	DEFAULT_MAX_MESSAGES,
	DEFAULT_MAX_WAIT_SECONDS,
	DEFAULT_SILENCE_SECONDS,
	JOIN_SEPARATORS,
	MAX_SILENCE_SECONDS,
} from './combineRapid.fields';

const OUTPUTS = ['oneItem', 'itemPerMessage'] as const;
const JOIN_OPTIONS = ['newLine', 'space', 'custom'] as const;

export interface CombineRapidRequest {
	session: string;
	messageId: FullMessageId;
	rule: BurstRule;
	joinWith: string;
	includeMedia: boolean;
	output: (typeof OUTPUTS)[number];
}

/** What Combine Rapid Messages was asked for one item, checked before any request. */
export function readCombineRapid(this: IExecuteFunctions, itemIndex: number): CombineRapidRequest {
	const { session, messageId } = readReceivedMessage.call(this, itemIndex);
	const silenceSeconds = integerFrom.call(
		this,
		this.getNodeParameter('silenceSeconds', itemIndex, DEFAULT_SILENCE_SECONDS),
		'Silence Time (Seconds)',
		itemIndex,
		1,
	);
	if (silenceSeconds > MAX_SILENCE_SECONDS) {
		throw fieldError.call(
			this,
			itemIndex,
			`Silence Time (Seconds) must be at most ${MAX_SILENCE_SECONDS} (got ${silenceSeconds})`,
			'n8n keeps waits under a minute in memory; a pause over a minute ends a chat turn anyway.',
		);
	}
	const options = readOptions.call(this, itemIndex);
	const maxMessages = integerFrom.call(
		this,
		options.maxMessages ?? DEFAULT_MAX_MESSAGES,
		'Maximum Messages',
		itemIndex,
		1,
	);
	const maxWaitSeconds = integerFrom.call(
		this,
		options.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS,
		'Maximum Wait (Seconds)',
		itemIndex,
		1,
	);
	if (maxWaitSeconds <= silenceSeconds) {
		throw fieldError.call(
			this,
			itemIndex,
			`Maximum Wait (Seconds) must be longer than the Silence Time (got ${maxWaitSeconds}, Silence Time ${silenceSeconds})`,
			'A turn waits at least the Silence Time after the last message; make Maximum Wait longer.',
		);
	}
	// Without Join Texts With (a workflow saved before it), the separator's text as it was.
	const choice =
		options.joinTextsWith === undefined
			? undefined
			: optionFrom.call(this, options.joinTextsWith, 'Join Texts With', itemIndex, JOIN_OPTIONS);
	const joinWith =
		choice === 'newLine' || choice === 'space'
			? JOIN_SEPARATORS[choice]
			: (options.joinWith ?? (choice === 'custom' ? '' : JOIN_SEPARATORS.newLine));
	if (typeof joinWith !== 'string' && typeof joinWith !== 'number') {
		throw fieldError.call(
			this,
			itemIndex,
			'Custom Separator must be text',
			'Enter the text to put between the messages, e.g. " | ".',
		);
	}
	return {
		session,
		messageId,
		// The last message of a turn comes less than (Maximum Wait − Silence Time) after its first,
		// so the turn goes on within Maximum Wait of the first message.
		rule: { silenceSeconds, maxMessages, maxSpanSeconds: maxWaitSeconds - silenceSeconds },
		joinWith: String(joinWith),
		includeMedia: optionBoolean.call(
			this,
			options,
			'includeMedia',
			'Include Media',
			itemIndex,
			true,
		),
		output: optionFrom.call(
			this,
			options.output ?? 'oneItem',
			'Output',
			itemIndex,
			OUTPUTS,
		) as CombineRapidRequest['output'],
	};
}
