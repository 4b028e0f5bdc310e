/**
 * What watching many sessions costs a delivery (issue 36, part 4), for the bench part "trigger":
 * the built trigger's webhook() per event for a session watched alone (One Session) against the
 * same session watched as the last of many (Several Sessions), with the same request and token,
 * in interleaved rounds. Operators run tens of numbers on one gateway (Evolution #2042); a
 * delivery must find its session's registration without its cost growing with them.
 *
 * Both triggers are version 3 and are given the static data activation would have written (the
 * bench's registration for the session; for the others, registrations of their own with a
 * delivery record each, as sessions that had traffic), so no second registration is made on the
 * gateway for the same session.
 */
import type { IDataObject } from 'n8n-workflow';

import type { MessagingGatewayTrigger } from '../../nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node';
import type * as DeliveryRecordModule from '../../nodes/MessagingGatewayTrigger/delivery-record';
import type {
	OurRegistration,
	SessionState,
} from '../../nodes/MessagingGatewayTrigger/webhook/registration';
import type {
	TriggerHarnessOptions,
	TriggerHarness,
	WebhookRequest,
} from '../../test/support/trigger-harness.cts';
import { builtModule } from './built.cts';
import type { GoalResult } from './measure.cts';
import { interleaved, microsecondsText, ratioGoal, round2, roundedStats } from './measure.cts';
import type { Webhook } from './webhook-timing.cts';
import { microsecondsPerEvent, newMessageId, silentResponse } from './webhook-timing.cts';

/** Sessions the many-sessions trigger watches, the measured one last (found after all others). */
export const WATCHED_SESSIONS = 50;
/** Deliveries each other session's record holds (a quarter of an hour of a busy number). */
const RECORD_ENTRIES = 200;
/** A per-event cost no more than this many times the one-session trigger's. */
const RATIO_LIMIT = 1.1;

export interface SeveralSessionsInput {
	ours: MessagingGatewayTrigger;
	startTriggerHarness(options: TriggerHarnessOptions): Promise<TriggerHarness>;
	gateway: TriggerHarnessOptions['gateway'];
	/** The state activation wrote for the measured session (its registration, the request's token). */
	state: SessionState;
	request: WebhookRequest;
	/** The message key inside the request's body: its ID changes per event (a new message). */
	key: IDataObject;
	events: number;
	rounds: number;
}

/** Another session's state: a registration of its own, a record of recent deliveries. */
function otherSession(
	registration: OurRegistration,
	index: number,
	record: typeof DeliveryRecordModule,
): IDataObject {
	const session = `bench-number-${index}`;
	const token = `${registration.token.slice(0, -8)}${index.toString(16).padStart(8, '0')}`;
	const expires = Math.floor(Date.now() / 1000) + 900;
	const delivered = Array.from({ length: RECORD_ENTRIES }, (_, entry) =>
		record.entry(record.deliveryDigest(`${session}|${entry}`), expires),
	).join('');
	return {
		session,
		registration: {
			...registration,
			session,
			token,
			url: registration.url.replace(registration.token, token),
		},
		previous: null,
		delivered,
		activatedAt: Math.floor(Date.now() / 1000),
	};
}

export async function severalSessionsCost(
	input: SeveralSessionsInput,
): Promise<{ goal: GoalResult; figures: IDataObject; notes: string[] }> {
	const registration = input.state.registration!;
	const record = builtModule<typeof DeliveryRecordModule>(
		'nodes/MessagingGatewayTrigger/delivery-record.js',
	);
	const harnessOf = async (parameters: IDataObject, staticData: IDataObject) => {
		const harness = await input.startTriggerHarness({
			gateway: input.gateway,
			parameters: { events: ['MESSAGES_UPSERT'], ...parameters } as never,
			typeVersion: 3,
			nodeType: input.ours,
		});
		harness.editStaticData((nodeData) => Object.assign(nodeData, staticData));
		return harness;
	};
	const measuredState = { ...input.state };
	const others = Array.from({ length: WATCHED_SESSIONS - 1 }, (_, index) =>
		otherSession(registration, index, record),
	);
	const one = await harnessOf({ session: registration.session }, measuredState);
	const many = await harnessOf(
		{
			sessionScope: 'several',
			sessions: [...others.map(({ session }) => session), registration.session],
		},
		{ sessions: [...others, { session: registration.session, ...measuredState }] },
	);
	try {
		const webhook = input.ours.webhook as Webhook;
		const timed = (harness: TriggerHarness) => async () =>
			await microsecondsPerEvent(
				webhook,
				harness.webhookContext(input.request, silentResponse()),
				input.events,
				input.key,
			);
		// Both must start an execution for the request, or the figures compare nothing.
		for (const harness of [one, many]) {
			input.key.id = newMessageId();
			const answer = await webhook.call(harness.webhookContext(input.request, silentResponse()));
			if (answer.workflowData?.[0]?.length !== 1) {
				throw new Error('A trigger of the several-sessions figure did not take the delivery');
			}
		}
		const measured = await interleaved(
			{ oneSession: timed(one), manySessions: timed(many) },
			input.rounds,
		);
		const extra = measured.manySessions.median - measured.oneSession.median;
		const goal = ratioGoal({
			id: 'trigger.severalSessionsPerEvent',
			what: `Trigger webhook() per event watching ${WATCHED_SESSIONS} sessions (the delivery's last of them) ÷ watching its session alone`,
			subject: measured.manySessions,
			baseline: measured.oneSession,
			limit: RATIO_LIMIT,
			why: `${microsecondsText(measured.manySessions.median)} against ${microsecondsText(measured.oneSession.median)} per event (medians), ${microsecondsText(extra)} more. The session the envelope names is checked first, so one token is checked however many sessions are watched (checking each in turn made it 3.5×); finding that session walks the list behind n8n's proxies (about 15 µs among 50, measured alone), and n8n's getNode() copies the node with its parameters (here a list of ${WATCHED_SESSIONS} names) at each call webhook() makes (on All Sessions, with no list, the same sessions measured 0.8 to 0.9×). A delivery through n8n takes about 20 ms even for n8n's own Webhook node, so neither is worth state of its own.`,
		});
		return {
			goal,
			figures: {
				watchedSessions: WATCHED_SESSIONS,
				recordEntriesPerOtherSession: RECORD_ENTRIES,
				microsecondsPerEvent: {
					oneSession: roundedStats(measured.oneSession),
					manySessions: roundedStats(measured.manySessions),
					extra: round2(extra),
				},
			},
			notes: [
				`Several sessions: the same request and token to a version 3 trigger watching its session alone and to one watching ${WATCHED_SESSIONS} (Several Sessions), the delivery's session last in its list and each other session with a registration of its own and ${RECORD_ENTRIES} recent deliveries in its record; ${input.rounds} interleaved rounds of ${input.events} events.`,
			],
		};
	} finally {
		await one.stop();
		await many.stop();
	}
}
