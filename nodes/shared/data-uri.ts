/** A file carried inline as a `data:<mime type>;base64,<content>` URI (the gateways' QR codes). */
export interface InlineFile {
	base64: string;
	mimeType: string;
	fileName: string;
}

/** The file in a data: URI, named `fileName`; undefined for anything else. */
export function fileFromDataUri(dataUri: unknown, fileName: string): InlineFile | undefined {
	const match = typeof dataUri === 'string' ? /^data:([^;,]+);base64,(.+)$/s.exec(dataUri) : null;
	return match ? { base64: match[2], mimeType: match[1], fileName } : undefined;
}
