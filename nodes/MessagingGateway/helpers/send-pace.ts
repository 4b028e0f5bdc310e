/**
 * Pace Sends: WhatsApp bans numbers that send too fast, and Wait Between Items paces only the
 * items of one run. A paced send waits its turn among every send from its session in this n8n
 * process (every execution, every workflow, every node with a pace): each send goes at least
 * 60 / messages-per-minute seconds after the one before, plus a random part of the jitter.
 *
 * Kept in this process's memory, not in a store: n8n's processed-data store (the only one it gives
 * nodes) reads and writes a record whole with no lock, and a worker that reads it again right
 * after its own write keeps writing back its own turns over another worker's. In queue
 * mode each worker keeps its own pace, so Workers Sending divides the pace among them: with the
 * share, the session never sends more than its pace a minute, though two workers may send at
 * the same moment.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

export interface SendPace {
	/** Sends a minute from the session, at most (all workers together). */
	perMinute: number;
	/** Each send goes up to this much later again, at random (seconds). */
	jitterSeconds: number;
	/** The n8n processes sending from the session (queue mode's workers): each takes its share. */
	workers: number;
}

/** The longest a send waits for its turn: sends booked further ahead fail the item. */
export const PACE_MAX_WAIT_MS = 15 * 60_000;
/** Sessions remembered at most (the oldest turns, long past, are forgotten first). */
const REMEMBERED_SESSIONS = 1000;

/** Per credential and session, when the next paced send may go (ms since the epoch). */
const NEXT_TURN = new Map<string, number>();

/**
 * Waits for this send's turn from `session` (see the top) and books the next one. Fails the item,
 * naming the pace, when its turn is more than PACE_MAX_WAIT_MS away.
 */
export async function waitForSendTurn(
	this: IExecuteFunctions,
	session: string,
	pace: SendPace,
	itemIndex: number,
): Promise<void> {
	const credential = this.getNode().credentials?.messagingGatewayApi?.id ?? '';
	const key = `${credential}\n${session}`;
	const now = Date.now();
	const turn = Math.max(now, NEXT_TURN.get(key) ?? 0) + Math.random() * pace.jitterSeconds * 1000;
	if (turn - now > PACE_MAX_WAIT_MS) {
		throw new NodeOperationError(
			this.getNode(),
			`Pace Sends: session "${session}" has sends booked more than ${PACE_MAX_WAIT_MS / 60_000} minutes ahead at ${pace.perMinute} a minute`,
			{
				itemIndex,
				description:
					'Other executions are waiting to send from this session. Send fewer at once, or raise Pace Sends (Messages per Minute) if the number can take it.',
			},
		);
	}
	NEXT_TURN.delete(key);
	NEXT_TURN.set(key, turn + (60_000 * pace.workers) / pace.perMinute);
	if (NEXT_TURN.size > REMEMBERED_SESSIONS) {
		NEXT_TURN.delete(NEXT_TURN.keys().next().value as string);
	}
	if (turn > now) await sleep(turn - now);
}
