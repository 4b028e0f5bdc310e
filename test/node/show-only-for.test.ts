/**
 * The operations' fields are shown for their resource and operation by a local helper instead of
 * n8n-workflow's `updateDisplayOptions` (a deep merge per field, slow at load): on every
 * operation's own fields, both give exactly the same descriptions, key order included.
 */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { showOnlyFor } from '../../nodes/MessagingGateway/actions/common/descriptions';
import { resources } from '../../nodes/MessagingGateway/actions/resources';

/** `value` without `keys`, the other keys in their order. */
function omit<T extends object>(value: T, keys: string[]): Partial<T> {
	return Object.fromEntries(
		Object.entries(value).filter(([key]) => !keys.includes(key)),
	) as Partial<T>;
}

/** An operation's fields as written, before they were limited to their resource and operation. */
function withoutResourceAndOperation(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => {
		const show = omit(property.displayOptions?.show ?? {}, ['resource', 'operation']);
		const displayOptions =
			Object.keys(show).length === 0
				? omit(property.displayOptions ?? {}, ['show'])
				: { ...property.displayOptions, show };
		// Spread over the field itself, so displayOptions keeps its place among the keys.
		return Object.keys(displayOptions).length > 0
			? { ...property, displayOptions }
			: (omit(property, ['displayOptions']) as INodeProperties);
	});
}

const operations = Object.entries(resources).flatMap(([resource, module]) =>
	Object.entries(module.operations).map(([operation, { description }]) => ({
		resource,
		operation,
		description: description as INodeProperties[],
	})),
);

describe('showOnlyFor', () => {
	it('covers every operation of every resource', () => {
		expect(operations.length).toBeGreaterThan(40);
	});

	it.each(operations)(
		'gives $resource/$operation the descriptions updateDisplayOptions would',
		({ resource, operation, description }) => {
			const written = withoutResourceAndOperation(description);
			const expected = updateDisplayOptions(
				{ show: { resource: [resource], operation: [operation] } },
				written,
			);
			expect(JSON.stringify(showOnlyFor(resource, operation, written))).toBe(
				JSON.stringify(expected),
			);
			expect(JSON.stringify(description)).toBe(JSON.stringify(expected));
		},
	);

	it('leaves the fields it is given as they are', () => {
		const field: INodeProperties = {
			displayName: 'Text',
			name: 'text',
			type: 'string',
			default: '',
			displayOptions: { show: { '@version': [2] }, hide: { mode: ['x'] } },
		};
		const [shown] = showOnlyFor('message', 'sendText', [field]);
		expect(shown.displayOptions).toEqual({
			show: { '@version': [2], resource: ['message'], operation: ['sendText'] },
			hide: { mode: ['x'] },
		});
		expect(field.displayOptions).toEqual({ show: { '@version': [2] }, hide: { mode: ['x'] } });
	});
});
