/**
 * How a chat or contact as people and gateways write it is read: a LID is a kind of its own (its
 * digits are never a phone number), a device suffix names the person, the ending's case does not
 * matter, and anything else is no chat at all (refused by the field that reads it).
 */
import type { ChatReference } from '../../nodes/shared/identifiers';
import { classifyChat, asChatId, toChatId, toJid, toNumber } from '../../nodes/shared/identifiers';
import { addressesOf } from '../../nodes/shared/people';

const LID = '198765432101234@lid';

describe('classifyChat', () => {
	it.each<[string, unknown, ChatReference | undefined]>([
		['a LID', LID, { kind: 'lid', value: LID }],
		['a LID with spaces around it', `  ${LID}\n`, { kind: 'lid', value: LID }],
		['a LID with a device suffix', '198765432101234:3@lid', { kind: 'lid', value: LID }],
		['a LID with a two-digit device', '198765432101234:12@lid', { kind: 'lid', value: LID }],
		['a LID in upper case', '198765432101234@LID', { kind: 'lid', value: LID }],
		[
			'a phone JID with a device suffix',
			'5511987650005:12@s.whatsapp.net',
			{ kind: 'contact', value: '5511987650005' },
		],
		['a chat ID in upper case', '5511987650005@C.US', { kind: 'contact', value: '5511987650005' }],
		['a phone number as a number', 5511987650005, { kind: 'contact', value: '5511987650005' }],
		// Gateways read bare digits as a phone number too (Evolution's createJid, WAHA's ensureSuffix).
		['bare digits', '198765432101234', { kind: 'contact', value: '198765432101234' }],
		['a LID with letters', 'abc@lid', undefined],
		['a LID too short to be one', '12345@lid', undefined],
		['a LID with an empty device', '198765432101234:@lid', undefined],
		['two endings', `${LID}@c.us`, undefined],
		['a LID inside a longer text', `to ${LID}`, undefined],
		['an object', { lid: LID }, undefined],
	])('%s', (_name, raw, expected) => {
		expect(classifyChat(raw)).toEqual(expected);
	});
});

describe('a LID as each request takes it', () => {
	const lid: ChatReference = { kind: 'lid', value: LID };

	it.each<[string, string]>([
		['session-family chat ID', toChatId(lid)],
		['shape B JID', toJid(lid)],
		['instance-family number', toNumber(lid)],
		['a listed number as a chat ID', asChatId(LID)],
		['an instance-family key as a chat ID', asChatId('198765432101234:7@lid')],
	])('%s: the LID itself', (_name, written) => {
		expect(written).toBe(LID);
	});

	it('a listed phone number is a chat ID', () => {
		expect(asChatId('5511987650005')).toBe('5511987650005@c.us');
	});
});

describe('addressesOf: each ID by its own ending, whatever the field', () => {
	it.each<[string, unknown[], { phone: string | null; lid: string | null }]>([
		[
			'a LID then a phone JID',
			[LID, '5511987650005@s.whatsapp.net'],
			{ phone: '5511987650005', lid: LID },
		],
		[
			'swapped (Evolution 2.4.0)',
			['5511987650005@s.whatsapp.net', LID],
			{ phone: '5511987650005', lid: LID },
		],
		[
			'device suffixes on both (GOWS)',
			['198765432101234:12@lid', '5511987650005:12@s.whatsapp.net'],
			{ phone: '5511987650005', lid: LID },
		],
		[
			'bare digits count as neither',
			['198765432101234', '5511987650005'],
			{ phone: null, lid: null },
		],
		[
			'the first of each kind wins',
			['5511987650005@c.us', '5511900000000@c.us'],
			{ phone: '5511987650005', lid: null },
		],
		[
			'groups and other values are nobody',
			['120363041234567890@g.us', null, 42, {}],
			{ phone: null, lid: null },
		],
	])('%s', (_name, ids, expected) => {
		expect(addressesOf(...ids)).toEqual(expected);
	});
});
