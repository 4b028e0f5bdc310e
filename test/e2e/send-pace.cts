/**
 * Pace Sends in a real n8n: a workflow whose Send Text is paced, started by several production
 * webhook calls at once, and how the gateway saw the sends arrive. Shared by test/e2e/n8n.e2e.ts
 * (one process: every execution shares the session's turns) and test/queue/queue-mode.queue.ts
 * (two workers, each sending its share of the pace).
 */
import { randomUUID } from 'node:crypto';

import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import type { Simulator } from '../simulator/index.cts';
import { ACTION_TYPE, CREDENTIAL_TYPE, plainNode } from './workflows.cts';
import type { CredentialRef, WorkflowJson } from './workflows.cts';

/** Pace Sends as the node's Options take it. */
export interface PaceOptions {
	pacePerMinute: number;
	paceWorkers: number;
}

/** The time between one sender's turns: each of `paceWorkers` senders takes its share of the pace. */
export const turnMs = ({ pacePerMinute, paceWorkers }: PaceOptions) =>
	(60_000 * paceWorkers) / pacePerMinute;

/**
 * Webhook (answers once the run has ended) → Split Out of the call's `texts` → Send Text of each
 * to `chatId`, paced by `pace` (none: unpaced). Each text goes out with its execution's ID after
 * `#`, so an arrival can be told by execution (and, in queue mode, by worker).
 */
export function pacedSendWorkflow(
	credential: CredentialRef,
	options: { session: string; chatId: string; webhookPath: string; pace?: PaceOptions },
): WorkflowJson {
	return {
		name: `Paced sends (${options.pace ? `${options.pace.pacePerMinute} a minute` : 'unpaced'})`,
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
		nodes: [
			{
				...plainNode('Start', 'n8n-nodes-base.webhook', 2, 0),
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path: options.webhookPath, responseMode: 'lastNode' },
			},
			{
				...plainNode('Texts', 'n8n-nodes-base.splitOut', 1, 300),
				parameters: { fieldToSplitOut: 'body.texts', options: { destinationFieldName: 'text' } },
			},
			{
				...plainNode('Send', ACTION_TYPE, 2, 600),
				parameters: {
					resource: 'message',
					operation: 'sendText',
					session: { __rl: true, mode: 'list', value: options.session },
					chatId: { __rl: true, mode: 'id', value: options.chatId },
					text: '={{ $json.text }} #{{ $execution.id }}',
					options: options.pace ? { ...options.pace } : {},
				},
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Texts', type: 'main', index: 0 }]] },
			Texts: { main: [[{ node: 'Send', type: 'main', index: 0 }]] },
		},
	};
}

/**
 * Calls the workflow's webhook at `url` once per entry of `runs`, all at once: one execution each,
 * sending that entry's texts. Resolves with the HTTP statuses once every run has ended.
 */
export async function runAtOnce(url: string, runs: string[][]): Promise<number[]> {
	const answers = await Promise.all(
		runs.map((texts) => axios.post(url, { texts }, { validateStatus: () => true })),
	);
	return answers.map((answer) => answer.status);
}

export interface Arrival {
	/** The text the workflow was given. */
	text: string;
	/** The execution that sent it. */
	executionId: string;
	/** When the gateway received it (ms since the epoch). */
	at: number;
}

/** The Send Text requests the gateway received whose text starts with `prefix`, in arrival order. */
export function arrivalsOf(simulator: Simulator, prefix: string): Arrival[] {
	return simulator
		.requestsTo('/message/sendText/', 'POST')
		.map((request) => ({
			sent: String(((request.body as IDataObject).textMessage as IDataObject | undefined)?.text),
			at: request.at,
		}))
		.filter(({ sent }) => sent.startsWith(prefix))
		.map(({ sent, at }) => {
			const sentBy = /^(.*) #(\d+)$/.exec(sent);
			return { text: sentBy?.[1] ?? sent, executionId: sentBy?.[2] ?? 'none', at };
		})
		.sort((a, b) => a.at - b.at);
}

/** The time between each arrival and the one before (ms). */
export function gapsOf(arrivals: Arrival[]): number[] {
	return arrivals.slice(1).map((arrival, index) => arrival.at - arrivals[index].at);
}

/**
 * The most sends any stretch of time (from one arrival to a later one) holds beyond what `senders`
 * each sending once a turn of `turnMs` allow: a rolling window at every length, so two sends too
 * close and a run too fast on average both count. 0 when the pace held.
 *
 * A send may arrive up to half a turn after its turn: n8n's request to the gateway takes its own
 * time after the wait, longest on a busy machine for a process's first send (a worker that had sent
 * nothing yet sent its first 0.6 s late with both cores kept busy, the next ones within 0.1 s).
 * The tests run the unpaced control first, which warms the processes up.
 */
export function sendsOverPace(arrivals: Arrival[], turnMs: number, senders = 1): number {
	const margin = turnMs / 2;
	let most = 0;
	for (let first = 0; first < arrivals.length; first++) {
		for (let last = first + 1; last < arrivals.length; last++) {
			const stretch = arrivals[last].at - arrivals[first].at;
			const allowed = senders * (Math.floor((stretch + margin) / turnMs) + 1);
			most = Math.max(most, last - first + 1 - allowed);
		}
	}
	return most;
}
