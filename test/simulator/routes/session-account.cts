// Session family (WAHA-style, /api/...): pairing, channels, profile, groups, media files.
import type { RequestContext, Route } from '../core.cts';
import { nestError } from '../errors.cts';
import { newPairingCode, randomDigits, randomToken } from '../ids.cts';
import { CHANNEL_VIEWS, type ChannelView } from '../seed-channels.cts';
import type { Channel } from '../state.cts';
import { FieldChecks, bodyObject } from '../validation.cts';
import { findSession, requireSessionStatus, sessionKeyGuard, workingSession } from './guards.cts';
import { fileInputUrl, readFileInput, storePicture } from './session-common.cts';

const PAIRING_METHODS = ['sms', 'voice'];
const DEFAULT_SEARCH_LIMIT = 50;

function requestCode(context: RequestContext) {
	sessionKeyGuard(context);
	const instance = findSession(context, context.params.session);
	const body = bodyObject(context.body);
	const checks = new FieldChecks(body);
	// Form 1 sends `phone`; form 2 (WAHA) sends `phoneNumber` and `method`.
	const field =
		body.phone !== undefined && body.phoneNumber === undefined ? 'phone' : 'phoneNumber';
	const phone = checks.string(field, { notEmpty: true });
	if (phone && !/^\+?\d{8,15}$/.test(phone.trim())) {
		checks.add(
			`${field} must be a phone number in international format, digits only, e.g. 5511999999999`,
		);
	}
	const method = body.method;
	if (method !== undefined && method !== null && method !== '') {
		if (typeof method !== 'string' || !PAIRING_METHODS.includes(method)) {
			checks.add(`method must be one of the following values: ${PAIRING_METHODS.join(', ')}`);
		}
	}
	checks.done();
	requireSessionStatus(instance, 'SCAN_QR_CODE');
	if (typeof method === 'string' && method !== '') {
		throw nestError.unprocessable(
			"NOWEB engine doesn't support any 'method', remove it and try again",
		);
	}
	const code = newPairingCode();
	instance.pairingCode = code.replace('-', '');
	return { status: 201, body: { code } };
}

function encodeCursor(offset: number): string {
	return Buffer.from(`offset:${offset}`).toString('base64');
}

function decodeCursor(cursor: string): number | undefined {
	if (cursor === '') return 0;
	const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
	return match ? Number(match[1]) : undefined;
}

const VIEW_ORDER: Record<ChannelView, (a: Channel, b: Channel) => number> = {
	RECOMMENDED: () => 0,
	TRENDING: (a, b) => (b.trendScore ?? 0) - (a.trendScore ?? 0),
	POPULAR: (a, b) => b.subscribersCount - a.subscribersCount,
	NEW: (a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0),
};

function searchChannelsByView(context: RequestContext) {
	sessionKeyGuard(context);
	const instance = findSession(context, context.params.session);
	const body = bodyObject(context.body);
	const checks = new FieldChecks(body);
	const view = checks.string('view', { notEmpty: true });
	const upperView = view?.toUpperCase() as ChannelView | undefined;
	if (view && !CHANNEL_VIEWS.includes(upperView as ChannelView)) {
		checks.add(`view must be one of the following values: ${CHANNEL_VIEWS.join(', ')}`);
	}
	// Form 2 nests paging under `page` and spells countries `corntries`.
	const formTwo = 'corntries' in body || 'page' in body;
	const countries = formTwo
		? checks.stringArray('corntries', { optional: true })
		: checks.stringArray('countries', { optional: true, minItems: 1 });
	const categories = checks.stringArray('categories', { optional: true });
	const limit =
		checks.number(formTwo ? 'page.limit' : 'limit', { optional: true, min: 1 }) ??
		DEFAULT_SEARCH_LIMIT;
	const startCursor =
		checks.string(formTwo ? 'page.startCursor' : 'startCursor', { optional: true }) ?? '';
	const offset = decodeCursor(startCursor);
	if (offset === undefined)
		checks.add('startCursor must be a cursor returned by a previous search');
	checks.done();
	requireSessionStatus(instance, 'WORKING');

	const wantedCountries = countries?.map((country) => country.toUpperCase());
	const wantedCategories = categories?.map((category) => category.toUpperCase());
	const matches = context.core.state.channelDirectory
		.filter(
			(channel) => !wantedCountries?.length || wantedCountries.includes(channel.country ?? ''),
		)
		.filter(
			(channel) => !wantedCategories?.length || wantedCategories.includes(channel.category ?? ''),
		)
		.sort(VIEW_ORDER[upperView as ChannelView]);
	const start = offset ?? 0;
	const pageItems = matches.slice(start, start + limit);
	const hasNextPage = start + limit < matches.length;
	const endCursor = hasNextPage ? encodeCursor(start + limit) : null;
	return {
		status: 200,
		body: {
			page: {
				startCursor: startCursor || null,
				endCursor,
				hasNextPage,
				hasPreviousPage: start > 0,
			},
			channels: pageItems.map((channel) => ({
				id: channel.id,
				name: channel.name,
				invite: channel.invite,
				preview: channel.pictureUrl,
				picture: channel.pictureUrl,
				description: channel.description,
				verified: channel.verified,
				subscribersCount: channel.subscribersCount,
			})),
			...(endCursor ? { nextCursor: endCursor } : {}),
		},
	};
}

function createChannel(context: RequestContext) {
	sessionKeyGuard(context);
	const instance = findSession(context, context.params.session);
	const body = bodyObject(context.body);
	const checks = new FieldChecks(body);
	const name = checks.string('name', { notEmpty: true });
	const description = checks.string('description', { optional: true });
	const picture = readFileInput(checks, 'picture', body.picture, { allowBase64String: true });
	checks.done();
	requireSessionStatus(instance, 'WORKING');
	const id = `1203632${randomDigits(11)}@newsletter`;
	const channel: Channel = {
		id,
		name: name ?? '',
		description: description ?? '',
		invite: `https://www.messenger.net/channel/0029Va${randomToken(18)}`,
		role: 'OWNER',
		verified: false,
		subscribersCount: 0,
		pictureUrl: picture
			? fileInputUrl(context.core.baseUrl, instance, picture, `channel-${id.split('@')[0]}`)
			: undefined,
	};
	instance.channels.set(id, channel);
	const result: Record<string, unknown> = {
		id: channel.id,
		name: channel.name,
		invite: channel.invite,
		role: channel.role,
		verified: channel.verified,
		subscribersCount: channel.subscribersCount,
	};
	if (channel.pictureUrl)
		Object.assign(result, { preview: channel.pictureUrl, picture: channel.pictureUrl });
	if (description !== undefined) result.description = description;
	return { status: 201, body: result };
}

function deleteProfilePicture(context: RequestContext) {
	sessionKeyGuard(context);
	const instance = workingSession(context, context.params.session);
	if (!instance.profilePictureFile) throw nestError.notFound('Profile picture not found');
	instance.files.delete(instance.profilePictureFile);
	instance.profilePictureFile = null;
	return { status: 200, body: { success: true } };
}

function setProfilePicture(context: RequestContext) {
	sessionKeyGuard(context);
	const instance = findSession(context, context.params.session);
	const body = bodyObject(context.body);
	const checks = new FieldChecks(body);
	const file =
		body.file === undefined
			? undefined
			: readFileInput(checks, 'file', body.file, { allowBase64String: false });
	if (body.file === undefined || body.file === null) checks.add('file should not be empty');
	checks.done();
	requireSessionStatus(instance, 'WORKING');
	if (file) {
		if (instance.profilePictureFile) instance.files.delete(instance.profilePictureFile);
		instance.profilePictureFile = storePicture(instance, file, 'profile-picture');
	}
	return { status: 200, body: { success: true } };
}

function getProfile(context: RequestContext): never {
	sessionKeyGuard(context);
	findSession(context, context.params.session);
	// The spec documents this operation as not implemented yet.
	throw nestError.notImplemented(
		'Getting the profile is not implemented yet. Check the docs: GET /api/{session}/profile',
	);
}

function refreshGroups(context: RequestContext) {
	sessionKeyGuard(context);
	const instance = workingSession(context, context.params.session);
	return {
		status: 200,
		body: { success: true, message: 'Groups refreshed', count: instance.groups.size },
	};
}

function leaveGroup(context: RequestContext) {
	sessionKeyGuard(context);
	const instance = workingSession(context, context.params.session);
	const groupId = context.params.id;
	if (!/^[\d-]+@g\.us$/.test(groupId)) {
		throw nestError.validation(['id must be a group ID such as 120363000000000000@g.us']);
	}
	const group = instance.groups.get(groupId);
	if (!group) throw nestError.notFound('Group not found');
	instance.groups.delete(groupId);
	return { status: 200, body: { success: true, message: `Left the group "${group.subject}"` } };
}

/** Media the simulator serves: message attachments, avatars, uploaded pictures. */
function downloadFile(context: RequestContext) {
	sessionKeyGuard(context);
	const instance = findSession(context, context.params.session);
	const file = instance.files.get(context.params.file);
	if (!file) throw nestError.notFound('File not found');
	return {
		status: 200,
		raw: file.data,
		contentType: file.mimetype,
		headers: { 'Cache-Control': 'no-store' },
	};
}

/** The media files the simulator serves (attachments, avatars, uploaded pictures). */
export const fileRoute: Route = {
	method: 'GET',
	pattern: '/api/files/:session/:file',
	family: 'session',
	handler: downloadFile,
};

export const sessionAccountRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/api/:session/auth/request-code',
		family: 'session',
		handler: requestCode,
	},
	{
		method: 'POST',
		pattern: '/api/:session/channels/search/by-view',
		family: 'session',
		handler: searchChannelsByView,
	},
	{ method: 'POST', pattern: '/api/:session/channels', family: 'session', handler: createChannel },
	{
		method: 'DELETE',
		pattern: '/api/:session/profile/picture',
		family: 'session',
		handler: deleteProfilePicture,
	},
	{
		method: 'PUT',
		pattern: '/api/:session/profile/picture',
		family: 'session',
		handler: setProfilePicture,
	},
	{ method: 'GET', pattern: '/api/:session/profile', family: 'session', handler: getProfile },
	{
		method: 'POST',
		pattern: '/api/:session/groups/refresh',
		family: 'session',
		handler: refreshGroups,
	},
	{
		method: 'POST',
		pattern: '/api/:session/groups/:id/leave',
		family: 'session',
		handler: leaveGroup,
	},
	fileRoute,
];
