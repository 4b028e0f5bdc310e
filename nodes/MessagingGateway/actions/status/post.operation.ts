import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { ChatReference } from '../../../shared/identifiers';
import { toJid } from '../../../shared/identifiers';
import { asObject } from '../../../shared/values';
import { fieldError, isBlank, optionFrom, readText, textFrom } from '../../helpers/fields';
import { instanceRequest } from '../../helpers/instance-send';
import type { MediaFile } from '../../helpers/media-source';
import { mediaSourceProperties, readMediaFile } from '../../helpers/media-source';
import { responseObject } from '../../helpers/message';
import { readPhoneNumbers } from '../../helpers/numbers';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';

export type StatusKind = 'text' | 'image' | 'video' | 'voice';
const STATUS_KINDS: readonly StatusKind[] = ['text', 'image', 'video', 'voice'];

/** The fonts WhatsApp offers for a text status, by the numbers its gateways take (1 to 5). */
const FONTS = {
	serif: 1,
	noricanRegular: 2,
	bryndanWrite: 3,
	bebasNeueRegular: 4,
	oswaldHeavy: 5,
} as const;
type FontName = keyof typeof FONTS;
const FONT_NAMES = Object.keys(FONTS) as FontName[];

const show = (...kinds: StatusKind[]) => ({ show: { statusType: kinds } });

/** The fields of who sees a status, shared by Post and Delete. */
export const audienceFields: INodeProperties[] = [
	{
		displayName: 'Who Sees It',
		name: 'audience',
		type: 'options',
		default: 'allContacts',
		options: [
			{
				name: 'All Contacts',
				value: 'allContacts',
				description: 'Everyone the account has as a contact',
			},
			{
				name: 'Chosen Contacts',
				value: 'chosenContacts',
				description: 'Only the phone numbers listed below',
			},
		],
		description:
			"Who sees the status. WAHA's WEBJS engine always posts to all contacts; on WAHA's NOWEB engine its store must be on.",
	},
	{
		displayName: 'Contacts',
		name: 'contacts',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +55 11 99999-9999, +55 21 98888-7777',
		description:
			'Phone numbers with country code, separated by commas (an expression may also return a list)',
		displayOptions: { show: { audience: ['chosenContacts'] } },
	},
];

const properties: INodeProperties[] = [
	...sessionFields,
	{
		displayName: 'Type',
		name: 'statusType',
		type: 'options',
		default: 'text',
		options: [
			{ name: 'Image', value: 'image', description: 'A picture, with an optional caption' },
			{
				name: 'Text',
				value: 'text',
				description: 'Words on a coloured background, in a font of your choice',
			},
			{ name: 'Video', value: 'video', description: 'A video, with an optional caption' },
			{ name: 'Voice', value: 'voice', description: 'A voice note on a coloured background' },
		],
		description: 'What the status shows',
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 3 },
		placeholder: 'e.g. Open on Sunday from 9 to 13!',
		description: 'The words the status shows',
		displayOptions: show('text'),
	},
	...mediaSourceProperties('file', 'https://example.com/offer.jpg').map((property) => ({
		...property,
		displayOptions: {
			show: { ...property.displayOptions?.show, statusType: ['image', 'video', 'voice'] },
		},
		description:
			property.name === 'mediaSource'
				? 'Where the file comes from. Evolution API takes a status file from a URL only.'
				: property.description,
	})),
	{
		displayName: 'Caption',
		name: 'caption',
		type: 'string',
		default: '',
		typeOptions: { rows: 2 },
		placeholder: 'e.g. This week only',
		description: 'Text shown under the picture or video (optional)',
		displayOptions: show('image', 'video'),
	},
	{
		displayName: 'Background Color',
		name: 'backgroundColor',
		type: 'color',
		default: '#25D366',
		description: 'The colour behind the text or the voice note',
		displayOptions: show('text', 'voice'),
	},
	{
		displayName: 'Font',
		name: 'font',
		type: 'options',
		default: 'serif',
		options: [
			{ name: 'Bebas Neue', value: 'bebasNeueRegular' },
			{ name: 'Bryndan Write', value: 'bryndanWrite' },
			{ name: 'Norican', value: 'noricanRegular' },
			{ name: 'Oswald Heavy', value: 'oswaldHeavy' },
			{ name: 'Serif', value: 'serif' },
		],
		description: 'The typeface of the text',
		displayOptions: show('text'),
	},
	...audienceFields,
];

export const description = showOnlyFor('status', 'post', properties);

/** What the user asked Post to do, checked; each gateway posts it its own way. */
export interface PostStatusRequest {
	session: string;
	kind: StatusKind;
	/** The words of a text status. */
	text?: string;
	file?: MediaFile;
	caption: string;
	/** `#rrggbb`, for a text or voice status. */
	backgroundColor?: string;
	/** 1 to 5, for a text status. */
	font?: number;
	/** The contacts who see it; undefined for all contacts. */
	contacts?: ChatReference[];
}

/** `#rrggbb` from what the colour picker or an expression gives (`#RRGGBB` or `RRGGBB`). */
function readBackgroundColor(this: IExecuteFunctions, itemIndex: number): string {
	const color = readText.call(this, 'backgroundColor', 'Background Color', itemIndex);
	if (!/^#?[0-9a-f]{6}$/i.test(color)) {
		throw fieldError.call(
			this,
			itemIndex,
			`Background Color must be a colour as #RRGGBB, e.g. #25D366 (got "${color}")`,
			'Pick the colour with the colour picker, or give six hex digits.',
		);
	}
	return `#${color.replace('#', '').toLowerCase()}`;
}

/** The font's number: a choice of the list, or its number (1 to 5) from an expression. */
function readFont(this: IExecuteFunctions, itemIndex: number): number {
	const raw = this.getNodeParameter('font', itemIndex, 'serif');
	const number =
		typeof raw === 'number'
			? raw
			: typeof raw === 'string' && /^\s*\d+\s*$/.test(raw)
				? Number(raw)
				: undefined;
	if (number !== undefined) {
		if (Object.values(FONTS).includes(number as 1)) return number;
		throw fieldError.call(
			this,
			itemIndex,
			`Font must be one of ${FONT_NAMES.join(', ')}, or its number 1 to 5 (got ${number})`,
		);
	}
	return FONTS[optionFrom.call(this, raw, 'Font', itemIndex, FONT_NAMES) as FontName];
}

/** Who sees a status: undefined for all contacts, else the contacts listed (at least one). */
export function readAudience(
	this: IExecuteFunctions,
	itemIndex: number,
): ChatReference[] | undefined {
	const audience = optionFrom.call(
		this,
		this.getNodeParameter('audience', itemIndex, 'allContacts'),
		'Who Sees It',
		itemIndex,
		['allContacts', 'chosenContacts'],
	);
	if (audience === 'allContacts') return undefined;
	const numbers = readPhoneNumbers.call(
		this,
		this.getNodeParameter('contacts', itemIndex, ''),
		'Contacts',
		itemIndex,
	);
	if (numbers.length === 0) {
		throw fieldError.call(
			this,
			itemIndex,
			'Contacts must list at least one phone number when Who Sees It is Chosen Contacts',
			'Add the numbers, e.g. +55 11 99999-9999, or choose All Contacts.',
		);
	}
	return numbers.map(({ number }) => ({ kind: 'contact', value: number }));
}

/** Reads and checks every field of Post for one item, before any request. */
export async function readPostStatus(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<PostStatusRequest> {
	const session = readSession.call(this, itemIndex);
	const kind = optionFrom.call(
		this,
		this.getNodeParameter('statusType', itemIndex, 'text'),
		'Type',
		itemIndex,
		STATUS_KINDS,
	) as StatusKind;
	const request: PostStatusRequest = { session, kind, caption: '' };
	if (kind === 'text') {
		request.text = readText.call(this, 'text', 'Text', itemIndex, true);
		if (isBlank(request.text)) {
			throw fieldError.call(
				this,
				itemIndex,
				'Text must not be empty',
				'Enter what the status says.',
			);
		}
		request.font = readFont.call(this, itemIndex);
	} else {
		request.file = await readMediaFile.call(this, itemIndex);
		const family = request.file.mimeType?.split('/')[0];
		const expected = kind === 'voice' ? 'audio' : kind;
		if (family !== undefined && family !== expected) {
			throw fieldError.call(
				this,
				itemIndex,
				`The file is ${request.file.mimeType}, not ${kind === 'voice' ? 'audio' : `a ${kind}`}: a ${kind} status needs one`,
				'Choose the Type that matches the file, or give another file.',
			);
		}
	}
	if (kind === 'image' || kind === 'video') {
		request.caption = textFrom.call(
			this,
			this.getNodeParameter('caption', itemIndex, ''),
			'Caption',
			itemIndex,
		);
	}
	if (kind === 'text' || kind === 'voice') {
		request.backgroundColor = readBackgroundColor.call(this, itemIndex);
	}
	request.contacts = readAudience.call(this, itemIndex);
	return request;
}

/** Evolution's status type of each kind: a voice note is its `audio`. */
const EVOLUTION_TYPES: Record<StatusKind, string> = {
	text: 'text',
	image: 'image',
	video: 'video',
	voice: 'audio',
};

/** A status as Evolution API v1's `statusMessage` (v2 takes the same fields flat). */
function evolutionStatusMessage(
	this: IExecuteFunctions,
	request: PostStatusRequest,
	itemIndex: number,
): IDataObject {
	const statusMessage: IDataObject = { type: EVOLUTION_TYPES[request.kind] };
	if (request.kind === 'text') {
		statusMessage.content = request.text;
		statusMessage.backgroundColor = request.backgroundColor;
		statusMessage.font = request.font;
	} else {
		// Evolution downloads a status file from its URL: base64 content would be taken for one.
		if (request.file?.source !== 'url') {
			throw fieldError.call(
				this,
				itemIndex,
				'Evolution API takes the file of a status from a URL only: choose File Source URL',
				'Give a public http(s) address of the file. WAHA also takes a file from a binary field or base64.',
			);
		}
		statusMessage.content = request.file.media;
		if (!isBlank(request.caption)) statusMessage.caption = request.caption;
	}
	if (request.contacts) statusMessage.statusJidList = request.contacts.map(toJid);
	else statusMessage.allContacts = true;
	return statusMessage;
}

/** What a status post outputs: the gateway's answer, and the status's ID that Delete takes. */
export function statusOutput(
	this: IExecuteFunctions,
	response: unknown,
	itemIndex: number,
): INodeExecutionData[] {
	const json = responseObject.call(this, response, itemIndex);
	const id = asObject(asObject(response)?.key)?.id;
	return [{ json: typeof id === 'string' ? { ...json, statusId: id } : json }];
}

/**
 * Post on the Messaging Gateway API: Evolution API v1's `POST /message/sendStatus/<session>`
 * `{statusMessage}` (Evolution API v2 takes its fields flat: see the v2 requests).
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = await readPostStatus.call(this, itemIndex);
	const statusMessage = evolutionStatusMessage.call(this, request, itemIndex);
	const response = await instanceRequest.call(
		this,
		{ method: 'POST', route: 'message/sendStatus', body: { statusMessage } },
		request.session,
		itemIndex,
	);
	return statusOutput.call(this, response, itemIndex);
}
