/** What the end-to-end test files share: waiting for n8n, credentials, executions, scratch files. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import type { N8nInstance } from './n8n-instance.cts';
import { CREDENTIAL_TYPE } from './workflows.cts';
import type { CredentialRef } from './workflows.cts';

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
	await until('publication', 60_000, async () => {
		const status = await n8n.rest.get(`/workflows/${workflowId}/publication-status`);
		const state = status.data?.data?.status;
		if (state === 'failed') throw new Error(`activation failed: ${JSON.stringify(status.data)}`);
		return state === 'published' ? true : undefined;
	});
}

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
