/**
 * The trigger's execute() in each mode n8n runs it: an execution a delivery started leaves out the
 * messages that ran before; one a person started (a test event, a retry from the executions list)
 * runs every item it holds, records nothing and asks the store nothing. A narrow unit test: the
 * store is a stub of n8n's helper, the engine is not involved.
 */
import type { IExecuteFunctions, INodeExecutionData, WorkflowExecuteMode } from 'n8n-workflow';

import { firstRunsOnly, tagged } from '../../nodes/MessagingGatewayTrigger/processed-messages';

/** Two message items, the first of which ran before, and one other event (no tag). */
function items(): INodeExecutionData[] {
	return [
		tagged({ json: { text: 'ran before' } }, { digest: 'digest-ran' }),
		tagged({ json: { text: 'new' } }, { digest: 'digest-new' }),
		{ json: { event: 'presence' } },
	];
}

function executeFunctions(mode: WorkflowExecuteMode, asked: string[][]): IExecuteFunctions {
	return {
		getInputData: () => items(),
		getMode: () => mode,
		getWorkflow: () => ({ id: `workflow-${mode}` }),
		getNode: () => ({ id: 'trigger-node' }),
		logger: { info: () => undefined, warn: () => undefined },
		helpers: {
			checkProcessedAndRecord: async (digests: string[]) => {
				asked.push(digests);
				return { new: digests.filter((d) => d !== 'digest-ran'), processed: ['digest-ran'] };
			},
		},
	} as unknown as IExecuteFunctions;
}

describe('the trigger’s execute() per execution mode', () => {
	it.each([
		{ mode: 'webhook', runs: ['new', undefined], asksStore: true },
		{ mode: 'trigger', runs: ['new', undefined], asksStore: true },
		{ mode: 'manual', runs: ['ran before', 'new', undefined], asksStore: false },
		{ mode: 'retry', runs: ['ran before', 'new', undefined], asksStore: false },
	] as Array<{ mode: WorkflowExecuteMode; runs: unknown[]; asksStore: boolean }>)(
		'$mode: runs $runs',
		async ({ mode, runs, asksStore }) => {
			const asked: string[][] = [];
			const [output] = await firstRunsOnly.call(executeFunctions(mode, asked));
			expect(output.map((item) => item.json.text)).toEqual(runs);
			// The tag webhook() put on for execute() never reaches the next node.
			expect(output.every((item) => !('messagingGatewayDelivery' in item))).toBe(true);
			expect(asked).toEqual(asksStore ? [['digest-ran', 'digest-new']] : []);
		},
	);
});
