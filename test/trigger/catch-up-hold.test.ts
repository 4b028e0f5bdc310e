/**
 * How long a catch-up holds the trigger's other deliveries (catch-up.ts): until n8n has answered
 * the delivery that carries it (its execution is stored), and never longer than a minute, so a
 * delivery n8n never answers cannot hold every later one nor keep the next catch-up from running.
 */
import {
	CATCH_UP_WAIT_MS,
	catchUpStarts,
	catchUpUnderWay,
} from '../../nodes/MessagingGatewayTrigger/catch-up-hold';

/** n8n's response to the delivery that carries the catch-up. */
class Response {
	private readonly listeners: Array<{ event: string; listener: () => void }> = [];
	once(event: 'finish' | 'close', listener: () => void): void {
		this.listeners.push({ event, listener });
	}
	emit(event: 'finish' | 'close'): void {
		for (const entry of this.listeners.filter((each) => each.event === event)) entry.listener();
	}
}

afterEach(() => {
	jest.useRealTimers();
});

describe('a catch-up under way', () => {
	it.each([
		{ n8n: 'answers (finish)', event: 'finish', afterMs: 0, underWay: false },
		{ n8n: 'closes the connection', event: 'close', afterMs: 0, underWay: false },
		{ n8n: 'has not answered', event: undefined, afterMs: CATCH_UP_WAIT_MS - 1, underWay: true },
		{ n8n: 'never answers', event: undefined, afterMs: CATCH_UP_WAIT_MS, underWay: false },
	] as const)(
		'n8n $n8n, $afterMs ms on: deliveries wait for it: $underWay',
		async ({ event, afterMs, underWay }) => {
			jest.useFakeTimers();
			const trigger = `trigger-${String(event)}-${afterMs}`;
			const response = new Response();
			catchUpStarts(trigger, response);
			expect(catchUpUnderWay(trigger)).toBeDefined();

			if (event) response.emit(event);
			await jest.advanceTimersByTimeAsync(afterMs);

			expect(catchUpUnderWay(trigger) !== undefined).toBe(underWay);
		},
	);
});
