/**
 * WAHA's names for the events the trigger offers, read by both nodes: the trigger subscribes to
 * them and reads its deliveries by them; the action node's Webhook → Set on WAHA subscribes too.
 */

/**
 * WAHA's events for each event the trigger offers (WAHA 2026.7.1's WAHAEvents). Message Received
 * is `message` (others' messages) or `message.any` (own too), chosen by Ignore Own Messages; a
 * reaction arrives as a message, as Evolution delivers it. Events missing here WAHA has not.
 */
const WAHA_EVENTS_OF: Readonly<Record<string, readonly string[]>> = {
	MESSAGES_UPSERT: ['message', 'message.reaction'],
	MESSAGES_UPDATE: ['message.ack', 'message.ack.group', 'message.edited'],
	MESSAGES_DELETE: ['message.revoked'],
	SEND_MESSAGE: ['message.any'],
	QRCODE_UPDATED: ['session.status'],
	CONNECTION_UPDATE: ['session.status'],
	CALL: ['call.received', 'call.accepted', 'call.rejected'],
	PRESENCE_UPDATE: ['presence.update'],
	GROUPS_UPSERT: ['group.v2.join'],
	GROUP_UPDATE: ['group.v2.update'],
	GROUP_PARTICIPANTS_UPDATE: ['group.v2.participants'],
	CHATS_UPDATE: ['chat.archive'],
	LABELS_ASSOCIATION: ['label.chat.added', 'label.chat.deleted'],
	LABELS_EDIT: ['label.upsert', 'label.deleted'],
};

/** The trigger's events for each WAHA event, the most specific first (see wahaDeliveryEvent). */
export const TRIGGER_EVENTS_OF_WAHA: ReadonlyMap<string, readonly string[]> = (() => {
	const byWahaEvent = new Map<string, string[]>();
	for (const [triggerEvent, wahaEvents] of Object.entries(WAHA_EVENTS_OF)) {
		for (const wahaEvent of wahaEvents) {
			byWahaEvent.set(wahaEvent, [...(byWahaEvent.get(wahaEvent) ?? []), triggerEvent]);
		}
	}
	// Own messages come as `message.any` when Message Received wants them.
	byWahaEvent.set('message.any', ['SEND_MESSAGE', 'MESSAGES_UPSERT']);
	return byWahaEvent;
})();

/** WAHA's own names for the trigger's event (none: WAHA has not this event). */
export function wahaEventsOf(event: string): readonly string[] {
	return WAHA_EVENTS_OF[event] ?? [];
}

/** Whether WAHA has the trigger's event. */
export function wahaHasEvent(event: string): boolean {
	return event in WAHA_EVENTS_OF;
}

/** The trigger's events that WAHA has not. */
export function eventsWahaLacks(events: readonly string[]): string[] {
	return events.filter((event) => !wahaHasEvent(event));
}

/**
 * The WAHA events to subscribe to for the trigger's events (each once, in the order chosen).
 * `message.any` holds every message, so with it `message` would deliver others' messages twice.
 */
export function wahaEventsFor(events: readonly string[], ignoreOwnMessages: boolean): string[] {
	const wanted = new Set<string>();
	for (const event of events) {
		for (const wahaEvent of WAHA_EVENTS_OF[event] ?? []) {
			wanted.add(wahaEvent === 'message' && !ignoreOwnMessages ? 'message.any' : wahaEvent);
		}
	}
	if (wanted.has('message.any')) wanted.delete('message');
	return [...wanted];
}
