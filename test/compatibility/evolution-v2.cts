/**
 * Judges a request the way Evolution API 2.3.6 does before its controllers run, with the same
 * RouterBroker validators as 1.8.2 (abstract.router.ts is unchanged between them) and 2.3.6's own
 * routes and schemas: schemas/evolution-2.3.6.json, written by schemas/evolution-schemas.cts.
 */
import { judgeEvolution, loadEvolution } from './evolution.cts';
import type { SentRequest, Verdict } from './verdicts.cts';

export const EVOLUTION_V2 = loadEvolution('evolution-2.3.6.json');

export function checkEvolutionV2(request: SentRequest): Verdict {
	return judgeEvolution(EVOLUTION_V2, request);
}
