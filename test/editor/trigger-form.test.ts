/**
 * The trigger's form as a new user meets it: a short notice, the nodes panel's "On …" entries
 * named as people write them, and each event saying where it is missing (the list cannot follow
 * the credential: see nodes/shared/events.ts).
 */
import type { INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { MessagingGatewayTrigger } from '../../nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node';
import { EVOLUTION_V2_EVENTS } from '../../nodes/shared/gateways/evolution-v2/webhook';
import { eventsWahaLacks } from '../../nodes/shared/gateways/waha/events';

const { properties } = new MessagingGatewayTrigger().description;
const events = (properties.find((property) => property.name === 'events')?.options ??
	[]) as INodePropertyOptions[];

describe('the trigger form', () => {
	// n8n's own displayParameter decides what a node of each version shows.
	const OWN_FIELDS = ['ignoreOwnMessages', 'simplify', 'qrCodeAsBinary'];
	// QR Code as Binary shows (version 3) once QR Code Updated is among the events.
	it.each<{ version: number; events: string[]; topLevel: string[]; inCollections: string[] }>([
		{
			version: 3,
			events: ['MESSAGES_UPSERT'],
			topLevel: ['ignoreOwnMessages', 'simplify'],
			inCollections: [],
		},
		{ version: 3, events: ['QRCODE_UPDATED'], topLevel: OWN_FIELDS, inCollections: [] },
		{ version: 2, events: ['QRCODE_UPDATED'], topLevel: [], inCollections: OWN_FIELDS },
		{ version: 1, events: ['MESSAGES_UPSERT'], topLevel: [], inCollections: OWN_FIELDS },
	])(
		'version $version with $events shows the defaults that change the output where they are: $topLevel',
		({ version, events: chosen, topLevel, inCollections }) => {
			const node = {
				id: 'trigger',
				name: 'On Message',
				type: 'n8n-nodes-messaging-gateway.messagingGatewayTrigger',
				typeVersion: version,
				position: [0, 0] as [number, number],
				parameters: { events: chosen },
			};
			const description = new MessagingGatewayTrigger().description;
			const shown = (property: INodeProperties, values: INodeParameters) =>
				NodeHelpers.displayParameter(values, property, node, description);
			const shownTopLevel = properties
				.filter((property) => OWN_FIELDS.includes(property.name))
				.filter((property) => shown(property, { events: chosen }))
				.map((property) => property.name);
			const collectionChildren = properties
				.filter((property) => property.type === 'collection')
				.flatMap((property) => (property.options ?? []) as INodeProperties[])
				.filter((child) => OWN_FIELDS.includes(child.name))
				.filter((child) => shown(child, { events: chosen }))
				.map((child) => child.name);
			expect({ shownTopLevel, collectionChildren: collectionChildren.sort() }).toEqual({
				shownTopLevel: topLevel,
				collectionChildren: [...inCollections].sort(),
			});
			if (version === 3) {
				expect(
					properties.filter((property) => topLevel.includes(property.name)).map((p) => p.default),
				).toEqual(topLevel.map(() => true));
			}
		},
	);

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
