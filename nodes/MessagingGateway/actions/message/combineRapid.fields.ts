/**
 * Combine Rapid Messages' fields, with their defaults and bounds: the reader checks what an
 * expression gives against the same numbers.
 */
import type { INodeProperties } from 'n8n-workflow';

import { receivedMessageFields } from './receivedMessage';

/** n8n keeps a wait under 65 s in memory (its Wait node's limit); longer ones are not offered. */
export const MAX_SILENCE_SECONDS = 60;
export const DEFAULT_SILENCE_SECONDS = 3;
export const DEFAULT_MAX_MESSAGES = 10;
export const DEFAULT_MAX_WAIT_SECONDS = 30;

/** Join Texts With: what goes between the texts; Custom reads Custom Separator. */
export const JOIN_SEPARATORS = { newLine: '\n', space: ' ' } as const;
const JOIN_CHOICES = [
	{ name: 'New Line', value: 'newLine' },
	{ name: 'Space', value: 'space' },
	{ name: 'Custom', value: 'custom', description: 'The text in Custom Separator' },
];

export const combineRapidFields: INodeProperties[] = [
	...receivedMessageFields(
		'Put this node right after the trigger, before any filter, so every message of a chat reaches it',
	),
	{
		displayName: 'Silence Time (Seconds)',
		name: 'silenceSeconds',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_SILENCE_SECONDS },
		default: DEFAULT_SILENCE_SECONDS,
		description:
			'How long the person must stay silent before the workflow goes on with everything they wrote. WhatsApp stamps messages to the second, so a pause this long or longer always starts a new turn, and a pause over a second shorter never does.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			// The separator's text keeps its old name (joinWith): a workflow saved when it was the only
			// field keeps its value. Hidden for New Line and Space, which need no text.
			{
				displayName: 'Custom Separator',
				name: 'joinWith',
				type: 'string',
				displayOptions: { hide: { joinTextsWith: ['newLine', 'space'] } },
				default: '',
				placeholder: 'e.g. " | "',
				description:
					'With Join Texts With: Custom, what goes between the texts of the messages in the joined "text" field',
			},
			{
				displayName: 'Include Media',
				name: 'includeMedia',
				type: 'boolean',
				default: true,
				description:
					'Whether to download the file of every message with media (voice notes, images, documents…) into the binary data of the output',
			},
			{
				displayName: 'Join Texts With',
				name: 'joinTextsWith',
				type: 'options',
				default: 'newLine',
				options: JOIN_CHOICES,
				description: 'What goes between the texts of the messages in the joined "text" field',
			},
			{
				displayName: 'Maximum Messages',
				name: 'maxMessages',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_MAX_MESSAGES,
				description:
					'The most messages one turn takes; the next message starts a new turn, even if the person has not paused',
			},
			{
				displayName: 'Maximum Wait (Seconds)',
				name: 'maxWaitSeconds',
				type: 'number',
				typeOptions: { minValue: 2 },
				default: DEFAULT_MAX_WAIT_SECONDS,
				description:
					"The longest a turn waits from the person's first message: if they keep writing, the turn goes on with what arrived by then and later messages start a new turn. Must be longer than the Silence Time.",
			},
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				default: 'oneItem',
				options: [
					{
						name: 'One Item for the Turn',
						value: 'oneItem',
						description:
							'One item with the joined text, the list of texts and every message; each file in its own binary field (media_1, media_2…)',
					},
					{
						name: 'One Item per Message',
						value: 'itemPerMessage',
						description:
							'One item per message of the turn, in order, each with its file in the binary field "data" and the turn\'s joined text under "turn"',
					},
				],
				description: 'How the turn comes out of the node',
			},
		],
	},
];
