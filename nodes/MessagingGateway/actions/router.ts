import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import type { OtherGatewaysOperations } from '../../shared/gateways';
import { itemParameter } from '../../shared/parameters';
import { DEFAULT_GATEWAY, GATEWAY_LABELS, selectedGateway } from '../../shared/transport';
import type { GatewayName } from '../../shared/transport';
import { integerFrom } from '../helpers/fields';
import type { SendPace } from '../helpers/send-pace';
import { waitForSendTurn } from '../helpers/send-pace';
import { readSessionParameter } from '../../shared/session';
import { chatLanes } from './chat-lanes';
import { MAX_PACE_PER_MINUTE, MAX_SIMULTANEOUS_CHATS } from './common/descriptions';
import type { MessagingGatewayType } from './node.type';
import { resourceProperty, resources } from './resources';

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

/** "Message → Send Text": the names the editor shows for a resource and operation. */
function operationName(resource: string, operation: string): string {
	const labelOf = (property: INodeProperties | undefined, value: string) =>
		(property?.options as Array<{ name: string; value: unknown }> | undefined)?.find(
			(option) => option.value === value,
		)?.name ?? value;
	const operationProperty = resources[resource as keyof typeof resources]?.description.find(
		(property) => property.name === 'operation',
	);
	return `${labelOf(resourceProperty, resource)} → ${labelOf(operationProperty, operation)}`;
}

/** An operation a gateway cannot perform: every item fails with why, before any request. */
function refusedOn(gateway: GatewayName, operation: string, why: string): OperationExecutor {
	return async function (this: IExecuteFunctions, itemIndex: number) {
		throw new NodeOperationError(
			this.getNode(),
			`${operation} is not available on ${GATEWAY_LABELS[gateway]}: ${why}`,
			{
				itemIndex,
				description: `The credential's Gateway is ${GATEWAY_LABELS[gateway]}. Pick another operation, or use a credential of a gateway that offers it (the README's compatibility table says which).`,
			},
		);
	};
}

/**
 * The operation the node is set to, as the credential's gateway performs it (`gateways`: how each
 * gateway other than the default performs them). Resource and Operation take no expressions, so
 * they are read once per run, from the first item, as n8n's own routers do.
 */
async function selectedExecutor(
	this: IExecuteFunctions,
	gateways: OtherGatewaysOperations,
): Promise<OperationExecutor> {
	const resource = this.getNodeParameter('resource', 0) as MessagingGatewayType['resource'];
	const operation = this.getNodeParameter('operation', 0) as string;
	const executor = operationsByResource[resource]?.[operation]?.execute;
	if (!executor) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
			{ itemIndex: 0 },
		);
	}
	const gateway = await selectedGateway.call(this);
	if (gateway === DEFAULT_GATEWAY) return executor;
	const key = `${resource}.${operation}`;
	const { offered, notOffered } = gateways[gateway];
	const name = operationName(resource, operation);
	return (
		offered[key] ??
		refusedOn(
			gateway,
			name,
			notOffered[key] ?? 'this version of the package does not speak it to that gateway yet.',
		)
	);
}

/** A whole-number option of the send operations' Options (`fallback` when not set), checked by name. */
function wholeOption(
	this: IExecuteFunctions,
	itemIndex: number,
	name: string,
	displayName: string,
	fallback: number,
	min: number,
): number {
	return integerFrom.call(
		this,
		itemParameter.call(this, `options.${name}`, itemIndex, fallback, false),
		displayName,
		itemIndex,
		min,
	);
}

/** Send operations offer "Wait Between Items" in their Options; other operations have no such option. */
function waitBetweenItemsOf(this: IExecuteFunctions, itemIndex: number): number {
	return wholeOption.call(this, itemIndex, 'waitBetweenItems', 'Wait Between Items (Ms)', 0, 0);
}

/** Send operations offer Pace Sends in their Options (helpers/send-pace.ts); undefined when off. */
function paceOf(this: IExecuteFunctions, itemIndex: number): SendPace | undefined {
	const option = (name: string, displayName: string, fallback: number, min: number) =>
		wholeOption.call(this, itemIndex, name, displayName, fallback, min);
	const perMinute = option('pacePerMinute', 'Pace Sends (Messages per Minute)', 0, 0);
	if (perMinute === 0) return undefined;
	if (perMinute > MAX_PACE_PER_MINUTE) {
		throw new NodeOperationError(
			this.getNode(),
			`Pace Sends (Messages per Minute) must be at most ${MAX_PACE_PER_MINUTE} (got ${perMinute})`,
			{ itemIndex },
		);
	}
	return {
		perMinute,
		jitterSeconds: option('paceJitterSeconds', 'Pace Jitter (Seconds)', 0, 0),
		workers: option('paceWorkers', 'Pace Workers Sending', 1, 1),
	};
}

/** Send operations offer "Simultaneous Chats"; it is one setting for the whole run, read from the first item. */
function simultaneousChatsOf(this: IExecuteFunctions): number {
	const count = integerFrom.call(
		this,
		this.getNodeParameter('options.simultaneousChats', 0, 1),
		'Simultaneous Chats',
		0,
		1,
	);
	if (count > MAX_SIMULTANEOUS_CHATS) {
		throw new NodeOperationError(
			this.getNode(),
			`Simultaneous Chats must be at most ${MAX_SIMULTANEOUS_CHATS} (got ${count})`,
			{ itemIndex: 0 },
		);
	}
	return count;
}

/** Whether Wait Between Items asks for a pause (a value it cannot use is reported per item, in turn). */
function isPaced(this: IExecuteFunctions): boolean {
	try {
		return waitBetweenItemsOf.call(this, 0) > 0;
	} catch {
		return true;
	}
}

/**
 * One input item through its operation: its outputs paired to it, or under "Continue On Fail" an
 * error item; otherwise the error is thrown. `waitBefore`: pause for Wait Between Items first.
 */
async function runItem(
	this: IExecuteFunctions,
	executor: OperationExecutor,
	itemIndex: number,
	waitBefore = false,
): Promise<INodeExecutionData[]> {
	try {
		const waitMs = waitBetweenItemsOf.call(this, itemIndex);
		const pace = paceOf.call(this, itemIndex);
		if (waitBefore && waitMs > 0) await sleep(waitMs);
		if (pace) {
			await waitForSendTurn.call(this, readSessionParameter.call(this, itemIndex), pace, itemIndex);
		}
		const results = await executor.call(this, itemIndex);
		return results.map((result) => ({ ...result, pairedItem: { item: itemIndex } }));
	} catch (caught) {
		const error = asNodeError.call(this, caught, itemIndex);
		if (this.continueOnFail()) return [errorItem(error, itemIndex)];
		throw error;
	}
}

/**
 * Several chats at once: up to `simultaneous` lanes (one per chat, see chat-lanes.ts) run side by
 * side, each sending its items one after another in input order. Outputs come back in input order.
 * Without "Continue On Fail", the first failure stops new items from starting; the items already
 * under way finish, and the failure of the earliest item is thrown.
 */
async function runLanes(
	this: IExecuteFunctions,
	executor: OperationExecutor,
	itemCount: number,
	simultaneous: number,
): Promise<INodeExecutionData[]> {
	const lanes = chatLanes.call(this, itemCount);
	const outputs: INodeExecutionData[][] = new Array(itemCount);
	const failures: Array<{ itemIndex: number; error: unknown }> = [];
	let nextLane = 0;
	const worker = async () => {
		while (failures.length === 0 && nextLane < lanes.length) {
			const lane = lanes[nextLane++];
			for (const itemIndex of lane) {
				if (failures.length > 0) return;
				try {
					outputs[itemIndex] = await runItem.call(this, executor, itemIndex);
				} catch (error) {
					failures.push({ itemIndex, error });
				}
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(simultaneous, lanes.length) }, worker));
	if (failures.length > 0) {
		throw failures.reduce((first, failure) =>
			failure.itemIndex < first.itemIndex ? failure : first,
		).error;
	}
	return outputs.flat();
}

/**
 * Runs the selected operation once per input item: outputs are paired to their item and in input
 * order, and with "Continue On Fail" a failing item becomes an error item while the others go on.
 * Items go one after another unless Simultaneous Chats asks for several chats at once (never
 * together with Wait Between Items, which paces one item after another). The node hands in how
 * each other gateway performs the operations (`gateways`), so the operations never import a
 * gateway's adapters, which build on them.
 */
export async function router(
	this: IExecuteFunctions,
	gateways: OtherGatewaysOperations,
): Promise<INodeExecutionData[][]> {
	const itemCount = this.getInputData().length;
	// Node-wide settings: a value they cannot use stops the node before any request.
	const executor = await selectedExecutor.call(this, gateways);
	const simultaneous = simultaneousChatsOf.call(this);
	if (simultaneous > 1 && itemCount > 1 && !isPaced.call(this)) {
		return [await runLanes.call(this, executor, itemCount, simultaneous)];
	}
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		returnData.push(...(await runItem.call(this, executor, itemIndex, itemIndex > 0)));
	}
	return [returnData];
}
