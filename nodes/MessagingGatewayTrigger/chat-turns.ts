/**
 * Each chat's order among the messages n8n takes at the same moment. A gateway that was kept from
 * n8n (n8n restarting, a network gap) posts a chat's messages again close together, often at the
 * same moment (their retries fire together, or wait together for a catch-up under way), and n8n
 * creates their executions in whichever order their webhook() calls end: a chat's later message
 * would start first. Here a message is handed to n8n only once every older message of its chat
 * that this process is taking meanwhile has its execution stored (n8n answered its delivery), so
 * their executions start in the chat's order.
 *
 * What it cannot order: a message that arrives after a newer one of its chat was handed on (its
 * execution may have run already). Those are the gateway's late retries and what a catch-up or a
 * sweep reads back (catch-up.ts); docs/reliability.md says how often that happened here.
 */
import { sleep } from 'n8n-workflow';

import type { WatchedResponse } from './delivery-memory';

/** The longest a message waits for older ones of its chat: n8n answers every delivery, in ms. */
export const CHAT_TURN_WAIT_MS = 5_000;

interface InLine {
	/** The message's time at the gateway (Unix seconds). */
	time: number;
	/** Arrival in this process, to order messages of the same second. */
	arrival: number;
	handedOn: Promise<void>;
	/** Waiting for the catch-up under way: the delivery holding it does not wait for this one. */
	waitsForCatchUp: boolean;
}

/** Per trigger and chat, the messages being taken in this process. */
const LINES = new Map<string, Set<InLine>>();
let arrivals = 0;

export interface ChatTurn {
	/** Waits for the catch-up under way (it holds the trigger's other deliveries). */
	waitForCatchUp(catchUp: Promise<void>): Promise<void>;
	/**
	 * Resolves once every older message of the chat taken meanwhile was handed on (at most
	 * CHAT_TURN_WAIT_MS); for a delivery whose catch-up or sweep holds the trigger's others, those
	 * waiting for it aside (they wait for it: a catch-up read them from the gateway, or they follow).
	 */
	ready(holdsOthers?: boolean): Promise<void>;
	/**
	 * The message leaves the line: once n8n answered `response` (its execution is stored) when
	 * given, at once otherwise. The first call counts.
	 */
	leave(response?: WatchedResponse): void;
}

const NO_LINE: ChatTurn = {
	waitForCatchUp: async (catchUp) => await catchUp,
	ready: async () => {},
	leave: () => {},
};

/** A message of `chat` from `time` joins its chat's line; one without either orders nothing. */
export function joinChatLine(
	trigger: string,
	chat: string | undefined,
	time: number | undefined,
): ChatTurn {
	if (chat === undefined || time === undefined) return NO_LINE;
	const key = `${trigger}\n${chat}`;
	const line = LINES.get(key) ?? new Set<InLine>();
	LINES.set(key, line);
	let handOn = () => {};
	const me: InLine = {
		time,
		arrival: ++arrivals,
		handedOn: new Promise<void>((resolve) => (handOn = resolve)),
		waitsForCatchUp: false,
	};
	const before = (other: InLine) =>
		other.time < me.time || (other.time === me.time && other.arrival < me.arrival);
	line.add(me);
	let left = false;
	const remove = () => {
		line.delete(me);
		if (line.size === 0 && LINES.get(key) === line) LINES.delete(key);
		handOn();
	};
	return {
		async waitForCatchUp(catchUp) {
			me.waitsForCatchUp = true;
			try {
				await catchUp;
			} finally {
				me.waitsForCatchUp = false;
			}
		},
		async ready(holdsOthers = false) {
			const older = [...line]
				.filter((other) => before(other) && !(holdsOthers && other.waitsForCatchUp))
				.map((other) => other.handedOn);
			if (older.length === 0) return;
			await Promise.race([Promise.all(older), sleep(CHAT_TURN_WAIT_MS)]);
		},
		leave(response) {
			if (left) return;
			left = true;
			if (!response?.once || response.writableEnded) return remove();
			response.once('finish', remove);
			response.once('close', remove);
		},
	};
}
