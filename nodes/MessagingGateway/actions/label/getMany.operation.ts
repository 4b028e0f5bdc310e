import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { unexpectedAnswer } from '../../helpers/responses';
import { readSession, sessionFields, showOnlyFor } from '../common/descriptions';
import { evolutionLabels, labelItem, labelRecords } from './labels';

const properties: INodeProperties[] = [...sessionFields];

export const description = showOnlyFor('label', 'getMany', properties);

/** Labels as items, or an error with the gateway's words when the answer is no label list. */
export function labelsOutput(
	this: IExecuteFunctions,
	answer: unknown,
	itemIndex: number,
): INodeExecutionData[] {
	const labels = labelRecords(answer);
	if (!labels)
		throw unexpectedAnswer.call(this, answer, itemIndex, 'a list of labels, each with an "id"');
	return labels.map((label) => ({ json: labelItem(label) }));
}

/**
 * Get Many on the Messaging Gateway API: Evolution API v1's `GET /label/findLabels/<session>`
 * (v2 has the same route and answer). Labels come from WhatsApp Business; other accounts have none.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const session = readSession.call(this, itemIndex);
	return labelsOutput.call(this, await evolutionLabels.call(this, session, itemIndex), itemIndex);
}
