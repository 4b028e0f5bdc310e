/**
 * How much of a run's CPU time the code in some files takes: V8's sampling profiler (through the
 * inspector, in this process) around the run, each sample counted for the function it landed in.
 * A share within one run, so the machine's noise between runs does not enter it, where a 2% goal
 * is smaller than that noise. One limit of V8's: a long loop's code optimized while it ran, before
 * the profiler started, is counted for its caller (the package's per-request functions are short
 * calls, which V8 names).
 */
import { Session } from 'node:inspector/promises';

interface ProfileNode {
	id: number;
	callFrame: { url: string };
}

interface Profile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

export interface ProfiledRun {
	/** Milliseconds of samples in the chosen code (its own time, not its callees'). */
	chosenMs: number;
	/** Milliseconds from the first sample to the profile's end, idle included. */
	totalMs: number;
}

/** Samples every 100 µs: a request of the package costs several hundred. */
const SAMPLING_INTERVAL_US = 100;

/**
 * Runs `run` under the profiler and sums the time of the samples whose function lies in a script
 * `chosen` accepts (by its URL).
 */
export async function profiledShare(
	run: () => Promise<unknown>,
	chosen: (url: string) => boolean,
): Promise<ProfiledRun> {
	const { totalMs, chosenMs } = await profiledShares(run, { chosen });
	return { totalMs, chosenMs: chosenMs.chosen };
}

/** profiledShare for several choices of scripts at once, counted in one profile. */
export async function profiledShares<Name extends string>(
	run: () => Promise<unknown>,
	choices: Record<Name, (url: string) => boolean>,
): Promise<{ totalMs: number; chosenMs: Record<Name, number> }> {
	const session = new Session();
	session.connect();
	let taken: Profile;
	try {
		await session.post('Profiler.enable');
		await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
		await session.post('Profiler.start');
		try {
			await run();
		} finally {
			({ profile: taken } = (await session.post('Profiler.stop')) as { profile: Profile });
		}
	} finally {
		session.disconnect();
	}
	const names = Object.keys(choices) as Name[];
	const urlOf = new Map(taken.nodes.map((node) => [node.id, node.callFrame.url]));
	// A sample stands for the time until the next one (as Chrome's DevTools count it): the first
	// delta is the wait from the profiler's start to its first sample, not the program's time.
	const chosenUs = Object.fromEntries(names.map((name) => [name, 0])) as Record<Name, number>;
	let totalUs = 0;
	let at = taken.startTime;
	const times = taken.timeDeltas.map((delta) => (at += delta));
	taken.samples.forEach((nodeId, index) => {
		const lasted = (times[index + 1] ?? taken.endTime) - times[index];
		totalUs += lasted;
		const url = urlOf.get(nodeId) ?? '';
		for (const name of names) if (choices[name](url)) chosenUs[name] += lasted;
	});
	const chosenMs = Object.fromEntries(names.map((name) => [name, chosenUs[name] / 1000])) as Record<
		Name,
		number
	>;
	return { chosenMs, totalMs: totalUs / 1000 };
}
