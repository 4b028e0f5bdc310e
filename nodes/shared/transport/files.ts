/**
 * Files fetched by URL: media the gateway pointed at (with the API key only on its own file route)
 * and files a user or an item named (never with the key, within PUBLIC_FILE_LIMITS).
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { resolveGateway } from './credentials';
import type { GatewayRequestContext } from './credentials';
import { redactSecret } from './errors';
import { headerText } from './fetch';
import type { Answer } from './fetch';
import { PUBLIC_FILE_LIMITS, REQUEST_LIMITS } from './limits';
import { fetchWithRetries } from './request';
import { displayUrl } from './url';

export interface DownloadedFile {
	data: Buffer;
	mimeType?: string;
	fileName?: string;
}

function fileNameFromDisposition(header: unknown): string | undefined {
	if (typeof header !== 'string') return undefined;
	const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
	if (!match) return undefined;
	try {
		return decodeURIComponent(match[1]);
	} catch {
		return match[1];
	}
}

function downloadedFile(answer: Answer): DownloadedFile {
	const contentType = headerText(answer.headers, 'content-type');
	let lastSegment = '';
	try {
		lastSegment = decodeURIComponent(new URL(answer.url).pathname.split('/').pop() ?? '');
	} catch {
		lastSegment = '';
	}
	return {
		data: answer.body,
		mimeType: contentType ? contentType.split(';')[0].trim().toLowerCase() : undefined,
		fileName:
			fileNameFromDisposition(answer.headers['content-disposition']) ?? (lastSegment || undefined),
	};
}

/** An absolute http(s) URL, or undefined. */
function httpUrl(raw: string, base?: string): URL | undefined {
	try {
		const url = new URL(raw, base);
		return /^https?:$/.test(url.protocol) && url.hostname !== '' ? url : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Downloads a media file the gateway pointed at (a message's media URL, a profile picture). The
 * API key goes only to the gateway's own file route on the Base URL's origin; a file elsewhere, or
 * a redirect elsewhere, is fetched without it.
 */
export async function gatewayDownloadFile(
	this: GatewayRequestContext,
	fileUrl: string,
	itemIndex?: number,
): Promise<DownloadedFile> {
	const gateway = await resolveGateway.call(this, itemIndex);
	const url = httpUrl(fileUrl, `${gateway.baseUrl}/`);
	if (!url) {
		throw new NodeApiError(
			this.getNode(),
			{ message: 'unusable media URL' },
			{
				message: `The gateway gave a media URL that is not http(s): "${redactSecret(displayUrl(String(fileUrl)), gateway.secrets)}"`,
				description: 'Only http(s) files are downloaded. Check how the gateway stores media.',
				itemIndex,
			},
		);
	}
	const answer = await fetchWithRetries.call(
		this,
		{
			method: 'GET',
			url: url.toString(),
			policy: 'gatewayFile',
			deadlineMs: REQUEST_LIMITS.deadlineMs,
			maxBytes: REQUEST_LIMITS.maxGatewayFileBytes,
			itemIndex,
			// A file on the gateway itself fails as the gateway does; one elsewhere names its host.
			target: url.origin === gateway.origin ? 'Gateway' : 'Media file',
		},
		gateway,
	);
	return downloadedFile(answer);
}

/**
 * Fetches a file from a URL a user or an input item gave (e.g. a preview image the gateway wants
 * inline): http(s) only, never with the API key (even on the gateway's own address), at most
 * PUBLIC_FILE_LIMITS.maxBytes within PUBLIC_FILE_LIMITS.deadlineMs, and, when `mimePrefix` is
 * given, only a file of that type. `field` names the field the URL came from.
 */
export async function fetchPublicFile(
	this: GatewayRequestContext,
	fileUrl: string,
	field: string,
	itemIndex: number,
	mimePrefix?: string,
): Promise<DownloadedFile> {
	const gateway = await resolveGateway.call(this, itemIndex);
	const url = httpUrl(fileUrl);
	if (!url) {
		throw new NodeOperationError(
			this.getNode(),
			`${field} must be an http(s) URL (got "${displayUrl(fileUrl)}")`,
			{ itemIndex },
		);
	}
	const answer = await fetchWithRetries.call(
		this,
		{
			method: 'GET',
			url: url.toString(),
			policy: 'public',
			deadlineMs: PUBLIC_FILE_LIMITS.deadlineMs,
			maxBytes: PUBLIC_FILE_LIMITS.maxBytes,
			itemIndex,
			target: field,
		},
		gateway,
	);
	const file = downloadedFile(answer);
	if (mimePrefix && !file.mimeType?.startsWith(mimePrefix)) {
		throw new NodeOperationError(
			this.getNode(),
			`${field} must point at a file of type ${mimePrefix}* (the host sent ${file.mimeType ?? 'no content type'})`,
			{ itemIndex, description: 'Use a direct link to the file, not to a web page about it.' },
		);
	}
	return file;
}
