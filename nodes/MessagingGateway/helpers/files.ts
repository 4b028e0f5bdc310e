import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isHttpUrl } from './urls';

/** A file as the gateway takes it: by URL (`RemoteFile`) or inline base64 (`BinaryFile`). */
export type GatewayFile =
	| { mimetype: string; url: string; filename?: string }
	| { mimetype: string; data: string; filename?: string };

const MIME_BY_EXTENSION: Record<string, string> = {
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	png: 'image/png',
	gif: 'image/gif',
	webp: 'image/webp',
	pdf: 'application/pdf',
	mp4: 'video/mp4',
	mp3: 'audio/mpeg',
	ogg: 'audio/ogg',
};

function fileNameFromUrl(url: string): string | undefined {
	const last = url.split(/[?#]/)[0].split('/').pop();
	return last ? decodeURIComponent(last) : undefined;
}

function mimeTypeFromName(name: string | undefined): string | undefined {
	const extension = name?.split('.').pop()?.toLowerCase();
	return extension ? MIME_BY_EXTENSION[extension] : undefined;
}

/**
 * The fields that let a user give a file either as a URL or as a binary property of the input
 * item (e.g. from an HTTP Request or Read File node). `name` prefixes the parameter names.
 */
export function fileSourceProperties(
	name: string,
	label: string,
	optional: boolean,
): INodeProperties[] {
	const sourceOptions = [
		{
			name: 'URL',
			value: 'url',
			description: `Give the ${label.toLowerCase()} as a public URL the gateway downloads`,
		},
		{
			name: 'Binary File',
			value: 'binary',
			description: `Send the ${label.toLowerCase()} from a binary property of the input item`,
		},
	];
	const description = `Where the ${label.toLowerCase()} comes from`;
	const sourceProperty: INodeProperties = optional
		? {
				displayName: `${label} Source`,
				name: `${name}Source`,
				type: 'options',
				default: 'none',
				options: [
					{ name: 'None', value: 'none', description: `No ${label.toLowerCase()}` },
					...sourceOptions,
				],
				description,
			}
		: {
				displayName: `${label} Source`,
				name: `${name}Source`,
				type: 'options',
				default: 'url',
				options: sourceOptions,
				description,
			};
	return [
		sourceProperty,
		{
			displayName: `${label} URL`,
			name: `${name}Url`,
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://example.com/picture.jpg',
			displayOptions: { show: { [`${name}Source`]: ['url'] } },
		},
		{
			displayName: 'Input Binary Field',
			name: `${name}BinaryProperty`,
			type: 'string',
			default: 'data',
			required: true,
			hint: 'The name of the input binary field holding the file',
			displayOptions: { show: { [`${name}Source`]: ['binary'] } },
		},
		{
			displayName: `${label} MIME Type`,
			name: `${name}MimeType`,
			type: 'string',
			default: '',
			placeholder: 'e.g. image/jpeg',
			description: 'Leave empty to take it from the file name or the binary data',
			displayOptions: { show: { [`${name}Source`]: ['url', 'binary'] } },
		},
	];
}

/** Reads the file chosen with `fileSourceProperties`, or undefined when the source is "None". */
export async function readFileSource(
	this: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): Promise<GatewayFile | undefined> {
	const source = this.getNodeParameter(`${name}Source`, itemIndex) as 'none' | 'url' | 'binary';
	if (source === 'none') return undefined;
	const explicitMimeType = (
		this.getNodeParameter(`${name}MimeType`, itemIndex, '') as string
	).trim();

	if (source === 'url') {
		const url = (this.getNodeParameter(`${name}Url`, itemIndex) as string).trim();
		if (!isHttpUrl(url)) {
			throw new NodeOperationError(
				this.getNode(),
				`${label} URL must be an http(s) URL (got "${url}")`,
				{ itemIndex },
			);
		}
		const filename = fileNameFromUrl(url);
		const mimetype = explicitMimeType || mimeTypeFromName(filename);
		if (!mimetype) {
			throw new NodeOperationError(
				this.getNode(),
				`${label} MIME Type is needed: it cannot be told from the URL "${url}"`,
				{ itemIndex, description: 'Fill in the MIME type, e.g. image/jpeg.' },
			);
		}
		return filename ? { mimetype, url, filename } : { mimetype, url };
	}

	const property = (this.getNodeParameter(`${name}BinaryProperty`, itemIndex) as string).trim();
	const binary = this.helpers.assertBinaryData(itemIndex, property);
	const buffer = await this.helpers.getBinaryDataBuffer(itemIndex, property);
	const mimetype =
		explicitMimeType ||
		binary.mimeType ||
		mimeTypeFromName(binary.fileName) ||
		'application/octet-stream';
	const file: IDataObject = { mimetype, data: buffer.toString('base64') };
	if (binary.fileName) file.filename = binary.fileName;
	return file as GatewayFile;
}
