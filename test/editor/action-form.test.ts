/**
 * The action node as a new user meets it on the canvas and in the nodes panel: the subtitle names
 * the resource and operation as the form does (n8n's own expression engine evaluates it, as the
 * editor does), and the description says what it is for.
 */
import type { INode } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { MessagingGateway } from '../../nodes/MessagingGateway/MessagingGateway.node';
import { MessagingGatewayTrigger } from '../../nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node';
import { MapNodeTypes } from '../support/n8n-harness.cts';

const node = new MessagingGateway();
const NODE_TYPE = 'n8n-nodes-messaging-gateway.messagingGateway';

function subtitleOf(parameters: INode['parameters']): unknown {
	const canvasNode: INode = {
		id: 'subtitle',
		name: 'Messaging Gateway',
		type: NODE_TYPE,
		typeVersion: 2,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({
		nodes: [canvasNode],
		connections: {},
		active: false,
		nodeTypes: new MapNodeTypes({ [NODE_TYPE]: node }),
	});
	return workflow.expression.getSimpleParameterValue(
		canvasNode,
		node.description.subtitle,
		'internal',
		{},
	);
}

describe('the canvas subtitle', () => {
	it.each([
		[{ resource: 'message', operation: 'sendText' }, 'Message: Send Text'],
		[{ resource: 'message', operation: 'sendAndWait' }, 'Message: Send and Wait for Response'],
		[{ resource: 'chat', operation: 'getMany' }, 'Chat: Get Many'],
		[{ resource: 'session', operation: 'restart' }, 'Session: Restart'],
		[{ resource: 'group', operation: 'create' }, 'Group: Create'],
	])('%o reads "%s"', (parameters, expected) => {
		expect(subtitleOf(parameters)).toBe(expected);
	});

	it('names every operation of every resource', () => {
		const operations = node.description.properties.filter((each) => each.name === 'operation');
		for (const property of operations) {
			for (const resource of property.displayOptions?.show?.resource ?? []) {
				for (const option of property.options ?? []) {
					if (!('value' in option)) continue;
					expect(subtitleOf({ resource: String(resource), operation: option.value })).toMatch(
						new RegExp(`: ${option.name.replace(/[()]/g, '\\$&')}$`),
					);
				}
			}
		}
	});
});

describe('what the nodes panel shows', () => {
	it.each([
		['the action node', node.description.description],
		['the trigger', new MessagingGatewayTrigger().description.description],
	])('%s says it is for WhatsApp, through Evolution API or WAHA', (_node, description) => {
		expect(description).toMatch(/WhatsApp/);
		expect(description).toMatch(/Evolution API/);
		expect(description).toMatch(/WAHA/);
	});
});
