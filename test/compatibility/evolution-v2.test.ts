/**
 * Proves that checkEvolutionV2 is honest: for every Evolution API 2.3.6 route the package is to call, a
 * request 2.3.6 takes is accepted and one it refuses is rejected with Evolution's own words (or found
 * absent, where the method changed since v1), judged with 2.3.6's own schemas and validator.
 */
import { version as installedJsonschema } from 'jsonschema/package.json';

import { judgeEvolution } from './evolution.cts';
import { checkEvolutionV2, EVOLUTION_V2 } from './evolution-v2.cts';
import { verdictReasons } from './verdicts.cts';
import type { SentRequest, Verdict } from './verdicts.cts';

const INSTANCE = 'sales';
const NUMBER = '5511987650001';
const JID = `${NUMBER}@s.whatsapp.net`;
const GROUP_JID = '120363041234567890@g.us';
const KEY = { id: '3EB0C767D26A1D9E5F0A', remoteJid: JID, fromMe: true };
const WEBHOOK = {
	enabled: true,
	url: 'https://n8n.example.com/webhook/abc',
	events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'],
	byEvents: false,
	base64: false,
	headers: { authorization: 'Bearer t' },
};
const LIST = {
	number: NUMBER,
	title: 'Menu',
	description: 'Pick one',
	buttonText: 'Open',
	footerText: 'Thanks',
	sections: [{ title: 'Drinks', rows: [{ title: 'Tea', description: 'Hot', rowId: 'tea' }] }],
};
const POLL = { number: NUMBER, name: 'Lunch?', selectableCount: 1, values: ['Yes', 'No'] };
const PARTICIPANTS = { action: 'add', participants: ['5511987650002'] };

/** `POST /message/sendText/{instanceName}` → the request to it for INSTANCE. */
function request(
	route: string,
	body?: unknown,
	query: Record<string, string> = {},
	method = route.split(' ')[0],
): SentRequest {
	const path = route.split(' ')[1].replace('{instanceName}', INSTANCE);
	return { method, path, query, body };
}

type Case = [
	route: string,
	name: string,
	sent: SentRequest,
	outcome: Verdict['outcome'],
	reason: string,
];

const SEND_TEXT = 'POST /message/sendText/{instanceName}';
const SEND_MEDIA = 'POST /message/sendMedia/{instanceName}';
const SEND_AUDIO = 'POST /message/sendWhatsAppAudio/{instanceName}';
const SEND_STICKER = 'POST /message/sendSticker/{instanceName}';
const SEND_LOCATION = 'POST /message/sendLocation/{instanceName}';
const SEND_CONTACT = 'POST /message/sendContact/{instanceName}';
const SEND_LIST = 'POST /message/sendList/{instanceName}';
const SEND_POLL = 'POST /message/sendPoll/{instanceName}';
const SEND_BUTTONS = 'POST /message/sendButtons/{instanceName}';
const SEND_REACTION = 'POST /message/sendReaction/{instanceName}';
const MARK_READ = 'POST /chat/markMessageAsRead/{instanceName}';
const UPDATE_MESSAGE = 'POST /chat/updateMessage/{instanceName}';
const DELETE_MESSAGE = 'DELETE /chat/deleteMessageForEveryone/{instanceName}';
const MEDIA_BASE64 = 'POST /chat/getBase64FromMediaMessage/{instanceName}';
const FIND_STATUS = 'POST /chat/findStatusMessage/{instanceName}';
const FIND_MESSAGES = 'POST /chat/findMessages/{instanceName}';
const FIND_CONTACTS = 'POST /chat/findContacts/{instanceName}';
const FIND_CHATS = 'POST /chat/findChats/{instanceName}';
const NUMBERS = 'POST /chat/whatsappNumbers/{instanceName}';
const PICTURE_URL = 'POST /chat/fetchProfilePictureUrl/{instanceName}';
const BUSINESS = 'POST /chat/fetchBusinessProfile/{instanceName}';
const PROFILE = 'POST /chat/fetchProfile/{instanceName}';
const SET_PICTURE = 'POST /chat/updateProfilePicture/{instanceName}';
const REMOVE_PICTURE = 'DELETE /chat/removeProfilePicture/{instanceName}';
const GROUP_CREATE = 'POST /group/create/{instanceName}';
const GROUP_INFO = 'GET /group/findGroupInfos/{instanceName}';
const GROUPS = 'GET /group/fetchAllGroups/{instanceName}';
const GROUP_PARTICIPANTS = 'GET /group/participants/{instanceName}';
const UPDATE_PARTICIPANTS = 'POST /group/updateParticipant/{instanceName}';
const SEND_INVITE = 'POST /group/sendInvite/{instanceName}';
const LEAVE_GROUP = 'DELETE /group/leaveGroup/{instanceName}';
const CONNECT = 'GET /instance/connect/{instanceName}';
const STATE = 'GET /instance/connectionState/{instanceName}';
const INSTANCES = 'GET /instance/fetchInstances';
const LOGOUT = 'DELETE /instance/logout/{instanceName}';
const RESTART = 'POST /instance/restart/{instanceName}';
const PRESENCE = 'POST /instance/setPresence/{instanceName}';
const WEBHOOK_FIND = 'GET /webhook/find/{instanceName}';
const WEBHOOK_SET = 'POST /webhook/set/{instanceName}';

const CASES: Case[] = [
	// Messages: flat bodies in v2.
	[SEND_TEXT, 'v2 text', request(SEND_TEXT, { number: NUMBER, text: 'Hi' }), 'accepted', ''],
	[
		SEND_TEXT,
		'v2 text with every option',
		request(SEND_TEXT, {
			number: NUMBER,
			text: 'Hi',
			delay: 1200,
			linkPreview: false,
			quoted: { key: { id: KEY.id } },
			mentioned: [NUMBER],
			mentionsEveryOne: false,
		}),
		'accepted',
		'',
	],
	// The schema declares no minLength on text: a blank one is the controller's to refuse.
	[SEND_TEXT, 'a blank text', request(SEND_TEXT, { number: NUMBER, text: '' }), 'accepted', ''],
	[
		SEND_TEXT,
		"v1's textMessage",
		request(SEND_TEXT, { number: NUMBER, textMessage: { text: 'Hi' } }),
		'rejected',
		'instance requires property "text"',
	],
	[
		SEND_TEXT,
		'a delay that is not whole',
		request(SEND_TEXT, { number: NUMBER, text: 'Hi', delay: 1.5 }),
		'rejected',
		'Enter a value in milliseconds',
	],
	[
		SEND_TEXT,
		'a mention that is not a number',
		request(SEND_TEXT, { number: NUMBER, text: 'Hi', mentioned: ['alice'] }),
		'rejected',
		'"mentioned" must be an array of numeric strings',
	],
	[
		SEND_TEXT,
		'a quote without id',
		request(SEND_TEXT, { number: NUMBER, text: 'Hi', quoted: { key: { remoteJid: JID } } }),
		'rejected',
		'quoted.key requires property "id"',
	],
	[
		SEND_MEDIA,
		'v2 media',
		request(SEND_MEDIA, {
			number: NUMBER,
			mediatype: 'image',
			mimetype: 'image/png',
			media: 'https://cdn.example.com/a.png',
			fileName: 'a.png',
			caption: 'Look',
		}),
		'accepted',
		'',
	],
	[
		SEND_MEDIA,
		"v1's mediaMessage",
		request(SEND_MEDIA, {
			number: NUMBER,
			mediaMessage: { mediatype: 'image', media: 'https://cdn.example.com/a.png' },
		}),
		'rejected',
		'instance requires property "mediatype"',
	],
	[
		SEND_MEDIA,
		'a media type outside the enum',
		request(SEND_MEDIA, { number: NUMBER, mediatype: 'sticker', media: 'https://x.example/a' }),
		'rejected',
		'mediatype is not one of enum values',
	],
	[
		SEND_AUDIO,
		'v2 audio',
		request(SEND_AUDIO, { number: NUMBER, audio: 'https://cdn.example.com/a.ogg' }),
		'accepted',
		'',
	],
	[
		SEND_AUDIO,
		'an audio without number',
		request(SEND_AUDIO, { audio: 'https://cdn.example.com/a.ogg' }),
		'rejected',
		'instance requires property "number"',
	],
	[
		SEND_AUDIO,
		'an audio that is not a string',
		request(SEND_AUDIO, { number: NUMBER, audio: { url: 'https://cdn.example.com/a.ogg' } }),
		'rejected',
		'audio is not of a type(s) string',
	],
	[
		SEND_STICKER,
		'v2 sticker',
		request(SEND_STICKER, { number: NUMBER, sticker: 'https://cdn.example.com/s.webp' }),
		'accepted',
		'',
	],
	[
		SEND_STICKER,
		"v1's stickerMessage.image as the sticker",
		request(SEND_STICKER, { number: NUMBER, sticker: { image: 'https://cdn.example.com/s.webp' } }),
		'rejected',
		'sticker is not of a type(s) string',
	],
	[
		SEND_LOCATION,
		'v2 location',
		request(SEND_LOCATION, {
			number: NUMBER,
			latitude: -23.55,
			longitude: -46.63,
			name: 'Office',
			address: 'Av. Paulista 1000',
		}),
		'accepted',
		'',
	],
	[
		SEND_LOCATION,
		'a location with empty name and address',
		request(SEND_LOCATION, { number: NUMBER, latitude: 1, longitude: 2, name: '', address: '' }),
		'accepted',
		'',
	],
	[
		SEND_LOCATION,
		'a location without name',
		request(SEND_LOCATION, { number: NUMBER, latitude: 1, longitude: 2, address: 'Here' }),
		'rejected',
		'instance requires property "name"',
	],
	[
		SEND_LOCATION,
		'a location without address',
		request(SEND_LOCATION, { number: NUMBER, latitude: 1, longitude: 2, name: 'Here' }),
		'rejected',
		'instance requires property "address"',
	],
	[
		SEND_LOCATION,
		"v1's locationMessage",
		request(SEND_LOCATION, {
			number: NUMBER,
			locationMessage: { name: 'Office', address: 'Here', latitude: 1, longitude: 2 },
		}),
		'rejected',
		'instance requires property "latitude"',
	],
	[
		SEND_LOCATION,
		'a latitude as text',
		request(SEND_LOCATION, {
			number: NUMBER,
			latitude: '1',
			longitude: 2,
			name: 'a',
			address: 'b',
		}),
		'rejected',
		'latitude is not of a type(s) number',
	],
	[
		SEND_CONTACT,
		'v2 contact',
		request(SEND_CONTACT, {
			number: NUMBER,
			contact: [{ fullName: 'Alice', wuid: NUMBER, phoneNumber: '+55 11 98765-0001' }],
		}),
		'accepted',
		'',
	],
	[
		SEND_CONTACT,
		"v1's contactMessage",
		request(SEND_CONTACT, {
			number: NUMBER,
			contactMessage: [{ fullName: 'Alice', wuid: NUMBER, phoneNumber: '+5511987650001' }],
		}),
		'rejected',
		'instance requires property "contact"',
	],
	[
		SEND_CONTACT,
		'a contact with a short phone number',
		request(SEND_CONTACT, { number: NUMBER, contact: [{ fullName: 'Bob', phoneNumber: '12345' }] }),
		'rejected',
		'contact[0].phoneNumber does not meet minimum length of 10',
	],
	[
		SEND_CONTACT,
		'a contact with a short wuid',
		request(SEND_CONTACT, {
			number: NUMBER,
			contact: [{ fullName: 'Bob', wuid: '123', phoneNumber: '+5511987650001' }],
		}),
		'rejected',
		'"wuid" must be a numeric string',
	],
	[SEND_LIST, 'v2 list', request(SEND_LIST, LIST), 'accepted', ''],
	[
		SEND_LIST,
		'a list without footerText',
		request(SEND_LIST, { ...LIST, footerText: undefined }),
		'rejected',
		'instance requires property "footerText"',
	],
	[
		SEND_LIST,
		"v1's listMessage",
		request(SEND_LIST, { number: NUMBER, listMessage: { ...LIST, number: undefined } }),
		'rejected',
		'instance requires property "sections"',
	],
	[
		SEND_LIST,
		'a row without rowId',
		request(SEND_LIST, { ...LIST, sections: [{ title: 'Drinks', rows: [{ title: 'Tea' }] }] }),
		'rejected',
		'sections[0].rows[0] requires property "rowId"',
	],
	[SEND_POLL, 'a poll of two values', request(SEND_POLL, POLL), 'accepted', ''],
	[
		SEND_POLL,
		'a poll of ten values, any number selectable',
		request(SEND_POLL, {
			...POLL,
			selectableCount: 0,
			values: Array.from({ length: 10 }, (_, index) => `Option ${index + 1}`),
		}),
		'accepted',
		'',
	],
	[
		SEND_POLL,
		'a poll of one value',
		request(SEND_POLL, { ...POLL, values: ['Yes'] }),
		'rejected',
		'values does not meet minimum length of 2',
	],
	[
		SEND_POLL,
		'a poll of eleven values',
		request(SEND_POLL, { ...POLL, values: Array.from({ length: 11 }, (_, index) => `${index}`) }),
		'rejected',
		'values does not meet maximum length of 10',
	],
	[
		SEND_POLL,
		'a poll with a repeated value',
		request(SEND_POLL, { ...POLL, values: ['Yes', 'Yes'] }),
		'rejected',
		'values contains duplicate item',
	],
	[
		SEND_POLL,
		'eleven selectable answers',
		request(SEND_POLL, { ...POLL, selectableCount: 11 }),
		'rejected',
		'selectableCount must be less than or equal to 10',
	],
	[
		SEND_POLL,
		'a poll without selectableCount',
		request(SEND_POLL, { ...POLL, selectableCount: undefined }),
		'rejected',
		'instance requires property "selectableCount"',
	],
	[
		SEND_BUTTONS,
		'v2 buttons',
		request(SEND_BUTTONS, {
			number: NUMBER,
			title: 'Approve?',
			description: 'Order 42',
			footer: 'Shop',
			buttons: [
				{ type: 'reply', displayText: 'Yes', id: 'yes' },
				{ type: 'url', displayText: 'Open', url: 'https://example.com' },
			],
		}),
		'accepted',
		'',
	],
	[
		SEND_BUTTONS,
		'a button of an unknown type',
		request(SEND_BUTTONS, { number: NUMBER, buttons: [{ type: 'link', displayText: 'Go' }] }),
		'rejected',
		'buttons[0].type is not one of enum values',
	],
	// isNotEmpty's `if` holds only when every property of the object is one it names: here `type` and
	// `displayText` are not, so an empty id passes.
	[
		SEND_BUTTONS,
		'a reply button with an empty id',
		request(SEND_BUTTONS, {
			number: NUMBER,
			buttons: [{ type: 'reply', displayText: 'Yes', id: '' }],
		}),
		'accepted',
		'',
	],
	[
		SEND_REACTION,
		'a reaction',
		request(SEND_REACTION, { key: KEY, reaction: '👍' }),
		'accepted',
		'',
	],
	[
		SEND_REACTION,
		'a removed reaction',
		request(SEND_REACTION, { key: KEY, reaction: '' }),
		'accepted',
		'',
	],
	[
		SEND_REACTION,
		'a reaction key without fromMe',
		request(SEND_REACTION, { key: { id: KEY.id, remoteJid: JID }, reaction: '👍' }),
		'rejected',
		'key requires property "fromMe"',
	],
	[
		SEND_REACTION,
		'a reaction without reaction',
		request(SEND_REACTION, { key: KEY }),
		'rejected',
		'instance requires property "reaction"',
	],
	[
		SEND_REACTION,
		"the spec gateway's PUT",
		request(SEND_REACTION, { key: KEY, reaction: '👍' }, {}, 'PUT'),
		'absent',
		'no PUT route, only POST',
	],

	// Chat routes.
	[
		MARK_READ,
		'v2 readMessages',
		request(MARK_READ, { readMessages: [{ id: KEY.id, fromMe: false, remoteJid: JID }] }),
		'accepted',
		'',
	],
	[
		MARK_READ,
		"v1's read_messages",
		request(MARK_READ, { read_messages: [{ id: KEY.id, fromMe: false, remoteJid: JID }] }),
		'rejected',
		'instance requires property "readMessages"',
	],
	[
		MARK_READ,
		'a read message without fromMe',
		request(MARK_READ, { readMessages: [{ id: KEY.id, remoteJid: JID }] }),
		'rejected',
		'readMessages[0] requires property "fromMe"',
	],
	[
		MARK_READ,
		"v1's PUT",
		request(
			MARK_READ,
			{ readMessages: [{ id: KEY.id, fromMe: false, remoteJid: JID }] },
			{},
			'PUT',
		),
		'absent',
		'no PUT route, only POST',
	],
	[
		UPDATE_MESSAGE,
		'an edit',
		request(UPDATE_MESSAGE, { number: NUMBER, text: 'Fixed', key: KEY }),
		'accepted',
		'',
	],
	[
		UPDATE_MESSAGE,
		'an empty edit',
		request(UPDATE_MESSAGE, { number: NUMBER, text: '', key: KEY }),
		'rejected',
		'The "text" cannot be empty',
	],
	[
		UPDATE_MESSAGE,
		'an edit key without remoteJid',
		request(UPDATE_MESSAGE, { number: NUMBER, text: 'Fixed', key: { id: KEY.id, fromMe: true } }),
		'rejected',
		'key requires property "remoteJid"',
	],
	[
		UPDATE_MESSAGE,
		"v1's PUT",
		request(UPDATE_MESSAGE, { number: NUMBER, text: 'Fixed', key: KEY }, {}, 'PUT'),
		'absent',
		'no PUT route, only POST',
	],
	[DELETE_MESSAGE, 'a delete', request(DELETE_MESSAGE, KEY), 'accepted', ''],
	[
		DELETE_MESSAGE,
		"a delete of a participant's message",
		request(DELETE_MESSAGE, { ...KEY, remoteJid: GROUP_JID, fromMe: false, participant: JID }),
		'accepted',
		'',
	],
	[
		DELETE_MESSAGE,
		'a delete with an empty participant (fromMe is not a property isNotEmpty names)',
		request(DELETE_MESSAGE, { ...KEY, participant: '' }),
		'accepted',
		'',
	],
	[
		DELETE_MESSAGE,
		'a delete without fromMe',
		request(DELETE_MESSAGE, { id: KEY.id, remoteJid: JID }),
		'rejected',
		'instance requires property "fromMe"',
	],
	[
		MEDIA_BASE64,
		'a media download (no schema)',
		request(MEDIA_BASE64, { message: { key: { id: KEY.id } }, convertToMp4: false }),
		'accepted',
		'',
	],
	[
		MEDIA_BASE64,
		'a media download by GET',
		request(MEDIA_BASE64, undefined, {}, 'GET'),
		'absent',
		'no GET route, only POST',
	],
	[
		FIND_STATUS,
		'a status search',
		request(FIND_STATUS, { where: { remoteJid: JID, id: KEY.id }, limit: 10 }),
		'accepted',
		'',
	],
	[
		FIND_STATUS,
		'a status outside the enum',
		request(FIND_STATUS, { where: { id: KEY.id, status: 'SEEN' } }),
		'rejected',
		'where.status is not one of enum values',
	],
	[
		FIND_STATUS,
		'a limit as text',
		request(FIND_STATUS, { where: { id: KEY.id }, limit: '10' }),
		'rejected',
		'limit is not of a type(s) integer',
	],
	[
		FIND_MESSAGES,
		'a message search by id',
		request(FIND_MESSAGES, { where: { key: { id: KEY.id } } }),
		'accepted',
		'',
	],
	[
		FIND_MESSAGES,
		'a message search by an empty id',
		request(FIND_MESSAGES, { where: { key: { id: '' } } }),
		'rejected',
		'The property cannot be empty',
	],
	[
		FIND_MESSAGES,
		'a message search with a fractional limit',
		request(FIND_MESSAGES, { where: { key: { id: KEY.id } }, limit: 2.5 }),
		'rejected',
		'limit is not of a type(s) integer',
	],
	[FIND_CONTACTS, 'all contacts', request(FIND_CONTACTS, {}), 'accepted', ''],
	[
		FIND_CONTACTS,
		'a contact by id',
		request(FIND_CONTACTS, { where: { id: JID } }),
		'accepted',
		'',
	],
	[
		FIND_CONTACTS,
		'a contact by an empty id',
		request(FIND_CONTACTS, { where: { id: '' } }),
		'rejected',
		'The "id" cannot be empty',
	],
	[
		FIND_CONTACTS,
		'a contact by a jid that is not text',
		request(FIND_CONTACTS, { where: { id: 5511987650001 } }),
		'rejected',
		'where.id is not of a type(s) string',
	],
	[FIND_CHATS, 'all chats', request(FIND_CHATS, {}), 'accepted', ''],
	[
		FIND_CHATS,
		"v1's GET",
		request(FIND_CHATS, undefined, {}, 'GET'),
		'absent',
		'no GET route, only POST',
	],
	[
		FIND_CHATS,
		'chats where is not an object',
		request(FIND_CHATS, { where: JID }),
		'rejected',
		'where is not of a type(s) object',
	],
	[
		NUMBERS,
		'a number check',
		request(NUMBERS, { numbers: [NUMBER, '5511987650002'] }),
		'accepted',
		'',
	],
	[
		NUMBERS,
		'a number check of none',
		request(NUMBERS, { numbers: [] }),
		'rejected',
		'numbers does not meet minimum length of 1',
	],
	[
		NUMBERS,
		'a number check of a repeated number',
		request(NUMBERS, { numbers: [NUMBER, NUMBER] }),
		'rejected',
		'numbers contains duplicate item',
	],
	[PICTURE_URL, 'a profile picture', request(PICTURE_URL, { number: NUMBER }), 'accepted', ''],
	[
		PICTURE_URL,
		'a profile picture of a numeric number',
		request(PICTURE_URL, { number: 5511987650001 }),
		'rejected',
		'number is not of a type(s) string',
	],
	[BUSINESS, 'a business profile', request(BUSINESS, { number: NUMBER }), 'accepted', ''],
	[
		BUSINESS,
		'a business profile of a numeric number',
		request(BUSINESS, { number: 5511987650001 }),
		'rejected',
		'number is not of a type(s) string',
	],
	[PROFILE, 'a profile', request(PROFILE, { number: NUMBER }), 'accepted', ''],
	// profileSchema declares no number (the DTO reads one): a number of any type passes it.
	[PROFILE, 'a profile of a numeric number', request(PROFILE, { number: 1 }), 'accepted', ''],
	[
		PROFILE,
		'a profile by GET',
		request(PROFILE, undefined, {}, 'GET'),
		'absent',
		'no GET route, only POST',
	],
	[
		PROFILE,
		'a profile with a name that is not text',
		request(PROFILE, { number: NUMBER, name: 5 }),
		'rejected',
		'name is not of a type(s) string',
	],
	[
		SET_PICTURE,
		'a new picture',
		request(SET_PICTURE, { picture: 'https://cdn.example.com/me.jpg' }),
		'accepted',
		'',
	],
	[
		SET_PICTURE,
		'a picture as an object',
		request(SET_PICTURE, { picture: { url: 'https://cdn.example.com/me.jpg' } }),
		'rejected',
		'picture is not of a type(s) string',
	],
	[
		SET_PICTURE,
		"the spec gateway's PUT",
		request(SET_PICTURE, { picture: 'https://cdn.example.com/me.jpg' }, {}, 'PUT'),
		'absent',
		'no PUT route, only POST',
	],
	[REMOVE_PICTURE, 'a picture removal', request(REMOVE_PICTURE), 'accepted', ''],
	[
		REMOVE_PICTURE,
		'a picture removal by POST',
		request(REMOVE_PICTURE, undefined, {}, 'POST'),
		'absent',
		'no POST route, only DELETE',
	],

	// Groups: groupJid and getParticipants come from the query.
	[
		GROUP_CREATE,
		'a group',
		request(GROUP_CREATE, {
			subject: 'Hikers',
			description: 'Weekend walks',
			participants: ['5511987650002', '5511987650003'],
			promoteParticipants: false,
		}),
		'accepted',
		'',
	],
	[
		GROUP_CREATE,
		'a group of a short number',
		request(GROUP_CREATE, { subject: 'Hikers', participants: ['12345'] }),
		'rejected',
		'"participants" must be an array of numeric strings',
	],
	[
		GROUP_CREATE,
		'a group without subject',
		request(GROUP_CREATE, { participants: ['5511987650002'] }),
		'rejected',
		'instance requires property "subject"',
	],
	[
		GROUP_INFO,
		'a group by id',
		request(GROUP_INFO, undefined, { groupJid: GROUP_JID }),
		'accepted',
		'',
	],
	[
		GROUP_INFO,
		'a group id without @g.us (Evolution adds it)',
		request(GROUP_INFO, undefined, { groupJid: '120363041234567890' }),
		'accepted',
		'',
	],
	[
		GROUP_INFO,
		'a group without groupJid',
		request(GROUP_INFO),
		'rejected',
		'The group id needs to be informed in the query',
	],
	[
		GROUP_INFO,
		'a group id that is not one',
		request(GROUP_INFO, undefined, { groupJid: `${JID}@g.us` }),
		'rejected',
		'groupJid does not match pattern',
	],
	[GROUPS, 'all groups', request(GROUPS, undefined, { getParticipants: 'false' }), 'accepted', ''],
	[
		GROUPS,
		'all groups with participants',
		request(GROUPS, undefined, { getParticipants: 'true' }),
		'accepted',
		'',
	],
	[
		GROUPS,
		'all groups without getParticipants',
		request(GROUPS),
		'rejected',
		'The getParticipants needs to be informed in the query',
	],
	[
		GROUPS,
		'getParticipants that is not true or false',
		request(GROUPS, undefined, { getParticipants: 'yes' }),
		'rejected',
		'getParticipants is not one of enum values',
	],
	[
		GROUP_PARTICIPANTS,
		'the participants',
		request(GROUP_PARTICIPANTS, undefined, { groupJid: GROUP_JID }),
		'accepted',
		'',
	],
	[
		GROUP_PARTICIPANTS,
		'the participants without groupJid',
		request(GROUP_PARTICIPANTS),
		'rejected',
		'The group id needs to be informed in the query',
	],
	[
		UPDATE_PARTICIPANTS,
		'adding a participant',
		request(UPDATE_PARTICIPANTS, PARTICIPANTS, { groupJid: GROUP_JID }),
		'accepted',
		'',
	],
	[
		UPDATE_PARTICIPANTS,
		'an action outside the enum',
		request(UPDATE_PARTICIPANTS, { ...PARTICIPANTS, action: 'kick' }, { groupJid: GROUP_JID }),
		'rejected',
		'action is not one of enum values',
	],
	[
		UPDATE_PARTICIPANTS,
		'a participant update without groupJid',
		request(UPDATE_PARTICIPANTS, PARTICIPANTS),
		'rejected',
		'The group id needs to be informed in the query',
	],
	[
		UPDATE_PARTICIPANTS,
		"v1's PUT",
		request(UPDATE_PARTICIPANTS, PARTICIPANTS, { groupJid: GROUP_JID }, 'PUT'),
		'absent',
		'no PUT route, only POST',
	],
	[
		SEND_INVITE,
		'an invite',
		request(SEND_INVITE, { groupJid: GROUP_JID, description: 'Join us', numbers: [NUMBER] }),
		'accepted',
		'',
	],
	[
		SEND_INVITE,
		'an invite with groupJid in the query only (groupNoValidate reads the body)',
		request(SEND_INVITE, { description: 'Join us', numbers: [NUMBER] }, { groupJid: GROUP_JID }),
		'rejected',
		'instance requires property "groupJid"',
	],
	[
		SEND_INVITE,
		'an invite without a description',
		request(SEND_INVITE, { groupJid: GROUP_JID, description: '', numbers: [NUMBER] }),
		'rejected',
		'The "description" cannot be empty',
	],
	[
		LEAVE_GROUP,
		'leaving',
		request(LEAVE_GROUP, undefined, { groupJid: GROUP_JID }),
		'accepted',
		'',
	],
	[
		LEAVE_GROUP,
		'leaving without groupJid',
		request(LEAVE_GROUP),
		'rejected',
		'The group id needs to be informed in the query',
	],
	[
		LEAVE_GROUP,
		"the spec gateway's POST",
		request(LEAVE_GROUP, undefined, { groupJid: GROUP_JID }, 'POST'),
		'absent',
		'no POST route, only DELETE',
	],

	// Instance and webhook routes.
	[CONNECT, 'a connection', request(CONNECT), 'accepted', ''],
	[CONNECT, 'a pairing code', request(CONNECT, undefined, { number: NUMBER }), 'accepted', ''],
	[
		CONNECT,
		'a connection by POST',
		request(CONNECT, {}, {}, 'POST'),
		'absent',
		'no POST route, only GET',
	],
	[STATE, 'the state', request(STATE), 'accepted', ''],
	[STATE, 'the state by POST', request(STATE, {}, {}, 'POST'), 'absent', 'no POST route, only GET'],
	[INSTANCES, 'all instances', request(INSTANCES), 'accepted', ''],
	[
		INSTANCES,
		'one instance',
		request(INSTANCES, undefined, { instanceName: INSTANCE }),
		'accepted',
		'',
	],
	[
		INSTANCES,
		'instances under an instance name',
		request(`${INSTANCES}/{instanceName}`),
		'absent',
		'no such endpoint',
	],
	[LOGOUT, 'a logout', request(LOGOUT), 'accepted', ''],
	[
		LOGOUT,
		'a logout by POST',
		request(LOGOUT, {}, {}, 'POST'),
		'absent',
		'no POST route, only DELETE',
	],
	[RESTART, 'a restart', request(RESTART), 'accepted', ''],
	[
		RESTART,
		"v1's PUT",
		request(RESTART, undefined, {}, 'PUT'),
		'absent',
		'no PUT route, only POST',
	],
	[PRESENCE, 'a presence', request(PRESENCE, { presence: 'available' }), 'accepted', ''],
	[
		PRESENCE,
		'a presence outside the enum',
		request(PRESENCE, { presence: 'busy' }),
		'rejected',
		'presence is not one of enum values',
	],
	[
		PRESENCE,
		'no presence',
		request(PRESENCE, {}),
		'rejected',
		'instance requires property "presence"',
	],
	[WEBHOOK_FIND, 'the webhook', request(WEBHOOK_FIND), 'accepted', ''],
	[
		WEBHOOK_FIND,
		'the webhook by POST',
		request(WEBHOOK_FIND, {}, {}, 'POST'),
		'absent',
		'no POST route, only GET',
	],
	[WEBHOOK_SET, 'a wrapped webhook', request(WEBHOOK_SET, { webhook: WEBHOOK }), 'accepted', ''],
	[
		WEBHOOK_SET,
		'a webhook switched off',
		request(WEBHOOK_SET, { webhook: { enabled: false, url: WEBHOOK.url, events: [] } }),
		'accepted',
		'',
	],
	[
		WEBHOOK_SET,
		"v1's flat body",
		request(WEBHOOK_SET, {
			enabled: true,
			url: WEBHOOK.url,
			events: WEBHOOK.events,
			webhook_by_events: false,
			webhook_base64: false,
		}),
		'rejected',
		'instance requires property "webhook"',
	],
	[
		WEBHOOK_SET,
		'an unknown event',
		request(WEBHOOK_SET, { webhook: { ...WEBHOOK, events: ['MESSAGE_RECEIVED'] } }),
		'rejected',
		'webhook.events[0] is not one of enum values',
	],
	[
		WEBHOOK_SET,
		'an empty url beside events (isNotEmpty names only enabled and url)',
		request(WEBHOOK_SET, { webhook: { ...WEBHOOK, url: '' } }),
		'accepted',
		'',
	],
	[
		WEBHOOK_SET,
		'an empty url alone',
		request(WEBHOOK_SET, { webhook: { enabled: true, url: '' } }),
		'rejected',
		'The "url" cannot be empty',
	],
	[
		WEBHOOK_SET,
		'a webhook without enabled',
		request(WEBHOOK_SET, { webhook: { ...WEBHOOK, enabled: undefined } }),
		'rejected',
		'webhook requires property "enabled"',
	],
	[
		WEBHOOK_SET,
		'headers that are not an object',
		request(WEBHOOK_SET, { webhook: { ...WEBHOOK, headers: 'authorization: x' } }),
		'rejected',
		'webhook.headers is not of a type(s) object',
	],
];

/** JSON as the gateway receives it: properties set to undefined are not sent. */
function sent(request: SentRequest): SentRequest {
	return request.body === undefined
		? request
		: { ...request, body: JSON.parse(JSON.stringify(request.body)) };
}

describe('checkEvolutionV2 against Evolution API 2.3.6', () => {
	it('reads 2.3.6 at its tag, validated with the jsonschema version 2.3.6 pins', () => {
		expect(EVOLUTION_V2.source).toMatchObject({
			tag: '2.3.6',
			commit: '3454bec79f514995df9a5ea36a3554ab35cf1c82',
			validatorVersion: installedJsonschema,
		});
	});

	it.each(CASES)('%s: %s', (route, _name, request, outcome, reason) => {
		const verdict = checkEvolutionV2(sent(request));
		expect(verdict.outcome).toBe(outcome);
		if (verdict.outcome !== 'absent') expect(verdict.endpoint).toBe(route);
		expect(verdictReasons(verdict)).toEqual(
			reason === '' ? [] : expect.arrayContaining([expect.stringContaining(reason)]),
		);
	});

	it('has a request 2.3.6 takes and one it refuses for every route in the table, each a 2.3.6 route', () => {
		const routes = [...new Set(CASES.map(([route]) => route))];
		const declared = EVOLUTION_V2.routes.map((route) => `${route.method} ${route.path}`);
		for (const route of routes) {
			const outcomes = CASES.filter(([of]) => of === route).map(([, , , outcome]) => outcome);
			expect({ route, declared: declared.includes(route) }).toEqual({ route, declared: true });
			expect({ route, outcomes: [...new Set(outcomes)].includes('accepted') }).toEqual({
				route,
				outcomes: true,
			});
			expect({ route, refused: outcomes.some((outcome) => outcome !== 'accepted') }).toEqual({
				route,
				refused: true,
			});
		}
		expect(routes).toHaveLength(39);
	});

	it('says which route lacks its schema, so a new operation brings it along', () => {
		const schemas = { ...EVOLUTION_V2.schemas };
		delete schemas.textMessageSchema;
		expect(() =>
			judgeEvolution(
				{ ...EVOLUTION_V2, schemas },
				request(SEND_TEXT, { number: NUMBER, text: 'Hi' }),
			),
		).toThrow(
			'textMessageSchema (POST /message/sendText/{instanceName}) is not in evolution-2.3.6.json',
		);
	});

	it('says which route checks in its own code, which it does not model', () => {
		expect(() =>
			checkEvolutionV2(
				request('GET /chat/findChatByRemoteJid/{instanceName}', undefined, { remoteJid: JID }),
			),
		).toThrow("Evolution's inline is not modelled (/chat/findChatByRemoteJid/{instanceName})");
	});

	it.each([
		['a path of the spec gateway', request('POST /api/sendText', { number: NUMBER, text: 'Hi' })],
		['a v1 route 2.3.6 dropped', request('POST /instance/registerMobileCode/{instanceName}', {})],
	])('finds %s absent', (_name, sentRequest) => {
		expect(checkEvolutionV2(sentRequest)).toEqual({
			outcome: 'absent',
			reason: 'no such endpoint',
		});
	});
});
