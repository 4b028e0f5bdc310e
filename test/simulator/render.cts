// Renders stored messages in each family's format: WAHA's WAMessage and Baileys/Evolution's WebMessageInfo.
import { chatIdToJid, contactJid, fullMessageId, isGroupId, isLid, personJid } from './ids.cts';
import {
	ACK_NAMES,
	lidAddressOf,
	ownerChatId,
	senderChatId,
	type Instance,
	type MessageContent,
	type StoredMessage,
} from './state.cts';
import type { WahaEngine } from './types.cts';

export function fileUrl(baseUrl: string, instance: Instance, file: string): string {
	return `${baseUrl}/api/files/${encodeURIComponent(instance.name)}/${encodeURIComponent(file)}`;
}

export function fileUrlOrNull(
	baseUrl: string,
	instance: Instance,
	file: string | null | undefined,
): string | null {
	return file ? fileUrl(baseUrl, instance, file) : null;
}

/** The text a message shows in a chat list: WAHA's `body`. */
export function messageBody(content: MessageContent): string {
	switch (content.type) {
		case 'text':
		case 'linkPreview':
			return content.text;
		case 'media':
			return content.caption;
		case 'vcard':
			return content.vcard;
		case 'poll':
			return content.name;
		case 'buttons':
			return content.body;
		case 'list':
			return content.description;
		case 'location':
			return '';
	}
}

/**
 * Baileys' message key. A message that came through a LID carries what Baileys 7 adds (Evolution
 * 2.3.6, WAHA NOWEB): the phone the gateway knows as `remoteJidAlt` (direct) or `participantAlt`
 * (group), and `addressingMode: 'lid'`; without a known phone, no Alt field at all.
 */
export function evolutionKey(instance: Instance, message: StoredMessage): Record<string, unknown> {
	const address = lidAddressOf(instance, message);
	const key: Record<string, unknown> = { remoteJid: chatIdToJid(message.chatId) };
	if (address?.phone && !address.inGroup) key.remoteJidAlt = contactJid(address.phone);
	key.fromMe = message.fromMe;
	key.id = message.shortId;
	if (isGroupId(message.chatId)) {
		key.participant = message.fromMe
			? contactJid(instance.ownerNumber)
			: personJid(message.author ?? '');
		if (address?.phone && address.inGroup) key.participantAlt = contactJid(address.phone);
	}
	if (address) key.addressingMode = 'lid';
	return key;
}

function contextInfo(
	instance: Instance,
	message: StoredMessage,
	baseUrl: string,
): Record<string, unknown> | undefined {
	const info: Record<string, unknown> = {};
	const quoted = message.quotedId ? instance.messages.get(message.quotedId) : undefined;
	if (message.quotedId) {
		info.stanzaId = message.quotedId;
		if (quoted) {
			info.participant = chatIdToJid(senderChatId(instance, quoted));
			info.quotedMessage = evolutionContent(instance, quoted, baseUrl, false).message;
		}
	}
	if (message.mentions?.length) info.mentionedJid = message.mentions.map(personJid);
	return Object.keys(info).length > 0 ? info : undefined;
}

function buttonPayload(button: {
	type: string;
	text: string;
	id?: string;
	phoneNumber?: string;
	copyCode?: string;
	url?: string;
}) {
	const names: Record<string, string> = {
		reply: 'quick_reply',
		call: 'cta_call',
		copy: 'cta_copy',
		url: 'cta_url',
	};
	const params: Record<string, unknown> = { display_text: button.text };
	if (button.id) params.id = button.id;
	if (button.phoneNumber) params.phone_number = button.phoneNumber;
	if (button.copyCode) params.copy_code = button.copyCode;
	if (button.url) params.url = button.url;
	return { name: names[button.type], buttonParamsJson: JSON.stringify(params) };
}

/**
 * The Baileys `message` object and its `messageType`. `includeContext` adds reply/mention
 * context; it is off when rendering a quoted message inside another one.
 */
export function evolutionContent(
	instance: Instance,
	message: StoredMessage,
	baseUrl: string,
	includeContext = true,
): { messageType: string; message: Record<string, unknown> } {
	const context = includeContext ? contextInfo(instance, message, baseUrl) : undefined;
	const withContext = (body: Record<string, unknown>) =>
		context ? { ...body, contextInfo: context } : body;
	const content = message.content;
	switch (content.type) {
		case 'text':
			// API sends come back as extendedTextMessage (spec §2.8); plain inbound text is a `conversation`.
			if (message.source === 'api' || context) {
				return {
					messageType: 'extendedTextMessage',
					message: { extendedTextMessage: withContext({ text: content.text }) },
				};
			}
			return { messageType: 'conversation', message: { conversation: content.text } };
		case 'linkPreview':
			return {
				messageType: 'extendedTextMessage',
				message: {
					extendedTextMessage: withContext({
						text: content.text,
						matchedText: content.preview.url,
						canonicalUrl: content.preview.url,
						title: content.preview.title,
						description: content.preview.description,
						previewType: 'NONE',
					}),
				},
			};
		case 'media': {
			const file = instance.files.get(content.file);
			const media: Record<string, unknown> = {
				url: fileUrl(baseUrl, instance, content.file),
				mimetype: content.mimetype,
				caption: content.caption,
				fileLength: String(file?.data.length ?? 0),
			};
			if (file?.width !== undefined)
				Object.assign(media, { width: file.width, height: file.height });
			if (content.mediaType === 'documentMessage')
				Object.assign(media, { fileName: content.fileName, title: content.fileName });
			if (content.ptt) media.ptt = true;
			return {
				messageType: content.mediaType,
				message: { [content.mediaType]: withContext(media) },
			};
		}
		case 'location':
			return {
				messageType: 'locationMessage',
				message: {
					locationMessage: {
						degreesLatitude: content.latitude,
						degreesLongitude: content.longitude,
						name: content.name,
						address: content.address,
						contextInfo: context ?? {},
					},
				},
			};
		case 'vcard':
			if (content.cards) {
				return {
					messageType: 'contactsArrayMessage',
					message: {
						contactsArrayMessage: withContext({
							displayName: content.displayName,
							contacts: content.cards,
						}),
					},
				};
			}
			return {
				messageType: 'contactMessage',
				message: {
					contactMessage: withContext({ displayName: content.displayName, vcard: content.vcard }),
				},
			};
		case 'list':
			return {
				messageType: 'listMessage',
				message: {
					listMessage: withContext({
						title: content.title,
						description: content.description,
						buttonText: content.buttonText,
						footerText: content.footerText,
						sections: content.sections,
						// Evolution v1 sends listType 2, which the protobuf names PRODUCT_LIST.
						listType: 'PRODUCT_LIST',
					}),
				},
			};
		case 'poll':
			return {
				messageType: 'pollCreationMessage',
				message: {
					pollCreationMessage: withContext({
						name: content.name,
						options: content.options.map((optionName) => ({ optionName })),
						selectableOptionsCount: content.multipleAnswers ? 0 : 1,
					}),
				},
			};
		case 'buttons':
			return {
				messageType: 'interactiveMessage',
				message: {
					interactiveMessage: withContext({
						header: { title: content.header, hasMediaAttachment: Boolean(content.headerImageUrl) },
						body: { text: content.body },
						footer: { text: content.footer },
						nativeFlowMessage: { buttons: content.buttons.map(buttonPayload) },
					}),
				},
			};
	}
}

/** The `data` of a `messages.upsert` delivery (Evolution v1 shape). */
export function evolutionUpsertData(
	instance: Instance,
	message: StoredMessage,
	baseUrl: string,
	base64?: string,
): Record<string, unknown> {
	const { messageType, message: content } = evolutionContent(instance, message, baseUrl);
	const data: Record<string, unknown> = {
		key: evolutionKey(instance, message),
		pushName: message.pushName,
		message: base64 === undefined ? content : { ...content, base64 },
	};
	const context = (Object.values(content)[0] as Record<string, unknown> | undefined)?.contextInfo;
	if (context && Object.keys(context).length > 0) data.contextInfo = context;
	data.messageType = messageType;
	data.messageTimestamp = message.timestamp;
	data.owner = instance.name;
	// The spec carries `source` only for messages sent by the account itself.
	if (message.fromMe) data.source = message.source;
	return data;
}

/** What Evolution's /message/send* answers: the pending WebMessageInfo, timestamp as a string. */
export function evolutionSendResult(
	instance: Instance,
	message: StoredMessage,
	baseUrl: string,
): Record<string, unknown> {
	return {
		key: evolutionKey(instance, message),
		message: evolutionContent(instance, message, baseUrl).message,
		messageTimestamp: String(message.timestamp),
		status: 'PENDING',
	};
}

/** The device the simulator's other parties write from, in the raw JIDs of GOWS (whatsmeow keeps it). */
const PEER_DEVICE = 12;

function onDevice(jid: string): string {
	return jid.replace('@', `:${PEER_DEVICE}@`);
}

/**
 * GOWS's `_data`: whatsmeow's message `{Info, Message}`. `Sender` keeps the writer's device;
 * `SenderAlt` (their phone, on the same device) or, for the account's own messages, `RecipientAlt`
 * carry the phone of a LID when the gateway knows it; without one, neither field is there.
 */
function gowsData(
	instance: Instance,
	message: StoredMessage,
	content: Record<string, unknown>,
): Record<string, unknown> {
	const inGroup = isGroupId(message.chatId);
	const address = lidAddressOf(instance, message);
	const lidChat = isLid(message.chatId) || (inGroup && isLid(message.author ?? ''));
	// The account writes as its LID in a LID chat, else as its phone; others from their device.
	const own =
		isLid(message.chatId) && instance.lid ? instance.lid : contactJid(instance.ownerNumber);
	const writer = inGroup ? personJid(message.author ?? '') : chatIdToJid(message.chatId);
	const info: Record<string, unknown> = {
		ID: message.shortId,
		Chat: chatIdToJid(message.chatId),
		Sender: message.fromMe ? own : onDevice(writer),
	};
	if (address?.phone && !message.fromMe) info.SenderAlt = onDevice(contactJid(address.phone));
	if (address?.phone && message.fromMe) info.RecipientAlt = contactJid(address.phone);
	Object.assign(info, {
		IsFromMe: message.fromMe,
		IsGroup: inGroup,
		AddressingMode: lidChat ? 'lid' : 'pn',
		PushName: message.pushName,
		// Go's time.Time in JSON: RFC 3339, no fraction for whole seconds.
		Timestamp: new Date(message.timestamp * 1000).toISOString().replace('.000Z', 'Z'),
	});
	return { Info: info, Message: content };
}

/** WhatsApp Web's message `type` of a content. */
function webjsType(content: MessageContent): string {
	if (content.type !== 'media') {
		const types: Record<string, string> = {
			location: 'location',
			vcard: 'vcard',
			poll: 'poll_creation',
			list: 'list',
		};
		return types[content.type] ?? 'chat';
	}
	if (content.mediaType === 'audioMessage') return content.ptt ? 'ptt' : 'audio';
	const types: Record<string, string> = {
		documentMessage: 'document',
		videoMessage: 'video',
		stickerMessage: 'sticker',
	};
	return types[content.mediaType] ?? 'image';
}

/** WEBJS's `_data`: WhatsApp Web's message model, which names people only as WA Web does (no phone for a LID). */
function webjsData(
	message: StoredMessage,
	result: Record<string, unknown>,
): Record<string, unknown> {
	const data: Record<string, unknown> = {
		id: {
			fromMe: message.fromMe,
			remote: message.chatId,
			id: message.shortId,
			_serialized: result.id,
		},
		body: result.body,
		type: webjsType(message.content),
		t: message.timestamp,
		notifyName: message.pushName,
		from: result.from,
		to: result.to,
	};
	if (result.author) data.author = result.author;
	return data;
}

/**
 * WAHA's WAMessage (spec §2.2). `engine` (WAHA mode) shapes it as that engine does: NOWEB (and the
 * spec, with no engine) `_data` is Baileys' message; GOWS names the chat in `from` (`to` and
 * `participant` are the writer in groups, null otherwise) and `_data` is whatsmeow's; WEBJS's
 * `_data` is WhatsApp Web's.
 */
export function wahaMessage(
	instance: Instance,
	message: StoredMessage,
	baseUrl: string,
	downloadMedia = true,
	engine?: WahaEngine,
): Record<string, unknown> {
	const content = message.content;
	const inGroup = isGroupId(message.chatId);
	const me = ownerChatId(instance);
	const result: Record<string, unknown> = {
		id: fullMessageId(message.fromMe, message.chatId, message.shortId),
		timestamp: message.timestamp,
		from: message.fromMe ? me : message.chatId,
		fromMe: message.fromMe,
		source: message.source,
		to: message.fromMe ? message.chatId : me,
		participant: inGroup ? senderChatId(instance, message) : null,
		body: messageBody(content),
		hasMedia: content.type === 'media',
		ack: message.ack,
		ackName: ACK_NAMES[message.ack] ?? 'UNKNOWN',
	};
	if (content.type === 'media') {
		result.media = downloadMedia
			? {
					url: fileUrl(baseUrl, instance, content.file),
					mimetype: content.mimetype,
					filename: content.fileName,
					error: null,
				}
			: null;
	}
	if (inGroup && !message.fromMe) result.author = senderChatId(instance, message);
	if (content.type === 'location') {
		result.location = {
			latitude: String(content.latitude),
			longitude: String(content.longitude),
			live: false,
			name: content.name,
			address: content.address,
			description: [content.name, content.address].filter(Boolean).join('\n'),
		};
	}
	if (content.type === 'vcard')
		result.vCards = content.cards ? content.cards.map((card) => card.vcard) : [content.vcard];
	const rawContent = evolutionContent(instance, message, baseUrl).message;
	if (engine === 'GOWS') {
		const writer = senderChatId(instance, message);
		Object.assign(result, {
			from: message.chatId,
			to: inGroup ? writer : null,
			participant: inGroup ? writer : null,
		});
		result._data = gowsData(instance, message, rawContent);
	} else if (engine === 'WEBJS') {
		result._data = webjsData(message, result);
	} else {
		result._data = {
			key: evolutionKey(instance, message),
			message: rawContent,
			messageTimestamp: message.timestamp,
			pushName: message.pushName,
		};
	}
	if (message.quotedId) {
		const quoted = instance.messages.get(message.quotedId);
		result.replyTo = quoted
			? {
					id: quoted.shortId,
					participant: senderChatId(instance, quoted),
					body: messageBody(quoted.content),
					_data: evolutionContent(instance, quoted, baseUrl, false).message,
				}
			: { id: message.quotedId };
	}
	return result;
}
