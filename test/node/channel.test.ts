import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SEED } from '../simulator/index.cts';
import { useSimulator, gatewayClient } from '../simulator/testing.cts';
import {
	expectOneRequest,
	expectValidationError,
	outputJson,
	resourceRunner,
} from '../support/gateway-node.cts';

const SESSION = SEED.instances.connected.name;
const PAIRING_SESSION = SEED.instances.pairing.name;
const SEARCH_PATH = `/api/${SESSION}/channels/search/by-view`;
/** A 1x1 PNG. */
const TINY_PNG_BASE64 =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

const directoryId = (index: number) =>
	`120363200000000${String(index).padStart(3, '0')}@newsletter`;

const simulator = useSimulator();
const runChannel = resourceRunner(simulator, 'channel', SESSION);

describe('Channel > Create', () => {
	it('posts name and description and outputs the channel record', async () => {
		const result = await runChannel('create', {
			name: 'Acme Deals',
			description: 'Weekly deals from Acme',
		});

		expect(result.status).toBe('success');
		expectOneRequest(simulator, {
			method: 'POST',
			path: `/api/${SESSION}/channels`,
			query: {},
		});
		expect(simulator.requests[0].body).toEqual({
			name: 'Acme Deals',
			description: 'Weekly deals from Acme',
		});
		expect(result.outputs[0]).toEqual([
			{
				json: {
					id: expect.stringMatching(/^\d+@newsletter$/),
					name: 'Acme Deals',
					description: 'Weekly deals from Acme',
					invite: expect.stringMatching(/^https:\/\//),
					role: 'OWNER',
					verified: false,
					subscribersCount: 0,
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('sends an empty description when none is given, and trims the name', async () => {
		const result = await runChannel('create', { name: '  Acme Deals  ' });

		expect(simulator.requests[0].body).toEqual({ name: 'Acme Deals', description: '' });
		expect(outputJson(result)[0]).toMatchObject({ name: 'Acme Deals', description: '' });
	});

	it('sends a picture URL as {mimetype, url, filename}', async () => {
		const pictureUrl = 'https://cdn.example.com/brand/logo.png';

		const result = await runChannel('create', {
			name: 'Acme Deals',
			pictureSource: 'url',
			pictureUrl,
		});

		expect(simulator.requests[0].body).toEqual({
			name: 'Acme Deals',
			description: '',
			picture: { mimetype: 'image/png', url: pictureUrl, filename: 'logo.png' },
		});
		expect(outputJson(result)[0]).toMatchObject({ picture: pictureUrl, preview: pictureUrl });
	});

	it('sends a binary input picture inline as the base64 string the spec takes', async () => {
		const item: INodeExecutionData = {
			json: {},
			binary: { logo: { data: TINY_PNG_BASE64, mimeType: 'image/png', fileName: 'logo.png' } },
		};

		const result = await runChannel(
			'create',
			{ name: 'Acme Deals', pictureSource: 'binary', pictureBinaryProperty: 'logo' },
			{ items: [item] },
		);

		expect(simulator.requests[0].body).toEqual({
			name: 'Acme Deals',
			description: '',
			picture: TINY_PNG_BASE64,
		});
		// The gateway now serves the uploaded picture.
		const pictureUrl = String(outputJson(result)[0].picture);
		const served = await gatewayClient(simulator).get(pictureUrl.slice(simulator.url.length), {
			responseType: 'arraybuffer',
		});
		expect(Buffer.from(served.data as ArrayBuffer).toString('base64')).toBe(TINY_PNG_BASE64);
	});

	it('rejects an empty name before any request', async () => {
		const result = await runChannel('create', { name: '={{ "   " }}' });

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe('Name must not be empty');
		expect(simulator.requests).toEqual([]);
	});

	it('rejects a picture URL that is not one before any request', async () => {
		const result = await runChannel('create', {
			name: 'Acme Deals',
			pictureSource: 'url',
			pictureUrl: 'logo.png',
		});

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe('Picture URL must be an http(s) URL (got "logo.png")');
		expect(simulator.requests).toEqual([]);
	});

	it('surfaces the 422 of a session that is not connected yet', async () => {
		const result = await runChannel('create', { session: PAIRING_SESSION, name: 'Acme Deals' });

		expect(simulator.requests).toHaveLength(1);
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(
			`Gateway error 422: Session status is not as expected. Try again later or restart the session (session "${PAIRING_SESSION}" is SCAN_QR_CODE, expected WORKING)`,
		);
	});

	it('makes one request per input item with paired outputs', async () => {
		const names = ['Deals', 'News', 'Jobs'];
		const result = await runChannel(
			'create',
			{ name: '={{ $json.channel }}' },
			{ items: names.map((channel) => ({ json: { channel } })) },
		);

		expect(simulator.requests.map((request) => (request.body as IDataObject).name)).toEqual(names);
		expect(result.outputs[0].map((item) => [item.json.name, item.pairedItem])).toEqual([
			['Deals', { item: 0 }],
			['News', { item: 1 }],
			['Jobs', { item: 2 }],
		]);
	});

	it('with Continue On Fail, a bad item becomes an error item and the others go on', async () => {
		const result = await runChannel(
			'create',
			{ name: '={{ $json.channel }}' },
			{
				items: ['Deals', '', 'Jobs'].map((channel) => ({ json: { channel } })),
				onError: 'continueRegularOutput',
			},
		);

		expect(result.status).toBe('success');
		expect(simulator.requests).toHaveLength(2);
		expect(result.outputs[0]).toEqual([
			{ json: expect.objectContaining({ name: 'Deals' }), pairedItem: { item: 0 } },
			{
				json: {
					error: 'Name must not be empty',
					message: 'Enter the name of the channel to create.',
				},
				pairedItem: { item: 1 },
			},
			{ json: expect.objectContaining({ name: 'Jobs' }), pairedItem: { item: 2 } },
		]);
	});
});

describe('Channel > Search', () => {
	/** A scripted page of `count` channels (for paging beyond the simulator's 8 public channels). */
	function scriptedChannels(from: number, count: number): IDataObject[] {
		return Array.from({ length: count }, (_, offset) => ({
			id: `120363300000${String(from + offset).padStart(6, '0')}@newsletter`,
			name: `Channel ${from + offset}`,
			invite: `https://www.messenger.net/channel/${from + offset}`,
			verified: false,
			subscribersCount: from + offset,
		}));
	}

	it('shape A: posts form 1 with the defaults and outputs one item per channel', async () => {
		const result = await runChannel('search');

		expect(result.status).toBe('success');
		expectOneRequest(simulator, {
			method: 'POST',
			path: SEARCH_PATH,
			query: {},
		});
		expect(simulator.requests[0].body).toEqual({
			view: 'RECOMMENDED',
			countries: ['US'],
			categories: [],
			limit: 50,
			startCursor: '',
		});
		expect(outputJson(result).map((channel) => channel.id)).toEqual([
			directoryId(1),
			directoryId(3),
			directoryId(5),
		]);
		expect(outputJson(result)[0]).toEqual({
			id: directoryId(1),
			name: 'Global Football Live',
			invite: 'https://www.messenger.net/channel/0029VaDirectory0010000000',
			preview: 'https://pps.messenger.net/v/t61.24694-24/channel-001.jpg',
			picture: 'https://pps.messenger.net/v/t61.24694-24/channel-001.jpg',
			description: 'Scores and highlights as they happen.',
			verified: true,
			subscribersCount: 2400000,
		});
		expect(result.outputs[0].map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 0 },
		]);
	});

	it('shape B: posts form 2 with corntries and page', async () => {
		const result = await runChannel(
			'search',
			{ view: 'POPULAR', countries: 'us, br', categories: ['SPORTS'], limit: 10 },
			{ requestBodyStyle: 'jidSessionId' },
		);

		expect(simulator.requests[0].path).toBe(SEARCH_PATH);
		expect(simulator.requests[0].body).toEqual({
			view: 'POPULAR',
			categories: ['SPORTS'],
			corntries: ['US', 'BR'],
			page: { limit: 10, startCursor: '' },
		});
		expect(outputJson(result).map((channel) => channel.name)).toEqual([
			'Futebol Brasil',
			'Global Football Live',
		]);
	});

	it('shape A: filters by countries, categories and view', async () => {
		const result = await runChannel('search', {
			view: 'TRENDING',
			countries: 'US;GB;DE',
			categories: ['ENTERTAINMENT', 'BUSINESS'],
		});

		expect(simulator.requests[0].body).toEqual({
			view: 'TRENDING',
			countries: ['US', 'GB', 'DE'],
			categories: ['ENTERTAINMENT', 'BUSINESS'],
			limit: 50,
			startCursor: '',
		});
		expect(outputJson(result).map((channel) => channel.name)).toEqual([
			'Startup Daily',
			'Indie Music Finds',
			'Movie Nights',
		]);
	});

	it('follows page.endCursor with the real gateway until Limit is reached', async () => {
		// Two pages from the first request's scripted answer, then the simulator's own second page.
		const firstPage = await gatewayClient(simulator).post(SEARCH_PATH, {
			view: 'POPULAR',
			countries: ['US', 'BR', 'GB', 'DE', 'IN'],
			categories: [],
			limit: 3,
			startCursor: '',
		});
		simulator.clearLogs();
		simulator.injectFault({
			match: { path: '/channels/search/' },
			status: 200,
			body: firstPage.data,
		});

		const result = await runChannel('search', {
			view: 'POPULAR',
			countries: 'US, BR, GB, DE, IN',
			limit: 55,
		});

		expect(simulator.requests.map((request) => request.body)).toEqual([
			expect.objectContaining({ limit: 50, startCursor: '' }),
			expect.objectContaining({ limit: 50, startCursor: firstPage.data.page.endCursor }),
		]);
		expect(outputJson(result).map((channel) => channel.subscribersCount)).toEqual([
			3100000, 2400000, 1150000, 860000, 540000, 310000, 210000, 95000,
		]);
	});

	it('with Return All, pages in pages of 50 until hasNextPage is false', async () => {
		simulator.injectFault({
			match: { path: '/channels/search/' },
			status: 200,
			body: {
				page: {
					startCursor: null,
					endCursor: 'cursor-2',
					hasNextPage: true,
					hasPreviousPage: false,
				},
				channels: scriptedChannels(0, 50),
			},
		});
		simulator.injectFault({
			match: { path: '/channels/search/' },
			status: 200,
			body: {
				page: {
					startCursor: 'cursor-2',
					endCursor: 'cursor-3',
					hasNextPage: false,
					hasPreviousPage: true,
				},
				channels: scriptedChannels(50, 7),
			},
		});

		const result = await runChannel('search', { returnAll: true });

		expect(simulator.requests.map((request) => request.body)).toEqual([
			{ view: 'RECOMMENDED', countries: ['US'], categories: [], limit: 50, startCursor: '' },
			{
				view: 'RECOMMENDED',
				countries: ['US'],
				categories: [],
				limit: 50,
				startCursor: 'cursor-2',
			},
		]);
		const names = outputJson(result).map((channel) => channel.name);
		expect(names).toHaveLength(57);
		expect(names[56]).toBe('Channel 56');
	});

	it('shape B: follows nextCursor when the gateway sends no page, and stops at Limit', async () => {
		simulator.injectFault({
			match: { path: '/channels/search/' },
			status: 200,
			body: { channels: scriptedChannels(0, 50), nextCursor: 'next-1' },
		});
		simulator.injectFault({
			match: { path: '/channels/search/' },
			status: 200,
			body: { channels: scriptedChannels(50, 10), nextCursor: 'next-2' },
		});

		const result = await runChannel('search', { limit: 60 }, { requestBodyStyle: 'jidSessionId' });

		expect(simulator.requests.map((request) => (request.body as IDataObject).page)).toEqual([
			{ limit: 50, startCursor: '' },
			{ limit: 10, startCursor: 'next-1' },
		]);
		expect(outputJson(result)).toHaveLength(60);
	});

	it.each([
		['empty', '', '""'],
		['a three-letter code', 'US, USA', '"US, USA"'],
		['a code with a digit', 'U1', '"U1"'],
	])('rejects Countries that is %s before any request', async (_what, countries, shown) => {
		const result = await runChannel('search', { countries: `={{ ${JSON.stringify(countries)} }}` });

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(
			`Countries must be one or more two-letter country codes like US or BR, separated by commas (got ${shown})`,
		);
		expect(result.error?.description).toMatch(/ISO 3166-1/);
		expect(simulator.requests).toEqual([]);
	});

	it('rejects an empty view from an expression before any request', async () => {
		const result = await runChannel('search', { view: '={{ "" }}' });

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(
			'View must be one of NEW, POPULAR, RECOMMENDED, TRENDING (got "")',
		);
		expect(simulator.requests).toEqual([]);
	});

	it('sends a view from an expression in upper case', async () => {
		await runChannel('search', { view: '={{ "trending" }}' });

		expect((simulator.requests[0].body as IDataObject).view).toBe('TRENDING');
	});

	it('rejects a Limit below 1 before any request', async () => {
		const result = await runChannel('search', { limit: -5 });

		expect(result.error?.message).toBe('Limit must be a whole number of at least 1 (got "-5")');
		expect(simulator.requests).toEqual([]);
	});

	it('refuses a view that is not in the list before any request', async () => {
		const result = await runChannel('search', { view: '={{ "FEATURED" }}' });

		expectValidationError(
			simulator,
			result,
			'View must be one of NEW, POPULAR, RECOMMENDED, TRENDING (got "FEATURED")',
		);
	});

	it('refuses a category that is not in the list before any request', async () => {
		const result = await runChannel('search', { categories: '={{ ["sports", "gossip"] }}' });

		expectValidationError(
			simulator,
			result,
			'Categories must be one of BUSINESS, ENTERTAINMENT, LIFESTYLE, ORGANIZATIONS, PEOPLE, SPORTS (got "gossip")',
		);
	});

	it('makes one request per input item with paired outputs', async () => {
		const result = await runChannel(
			'search',
			{ countries: '={{ $json.country }}', limit: 1 },
			{ items: ['US', 'BR', 'IN'].map((country) => ({ json: { country } })) },
		);

		expect(simulator.requests.map((request) => (request.body as IDataObject).countries)).toEqual([
			['US'],
			['BR'],
			['IN'],
		]);
		expect(result.outputs[0].map((item) => [item.json.name, item.pairedItem])).toEqual([
			['Global Football Live', { item: 0 }],
			['Cozinha Brasileira', { item: 1 }],
			['Marathon Runners', { item: 2 }],
		]);
	});

	it('with Continue On Fail, a failing item becomes an error item and the others go on', async () => {
		const result = await runChannel(
			'search',
			{ session: '={{ $json.session }}', limit: 1 },
			{
				items: [SESSION, PAIRING_SESSION, SESSION].map((session) => ({ json: { session } })),
				onError: 'continueRegularOutput',
			},
		);

		expect(result.status).toBe('success');
		expect(simulator.requests).toHaveLength(3);
		expect(result.outputs[0]).toEqual([
			{ json: expect.objectContaining({ id: directoryId(1) }), pairedItem: { item: 0 } },
			{
				json: {
					error: expect.stringMatching(/^Gateway error 422: Session status is not as expected/),
					message: expect.stringContaining('not ready'),
				},
				pairedItem: { item: 1 },
			},
			{ json: expect.objectContaining({ id: directoryId(1) }), pairedItem: { item: 2 } },
		]);
	});
});
