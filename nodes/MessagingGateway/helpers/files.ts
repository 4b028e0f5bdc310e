import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionFrom, readText } from './fields';
import { MIME_BY_EXTENSION, mimeTypeFromFileName } from './media-source';
import { isHttpUrl } from './urls';

/** A file as the gateway takes it: by URL (`RemoteFile`) or inline base64 (`BinaryFile`). */
export type GatewayFile =
	| { mimetype: string; url: string; filename?: string }
	| { mimetype: string; data: string; filename?: string };

function fileNameFromUrl(url: string): string | undefined {
	const last = url.split(/[?#]/)[0].split('/').pop();
	return last ? decodeURIComponent(last) : undefined;
}

/**
 * The fields that let a user give a file either as a URL or as a binary property of the input
 * item (e.g. from an HTTP Request or Read File node). `name` prefixes the parameter names.
 */
export function fileSourceProperties(
	name: string,
	label: string,
	optional: boolean,
	urlOnly = false,
): INodeProperties[] {
	const allSourceOptions = [
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
	const sourceOptions = urlOnly
		? allSourceOptions.filter((option) => option.value === 'url')
		: allSourceOptions;
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
	const properties: INodeProperties[] = [
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
	return urlOnly
		? properties.filter((property) => property.name !== `${name}BinaryProperty`)
		: properties;
}

/** What a file field accepts beyond any file. */
export interface FileRules {
	/** Only these MIME types (and matching file name extensions), e.g. a profile picture. */
	mimeTypes?: readonly string[];
	/** Only a URL: the gateway takes this file in no other shape. */
	urlOnly?: boolean;
	/** A file must be given: the field offers no "None", so an expression may not give it either. */
	required?: boolean;
}

function extensionOf(fileName: string | undefined): string | undefined {
	const match = /\.([A-Za-z0-9]+)$/.exec(fileName ?? '');
	return match ? match[1].toLowerCase() : undefined;
}

/** Refuses a file whose MIME type or file name extension is not among the allowed ones. */
function checkFileType(
	this: IExecuteFunctions,
	file: { mimetype: string; filename?: string },
	label: string,
	itemIndex: number,
	rules: FileRules,
): void {
	if (!rules.mimeTypes) return;
	const allowedExtensions = Object.entries(MIME_BY_EXTENSION)
		.filter(([, mimeType]) => rules.mimeTypes!.includes(mimeType))
		.map(([extension]) => extension);
	const mimeType = file.mimetype.split(';')[0].trim().toLowerCase();
	const extension = extensionOf(file.filename);
	const problem = !rules.mimeTypes.includes(mimeType)
		? `of type ${mimeType}`
		: extension !== undefined && !allowedExtensions.includes(extension)
			? `named "${file.filename}"`
			: undefined;
	if (problem) {
		throw new NodeOperationError(
			this.getNode(),
			`${label} must be ${rules.mimeTypes.join(' or ')} (got a file ${problem})`,
			{ itemIndex, description: `Use a file ending in .${allowedExtensions.join(', .')}.` },
		);
	}
}

/** Reads the file chosen with `fileSourceProperties`, or undefined when the source is "None". */
export async function readFileSource(
	this: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
	rules: FileRules = {},
): Promise<GatewayFile | undefined> {
	const source = optionFrom.call(
		this,
		this.getNodeParameter(`${name}Source`, itemIndex),
		`${label} Source`,
		itemIndex,
		rules.required ? ['url', 'binary'] : ['none', 'url', 'binary'],
	);
	if (source === 'none') return undefined;
	if (source === 'binary' && rules.urlOnly) {
		throw new NodeOperationError(
			this.getNode(),
			`${label} Source must be URL: the gateway takes the ${label.toLowerCase()} only as a URL (got "binary")`,
			{ itemIndex, description: 'Put the file somewhere public and give its URL.' },
		);
	}
	const explicitMimeType = readText.call(this, `${name}MimeType`, `${label} MIME Type`, itemIndex);

	if (source === 'url') {
		const url = readText.call(this, `${name}Url`, `${label} URL`, itemIndex);
		if (!isHttpUrl(url)) {
			throw new NodeOperationError(
				this.getNode(),
				`${label} URL must be an http(s) URL (got "${url}")`,
				{ itemIndex },
			);
		}
		const filename = fileNameFromUrl(url);
		const mimetype = explicitMimeType || mimeTypeFromFileName(filename);
		if (!mimetype) {
			throw new NodeOperationError(
				this.getNode(),
				`${label} MIME Type is needed: it cannot be told from the URL "${url}"`,
				{ itemIndex, description: 'Fill in the MIME type, e.g. image/jpeg.' },
			);
		}
		const file = filename ? { mimetype, url, filename } : { mimetype, url };
		checkFileType.call(this, file, label, itemIndex, rules);
		return file;
	}

	const property = readText.call(this, `${name}BinaryProperty`, 'Input Binary Field', itemIndex);
	const binary = this.helpers.assertBinaryData(itemIndex, property);
	const mimetype =
		explicitMimeType ||
		binary.mimeType ||
		mimeTypeFromFileName(binary.fileName) ||
		'application/octet-stream';
	checkFileType.call(this, { mimetype, filename: binary.fileName }, label, itemIndex, rules);
	const buffer = await this.helpers.getBinaryDataBuffer(itemIndex, property);
	const file: IDataObject = { mimetype, data: buffer.toString('base64') };
	if (binary.fileName) file.filename = binary.fileName;
	return file as GatewayFile;
}
