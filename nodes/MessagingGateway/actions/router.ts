import type { IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

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
			const waitMs = this.getNodeParameter('options.waitBetweenItems', itemIndex, 0) as number;
			if (itemIndex > 0 && waitMs > 0) await sleep(waitMs);
			const results = await executor.call(this, itemIndex);
			for (const result of results) {
				returnData.push({ ...result, pairedItem: { item: itemIndex } });
			}
		} catch (error) {
			if (this.continueOnFail()) {
				const { message, description } = error as { message: string; description?: string | null };
				returnData.push({
					json: description ? { error: message, description } : { error: message },
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			// Both constructors hand back an error of their own class unchanged, so nothing is lost.
			if (error instanceof NodeApiError)
				throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
			throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		}
	}

	return [returnData];
}
