import type { INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { MessagingGateway } from '../../nodes/MessagingGateway/MessagingGateway.node';
import { MessagingGatewayTrigger } from '../../nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node';
import { SEED, startSimulator } from '../simulator/index.cts';
import type { Simulator } from '../simulator/index.cts';
import { runGateway } from '../support/gateway-node.cts';

/**
 * nodes/shared/parameters.ts reads parameters without n8n's schema check and extracts a resource
 * locator's value itself, because n8n's own would look the parameter up among hundreds of
 * properties on every read and, for these nodes, never change a value. That holds only while no
 * property declares what those steps act on: these tests keep it so.
 */
const DESCRIPTIONS: Array<[string, INodeTypeDescription]> = [
	['Messaging Gateway', new MessagingGateway().description],
	['Messaging Gateway Trigger', new MessagingGatewayTrigger().description],
];

/** Every property, nested ones (collection options, fixed collection values) included. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const nested = (property.options ?? []).flatMap((option) => {
			if ('values' in option) return allProperties(option.values);
			if ('displayName' in option && 'type' in option) return allProperties([option]);
			return [];
		});
		return [property, ...nested];
	});
}

/** What n8n's check or extraction would act on, per property: empty when a plain read is the same. */
function actedOnByN8n(property: INodeProperties): string[] {
	const found: string[] = [];
	if (property.validateType) found.push('validateType');
	if (property.extractValue) found.push('extractValue');
	if (property.type === 'filter' || property.type === 'resourceMapper') found.push(property.type);
	for (const mode of property.modes ?? []) {
		if (mode.extractValue) found.push(`mode ${mode.name} extractValue`);
	}
	return found.map((what) => `${property.name}: ${what}`);
}

describe('parameters n8n would check or extract', () => {
	it.each(DESCRIPTIONS)('%s declares none', (_, description) => {
		const properties = allProperties(description.properties);
		expect(properties.length).toBeGreaterThan(10);
		expect(properties.flatMap(actedOnByN8n)).toEqual([]);
	});

	it('finds one when a property declares it (the check above can fail)', () => {
		const locator: INodeProperties = {
			displayName: 'Chat',
			name: 'chatId',
			type: 'resourceLocator',
			default: { mode: 'url', value: '' },
			modes: [
				{
					displayName: 'By URL',
					name: 'url',
					type: 'string',
					extractValue: { type: 'regex', regex: 'chat/([0-9]+)' },
				},
			],
		};
		expect(allProperties([locator]).flatMap(actedOnByN8n)).toEqual([
			'chatId: mode url extractValue',
		]);
	});
});

describe('a resource locator read for each item', () => {
	let simulator: Simulator;
	beforeAll(async () => {
		simulator = await startSimulator();
	});
	afterAll(async () => {
		await simulator.stop();
	});

	const chat = SEED.contacts.alice.number;
	it.each<[string, INodeParameters['chatId']]>([
		['typed', { __rl: true, mode: 'id', value: chat }],
		['from an expression', { __rl: true, mode: 'id', value: '={{ $json.number }}' }],
		['picked from the list', { __rl: true, mode: 'list', value: chat }],
		['a whole expression', `={{ { __rl: true, mode: 'id', value: $json.number } }}`],
	])('%s: its value is sent', async (_, chatId) => {
		simulator.reset();
		const result = await runGateway(
			simulator,
			{
				resource: 'message',
				operation: 'sendText',
				session: SEED.instances.connected.name,
				chatId,
				text: '={{ $json.text }}',
			},
			{ items: [1, 2].map((n) => ({ json: { number: chat, text: `hello ${n}` } })) },
		);
		expect(result.status).toBe('success');
		const sent = simulator.requestsTo('/message/sendText', 'POST');
		expect(sent.map((request) => request.body)).toEqual(
			[1, 2].map((n) =>
				expect.objectContaining({ number: chat, textMessage: { text: `hello ${n}` } }),
			),
		);
	});
});
