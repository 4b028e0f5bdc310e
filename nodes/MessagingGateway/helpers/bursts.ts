/**
 * Which messages of a chat form one turn ("burst"), decided from the gateway's own history so
 * that every execution of the workflow, in any n8n process, reaches the same answer.
 *
 * A person's messages, oldest first, are cut into bursts by their gateway timestamps (WhatsApp's,
 * in whole seconds): a new burst starts after a pause of at least the silence time, when the
 * burst already holds the maximum number of messages, or when the message comes the maximum
 * burst span after the burst's first one. Each burst goes on exactly once: from the execution of
 * its last message, which reads the history once the silence time has passed since its own
 * message arrived. Every other execution ends quietly. Both decisions use the same stamps, so no
 * message is left out or taken twice, whatever the order in which the executions read.
 */

import type { BurstMessage } from '../../shared/gateways';

/** How bursts are cut: all in seconds except `maxMessages`. */
export interface BurstRule {
	silenceSeconds: number;
	maxMessages: number;
	/** The longest a burst may span from its first message's stamp (exclusive). */
	maxSpanSeconds: number;
}

export type BurstDecision =
	| { goOn: false; reason: 'later message' }
	| { goOn: true; burst: BurstMessage[]; boundaryKnown: boolean };

/**
 * Where the run of messages ending at `index` began (oldest first): the first message after the
 * last pause of at least `silenceSeconds` before it, or 0 when none was read.
 */
export function pauseBefore(
	messages: BurstMessage[],
	index: number,
	silenceSeconds: number,
): number {
	let start = index;
	while (start > 0 && messages[start].timestamp - messages[start - 1].timestamp < silenceSeconds) {
		start--;
	}
	return start;
}

/** Cuts `messages` (one chat, oldest first, the person's only) into bursts by `rule`. */
export function cutIntoBursts(messages: BurstMessage[], rule: BurstRule): BurstMessage[][] {
	const bursts: BurstMessage[][] = [];
	let current: BurstMessage[] = [];
	for (const message of messages) {
		const previous = current[current.length - 1];
		const startsNew =
			previous === undefined ||
			message.timestamp - previous.timestamp >= rule.silenceSeconds ||
			current.length >= rule.maxMessages ||
			message.timestamp - current[0].timestamp >= rule.maxSpanSeconds;
		if (startsNew && current.length > 0) {
			bursts.push(current);
			current = [];
		}
		current.push(message);
	}
	if (current.length > 0) bursts.push(current);
	return bursts;
}

/**
 * Whether the execution of message `ownId` goes on, and with which burst. `history` holds the
 * chat's messages the person sent, oldest first, read after the silence time has passed since
 * `ownId` arrived; `complete` says whether it reaches back to the chat's first message (else the
 * oldest messages read may continue an older burst). Cutting starts at the last pause of at least
 * the silence time before `ownId`, so what came long before cannot move the cuts.
 */
export function decideBurst(
	history: BurstMessage[],
	ownId: string,
	rule: BurstRule,
	complete: boolean,
): BurstDecision | undefined {
	const own = history.findIndex((message) => message.shortId === ownId);
	if (own === -1) return undefined;
	const start = pauseBefore(history, own, rule.silenceSeconds);
	const bursts = cutIntoBursts(history.slice(start), rule);
	const burst = bursts.find((candidate) => candidate.some((message) => message.shortId === ownId));
	if (!burst || burst[burst.length - 1].shortId !== ownId)
		return { goOn: false, reason: 'later message' };
	return { goOn: true, burst, boundaryKnown: start > 0 || complete };
}

/** The texts of a burst (empty ones left out) and all of them joined with `separator`. */
export function burstTexts(
	burst: BurstMessage[],
	separator: string,
): { texts: string[]; text: string } {
	const texts = burst.map((message) => message.text).filter((text) => text.trim() !== '');
	return { texts, text: texts.join(separator) };
}
