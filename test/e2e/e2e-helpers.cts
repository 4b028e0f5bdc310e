/** What the end-to-end test files share: waiting for n8n, credentials, executions, scratch files. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import axios from 'axios';
import { sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { n8nDir, n8nVersionProfile } from './n8n-install.cts';
import type { N8nInstance } from './n8n-instance.cts';
import { CREDENTIAL_TYPE } from './workflows.cts';
import type { CredentialRef, WorkflowJson } from './workflows.cts';

/** Polls `probe` until it returns something, or fails after `timeoutMs`. */
export async function until<T>(
	description: string,
	timeoutMs: number,
	probe: () => Promise<T | undefined>,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`Timed out waiting for ${description}`);
		await sleep(200);
	}
}

/**
 * Polls `count` every `intervalMs` until it reaches `target`. Fails only when the count stops
 * growing for `stallMs`, so a slow machine takes longer instead of failing.
 */
export async function untilCountReaches(
	description: string,
	target: number,
	stallMs: number,
	count: () => Promise<number>,
	intervalMs = 2000,
): Promise<void> {
	let best = -1;
	let progressAt = Date.now();
	for (;;) {
		const current = await count();
		if (current >= target) return;
		if (current > best) {
			best = current;
			progressAt = Date.now();
		} else if (Date.now() - progressAt > stallMs) {
			throw new Error(
				`Timed out waiting for ${description}: ${current} of ${target}, none more in ${stallMs} ms`,
			);
		}
		await sleep(intervalMs);
	}
}

export async function createCredential(
	n8n: N8nInstance,
	name: string,
	data: IDataObject,
): Promise<CredentialRef> {
	const response = await n8n.api.post('/credentials', { name, type: CREDENTIAL_TYPE, data });
	if (response.status !== 200) {
		throw new Error(
			`Creating the credential failed: ${response.status} ${JSON.stringify(response.data)}`,
		);
	}
	return { id: String(response.data.id), name };
}

/** Every execution of a workflow, through the public API's cursor paging. */
export async function allExecutions(
	n8n: N8nInstance,
	workflowId: string,
	includeData = false,
): Promise<IDataObject[]> {
	const executions: IDataObject[] = [];
	let cursor: string | undefined;
	for (let page = 0; page < 1000; page++) {
		const response = await n8n.api.get('/executions', {
			params: { workflowId, includeData, limit: 250, ...(cursor ? { cursor } : {}) },
		});
		if (response.status !== 200) {
			throw new Error(
				`Listing executions failed: ${response.status} ${JSON.stringify(response.data)}`,
			);
		}
		executions.push(...(response.data.data as IDataObject[]));
		cursor = response.data.nextCursor ?? undefined;
		if (!cursor) break;
	}
	return executions;
}

/** Activates a workflow and waits until n8n has published it (its webhooks registered). */
export async function activate(n8n: N8nInstance, workflowId: string): Promise<void> {
	const activated = await n8n.api.post(`/workflows/${workflowId}/activate`, {});
	if (activated.status !== 200) {
		throw new Error(`Activation failed: ${activated.status} ${JSON.stringify(activated.data)}`);
	}
	// n8n 1.x registers the webhooks before it answers (a failure is a 400 above); 2.x answers first.
	if (!n8nVersionProfile(n8n.version).publicationOutbox) {
		if (activated.data?.active !== true) {
			throw new Error(`Activation did not activate: ${JSON.stringify(activated.data)}`);
		}
		return;
	}
	await until('publication', 60_000, async () => {
		const status = await n8n.rest.get(`/workflows/${workflowId}/publication-status`);
		const state = status.data?.data?.status;
		if (state === 'failed') throw new Error(`activation failed: ${JSON.stringify(status.data)}`);
		return state === 'published' ? true : undefined;
	});
}

/** Creates `workflow` in n8n and activates it; its ID. Throws with n8n's answer when either fails. */
export async function createActiveWorkflow(
	n8n: N8nInstance,
	workflow: WorkflowJson,
): Promise<string> {
	const created = await n8n.api.post('/workflows', workflow);
	if (created.status !== 200) {
		throw new Error(
			`Creating "${workflow.name}" failed: ${created.status} ${JSON.stringify(created.data)}`,
		);
	}
	const workflowId = String(created.data.id);
	await activate(n8n, workflowId);
	return workflowId;
}

/** n8n 2.x's setting for building an expression isolate only when an expression runs (the README recommends it for bots). */
export const LAZY_ISOLATES_ENV = { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' } as const;

/** A new empty folder under the system's temporary folder; remove it with `removeFolder`. */
export function scratchFolder(prefix: string): string {
	return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeFolder(folder: string): void {
	fs.rmSync(folder, { recursive: true, force: true });
}

/** Every file below `folder` (relative paths, sorted) with its content. */
export function filesIn(folder: string): Array<{ path: string; content: Buffer }> {
	return (fs.readdirSync(folder, { recursive: true }) as string[])
		.filter((entry) => fs.statSync(path.join(folder, entry)).isFile())
		.sort()
		.map((entry) => ({ path: entry, content: fs.readFileSync(path.join(folder, entry)) }));
}

/**
 * The bytes of a binary field of an execution's item: inline as base64, or kept by n8n's
 * binary data store (an `id`), then fetched as the editor does to show it.
 */
export async function binaryContent(n8n: N8nInstance, binary: IDataObject): Promise<Buffer> {
	if (typeof binary.id !== 'string') return Buffer.from(String(binary.data), 'base64');
	const response = await n8n.rest.get('/binary-data', {
		params: { id: binary.id, action: 'download' },
		responseType: 'arraybuffer',
	});
	if (response.status !== 200) {
		throw new Error(`Fetching binary data ${binary.id} failed: ${response.status}`);
	}
	return Buffer.from(response.data as ArrayBuffer);
}

/**
 * What the nodes do that needs n8n 2.x, with what n8n 1.x does instead. The test named in `test`
 * checks it with hasFeature: on 1.x it asserts the 1.x behaviour described here. The README's
 * n8n-versions section lists this table.
 */
export const NEEDS_N8N_2X = {
	credentialTestMessages: {
		feature:
			"The credential's **Test** says what to check, in the order people get it wrong (the Gateway, then the key or the Base URL), for a refused key (401), a key for single instances (403), a route not there (404), a redirect; with the network error code (ECONNREFUSED…) for an unreachable gateway",
		on1x: 'n8n 1.x skips the response-code rules of a credential test and shows its generic text: "Authorization failed - please check your credentials" (401), "Forbidden - perhaps check your credentials?" (403), "The resource you are requesting could not be found" (404), "The service refused the connection - perhaps it is offline" (unreachable). The credential itself works.',
		test: 'test/e2e/n8n.e2e.ts',
	},
	burst: {
		feature:
			'An active trigger takes a burst of deliveries (1,000, 50 at a time) with SQLite: every one answered 200 and run once',
		on1x: 'n8n 1.x with SQLite refused some deliveries of the burst on a busy 2-core machine: 503 "Database is not ready!" (its database health check timed out behind the executions) or 500 (its 250 ms limit for regular expressions ran out). Every delivery it answered 200 ran exactly once; a gateway that retries failed deliveries loses nothing.',
		test: 'test/e2e/reliability.e2e.ts',
	},
	acknowledgedOnceStored: {
		feature:
			'A delivery is answered 200 only once n8n has stored its execution; one n8n cannot store is answered 500, for the gateway to retry',
		on1x: "n8n 1.x answers a webhook on receipt before it stores the execution, its own Webhook node and this trigger alike (the trigger answers no earlier than n8n's Webhook node): a delivery n8n then fails to store was answered 200 and does not run.",
		test: 'test/e2e/reliability.e2e.ts',
	},
	exampleNodeVersions: {
		feature:
			'The example workflows as they are: `ai-agent-whatsapp.json` and `ai-whatsapp-assistant.json` use AI Agent 3.1 and `download-media.json` Read/Write Files from Disk 1.1, versions of n8n 2.x',
		on1x: 'n8n 1.123.81 has AI Agent up to 3 and Read/Write Files from Disk 1: `ai-agent-whatsapp.json` and `ai-whatsapp-assistant.json` cannot be activated ("Cannot read properties of undefined (reading \'execute\')"; add the AI Agent again in the 1.x editor); `download-media.json` runs (1.x runs its version 1 of the node). The other examples run as on 2.x.',
		test: 'test/e2e/examples.e2e.ts',
	},
} as const;

export type N8n2xFeature = keyof typeof NEEDS_N8N_2X;

/** Whether the running n8n has a feature of NEEDS_N8N_2X (every n8n 2.x has them all). */
export function hasFeature(n8n: N8nInstance, feature: N8n2xFeature): boolean {
	return feature in NEEDS_N8N_2X && n8nVersionProfile(n8n.version).major >= 2;
}

export interface BurstResult {
	/** The HTTP status of each delivery, in the order they were answered. */
	statuses: number[];
	/** The message IDs of the deliveries answered 200. */
	accepted: string[];
	/** "<status> <body>" of the deliveries not answered 200. */
	refused: string[];
	/** When each delivery was sent (ms since the epoch), by message ID. */
	sentAt: Map<string, number>;
	/** "<status> <body>" of the answers that a later try of the same delivery got past (`retry`). */
	retried: string[];
}

/** How a gateway that retries tries a delivery n8n did not answer 200 again. */
export interface DeliveryRetry {
	/** Tries in all, the first one included. */
	attempts: number;
	/** The pause before each next try. */
	delayMs: number;
}

/**
 * A gateway that retries, at WAHA's default pace: 15 tries, 2 s apart, on any answer but a 2xx. n8n answers 503 "Database is not
 * ready!" to everything while its database health check times out (a busy machine): a gateway
 * that retries gets past it, one that does not loses that message until the trigger's next read.
 */
export const RETRYING_GATEWAY: DeliveryRetry = { attempts: 15, delayMs: 2000 };

/**
 * Sends one `messages.upsert` delivery per message ID to a trigger's webhook URL, as the gateway
 * does, `concurrency` at a time. `onAnswered` sees the count of answered deliveries (e.g. to stop a
 * worker mid-burst).
 */
export async function deliverBurst(options: {
	url: string;
	session: string;
	from: { number: string; pushName: string };
	ids: string[];
	concurrency: number;
	onAnswered?: (answered: number) => Promise<void> | void;
	/** The envelope delivered for `id`; by default a text message with that ID from `from`. */
	envelope?: (id: string) => IDataObject;
	/** At least this long between one sender's deliveries (from one's start to the next's). */
	spacingMs?: number;
	/** Tries a delivery not answered 200 again, as a gateway that retries does; by default once only. */
	retry?: DeliveryRetry;
}): Promise<BurstResult> {
	const result: BurstResult = {
		statuses: [],
		accepted: [],
		refused: [],
		sentAt: new Map(),
		retried: [],
	};
	const retry = options.retry ?? { attempts: 1, delayMs: 0 };
	const envelopeOf =
		options.envelope ??
		((id: string) => ({
			event: 'messages.upsert',
			instance: options.session,
			data: {
				key: { remoteJid: `${options.from.number}@s.whatsapp.net`, fromMe: false, id },
				pushName: options.from.pushName,
				message: { conversation: `burst ${id}` },
				messageType: 'conversation',
				messageTimestamp: Math.floor(Date.now() / 1000),
			},
		}));
	let next = 0;
	const deliverAll = async () => {
		while (next < options.ids.length) {
			const id = options.ids[next++];
			const sentAt = Date.now();
			result.sentAt.set(id, sentAt);
			const envelope = envelopeOf(id);
			for (let attempt = 1; ; attempt++) {
				const response = await axios
					.post(options.url, envelope, { validateStatus: () => true })
					// A connection n8n dropped is an answer too (not "received"), not the end of the burst.
					.catch((error: { code?: string; message?: string }) => ({
						status: 0,
						data: `no answer: ${error.code ?? error.message}`,
					}));
				if (response.status === 200) {
					result.accepted.push(id);
					result.statuses.push(response.status);
					break;
				}
				const refusal = `${response.status} ${JSON.stringify(response.data)}`;
				if (attempt >= retry.attempts) {
					result.refused.push(refusal);
					result.statuses.push(response.status);
					break;
				}
				result.retried.push(refusal);
				await sleep(retry.delayMs);
			}
			await options.onAnswered?.(result.statuses.length);
			const rest = (options.spacingMs ?? 0) - (Date.now() - sentAt);
			if (rest > 0) await sleep(rest);
		}
	};
	await Promise.all(Array.from({ length: options.concurrency }, deliverAll));
	return result;
}

/**
 * The short message ID each execution's trigger item carries (executions listed with their data).
 * An execution that never ran (queue mode: its worker died) has the item only in its stack.
 */
export function triggerMessageIds(executions: IDataObject[], triggerName = 'On Message'): string[] {
	type Items = { main: Array<Array<{ json: IDataObject }>> };
	return executions.map((execution) => {
		const data = execution.data as {
			resultData: { runData: Record<string, Array<{ data: Items }>> };
			executionData?: { nodeExecutionStack?: Array<{ data: Items }> };
		};
		const item =
			data.resultData.runData[triggerName]?.[0]?.data.main[0][0] ??
			data.executionData?.nodeExecutionStack?.[0]?.data.main[0][0];
		return String(item?.json.messageId).split('_')[2];
	});
}

/** The message ID (or QR code) each execution of a Webhook node's counting workflow received (executions listed with their data). */
export function webhookNodeMessageIds(
	executions: IDataObject[],
	webhookName = 'On Message',
): string[] {
	type Items = { main: Array<Array<{ json: IDataObject }>> };
	return executions.map((execution) => {
		const runData = (
			execution.data as { resultData: { runData: Record<string, Array<{ data: Items }>> } }
		).resultData.runData;
		const data = (runData[webhookName]?.[0]?.data.main[0][0].json.body as IDataObject | undefined)
			?.data as IDataObject | undefined;
		return String(
			(data?.key as IDataObject | undefined)?.id ?? (data?.qrcode as IDataObject | undefined)?.code,
		);
	});
}

/** The value at `fraction` (0.5 for the median, 0.95 for p95) of numbers sorted ascending. */
export function percentile(sorted: number[], fraction: number): number {
	return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

/** A process that keeps one core busy, as another service on the same machine would; kill() it. */
export function startCpuHog(): ChildProcess {
	return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

/** Figures a test measured, in the run's log (the documentation gets them through its own section). */
export function logFigures(what: string, figures: object): void {
	console.log(`${what}: ${JSON.stringify(figures)}`);
}

/** n8n's SQLite database kept from writing, as another writer holding it (or a full disk) would. */
export interface HeldDatabase {
	release(): Promise<void>;
}

/**
 * Takes the write lock of the SQLite database of `n8n` from another connection (BEGIN IMMEDIATE):
 * n8n sets no busy timeout, so every write n8n tries meanwhile fails at once (SQLITE_BUSY), as
 * its writes failed under the lock contention of a burst. Reads go on (WAL).
 */
export async function holdDatabase(n8n: N8nInstance): Promise<HeldDatabase> {
	type Database = {
		run(sql: string, callback: (error: Error | null) => void): void;
		close(callback: (error: Error | null) => void): void;
	};
	// n8n's own sqlite3, compiled for the Node.js the tests run on (Node 24, as n8n).
	const sqlite3 = require(require.resolve('sqlite3', { paths: [n8nDir(n8n.version)] })) as {
		Database: new (file: string, callback: (error: Error | null) => void) => Database;
	};
	const file = path.join(n8n.userFolder, '.n8n', 'database.sqlite');
	const database = await new Promise<Database>((resolve, reject) => {
		const opened: Database = new sqlite3.Database(file, (error) =>
			error ? reject(error) : resolve(opened),
		);
	});
	const run = (sql: string) =>
		new Promise<void>((resolve, reject) =>
			database.run(sql, (error) => (error ? reject(error) : resolve())),
		);
	await run('PRAGMA busy_timeout = 10000');
	await run('BEGIN IMMEDIATE');
	return {
		async release() {
			await run('ROLLBACK');
			await new Promise<void>((resolve, reject) =>
				database.close((error) => (error ? reject(error) : resolve())),
			);
		},
	};
}
