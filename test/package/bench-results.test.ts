/**
 * The Performance table (docs/performance.md) comes from a run: it must be exactly what the newest full result
 * file in bench/results/ renders, that run must cover every part, and every missed goal must say why.
 */
import { BENCH_PARTS, newestRun, renderSummary } from '../../bench/support/report.cts';
import { readReadmeSection } from '../support/readme-section.cts';

const run = newestRun();

describe('bench results', () => {
	it('has a full run on record (npm run bench writes bench/results/<date>.json)', () => {
		expect(run).toBeDefined();
		expect(run?.quick).toBe(false);
	});

	it('covers every part of the bench', () => {
		expect(run?.parts.map((part) => part.id)).toEqual(Object.keys(BENCH_PARTS));
	});

	it.each(run?.parts.flatMap((part) => part.goals) ?? [])(
		'$id: a measured figure, and a reason when missed',
		(goal) => {
			expect(goal.measured).not.toBe('');
			// The number a goal is judged or reported on is one (µs, a ratio…), when it has one.
			if (goal.value !== undefined) expect(Number.isFinite(goal.value)).toBe(true);
			// A reason is sentences, not a word or two.
			if (!goal.met) expect(goal.why?.trim().split(/\s+/).length ?? 0).toBeGreaterThanOrEqual(8);
		},
	);

	it('is the table in docs/performance.md', () => {
		expect(readReadmeSection('performance:results')).toBe(renderSummary(run!).trim());
	});
});
