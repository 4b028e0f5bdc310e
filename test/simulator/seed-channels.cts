// Public channels (newsletters) that POST /api/{session}/channels/search/by-view pages through.
import type { Channel } from './state.cts';

export const CHANNEL_VIEWS = ['RECOMMENDED', 'TRENDING', 'POPULAR', 'NEW'] as const;
export type ChannelView = (typeof CHANNEL_VIEWS)[number];

export const CHANNEL_CATEGORIES = [
	'ENTERTAINMENT',
	'SPORTS',
	'LIFESTYLE',
	'BUSINESS',
	'ORGANIZATIONS',
	'PEOPLE',
] as const;

function directoryChannel(
	index: number,
	name: string,
	country: string,
	category: (typeof CHANNEL_CATEGORIES)[number],
	subscribersCount: number,
	verified: boolean,
	trendScore: number,
	description: string,
): Channel {
	const digits = String(index).padStart(3, '0');
	return {
		id: `120363200000000${digits}@newsletter`,
		name,
		description,
		invite: `https://www.messenger.net/channel/0029VaDirectory${digits}0000000`,
		role: 'GUEST',
		verified,
		subscribersCount,
		pictureUrl: `https://pps.messenger.net/v/t61.24694-24/channel-${digits}.jpg`,
		country,
		category,
		createdAt: 1735689600 + index * 86400 * 20,
		trendScore,
	};
}

export const CHANNEL_DIRECTORY: Channel[] = [
	directoryChannel(
		1,
		'Global Football Live',
		'US',
		'SPORTS',
		2_400_000,
		true,
		71,
		'Scores and highlights as they happen.',
	),
	directoryChannel(
		2,
		'Cozinha Brasileira',
		'BR',
		'LIFESTYLE',
		860_000,
		true,
		54,
		'Receitas do dia a dia.',
	),
	directoryChannel(
		3,
		'Startup Daily',
		'US',
		'BUSINESS',
		310_000,
		false,
		88,
		'One founder story every morning.',
	),
	directoryChannel(
		4,
		'Movie Nights',
		'GB',
		'ENTERTAINMENT',
		1_150_000,
		true,
		63,
		'What to watch this weekend.',
	),
	directoryChannel(
		5,
		'Red Cross Updates',
		'US',
		'ORGANIZATIONS',
		540_000,
		true,
		40,
		'Emergency information and volunteering.',
	),
	directoryChannel(
		6,
		'Futebol Brasil',
		'BR',
		'SPORTS',
		3_100_000,
		true,
		92,
		'Tudo sobre o Brasileirão.',
	),
	directoryChannel(
		7,
		'Indie Music Finds',
		'DE',
		'ENTERTAINMENT',
		95_000,
		false,
		77,
		'New independent artists every week.',
	),
	directoryChannel(
		8,
		'Marathon Runners',
		'IN',
		'PEOPLE',
		210_000,
		false,
		35,
		'Training plans and race reports.',
	),
];
