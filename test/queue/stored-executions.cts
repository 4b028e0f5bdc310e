/**
 * The executions n8n stored for a workflow, read from its PostgreSQL database in the shape the
 * public API lists them (id, workflowId, mode, status, startedAt, stoppedAt, data). The
 * exactly-once counts read them here, not through the API, which cannot show what ran:
 * - its list leaves out the executions still running, so a count could settle while some run;
 * - it redacts the items of every run n8n marked as using dynamic credentials, and n8n 2.41 marks
 *   a run so when its database check for such credentials fails (a busy machine: "Could not check
 *   for resolvable credentials; redacting run for everyone"); no one may reveal them, so the
 *   messages such a run took look lost although they ran.
 */
import { parse } from 'flatted';
import type { IDataObject } from 'n8n-workflow';
import { Client } from 'pg';

import type { RunningPostgres } from './services.cts';

/** Where the exactly-once counts read a workflow's executions (with their data, or without). */
export type ExecutionSource = ((
	workflowId: string,
	includeData?: boolean,
) => Promise<IDataObject[]>) & {
	/**
	 * Every execution of any workflow, deleted or not, whose stored data names `text` (a lost
	 * message's ID): where it went, when no execution of its workflow shows it.
	 */
	naming(text: string): Promise<IDataObject[]>;
};

interface StoredRow {
	id: number | string;
	workflowId: string;
	mode: string;
	status: string;
	startedAt: Date | null;
	stoppedAt: Date | null;
	data: string | null;
}

async function connected<T>(
	postgres: RunningPostgres,
	use: (client: Client) => Promise<T>,
): Promise<T> {
	const client = new Client({
		host: '127.0.0.1',
		port: postgres.port,
		user: postgres.user,
		password: postgres.password,
		database: postgres.database,
		connectionTimeoutMillis: 30_000,
		query_timeout: 60_000,
	});
	await client.connect();
	try {
		return await use(client);
	} finally {
		await client.end();
	}
}

/** Reads the executions of one workflow, oldest first, from the database n8n keeps them in. */
export function storedExecutions(postgres: RunningPostgres): ExecutionSource {
	const list = async (workflowId: string, includeData = false) =>
		await connected(postgres, async (client) => {
			const { rows } = await client.query<StoredRow>(
				`SELECT e.id, e."workflowId", e.mode, e.status, e."startedAt", e."stoppedAt",
					${includeData ? 'd.data' : 'NULL AS data'}
				FROM execution_entity e LEFT JOIN execution_data d ON d."executionId" = e.id
				WHERE e."workflowId" = $1 AND e."deletedAt" IS NULL
				ORDER BY e.id`,
				[workflowId],
			);
			return rows.map((row) => ({
				id: String(row.id),
				workflowId: row.workflowId,
				mode: row.mode,
				status: row.status,
				startedAt: row.startedAt?.toISOString() ?? null,
				stoppedAt: row.stoppedAt?.toISOString() ?? null,
				// n8n stores an execution's data as flatted JSON (objects it refers to more than once).
				...(includeData
					? { data: row.data === null ? null : (parse(row.data) as IDataObject) }
					: {}),
			}));
		});
	const naming = async (text: string) =>
		await connected(postgres, async (client) => {
			const { rows } = await client.query<IDataObject>(
				`SELECT e.id, e."workflowId", e.status, e."storedAt", e."deletedAt" IS NOT NULL AS deleted
				FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id
				WHERE d.data LIKE $1
				ORDER BY e.id`,
				[`%${text}%`],
			);
			return rows;
		});
	return Object.assign(list, { naming });
}
