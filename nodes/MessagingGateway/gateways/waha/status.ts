/**
 * Statuses (stories) on WAHA: one route per kind, `POST /api/{session}/status/{text|image|voice|video}`,
 * and `POST /api/{session}/status/delete`. Each reads what the user asked with its operation
 * file's code; who sees it is `contacts` (`…@c.us`), none for all contacts.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import * as deleteOperation from '../../actions/status/delete.operation';
import * as postOperation from '../../actions/status/post.operation';
import type { StatusKind } from '../../actions/status/post.operation';
import { fallbackFileName } from '../../helpers/media-source';
import { responseObject } from '../../helpers/message';
import type { GatewayOperation } from '../../../shared/gateways';
import type { ChatReference } from '../../../shared/identifiers';
import { toChatId } from '../../../shared/identifiers';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { isBlank } from '../../../shared/values';
import { wahaFile } from './send-helpers';

/** What a file of each kind is sent as when its type is unknown. */
const FALLBACK_MIME_TYPE: Record<Exclude<StatusKind, 'text'>, string> = {
	image: 'image/jpeg',
	video: 'video/mp4',
	voice: 'audio/ogg; codecs=opus',
};

function audience(contacts: ChatReference[] | undefined): IDataObject {
	return contacts ? { contacts: contacts.map(toChatId) } : {};
}

/** The body of WAHA's route for the status's kind. */
function statusBody(request: postOperation.PostStatusRequest): IDataObject {
	if (request.kind === 'text') {
		return { text: request.text, backgroundColor: request.backgroundColor, font: request.font };
	}
	const file = request.file!;
	const mimetype = file.mimeType ?? FALLBACK_MIME_TYPE[request.kind];
	// WAHA's schema wants a video's name even from a URL, inline content always; a voice note from a
	// URL goes without one, as Send Audio sends it.
	const filename =
		request.kind === 'voice' && file.source === 'url'
			? undefined
			: (file.fileName ?? fallbackFileName(request.kind, mimetype));
	const body: IDataObject = { file: wahaFile(file, mimetype, filename) };
	if (request.kind === 'voice') {
		// WAHA plays a voice note as OGG/Opus: anything else it converts when asked.
		body.convert = !mimetype.startsWith('audio/ogg');
		body.backgroundColor = request.backgroundColor;
	}
	if (request.kind === 'video') body.convert = mimetype !== 'video/mp4';
	if (request.kind !== 'voice' && !isBlank(request.caption)) body.caption = request.caption;
	return body;
}

async function post(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const request = await postOperation.readPostStatus.call(this, itemIndex);
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/api/${request.session}/status/${request.kind}`,
		{ body: { ...statusBody(request), ...audience(request.contacts) }, itemIndex },
	);
	return postOperation.statusOutput.call(this, response, itemIndex);
}

/** `POST /api/{session}/status/delete` `{id, contacts?}`: WAHA revokes it from the contacts named. */
async function deleteStatus(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = deleteOperation.readDeleteStatus.call(this, itemIndex);
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/api/${request.session}/status/delete`,
		{ body: { id: request.statusId, ...audience(request.contacts) }, itemIndex },
	);
	const json = responseObject.call(this, response, itemIndex);
	return [{ json: { ...json, statusId: request.statusId, deleted: true } }];
}

export const wahaStatusOperations: Record<string, GatewayOperation> = {
	'status.post': post,
	'status.delete': deleteStatus,
};
