// Minimal PNG encoder (8-bit RGB, no filtering) so QR codes, avatars and seed images are real, decodable PNGs.
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

export type Rgb = readonly [number, number, number];

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
	const table = new Uint32Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		table[n] = c >>> 0;
	}
	return table;
})();

function crc32(data: Buffer): number {
	let crc = 0xffffffff;
	for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(typeAndData));
	return Buffer.concat([length, typeAndData, crc]);
}

export function encodePng(
	width: number,
	height: number,
	pixel: (x: number, y: number) => Rgb,
): Buffer {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header[8] = 8; // bit depth
	header[9] = 2; // colour type: RGB
	const rowLength = 1 + width * 3;
	const raw = Buffer.alloc(rowLength * height);
	for (let y = 0; y < height; y++) {
		raw[y * rowLength] = 0; // filter: none
		for (let x = 0; x < width; x++) {
			const [r, g, b] = pixel(x, y);
			const offset = y * rowLength + 1 + x * 3;
			raw[offset] = r;
			raw[offset + 1] = g;
			raw[offset + 2] = b;
		}
	}
	return Buffer.concat([
		PNG_SIGNATURE,
		chunk('IHDR', header),
		chunk('IDAT', deflateSync(raw)),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];
const QR_MODULES = 25;
const QR_SCALE = 4;
const QR_QUIET_ZONE = 4;

function isFinderModule(x: number, y: number): boolean | undefined {
	for (const [left, top] of [
		[0, 0],
		[QR_MODULES - 7, 0],
		[0, QR_MODULES - 7],
	]) {
		const dx = x - left;
		const dy = y - top;
		if (dx >= -1 && dx <= 7 && dy >= -1 && dy <= 7) {
			if (dx < 0 || dy < 0 || dx > 6 || dy > 6) return false; // separator
			const ring = Math.max(Math.abs(dx - 3), Math.abs(dy - 3));
			return ring !== 2;
		}
	}
	return undefined;
}

/**
 * A QR-looking black/white bitmap derived from `payload` (finder patterns plus hash-driven modules).
 * It is not a scannable QR code; it only has to be a valid PNG that looks the part.
 */
export function qrCodePng(payload: string): Buffer {
	const bits = createHash('sha512').update(payload).digest();
	const size = (QR_MODULES + 2 * QR_QUIET_ZONE) * QR_SCALE;
	return encodePng(size, size, (px, py) => {
		const x = Math.floor(px / QR_SCALE) - QR_QUIET_ZONE;
		const y = Math.floor(py / QR_SCALE) - QR_QUIET_ZONE;
		if (x < 0 || y < 0 || x >= QR_MODULES || y >= QR_MODULES) return WHITE;
		const finder = isFinderModule(x, y);
		if (finder !== undefined) return finder ? BLACK : WHITE;
		const index = y * QR_MODULES + x;
		const bit = (bits[index % bits.length] >> index % 8) & 1;
		return bit ? BLACK : WHITE;
	});
}

export function qrCodeDataUri(payload: string): string {
	return `data:image/png;base64,${qrCodePng(payload).toString('base64')}`;
}

/** A small avatar: a coloured disc on white, so each contact's picture differs. */
export function avatarPng(colour: Rgb, size = 32): Buffer {
	const centre = (size - 1) / 2;
	return encodePng(size, size, (x, y) =>
		Math.hypot(x - centre, y - centre) <= size / 2 - 1 ? colour : WHITE,
	);
}

/** A tiny landscape picture (sky, sun, hill) used as the seed photo. */
export function landscapePng(width = 48, height = 32): Buffer {
	return encodePng(width, height, (x, y) => {
		if (Math.hypot(x - width * 0.75, y - height * 0.3) < height * 0.15) return [250, 204, 21];
		if (y > height * 0.6 + Math.sin(x / 6) * 3) return [34, 139, 34];
		return [135, 206, 235];
	});
}
