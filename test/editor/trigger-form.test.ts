/**
 * The trigger's form as a new user meets it: a short notice, the nodes panel's "On …" entries
 * named as people write them, and each event saying where it is missing (the list cannot follow
 * the credential: see nodes/shared/events.ts).
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { MessagingGatewayTrigger } from '../../nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node';
import { EVOLUTION_V2_EVENTS } from '../../nodes/shared/gateways/evolution-v2/webhook';
import { eventsWahaLacks } from '../../nodes/shared/gateways/waha/events';

const { properties } = new MessagingGatewayTrigger().description;
const events = (properties.find((property) => property.name === 'events')?.options ??
	[]) as INodePropertyOptions[];

describe('the trigger form', () => {
	it('opens with a notice of one sentence, not a page of webhook internals', () => {
		const notices = properties.filter((property) => property.type === 'notice');
		expect(notices.map((notice) => notice.displayName.length <= 160)).toEqual(
			notices.map(() => true),
		);
		expect(notices.map((notice) => notice.displayName)).not.toContainEqual(
			expect.stringMatching(/webhook\/find/),
		);
	});

	it.each([
		['MESSAGES_UPSERT', 'On message received'],
		['QRCODE_UPDATED', 'On QR code updated'],
		['SEND_MESSAGE', 'On message sent through the API'],
		['TYPEBOT_START', 'On Typebot session started'],
		['CHAMA_AI_ACTION', 'On Chama AI action taken'],
	])('the nodes panel lists %s as "%s"', (event, action) => {
		expect(events.find((option) => option.value === event)?.action).toBe(action);
	});

	it('every event has its panel entry, and a description without the gateway internals', () => {
		expect(events.length).toBeGreaterThan(20);
		for (const option of events) {
			expect(option.action).toMatch(/^On [a-zA-Z]/);
			expect(option.description).not.toMatch(/Gateway event/);
		}
	});

	it.each(events.map((option) => [option.name, String(option.value)]))(
		'%s says where it is missing',
		(_name, event) => {
			const description = events.find((option) => option.value === event)?.description ?? '';
			const onV2 = EVOLUTION_V2_EVENTS.has(event);
			const onWaha = eventsWahaLacks([event]).length === 0;
			const said = /(?:Only on Evolution API v1|Not on [^.]+)\.$/.exec(description)?.[0];
			expect([event, said]).toEqual([
				event,
				onV2 && onWaha
					? undefined
					: !onV2 && !onWaha
						? 'Only on Evolution API v1.'
						: `Not on ${onV2 ? 'WAHA' : 'Evolution API v2'}.`,
			]);
		},
	);
});
