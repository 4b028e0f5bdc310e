/**
 * What the end-to-end suites of a Gateway choice (Evolution API v2, WAHA) share: the credential test
 * through n8n's own endpoint, the every-operation workflow, and the check that every API request
 * passed the gateway's own validation.
 */
import type { IDataObject, INodeExecutionData, IRunData } from 'n8n-workflow';

import type { RecordedRequest, Simulator } from '../simulator/index.cts';
import type { SentRequest, Verdict } from '../compatibility/verdicts.cts';
import { createCredential, hasFeature } from './e2e-helpers.cts';
import { everyOperation, RUN_IN_OWN_TEST, seededOperationCases } from './every-operation.cts';
import { CREDENTIAL_NAMES, firstItems } from './example-runs.cts';
import { executeWorkflow } from './n8n-cli.cts';
import type { N8nInstance } from './n8n-instance.cts';
import type { OperationCase } from './workflows.cts';
import { CREDENTIAL_TYPE, operationsWorkflow } from './workflows.cts';

/** n8n 1.x's texts for a failed credential test, which it shows instead of the credential's (NEEDS_N8N_2X.credentialTestMessages). */
export const N8N_1X_TEST_TEXTS = {
	unauthorized: /^Authorization failed - please check your credentials$/,
	notFound: /^The resource you are requesting could not be found$/,
};

/** A credential test case: the gateway the credential points at, its key, and the dialog's answer. */
export interface CredentialCase {
	name: string;
	gateway: () => Simulator;
	apiKey: () => string;
	status: 'OK' | 'Error';
	message: RegExp;
	on1x?: RegExp;
}

/** Tests the credential as the dialog does and expects its answer (on 1.x, n8n's own text where given). */
export async function expectCredentialTest(
	n8n: N8nInstance,
	name: string,
	data: IDataObject,
	expected: { status: 'OK' | 'Error'; message: RegExp; on1x?: RegExp },
): Promise<void> {
	const credential = await createCredential(n8n, `Credential test: ${name}`, data);
	const response = await n8n.rest.post('/credentials/test', {
		credentials: { id: credential.id, name: credential.name, type: CREDENTIAL_TYPE, data },
	});
	expect(response.status).toBe(200);
	const message =
		hasFeature(n8n, 'credentialTestMessages') || !expected.on1x ? expected.message : expected.on1x;
	expect(response.data.data).toEqual({
		status: expected.status,
		message: expect.stringMatching(message),
	});
}

/**
 * Every API request that reached the gateway that its own validation refuses. Files the answers
 * point at (the simulator serves them at `/api/files/`, standing in for the network's servers) are
 * downloads, not API requests.
 */
export function refusedRequests(
	simulator: Simulator,
	judge: (request: SentRequest) => Verdict,
): Array<{ request: string; verdict: Verdict }> {
	return simulator.requests
		.filter((request: RecordedRequest) => !request.path.startsWith('/api/files/'))
		.map((request) => ({ request: `${request.method} ${request.path}`, verdict: judge(request) }))
		.filter(({ verdict }) => verdict.outcome !== 'accepted');
}

/**
 * Runs the every-operation workflow (one node per operation, on the simulator's seed) with the
 * credential of a Gateway choice; `messageIds` names, per operation, a message the gateway has
 * (those that change a message find it first). Expects each offered operation to run without an
 * error item and each one the gateway does not offer to be refused, saying so; returns the first
 * item of each node.
 */
export async function runEveryOperation(
	n8n: N8nInstance,
	simulator: Simulator,
	credentialId: string,
	gateway: { label: string; notOffered: Record<string, string> },
	messageIds: Record<string, string>,
): Promise<(name: string) => INodeExecutionData | undefined> {
	const cases: OperationCase[] = seededOperationCases().map((operationCase) =>
		operationCase.name in messageIds
			? {
					...operationCase,
					parameters: { ...operationCase.parameters, messageId: messageIds[operationCase.name] },
				}
			: operationCase,
	);
	expect(cases.map((operationCase) => operationCase.name).sort()).toEqual(everyOperation());
	// Send and Wait puts a whole execution to wait: the approval example runs it. Combine Rapid
	// Messages takes one execution per message: its own suite runs it on v2 and WAHA.
	expect(Object.keys(RUN_IN_OWN_TEST)).toEqual(['message.sendAndWait', 'message.combineRapid']);
	const created = await n8n.api.post(
		'/workflows',
		operationsWorkflow({ id: credentialId, name: CREDENTIAL_NAMES[CREDENTIAL_TYPE] }, cases),
	);
	expect(created.status).toBe(200);
	simulator.clearLogs();

	const run = await executeWorkflow(n8n, String(created.data.id));

	const runData: IRunData = run.data.resultData.runData;
	const firstItem = (name: string) => firstItems(runData, name)[0];
	const refusal = new RegExp(` is not available on ${gateway.label}: `);
	expect(cases.map(({ name }) => ({ name, error: firstItem(name)?.json?.error }))).toEqual(
		cases.map(({ name }) => ({
			name,
			error: name in gateway.notOffered ? expect.stringMatching(refusal) : undefined,
		})),
	);
	// What reached the gateway: at least one request per offered operation, each with the key.
	expect(simulator.requests.length).toBeGreaterThanOrEqual(
		cases.length - Object.keys(gateway.notOffered).length,
	);
	expect(simulator.requests.every((request) => request.auth === 'valid')).toBe(true);
	return firstItem;
}
