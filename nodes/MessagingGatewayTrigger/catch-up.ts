/**
 * Catch-up: the messages that reached the gateway while the trigger could not take them (n8n
 * stopped, killed or restarting, longer than the gateway tries again, or the gateway never does)
 * run once n8n is back. The first delivery a process gets for a trigger after n8n (or this webhook
 * processor) started reads the session's newest messages from the gateway, within Catch Up Missed
 * Messages' hours and never from before the activation, and runs those not run yet, oldest first,
 * with its own among them by its message's time (inMessageOrder), each marked `caughtUp`. Which
 * ran is n8n's processed-data store's to say (processed-messages.ts), so the trigger keeps no
 * time of its newest message: messages n8n held unanswered when it stopped are older than it.
 * A message taken live and read back here is the same delivery: the trigger's memory of
 * deliveries (delivery-memory.ts) and the processed messages (processed-messages.ts) let only one
 * of them run.
 *
 * While messages come, each process also reads back what came since its last read, at most every
 * half minute (a sweep): n8n answers deliveries with errors the trigger never sees (503 "Database
 * is not ready!" while its database checks time out under load), and a gateway that never tries
 * again (the Messaging Gateway API, Evolution API 1.x) or stopped trying (WAHA after half a
 * minute) would have lost those messages for good while n8n ran on.
 */
import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	WorkflowActivateMode,
} from 'n8n-workflow';

import type { GatewayName } from '../shared/transport';
import { EVOLUTION_V2_MISSED } from './gateways/evolution-v2/missed';
import { WAHA_MISSED } from './gateways/waha/missed';
import type { MissedMessages } from './webhook/missed-messages';
import { CATCH_UP_LIMIT, MESSAGING_GATEWAY_MISSED } from './webhook/missed-messages';
import { checkedDelivery, messageOf } from './checked-delivery';
import type { DeliveryFilters, DeliveryOutput } from './webhook/deliveries';
import { deliveryDigest, DELIVERIES, recordWithout } from './delivery-memory';
import type { WatchedResponse } from './delivery-memory';
import { catchUpStarts, heldBy } from './catch-up-hold';
import type { OurRegistration, SessionState } from './webhook/registration';
import { LOG_PREFIX } from './webhook/registration';
import { tagged } from './processed-messages';
import {
	noteTaken,
	putBack,
	START_OVERDUE_SECONDS,
	takeOverdue,
	triggerKey,
} from './unstarted-messages';
import { Redactor } from '../shared/secrets';

/** How each gateway gives back the messages of a span. */
const MISSED_MESSAGES: Record<GatewayName, MissedMessages> = {
	messagingGatewayApi: MESSAGING_GATEWAY_MISSED,
	evolutionV2: EVOLUTION_V2_MISSED,
	waha: WAHA_MISSED,
};

/**
 * From when a process's first delivery catches up (Unix seconds): the activation (a workflow
 * activated before the trigger kept its time: Catch Up Missed Messages' hours alone bound it).
 */
export function gapStart(staticData: SessionState): number {
	return typeof staticData.activatedAt === 'number' ? staticData.activatedAt : 0;
}

/** From when a catch-up of a gap since `gapSince` reads (Unix seconds), within the hours asked. */
function catchUpFrom(gapSince: number, hours: number, now: number): number | undefined {
	if (hours <= 0) return undefined;
	return Math.max(gapSince, now - hours * 3600);
}

/** The messages since `since`, as their deliveries' bodies (see MissedMessages). */
export async function readMissed(
	this: IWebhookFunctions,
	gateway: GatewayName,
	session: string,
	since: number,
	now: number,
	live: IDataObject,
): Promise<IDataObject[]> {
	return await MISSED_MESSAGES[gateway].read.call(this, session, since, now, CATCH_UP_LIMIT, live);
}

/** A sweep is due this long after this process's last read of a trigger's messages (or first delivery)... */
const SWEEP_EVERY_SECONDS = 30;
/**
 * ...reads up to this long before now: a newer message's delivery may be on its way or about to be
 * tried again (run by whichever comes first, once)...
 */
const SWEEP_GRACE_SECONDS = 30;
/**
 * ...and from this long before where the last read ended: a message stored late with an earlier
 * time (a phone that was offline sends with the time it was written) is still found.
 */
const SWEEP_OVERLAP_SECONDS = 60;

/** Per trigger, where this process's reads of the gateway ended (Unix seconds), and when it last read. */
interface ReadBack {
	until: number;
	readAt: number;
}
const READ_BACK = new Map<string, ReadBack>();

/**
 * The span of the gateway's messages a delivery reads back now, if any (see the top). A sweep is
 * counted as made when it is due: one that fails is not tried again before the next is.
 */
function spanToRead(
	trigger: string,
	gapSince: number,
	hours: number,
	now: number,
	rereadFrom?: number,
): { since: number; until: number; sweep: boolean } | undefined {
	if (CATCH_UP_DUE.has(trigger)) {
		const since = catchUpFrom(gapSince, hours, now);
		return since === undefined ? undefined : { since, until: now, sweep: false };
	}
	let last = READ_BACK.get(trigger);
	if (!last) {
		// This process's first delivery since the activation: the sweeps start from it.
		last = { until: gapSince || now, readAt: now };
		READ_BACK.set(trigger, last);
		if (rereadFrom === undefined) return undefined;
	}
	// Messages whose execution never started (unstarted-messages.ts) are read back at once.
	if (rereadFrom === undefined && now - last.readAt < SWEEP_EVERY_SECONDS) return undefined;
	const until = now - SWEEP_GRACE_SECONDS;
	const from = Math.min(last.until, rereadFrom ?? Infinity) - SWEEP_OVERLAP_SECONDS;
	const since = catchUpFrom(Math.max(gapSince, from), hours, now);
	if (since === undefined || since >= until) return undefined;
	READ_BACK.set(trigger, { ...last, readAt: now });
	return { since, until, sweep: true };
}

/** The gateway a registration was made on. */
function gatewayOf(registration: OurRegistration): GatewayName {
	if (registration.gateway === 'waha') return 'waha';
	return registration.tokenHeader ? 'evolutionV2' : 'messagingGatewayApi';
}

/** Triggers this process is to catch up on (from gapStart: static data says when). */
const CATCH_UP_DUE = new Set<string>();

/**
 * Per trigger, since when its due catch-up could not be read (Unix seconds). Meanwhile a delivery
 * that read it in vain is refused when the gateway tries it again (its message, older or newer,
 * would run ahead of the gap's older ones of its chat), but only for this long: a gateway that
 * cannot be read for longer must not keep new messages waiting (they run, and the gap after).
 */
const GAP_UNREAD_SINCE = new Map<string, number>();
export const REFUSE_WHILE_UNREAD_SECONDS = 120;

/** No catch-up is due for the trigger any more (read, or nothing to read). */
function catchUpDone(trigger: string): void {
	CATCH_UP_DUE.delete(trigger);
	GAP_UNREAD_SINCE.delete(trigger);
}

/** A trigger that stopped: nothing of it is this process's to remember. */
export function forgetCatchUps(trigger: string): void {
	catchUpDone(trigger);
	SEEN.delete(trigger);
	READ_BACK.delete(trigger);
}

/** Activations a person made (switched on, saved, created): the trigger listens from then on. */
const PERSON_ACTIVATIONS: WorkflowActivateMode[] = ['activate', 'update', 'create'];

/**
 * A trigger registered on activation: when a person activated it, it listens from now on (what
 * came before is not caught up on); when n8n started (n8n 1.x activates every workflow then) or
 * took over as leader, its first delivery here catches up. The activation's time is kept while
 * it stays active (delete() removes it).
 */
export function noteActivation(mode: WorkflowActivateMode, staticData: SessionState): void {
	const trigger = staticData.registration?.token;
	if (mode === 'manual' || !trigger) return;
	staticData.activatedAt ??= Math.floor(Date.now() / 1000);
	catchUpDone(trigger);
	READ_BACK.delete(trigger);
	if (PERSON_ACTIVATIONS.includes(mode)) SEEN.add(trigger);
	else SEEN.delete(trigger);
}

/** Triggers this process has had a delivery for since it started (or listens since activation). */
const SEEN = new Set<string>();

/**
 * The first delivery a process gets for a trigger follows a start of n8n (or of this webhook
 * processor): messages may have come meanwhile, since the newest one taken. n8n 2.x does not
 * activate webhook workflows again when it starts (their webhooks stay registered), so this, not
 * activation, is what notices a restart there.
 */
export function markFirstDelivery(trigger: string): void {
	if (SEEN.has(trigger)) return;
	SEEN.add(trigger);
	CATCH_UP_DUE.add(trigger);
}

/**
 * The delivery that finds a catch-up due carries it: from that moment (before it reads anything)
 * the trigger's other deliveries wait for it, so a newer message of a chat cannot start before
 * the catch-up's older ones. Undefined when none is due or one is under way; else what releases
 * the others when it carries nothing after all (its answer releases them too).
 */
export function carryDueCatchUp(
	trigger: string,
	response: WatchedResponse,
): (() => void) | undefined {
	if (!CATCH_UP_DUE.has(trigger) || heldBy(trigger)) return undefined;
	return catchUpStarts(trigger, response);
}

export interface CatchUp {
	registration: OurRegistration;
	staticData: SessionState;
	filters: DeliveryFilters;
	output: DeliveryOutput;
	secrets: string[];
	hours: number;
	retention: number;
	now: number;
	/** This delivery carries the catch-up due (carryDueCatchUp): the release it holds. */
	carrying?: () => void;
}

/** A missed message's item, with the message's time (Unix seconds) to put the live one among them. */
export interface CaughtUpItem {
	item: INodeExecutionData;
	time: number;
}

/** What a delivery's read-back gave. */
export interface CaughtUp {
	/** The missed messages to run, oldest first. */
	items: CaughtUpItem[];
	/**
	 * The gap it carried could not be read now and the gateway posts this delivery again: it runs
	 * nothing and is answered 503 (see GAP_UNREAD_SINCE).
	 */
	tryAgainLater: boolean;
}

const NOTHING: CaughtUp = { items: [], tryAgainLater: false };

/**
 * The items of the messages missed in a gap, when a catch-up is due (see catch-up.ts): each taken
 * as a delivery of it would be (filters, the memory of deliveries), oldest first, marked
 * `caughtUp`. A gateway that cannot be read leaves the catch-up due for the next delivery.
 */
export async function caughtUpItems(this: IWebhookFunctions, run: CatchUp): Promise<CaughtUp> {
	const { registration, staticData, filters, now } = run;
	const trigger = registration.token;
	const gapSince = gapStart(staticData);
	if (!filters.events.includes('MESSAGES_UPSERT') || (heldBy(trigger) && !run.carrying))
		return NOTHING;
	const key = triggerKey.call(this);
	const unstarted = run.hours > 0 ? takeOverdue(key, filters.session, now) : [];
	const span = spanToRead(
		trigger,
		gapSince,
		run.hours,
		now,
		unstarted.length > 0 ? Math.min(...unstarted.map((each) => each.messageTime)) : undefined,
	);
	if (!span) {
		putBack(key, filters.session, unstarted);
		return NOTHING;
	}
	if (unstarted.length > 0) {
		this.logger.warn(
			`${LOG_PREFIX} n8n took ${unstarted.length} message(s) ${START_OVERDUE_SECONDS} s ago or more and never started their execution here: they are read back from the gateway`,
		);
	}
	// Taken again when read back; what ran meanwhile elsewhere the store leaves out.
	for (const { digest } of unstarted) {
		DELIVERIES.forget(trigger, digest);
		staticData.delivered = recordWithout(staticData.delivered, digest);
	}
	const { since, until, sweep } = span;
	const release = run.carrying ?? catchUpStarts(trigger, this.getResponseObject());
	const taken: string[] = [];
	const started = Date.now();
	this.logger.debug(
		`${LOG_PREFIX} reading back the messages of session "${filters.session}" from ${new Date(since * 1000).toISOString()} to ${new Date(until * 1000).toISOString()} (${sweep ? 'sweep' : 'catch-up'})`,
	);
	try {
		const missed = await readMissed.call(
			this,
			gatewayOf(registration),
			filters.session,
			since,
			until,
			this.getBodyData(),
		);
		catchUpDone(trigger);
		READ_BACK.set(trigger, { until, readAt: now });
		this.logger.debug(
			`${LOG_PREFIX} read ${missed.length} message(s) back in ${Date.now() - started} ms`,
		);
		const items: CaughtUpItem[] = [];
		for (const body of missed) {
			const delivery = checkedDelivery.call(this, registration, body);
			if ('problem' in delivery || delivery.reasonToIgnore(filters)) continue;
			const digest = deliveryDigest(delivery.identity(filters));
			const time = delivery.messageTime() ?? now;
			if (DELIVERIES.verdict(trigger, staticData.delivered, digest, now) !== 'new') continue;
			staticData.delivered = DELIVERIES.accept(
				trigger,
				staticData.delivered,
				digest,
				now + run.retention,
				now,
				this.getResponseObject(),
			);
			taken.push(digest);
			noteTaken(key, filters.session, digest, time, now);
			const item = await delivery.toItem.call(this, run.output, filters, run.secrets);
			item.json.caughtUp = true;
			items.push({ item: tagged(item, { digest }), time });
		}
		// A sweep that found nothing (most of them) is no news.
		const log = sweep && items.length === 0 ? this.logger.debug : this.logger.info;
		log.call(
			this.logger,
			`${LOG_PREFIX} caught up on session "${filters.session}": ${items.length} missed message(s) since ${new Date(since * 1000).toISOString()}`,
		);
		// Nothing to run before the deliveries waiting: they go on now.
		if (items.length === 0) release();
		return { items, tryAgainLater: false };
	} catch (error) {
		// None of it runs now: the next delivery reads it all again, unless the gateway said it
		// cannot (a 4xx other than 408 and 429: no such route, no message store).
		for (const digest of taken) {
			DELIVERIES.forget(trigger, digest);
			staticData.delivered = recordWithout(staticData.delivered, digest);
		}
		putBack(key, filters.session, unstarted);
		const reason = new Redactor(run.secrets).text(messageOf(error));
		const code = Number((error as { httpCode?: unknown }).httpCode);
		if (code >= 400 && code < 500 && code !== 408 && code !== 429) {
			catchUpDone(trigger);
			// Nor does it sweep: the gateway said it cannot.
			READ_BACK.set(trigger, { until: Infinity, readAt: Infinity });
			release();
			this.logger.warn(
				`${LOG_PREFIX} the gateway keeps no messages the trigger can read back, so the messages of the gap since ${new Date(gapSince * 1000).toISOString()} were not caught up on: ${reason}`,
			);
			return NOTHING;
		}
		let tryAgainLater = false;
		if (!sweep) {
			CATCH_UP_DUE.add(trigger);
			const unreadSince = GAP_UNREAD_SINCE.get(trigger) ?? now;
			GAP_UNREAD_SINCE.set(trigger, unreadSince);
			tryAgainLater =
				MISSED_MESSAGES[gatewayOf(registration)].triesAgain &&
				now - unreadSince < REFUSE_WHILE_UNREAD_SECONDS;
		}
		this.logger.warn(
			`${LOG_PREFIX} could not catch up on missed messages yet (tried again with the next delivery${tryAgainLater ? '; this one is left to the gateway to post again' : ''}): ${reason}`,
		);
		release();
		return { items: [], tryAgainLater };
	}
}

/**
 * The execution's items: the caught-up ones (oldest first) with the live delivery's among them by
 * its message's time, after those of the same second (a gateway retries an older message of a chat
 * after n8n is back, and the catch-up read the chat's newer ones too); last when it has no time.
 */
export function inMessageOrder(
	caughtUp: CaughtUpItem[],
	live: INodeExecutionData,
	liveTime: number | undefined,
): INodeExecutionData[] {
	const newer = liveTime === undefined ? -1 : caughtUp.findIndex(({ time }) => time > liveTime);
	const at = newer === -1 ? caughtUp.length : newer;
	const items = caughtUp.map(({ item }) => item);
	items.splice(at, 0, live);
	return items;
}
