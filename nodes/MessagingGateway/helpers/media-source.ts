import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fieldError, optionFrom, readText } from './fields';
import { EXTENSION_BY_MIME_TYPE, extensionForMimeType } from './message';
import { isHttpUrl } from './urls';

/**
 * The file of an instance-family media send (Evolution v1 `media`, `audio`, `image`): the gateway
 * takes a URL it downloads itself, or plain base64. The node never fetches the URL: it is checked
 * to be http(s) and handed over as given.
 */
export interface MediaFile {
	/** The URL or the plain base64 content (no data: prefix). */
	media: string;
	source: 'binary' | 'url' | 'base64';
	/** Known from the binary, the data: URI or the URL's file name; undefined when unknown. */
	mimeType?: string;
	fileName?: string;
	/** Bytes of inline content (binary and base64 only). */
	size?: number;
}

/** The MIME type of each file name extension: the reverse of EXTENSION_BY_MIME_TYPE, plus other names. */
export const MIME_BY_EXTENSION: Record<string, string> = {
	...Object.fromEntries(
		Object.entries(EXTENSION_BY_MIME_TYPE).map(([mimeType, extension]) => [extension, mimeType]),
	),
	jpeg: 'image/jpeg',
	oga: 'audio/ogg',
	opus: 'audio/ogg',
};

export function mimeTypeFromFileName(fileName: string | undefined): string | undefined {
	const extension = /\.([A-Za-z0-9]+)$/.exec(fileName ?? '')?.[1].toLowerCase();
	return extension ? MIME_BY_EXTENSION[extension] : undefined;
}

/** A file name for content that came without one: "document.pdf", "voice.ogg". */
export function fallbackFileName(baseName: string, mimeType: string | undefined): string {
	const extension = mimeType ? extensionForMimeType(mimeType) : 'bin';
	return `${baseName}.${extension}`;
}

function fileNameFromUrl(url: string): string | undefined {
	const last = new URL(url).pathname.split('/').pop() ?? '';
	try {
		return /\.[A-Za-z0-9]+$/.test(last) ? decodeURIComponent(last) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The editor fields that choose where a file comes from: an input binary field (default), a URL
 * the gateway downloads, or base64 text. `what` names the file in labels ("media", "audio").
 */
export function mediaSourceProperties(what: string, urlExample: string): INodeProperties[] {
	return [
		{
			displayName: 'File Source',
			name: 'mediaSource',
			type: 'options',
			default: 'binary',
			options: [
				{
					name: 'Base64',
					value: 'base64',
					description: `The ${what} as base64 text, or a data: URI (e.g. from an expression)`,
				},
				{
					name: 'Binary File',
					value: 'binary',
					description: `The ${what} in a binary field of the input item (e.g. from HTTP Request, Read Files or Google Drive)`,
				},
				{
					name: 'URL',
					value: 'url',
					description: `A public http(s) URL the gateway downloads the ${what} from`,
				},
			],
			description: `Where the ${what} comes from`,
		},
		{
			displayName: 'Input Binary Field',
			name: 'mediaBinaryProperty',
			type: 'string',
			default: 'data',
			required: true,
			hint: 'The name of the input binary field holding the file',
			displayOptions: { show: { mediaSource: ['binary'] } },
		},
		{
			displayName: 'File URL',
			name: 'mediaUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: `e.g. ${urlExample}`,
			description: `Public http(s) URL of the ${what}. The gateway downloads it; n8n does not.`,
			displayOptions: { show: { mediaSource: ['url'] } },
		},
		{
			displayName: 'Base64 Content',
			name: 'mediaBase64',
			type: 'string',
			default: '',
			required: true,
			typeOptions: { rows: 2 },
			placeholder: 'e.g. iVBORw0KGgoAAAANSUhEUgAA… or data:image/png;base64,iVBORw0…',
			description: `The ${what} as base64 text or as a data: URI`,
			displayOptions: { show: { mediaSource: ['base64'] } },
		},
	];
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function readBase64(
	this: IExecuteFunctions,
	itemIndex: number,
): { media: string; mimeType?: string } {
	const raw = readText.call(this, 'mediaBase64', 'Base64 Content', itemIndex);
	const dataUri = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(raw);
	// Line breaks and spaces are common in pasted base64; the gateway takes it without them.
	const media = (dataUri ? dataUri[2] : raw).replace(/\s/g, '');
	if (media === '' || media.length % 4 !== 0 || !BASE64.test(media)) {
		const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
		throw fieldError.call(
			this,
			itemIndex,
			`Base64 Content must be base64 text or a data: URI (got "${shown}")`,
			'Map the file content with an expression such as {{ $binary.data.data }}, or choose the source Binary File.',
		);
	}
	return { media, mimeType: dataUri?.[1].toLowerCase() };
}

/** Reads the file chosen with `mediaSourceProperties`, checked before any request. */
export async function readMediaFile(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<MediaFile> {
	const source = optionFrom.call(
		this,
		this.getNodeParameter('mediaSource', itemIndex, 'binary'),
		'File Source',
		itemIndex,
		['binary', 'url', 'base64'],
	);
	if (source === 'url') {
		const url = readText.call(this, 'mediaUrl', 'File URL', itemIndex);
		if (!isHttpUrl(url)) {
			throw fieldError.call(
				this,
				itemIndex,
				`File URL must be an http(s) URL (got "${url}")`,
				'Give a public address starting with https://, or choose the source Binary File.',
			);
		}
		const fileName = fileNameFromUrl(url);
		return { media: url, source: 'url', fileName, mimeType: mimeTypeFromFileName(fileName) };
	}
	if (source === 'base64') {
		const { media, mimeType } = readBase64.call(this, itemIndex);
		return { media, source: 'base64', mimeType, size: Math.floor((media.length * 3) / 4) };
	}
	const property = readText.call(this, 'mediaBinaryProperty', 'Input Binary Field', itemIndex);
	if (property === '') {
		throw fieldError.call(
			this,
			itemIndex,
			'Input Binary Field must not be empty',
			'Enter the name of the binary field holding the file, e.g. data.',
		);
	}
	const binary = this.helpers.assertBinaryData(itemIndex, property);
	const buffer = await this.helpers.getBinaryDataBuffer(itemIndex, property);
	if (buffer.length === 0) {
		throw fieldError.call(
			this,
			itemIndex,
			`The file in the binary field "${property}" is empty`,
			'Check the node that produced the file.',
		);
	}
	// n8n labels files it cannot tell as octet-stream; the file name often knows better.
	const stated = binary.mimeType ? binary.mimeType.toLowerCase() : undefined;
	const mimeType =
		stated && stated !== 'application/octet-stream'
			? stated
			: (mimeTypeFromFileName(binary.fileName) ?? stated);
	return {
		media: buffer.toString('base64'),
		source: 'binary',
		mimeType,
		fileName: binary.fileName,
		size: buffer.length,
	};
}
