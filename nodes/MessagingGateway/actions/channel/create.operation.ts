import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { responseOr } from '../../helpers/responses';
import { gatewayApiRequest, gatewayPath } from '../../../shared/transport';
import { fileSourceProperties, readFileSource } from '../../helpers/files';
import type { GatewayFile } from '../../helpers/files';
import { readRequiredText, readText } from '../../helpers/fields';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';

const properties: INodeProperties[] = [
	...sessionFields,
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Acme Updates',
		description: 'The name of the new channel (newsletter)',
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: 'e.g. Product news and opening hours',
		description: 'The text shown on the channel page. Can be left empty.',
	},
	...fileSourceProperties('picture', 'Picture', true),
];

export const description = showOnlyFor('channel', 'create', properties);

/** What Create was asked for one item, checked before any request. */
export interface CreateChannelRequest {
	session: string;
	name: string;
	/** Empty when not given. */
	description: string;
	picture?: GatewayFile;
}

export async function readCreateChannel(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<CreateChannelRequest> {
	const session = readSession.call(this, itemIndex);
	const name = readRequiredText.call(this, 'name', 'Name', itemIndex, {
		hint: 'Enter the name of the channel to create.',
	});
	const description = readText.call(this, 'description', 'Description', itemIndex, true);
	const picture = await readFileSource.call(this, 'picture', 'Picture', itemIndex, {
		mimeTypes: ['image/jpeg', 'image/png'],
	});
	return { session, name, description, picture };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const {
		session,
		name,
		description: channelDescription,
		picture,
	} = await readCreateChannel.call(this, itemIndex);

	// The spec's field table marks description as required, so it is always sent (empty when not given).
	const body: IDataObject = { name, description: channelDescription };
	// The spec takes the picture as a URL object or as a plain base64 string (not a binary-file object).
	if (picture) body.picture = 'data' in picture ? picture.data : (picture as IDataObject);
	const response = await gatewayApiRequest.call(
		this,
		'POST',
		gatewayPath`/api/${session}/channels`,
		{ body, itemIndex },
	);
	// Nothing useful came back: say what was done.
	return [
		{
			json: responseOr.call(
				this,
				response,
				{ success: true, name, description: channelDescription },
				itemIndex,
			),
		},
	];
}
