/**
 * Status → Post and Delete against the simulator playing each gateway: the request each gateway
 * takes (Evolution API v1's `{statusMessage}` on the Messaging Gateway API, v2's flat body, WAHA's
 * route per kind), judged by that gateway's own validation, the status's ID in the output, and
 * bad input refused before any request, naming the field.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { checkEvolution } from '../compatibility/evolution.cts';
import { checkEvolutionV2 } from '../compatibility/evolution-v2.cts';
import { checkWaha } from '../compatibility/waha.cts';
import type { SentRequest, Verdict } from '../compatibility/verdicts.cts';
import { SEED } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { useSimulator } from '../simulator/testing.cts';
import { binaryItem, runGateway } from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const { alice, bruno } = SEED.contacts;

type StatusGateway = 'messagingGatewayApi' | 'evolutionV2' | 'waha';

const CASES: Record<StatusGateway, { simulator: Simulator; check: (r: SentRequest) => Verdict }> = {
	messagingGatewayApi: { simulator: useSimulator(), check: checkEvolution },
	evolutionV2: { simulator: useSimulator({ gateway: 'evolution-v2' }), check: checkEvolutionV2 },
	waha: { simulator: useSimulator({ gateway: 'waha' }), check: checkWaha },
};
const GATEWAYS = Object.keys(CASES) as StatusGateway[];

const PNG = binaryItem(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
	'image/png',
	'offer.png',
);
const VOICE = binaryItem(Buffer.from('OggS voice').toString('base64'), 'audio/ogg', 'hi.ogg');

async function run(
	gateway: StatusGateway,
	operation: 'post' | 'delete',
	parameters: INodeParameters,
	items?: INodeExecutionData[],
) {
	return await runGateway(
		CASES[gateway].simulator,
		{ resource: 'status', operation, session: SESSION, ...parameters },
		{ gateway, items },
	);
}

/** Each way to post, with the body each gateway must receive (the route for WAHA's kind). */
const POSTS: Array<{
	name: string;
	parameters: INodeParameters;
	items?: INodeExecutionData[];
	evolution: IDataObject | 'refused';
	waha: { kind: string; body: IDataObject };
}> = [
	{
		name: 'a text with the defaults (Serif, WhatsApp green, all contacts)',
		parameters: { statusType: 'text', text: 'Open on Sunday!' },
		evolution: {
			type: 'text',
			content: 'Open on Sunday!',
			backgroundColor: '#25d366',
			font: 1,
			allContacts: true,
		},
		waha: { kind: 'text', body: { text: 'Open on Sunday!', backgroundColor: '#25d366', font: 1 } },
	},
	{
		name: 'a text in Bebas Neue on red, to two chosen contacts',
		parameters: {
			statusType: 'text',
			text: 'Sale!',
			font: 'bebasNeueRegular',
			backgroundColor: 'FF0000',
			audience: 'chosenContacts',
			contacts: `+${alice.number}, ${bruno.number}`,
		},
		evolution: {
			type: 'text',
			content: 'Sale!',
			backgroundColor: '#ff0000',
			font: 4,
			statusJidList: [`${alice.number}@JID`, `${bruno.number}@JID`],
		},
		waha: {
			kind: 'text',
			body: {
				text: 'Sale!',
				backgroundColor: '#ff0000',
				font: 4,
				contacts: [alice.chatId, `${bruno.number}@c.us`],
			},
		},
	},
	{
		name: 'a text whose font an expression gives as a number',
		parameters: { statusType: 'text', text: 'Hi', font: '={{ 3 }}' },
		evolution: {
			type: 'text',
			content: 'Hi',
			backgroundColor: '#25d366',
			font: 3,
			allContacts: true,
		},
		waha: { kind: 'text', body: { text: 'Hi', backgroundColor: '#25d366', font: 3 } },
	},
	{
		name: 'an image from a URL with a caption',
		parameters: {
			statusType: 'image',
			mediaSource: 'url',
			mediaUrl: 'https://cdn.example.com/offer.jpg',
			caption: 'This week only',
		},
		evolution: {
			type: 'image',
			content: 'https://cdn.example.com/offer.jpg',
			caption: 'This week only',
			allContacts: true,
		},
		waha: {
			kind: 'image',
			body: {
				file: {
					mimetype: 'image/jpeg',
					filename: 'offer.jpg',
					url: 'https://cdn.example.com/offer.jpg',
				},
				caption: 'This week only',
			},
		},
	},
	{
		name: 'a video from a URL',
		parameters: {
			statusType: 'video',
			mediaSource: 'url',
			mediaUrl: 'https://cdn.example.com/tour.mov',
		},
		evolution: { type: 'video', content: 'https://cdn.example.com/tour.mov', allContacts: true },
		waha: {
			kind: 'video',
			body: {
				file: {
					mimetype: 'video/quicktime',
					filename: 'tour.mov',
					url: 'https://cdn.example.com/tour.mov',
				},
				convert: true,
			},
		},
	},
	{
		name: 'a voice note from a URL, on blue',
		parameters: {
			statusType: 'voice',
			mediaSource: 'url',
			mediaUrl: 'https://cdn.example.com/hello.mp3',
			backgroundColor: '#0000ff',
		},
		evolution: { type: 'audio', content: 'https://cdn.example.com/hello.mp3', allContacts: true },
		waha: {
			kind: 'voice',
			body: {
				file: { mimetype: 'audio/mpeg', url: 'https://cdn.example.com/hello.mp3' },
				convert: true,
				backgroundColor: '#0000ff',
			},
		},
	},
	{
		name: 'an image from a binary file (Evolution takes a URL only)',
		parameters: { statusType: 'image', mediaSource: 'binary', mediaBinaryProperty: 'data' },
		items: [PNG],
		evolution: 'refused',
		waha: {
			kind: 'image',
			body: { file: { mimetype: 'image/png', filename: 'offer.png', data: PNG.binary!.data.data } },
		},
	},
	{
		name: 'a voice note from a binary OGG file (not converted)',
		parameters: { statusType: 'voice', mediaSource: 'binary', mediaBinaryProperty: 'data' },
		items: [VOICE],
		evolution: 'refused',
		waha: {
			kind: 'voice',
			body: {
				file: { mimetype: 'audio/ogg', filename: 'hi.ogg', data: VOICE.binary!.data.data },
				convert: false,
				backgroundColor: '#25d366',
			},
		},
	},
];

/** What each gateway must receive for a post: its route and body. */
function expectedRequest(gateway: StatusGateway, post: (typeof POSTS)[number]) {
	if (gateway === 'waha') {
		return { path: `/api/${SESSION}/status/${post.waha.kind}`, body: post.waha.body };
	}
	const path = `/message/sendStatus/${SESSION}`;
	// The spec names contacts …@s.messenger.net; WhatsApp, and so Evolution API v2, …@s.whatsapp.net.
	const domain = gateway === 'evolutionV2' ? 's.whatsapp.net' : 's.messenger.net';
	const status = JSON.parse(JSON.stringify(post.evolution).replace(/@JID/g, `@${domain}`));
	return { path, body: gateway === 'evolutionV2' ? status : { statusMessage: status } };
}

describe.each(GATEWAYS)('Status on %s', (gateway) => {
	const { simulator, check } = CASES[gateway];
	beforeEach(() => simulator.clearLogs());

	it.each(POSTS.filter((post) => gateway === 'waha' || post.evolution !== 'refused'))(
		'posts $name: the request the gateway takes, and the status ID to delete it',
		async (post) => {
			const result = await run(gateway, 'post', post.parameters, post.items);
			expect(result.error?.message).toBeUndefined();
			expect(simulator.requests.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
				{ method: 'POST', ...expectedRequest(gateway, post) },
			]);
			expect(simulator.requests.map((request) => check(request).outcome)).toEqual(['accepted']);
			const [item] = result.outputs[0];
			expect(item.json.statusId).toEqual(expect.stringMatching(/^[0-9A-F]{16,}$/));
			expect((item.json.key as IDataObject).id).toBe(item.json.statusId);
			expect(item.pairedItem).toEqual({ item: 0 });
		},
	);

	it.each<{
		name: string;
		parameters: INodeParameters;
		items?: INodeExecutionData[];
		error: RegExp;
	}>([
		{
			name: 'an empty text',
			parameters: { statusType: 'text', text: '  ' },
			error: /^Text must not be empty$/,
		},
		{
			name: 'a colour that is not #RRGGBB',
			parameters: { statusType: 'text', text: 'Hi', backgroundColor: 'green' },
			error: /^Background Color must be a colour as #RRGGBB, e.g. #25D366 \(got "green"\)$/,
		},
		{
			name: 'a font number past the five',
			parameters: { statusType: 'text', text: 'Hi', font: 6 },
			error:
				/^Font must be one of serif, noricanRegular, bryndanWrite, bebasNeueRegular, oswaldHeavy, or its number 1 to 5 \(got 6\)$/,
		},
		{
			name: 'a font that is no font',
			parameters: { statusType: 'text', text: 'Hi', font: 'comic' },
			error:
				/^Font must be one of serif, noricanRegular, bryndanWrite, bebasNeueRegular, oswaldHeavy \(got "comic"\)$/,
		},
		{
			name: 'chosen contacts whose expression lists none',
			parameters: {
				statusType: 'text',
				text: 'Hi',
				audience: 'chosenContacts',
				contacts: '={{ [] }}',
			},
			error: /^Contacts must list at least one phone number when Who Sees It is Chosen Contacts$/,
		},
		{
			name: 'a contact that is no phone number',
			parameters: {
				statusType: 'text',
				text: 'Hi',
				audience: 'chosenContacts',
				contacts: `${alice.number}, Bruno`,
			},
			error: /^Contacts \(entry 2\) must be a phone number with country code/,
		},
		{
			name: 'a voice note whose file is an image',
			parameters: { statusType: 'voice', mediaSource: 'binary', mediaBinaryProperty: 'data' },
			items: [PNG],
			error: /^The file is image\/png, not audio: a voice status needs one$/,
		},
		{
			name: 'an unknown type',
			parameters: { statusType: 'poll' },
			error: /^Type must be one of text, image, video, voice \(got "poll"\)$/,
		},
		...(gateway === 'waha'
			? []
			: [
					{
						name: 'a file from a binary field (Evolution downloads a status file from a URL)',
						parameters: { statusType: 'image', mediaSource: 'binary', mediaBinaryProperty: 'data' },
						items: [PNG],
						error:
							/^Evolution API takes the file of a status from a URL only: choose File Source URL$/,
					},
				]),
	])('refuses $name before any request', async ({ parameters, items, error }) => {
		const result = await run(gateway, 'post', parameters, items);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(error);
		expect(simulator.requests).toEqual([]);
	});

	if (gateway === 'waha') {
		it.each([
			{ name: 'posted to all contacts', parameters: {}, body: { id: '3EB0C767D26A1D3BB2F1' } },
			{
				name: 'posted to a chosen contact',
				parameters: { audience: 'chosenContacts', contacts: alice.number },
				body: { id: '3EB0C767D26A1D3BB2F1', contacts: [alice.chatId] },
			},
		])('deletes a status $name', async ({ parameters, body }) => {
			const result = await run(gateway, 'delete', {
				statusId: '3EB0C767D26A1D3BB2F1',
				...parameters,
			});
			expect(result.error?.message).toBeUndefined();
			expect(
				simulator.requests.map(({ method, path, body: sent }) => ({ method, path, sent })),
			).toEqual([{ method: 'POST', path: `/api/${SESSION}/status/delete`, sent: body }]);
			expect(simulator.requests.map((request) => check(request).outcome)).toEqual(['accepted']);
			expect(result.outputs[0][0].json).toMatchObject({
				statusId: '3EB0C767D26A1D3BB2F1',
				deleted: true,
			});
		});

		it('posts, then deletes what it posted by the Status ID it output', async () => {
			const posted = await run(gateway, 'post', { statusType: 'text', text: 'Gone soon' });
			const statusId = String(posted.outputs[0][0].json.statusId);
			const deleted = await run(gateway, 'delete', { statusId });
			expect(deleted.error?.message).toBeUndefined();
			expect(simulator.requests.at(-1)?.body).toEqual({ id: statusId });
		});

		it('refuses a Status ID with spaces or slashes before any request', async () => {
			const result = await run(gateway, 'delete', { statusId: '../sessions' });
			expect(result.error?.message).toMatch(/^Status ID must be the ID Post gave the status/);
			expect(simulator.requests).toEqual([]);
		});
	} else {
		it('refuses Delete before any request: Evolution API has no route to take a status down', async () => {
			const result = await run(gateway, 'delete', { statusId: '3EB0C767D26A1D3BB2F1' });
			expect(result.error?.name).toBe('NodeOperationError');
			expect(result.error?.message).toMatch(
				/^Status → Delete is not available on (the Messaging Gateway API|Evolution API v2): /,
			);
			expect(simulator.requests).toEqual([]);
		});
	}
});
