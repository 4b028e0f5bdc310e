/**
 * Messages n8n took and never started (unstarted-messages.ts), as one process sees them: overdue
 * two minutes after they were taken, only where the trigger's executions start in this process
 * (n8n's regular mode, not a queue-mode webhook processor), given up after an hour.
 */
import {
	noteStarted,
	noteTaken,
	putBack,
	START_OVERDUE_SECONDS,
	takeOverdue,
} from '../../nodes/MessagingGatewayTrigger/unstarted-messages';

type Step =
	| { taken: string; at: number }
	| { started: string[]; here: boolean }
	| { overdueAt: number; expect: string[] };

let trigger = 0;
const SESSION = 'acme-sales';

describe('messages taken whose execution never started here', () => {
	it.each([
		{
			name: 'regular mode: a message whose execution never started is overdue after two minutes, once',
			steps: [
				{ taken: 'a', at: 0 },
				{ started: ['a'], here: true },
				{ taken: 'b', at: 10 },
				{ taken: 'c', at: 50 },
				{ overdueAt: 10 + START_OVERDUE_SECONDS - 1, expect: [] },
				{ overdueAt: 10 + START_OVERDUE_SECONDS, expect: ['b'] },
				{ overdueAt: 50 + START_OVERDUE_SECONDS, expect: ['c'] },
				{ overdueAt: 500, expect: [] },
			],
		},
		{
			name: 'queue mode: no execution starts in this process, so nothing is overdue',
			steps: [
				{ taken: 'a', at: 0 },
				{ started: ['a'], here: false },
				{ taken: 'b', at: 10 },
				{ overdueAt: 1000, expect: [] },
			],
		},
		{
			name: 'an execution a person started says nothing of the mode',
			steps: [
				{ taken: 'a', at: 0 },
				{ overdueAt: 1000, expect: [] },
			],
		},
		{
			name: 'started late (a long queue of executions): not overdue any more',
			steps: [
				{ started: ['x'], here: true },
				{ taken: 'a', at: 0 },
				{ started: ['a'], here: true },
				{ overdueAt: 1000, expect: [] },
			],
		},
		{
			name: 'given up an hour after it was taken',
			steps: [
				{ started: ['x'], here: true },
				{ taken: 'a', at: 0 },
				{ taken: 'b', at: 3000 },
				{ overdueAt: 3601, expect: ['b'] },
			],
		},
	] as Array<{ name: string; steps: Step[] }>)('$name', ({ steps }) => {
		const key = `workflow-${++trigger}:node`;
		for (const step of steps) {
			if ('taken' in step) noteTaken(key, SESSION, step.taken, step.at - 5, step.at);
			else if ('started' in step) noteStarted(key, step.started, step.here);
			else
				expect(takeOverdue(key, SESSION, step.overdueAt).map(({ digest }) => digest)).toEqual(
					step.expect,
				);
		}
	});

	it('messages put back (not read back now) are overdue again first, oldest first', () => {
		const key = `workflow-${++trigger}:node`;
		noteStarted(key, ['x'], true);
		noteTaken(key, SESSION, 'a', 0, 0);
		noteTaken(key, SESSION, 'b', 5, 5);
		const overdue = takeOverdue(key, SESSION, 200);
		expect(overdue.map(({ digest }) => digest)).toEqual(['a', 'b']);
		noteTaken(key, SESSION, 'c', 150, 150);
		putBack(key, SESSION, overdue);
		expect(takeOverdue(key, SESSION, 300).map(({ digest }) => digest)).toEqual(['a', 'b', 'c']);
	});

	it("one session's overdue messages are read back with that session's delivery only", () => {
		const key = `workflow-${++trigger}:node`;
		noteStarted(key, ['x'], true);
		noteTaken(key, 'sales', 'a', 0, 0);
		noteTaken(key, 'support', 'b', 5, 5);
		expect(takeOverdue(key, 'support', 200).map(({ digest }) => digest)).toEqual(['b']);
		expect(takeOverdue(key, 'support', 300)).toEqual([]);
		// An execution that started with a digest clears it whichever session took it.
		noteTaken(key, 'support', 'c', 10, 10);
		noteStarted(key, ['c'], true);
		expect(takeOverdue(key, 'sales', 200).map(({ digest }) => digest)).toEqual(['a']);
		expect(takeOverdue(key, 'support', 300)).toEqual([]);
	});
});
