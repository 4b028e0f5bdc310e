/**
 * Send Text's options as the editor shows them (n8n's own displayParameter decides): what belongs
 * to splitting shows once Split Into Messages is added, Maximum Part Length only with By Maximum
 * Length, and Split Into Messages starts at By Paragraph when added (left out, a text goes whole).
 */
import type { INodeProperties, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { MessagingGateway } from '../../nodes/MessagingGateway/MessagingGateway.node';

const node = new MessagingGateway();
const options = node.description.properties.find(
	(property) =>
		property.name === 'options' &&
		property.displayOptions?.show?.operation?.includes('sendText') === true &&
		property.displayOptions?.show?.resource?.includes('message') === true,
) as INodeProperties;
const children = (options?.options ?? []) as INodeProperties[];
const PART_OPTIONS = [
	'typingBeforeEachPart',
	'typingMaximum',
	'typingMinimum',
	'typingPerCharacter',
];

/** The options the "Add option" list offers for what the collection holds. */
function offered(values: INodeParameters): string[] {
	return children
		.filter((child) => NodeHelpers.displayParameter(values, child, null, node.description))
		.map((child) => child.name);
}

describe('Send Text options', () => {
	it.each([
		['nothing added', {}, [], ['maxPartLength', ...PART_OPTIONS]],
		['Split Into Messages: Off', { splitInto: 'off' }, [], ['maxPartLength', ...PART_OPTIONS]],
		['By Paragraph', { splitInto: 'paragraph' }, PART_OPTIONS, ['maxPartLength']],
		['By Sentence', { splitInto: 'sentence' }, PART_OPTIONS, ['maxPartLength']],
		['By Maximum Length', { splitInto: 'maxLength' }, ['maxPartLength', ...PART_OPTIONS], []],
		['an expression', { splitInto: '={{ $json.mode }}' }, ['maxPartLength', ...PART_OPTIONS], []],
	])('%s: the part options offered', (_case, values, shown, hidden) => {
		const names = offered(values);
		expect(shown.filter((name) => !names.includes(name))).toEqual([]);
		expect(hidden.filter((name) => names.includes(name))).toEqual([]);
	});

	it('Split Into Messages, once added, starts at By Paragraph', () => {
		expect(children.find((child) => child.name === 'splitInto')?.default).toBe('paragraph');
	});
});
