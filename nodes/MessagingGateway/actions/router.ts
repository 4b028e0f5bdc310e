import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { integerFrom } from '../helpers/fields';
import type { MessagingGatewayType } from './node.type';
import { resources } from './resources';

type OperationExecutor = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<INodeExecutionData[]>;

const operationsByResource: Record<
	string,
	Record<string, { execute: OperationExecutor }>
> = Object.fromEntries(
	Object.entries(resources).map(([name, resource]) => [name, resource.operations]),
);

/** Any failure as n8n's own error classes, pointing at the item (both keep an error of their class as it is). */
function asNodeError(
	this: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError)
		return new NodeApiError(this.getNode(), error as unknown as JsonObject);
	return new NodeOperationError(this.getNode(), error as Error, { itemIndex });
}

/**
 * An item for a failed input item under "On Error: Continue", built as n8n's own nodes build it:
 * JSON with only `error` (what went wrong) and `message` (what to do). n8n routes exactly such items
 * to the error output in "Continue (using error output)" and merges the input item's fields into
 * them, so the error branch knows which item failed; any other key would keep them on the success
 * output. n8n 1.x accepts only these two keys, 2.x also `details`: `error` + `message` work on both.
 */
function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.message = error.description;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * Runs the selected operation once per input item: outputs are paired to their item, and with
 * "Continue On Fail" a failing item becomes an error item while the others go on.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const resource = this.getNodeParameter(
				'resource',
				itemIndex,
			) as MessagingGatewayType['resource'];
			const operation = this.getNodeParameter('operation', itemIndex) as string;
			const executor = operationsByResource[resource]?.[operation]?.execute;
			if (!executor) {
				throw new NodeOperationError(
					this.getNode(),
					`The operation "${operation}" of "${resource}" is not supported`,
					{
						itemIndex,
					},
				);
			}
			// Send operations offer "Wait Between Items" in their Options; other operations have no such option.
			const waitMs = integerFrom.call(
				this,
				this.getNodeParameter('options.waitBetweenItems', itemIndex, 0),
				'Wait Between Items (Ms)',
				itemIndex,
				0,
			);
			if (itemIndex > 0 && waitMs > 0) await sleep(waitMs);
			const results = await executor.call(this, itemIndex);
			for (const result of results) {
				returnData.push({ ...result, pairedItem: { item: itemIndex } });
			}
		} catch (caught) {
			const error = asNodeError.call(this, caught, itemIndex);
			if (this.continueOnFail()) {
				returnData.push(errorItem(error, itemIndex));
				continue;
			}
			throw error;
		}
	}

	return [returnData];
}
