// Media helpers: the kinds of media a message can carry and tiny sample files to serve.
import { landscapePng } from './png.cts';

export type MediaType =
	| 'imageMessage'
	| 'videoMessage'
	| 'audioMessage'
	| 'documentMessage'
	| 'stickerMessage';

export interface StoredFile {
	mimetype: string;
	data: Buffer;
	width?: number;
	height?: number;
}

const EXTENSIONS: Record<string, string> = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/webp': 'webp',
	'video/mp4': 'mp4',
	'audio/ogg': 'ogg',
	'audio/mpeg': 'mp3',
	'audio/mp4': 'm4a',
	'application/pdf': 'pdf',
	'text/plain': 'txt',
};

export function extensionFor(mimetype: string): string {
	return EXTENSIONS[mimetype.split(';')[0].trim()] ?? 'bin';
}

export function mediaTypeFor(mimetype: string): MediaType {
	if (mimetype === 'image/webp') return 'stickerMessage';
	if (mimetype.startsWith('image/')) return 'imageMessage';
	if (mimetype.startsWith('video/')) return 'videoMessage';
	if (mimetype.startsWith('audio/')) return 'audioMessage';
	return 'documentMessage';
}

/** Reads the width and height from a PNG header, so image messages report real dimensions. */
export function pngDimensions(data: Buffer): { width: number; height: number } | undefined {
	if (data.length < 24 || data.toString('ascii', 12, 16) !== 'IHDR') return undefined;
	return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

export function fileFromBuffer(mimetype: string, data: Buffer): StoredFile {
	return { mimetype, data, ...(mimetype === 'image/png' ? pngDimensions(data) : {}) };
}

export function samplePhoto(): StoredFile {
	return fileFromBuffer('image/png', landscapePng());
}

/** A one-page PDF with a line of text: small, but opens in any viewer. */
export function samplePdf(text: string): StoredFile {
	const stream = `BT /F1 18 Tf 40 100 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
		`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];
	let body = '%PDF-1.4\n';
	const offsets: number[] = [];
	objects.forEach((object, index) => {
		offsets.push(body.length);
		body += `${index + 1} 0 obj\n${object}\nendobj\n`;
	});
	const xrefOffset = body.length;
	body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
	body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
	return { mimetype: 'application/pdf', data: Buffer.from(body, 'latin1') };
}

export function isBase64(value: string): boolean {
	const compact = value.replace(/\s/g, '');
	return compact.length > 0 && compact.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(compact);
}

/** Accepts plain base64 or a `data:<mime>;base64,` URI. */
export function decodeBase64Payload(
	value: string,
): { data: Buffer; mimetype?: string } | undefined {
	const dataUri = /^data:([^;,]+);base64,(.*)$/s.exec(value);
	const payload = dataUri ? dataUri[2] : value;
	if (!isBase64(payload)) return undefined;
	return { data: Buffer.from(payload, 'base64'), mimetype: dataUri?.[1] };
}
