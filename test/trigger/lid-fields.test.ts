/**
 * People WhatsApp addresses by LID: every message item carries `phone` and `lid` (the chat's
 * person) and `senderPhone` and `senderLid` (who wrote it), whatever the gateway and its version
 * delivered, with `chatId` the ID a reply reaches. The deliveries are the shapes each product's
 * source writes (Evolution API 2.3.0 to 2.4.0's message keys; WAHA's NOWEB, GOWS and WEBJS
 * engines), one row each; the trigger-level runs over the simulator are in trigger*.test.ts.
 */
import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import type {
	Delivery,
	DeliveryFilters,
	DeliveryOutput,
} from '../../nodes/MessagingGatewayTrigger/webhook/deliveries';
import {
	deliveryToItem,
	reasonToIgnore,
} from '../../nodes/MessagingGatewayTrigger/webhook/deliveries';
import type { WahaEnvelope } from '../../nodes/shared/gateways/waha/message-fields';
import {
	wahaDeliveryToItem,
	wahaReasonToIgnore,
} from '../../nodes/MessagingGatewayTrigger/gateways/waha/deliveries';
import { classifyChat } from '../../nodes/shared/identifiers';

const SESSION = 'acme-sales';
const OWN_PHONE = '5511987650000';
const OWN_LID = '100000000000001@lid';
const PHONE = '5511987650005';
const LID = '198765432101234@lid';
const GROUP = '120363041234567890@g.us';
const PN_JID = `${PHONE}@s.whatsapp.net`;

const output: DeliveryOutput = {
	simplify: true,
	qrCodeAsBinary: false,
	includeMedia: false,
	lookUpPhoneNumbers: false,
};
const context = {} as IWebhookFunctions;

/** The fields this issue adds, and the ones a reply is built from. */
interface People {
	chatId: string;
	phone: string | null;
	lid: string | null;
	sender: string | null;
	senderPhone: string | null;
	senderLid: string | null;
}

const picked = (json: IDataObject): People => ({
	chatId: json.chatId as string,
	phone: json.phone as string | null,
	lid: json.lid as string | null,
	sender: json.sender as string | null,
	senderPhone: json.senderPhone as string | null,
	senderLid: json.senderLid as string | null,
});

/** Dora, direct chat, not from me: what every row of a known number should give. */
const DORA_BY_LID: People = {
	chatId: LID,
	phone: PHONE,
	lid: LID,
	sender: LID,
	senderPhone: PHONE,
	senderLid: LID,
};
const DORA_BY_PHONE: People = { ...DORA_BY_LID, chatId: `${PHONE}@c.us`, sender: `${PHONE}@c.us` };

function evolution(key: IDataObject, event = 'messages.upsert'): Delivery {
	return {
		event,
		instance: SESSION,
		sender: `${OWN_PHONE}@s.whatsapp.net`,
		data: {
			key: { id: '3EB0C767D26A1D3BB2F1', ...key },
			pushName: 'Dora',
			message: { conversation: 'hi' },
			messageType: 'conversation',
			messageTimestamp: 1795765382,
		},
	};
}

describe('Evolution API deliveries, by version (and the Messaging Gateway API, which delivers as 2.3.6)', () => {
	it.each<[string, Delivery, People]>([
		[
			'2.3.0: the LID in remoteJid, the phone in senderPn',
			evolution({ remoteJid: LID, fromMe: false, senderPn: PN_JID }),
			DORA_BY_LID,
		],
		[
			'2.3.6: the LID in remoteJid, the phone in remoteJidAlt',
			evolution({ remoteJid: LID, remoteJidAlt: PN_JID, addressingMode: 'lid', fromMe: false }),
			DORA_BY_LID,
		],
		[
			'2.3.6 in the spec gateway JID form (@s.messenger.net)',
			evolution({
				remoteJid: LID,
				remoteJidAlt: `${PHONE}@s.messenger.net`,
				addressingMode: 'lid',
				fromMe: false,
			}),
			DORA_BY_LID,
		],
		[
			'2.3.7: the phone in both fields, the LID gone',
			evolution({ remoteJid: PN_JID, remoteJidAlt: PN_JID, addressingMode: 'lid', fromMe: false }),
			{ ...DORA_BY_PHONE, lid: null, senderLid: null },
		],
		[
			'2.4.0: swapped, the phone in remoteJid and the LID in remoteJidAlt',
			evolution({ remoteJid: PN_JID, remoteJidAlt: LID, addressingMode: 'pn', fromMe: false }),
			DORA_BY_PHONE,
		],
		[
			'2.3.6 when WhatsApp sent no phone: the LID alone',
			evolution({ remoteJid: LID, addressingMode: 'lid', fromMe: false }),
			{ ...DORA_BY_LID, phone: null, senderPhone: null },
		],
		[
			'a person addressed by phone number, as before LIDs',
			evolution({ remoteJid: PN_JID, fromMe: false }),
			{ ...DORA_BY_PHONE, lid: null, senderLid: null },
		],
		[
			'2.3.6 group: participant and participantAlt',
			evolution({
				remoteJid: GROUP,
				participant: LID,
				participantAlt: PN_JID,
				addressingMode: 'lid',
				fromMe: false,
			}),
			{ chatId: GROUP, phone: null, lid: null, sender: LID, senderPhone: PHONE, senderLid: LID },
		],
		[
			'2.3.0 group: the member by LID only',
			evolution({ remoteJid: GROUP, participant: LID, fromMe: false }),
			{ chatId: GROUP, phone: null, lid: null, sender: LID, senderPhone: null, senderLid: LID },
		],
		[
			'2.3.6, typed on the phone to a LID chat: the chat is hers, the writer is me',
			evolution({ remoteJid: LID, remoteJidAlt: PN_JID, addressingMode: 'lid', fromMe: true }),
			{
				chatId: LID,
				phone: PHONE,
				lid: LID,
				sender: `${OWN_PHONE}@c.us`,
				senderPhone: OWN_PHONE,
				senderLid: null,
			},
		],
	])('%s', (_name, delivery, expected) => {
		const item = deliveryToItem.call(context, delivery, output, [], []) as INodeExecutionData;

		expect(picked(item.json)).toEqual(expected);
	});

	it.each<[string, IDataObject, Partial<People>]>([
		[
			'2.3.x: a status update names the chat with a device suffix',
			{ remoteJid: `${PHONE}:16@s.whatsapp.net`, fromMe: true, keyId: 'A1', status: 'READ' },
			{ chatId: `${PHONE}@c.us`, phone: PHONE, lid: null },
		],
		[
			'2.3.7 and 2.4.0: a status update keeps the LID',
			{ remoteJid: LID, fromMe: true, keyId: 'A1', status: 'READ' },
			{ chatId: LID, phone: null, lid: LID },
		],
	])('%s (messages.update, flat data)', (_name, data, expected) => {
		const delivery: Delivery = { event: 'messages.update', instance: SESSION, data };

		const item = deliveryToItem.call(context, delivery, output, [], []) as INodeExecutionData;

		expect(picked(item.json)).toEqual(expect.objectContaining(expected));
	});

	it('never puts the digits of a LID in phone, whatever field carries it', () => {
		const delivery = evolution({ remoteJid: LID, remoteJidAlt: LID, senderPn: LID, fromMe: false });

		const item = deliveryToItem.call(context, delivery, output, [], []) as INodeExecutionData;

		expect(item.json.phone).toBeNull();
		expect(item.json.lid).toBe(LID);
	});
});

function waha(payload: IDataObject, event = 'message', engine = 'NOWEB'): WahaEnvelope {
	return {
		id: 'evt_01',
		event,
		session: SESSION,
		engine,
		me: { id: `${OWN_PHONE}@c.us`, lid: OWN_LID, pushName: 'Acme Sales' },
		payload: { timestamp: 1795765382, body: 'hi', fromMe: false, source: 'app', ...payload },
	};
}

const SHORT_ID = '3EB0C767D26A1D3BB2F1';

describe('WAHA deliveries, by engine', () => {
	it.each<[string, WahaEnvelope, People]>([
		[
			'NOWEB: the phone in _data.key.remoteJidAlt',
			waha({
				id: `false_${LID}_${SHORT_ID}`,
				from: LID,
				_data: {
					key: { remoteJid: LID, remoteJidAlt: PN_JID, addressingMode: 'lid', fromMe: false },
				},
			}),
			DORA_BY_LID,
		],
		[
			'NOWEB group: the phone in _data.key.participantAlt',
			waha({
				id: `false_${GROUP}_${SHORT_ID}_${LID}`,
				from: GROUP,
				to: GROUP,
				participant: LID,
				_data: { key: { remoteJid: GROUP, participant: LID, participantAlt: PN_JID } },
			}),
			{ chatId: GROUP, phone: null, lid: null, sender: LID, senderPhone: PHONE, senderLid: LID },
		],
		[
			'GOWS: Info.Sender and Info.SenderAlt, each with a device suffix',
			waha(
				{
					id: `false_${LID}_${SHORT_ID}`,
					from: LID,
					to: null,
					participant: null,
					_data: {
						Info: {
							Chat: LID,
							Sender: '198765432101234:12@lid',
							SenderAlt: `${PHONE}:12@s.whatsapp.net`,
							IsFromMe: false,
							IsGroup: false,
						},
					},
				},
				'message',
				'GOWS',
			),
			DORA_BY_LID,
		],
		[
			'GOWS, my own message: Info.Sender is me, Info.RecipientAlt is her phone',
			waha(
				{
					id: `true_${LID}_${SHORT_ID}`,
					from: LID,
					fromMe: true,
					_data: {
						Info: {
							Chat: LID,
							Sender: `${OWN_PHONE}:42@s.whatsapp.net`,
							RecipientAlt: PN_JID,
							IsFromMe: true,
							IsGroup: false,
						},
					},
				},
				'message.any',
				'GOWS',
			),
			{
				chatId: LID,
				phone: PHONE,
				lid: LID,
				sender: `${OWN_PHONE}@c.us`,
				senderPhone: OWN_PHONE,
				senderLid: OWN_LID,
			},
		],
		[
			'WEBJS: from is the sender, to is me, no phone anywhere',
			waha(
				{ id: `false_${LID}_${SHORT_ID}`, from: LID, to: `${OWN_PHONE}@c.us` },
				'message',
				'WEBJS',
			),
			{ ...DORA_BY_LID, phone: null, senderPhone: null },
		],
		[
			'a reaction: no _data on any engine, so no phone',
			waha(
				{
					id: `false_${LID}_${SHORT_ID}`,
					from: LID,
					reaction: { text: '👍', messageId: `true_${LID}_3EB0AAAABBBBCCCCDDDD` },
				},
				'message.reaction',
			),
			{ ...DORA_BY_LID, phone: null, senderPhone: null },
		],
	])('%s', async (_name, envelope, expected) => {
		const item = await wahaDeliveryToItem.call(
			context,
			envelope,
			output,
			[],
			[],
			'MESSAGES_UPSERT',
		);

		expect(picked(item.json)).toEqual(expected);
	});
});

describe('Only These Chats matches a person by any ID the delivery gives', () => {
	const filters = (only: string): DeliveryFilters => ({
		session: SESSION,
		events: ['MESSAGES_UPSERT'],
		ignoreOwnMessages: true,
		chatType: 'all',
		onlyChats: [classifyChat(only)!],
	});

	it.each<[string, string, Delivery, string | undefined]>([
		[
			'a listed phone number, her message by LID with the phone beside it',
			`+${PHONE}`,
			evolution({ remoteJid: LID, remoteJidAlt: PN_JID, fromMe: false }),
			undefined,
		],
		[
			'a listed LID, her message by phone with the LID beside it (2.4.0)',
			LID,
			evolution({ remoteJid: PN_JID, remoteJidAlt: LID, addressingMode: 'pn', fromMe: false }),
			undefined,
		],
		[
			'a listed LID with a device suffix, her message by LID',
			'198765432101234:3@lid',
			evolution({ remoteJid: LID, fromMe: false }),
			undefined,
		],
		[
			'a listed phone number, a message by LID alone (nothing says it is hers)',
			PHONE,
			evolution({ remoteJid: LID, fromMe: false }),
			'chat not listed',
		],
		[
			'another number',
			'5511987650001',
			evolution({ remoteJid: LID, remoteJidAlt: PN_JID, fromMe: false }),
			'chat not listed',
		],
	])('%s', (_name, only, delivery, reason) => {
		expect(reasonToIgnore(delivery, filters(only))).toBe(reason);
	});

	it('on WAHA too: a listed phone number matches her NOWEB message by LID', () => {
		const envelope = waha({
			id: `false_${LID}_${SHORT_ID}`,
			from: LID,
			_data: { key: { remoteJid: LID, remoteJidAlt: PN_JID } },
		});

		expect(wahaReasonToIgnore(envelope, filters(PHONE))).toBeUndefined();
		expect(wahaReasonToIgnore(envelope, filters('5511987650001'))).toBe('chat not listed');
	});
});
