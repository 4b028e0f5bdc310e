/**
 * Retries without the real backoff (1 s, 2 s, 4 s…) for the tests that count retries over many
 * cases; the fault matrix (test/reliability/faults.test.ts) measures the real waits.
 */
import { RETRY_POLICY } from '../../nodes/shared/transport/retry';

export function useFastRetries(baseDelayMs = 1): void {
	let replaced: jest.ReplaceProperty<number> | undefined;
	beforeAll(() => {
		replaced = jest.replaceProperty(
			RETRY_POLICY as { baseDelayMs: number },
			'baseDelayMs',
			baseDelayMs,
		);
	});
	afterAll(() => replaced?.restore());
}
