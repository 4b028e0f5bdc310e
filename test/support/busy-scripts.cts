/**
 * Work that V8's profiler can tell apart by script: for the bench's profile counting
 * (bench/support/cpu-profile.cts).
 */
import * as vm from 'node:vm';

/** A function from a script named `url` that does a little arithmetic per call. */
export function workIn(url: string): () => number {
	return vm.runInThisContext(
		'(function work() { let x = 0; for (let i = 0; i < 500; i++) x += Math.sqrt(x + i); return x; })',
		{ filename: url },
	) as () => number;
}
