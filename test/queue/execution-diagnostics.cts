/**
 * What a test says of executions that did not end as they should: those still unfinished (their
 * workflow, status, age, nodes run, messages held) and those n8n failed before their first node
 * ran. Read from n8n's database (stored-executions.cts), which shows running executions too.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ExecutionSource } from './stored-executions.cts';

/**
 * What the executions that never finished are: their workflow, status, age, the nodes they ran and
 * the messages they hold (read again with their data), to tell a hung first step from n8n's own.
 */
export async function describeUnfinished(
	executionsOf: ExecutionSource,
	unfinished: IDataObject[],
	messagesIn: (data: string) => number,
): Promise<string[]> {
	const shown = unfinished.slice(0, 10);
	const workflows = [...new Set(shown.map((execution) => String(execution.workflowId)))];
	const withData = new Map<string, IDataObject>();
	for (const workflowId of workflows)
		for (const execution of await executionsOf(workflowId, true))
			withData.set(String(execution.id), execution);
	return shown.map((execution) => {
		const data = withData.get(String(execution.id))?.data as
			| { resultData?: { runData?: IDataObject; lastNodeExecuted?: string } }
			| undefined;
		const started = execution.startedAt ? Date.parse(String(execution.startedAt)) : NaN;
		const held = messagesIn(JSON.stringify(data ?? {}));
		return [
			`${String(execution.id)} of workflow ${String(execution.workflowId)}: ${String(execution.status)}`,
			Number.isNaN(started)
				? 'not started'
				: `started ${Math.round((Date.now() - started) / 1000)} s ago`,
			`nodes run: ${Object.keys(data?.resultData?.runData ?? {}).join(', ') || 'none'}`,
			`holds ${held} message(s)`,
		].join(', ');
	});
}

/**
 * The executions of a workflow (any scenario so far) that n8n failed before its first node ran, by
 * error: n8n 2.41 answers a webhook once it has stored the execution, then may fail it before it
 * starts (its credentials check timing out on a starved database) and store the failure in place
 * of the items: such an execution shows no message.
 */
export function failedBeforeStart(executions: IDataObject[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const execution of executions) {
		const data = execution.data as
			| { resultData?: { runData?: IDataObject; error?: { message?: string } } }
			| undefined;
		if (execution.status !== 'error' || Object.keys(data?.resultData?.runData ?? {}).length > 0)
			continue;
		const key = String(data?.resultData?.error?.message ?? 'no error stored').slice(0, 80);
		counts[key] = (counts[key] ?? 0) + 1;
	}
	return counts;
}
