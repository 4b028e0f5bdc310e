// Prints the plain closing line CI reads: "N passed, N failed", after a short account of each
// failure (CI shows the end of a long log: the failures must be there, not only far above).
const FAILURE_LINES = 25;
/** The slowest files named at the end, so a run's time can be read from the log's end too. */
const SLOWEST_FILES = 8;

const plain = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');

function failureAccount(results) {
	const lines = [];
	for (const file of results.testResults) {
		const where = file.testFilePath.replace(`${process.cwd()}/`, '');
		if (file.testExecError) {
			lines.push(`✕ ${where}: ${plain(file.testExecError.message).split('\n')[0]}`);
		}
		for (const test of file.testResults.filter((each) => each.status === 'failed')) {
			lines.push(`✕ ${where} › ${test.fullName}`);
			// The message without the stack's lines inside jest and node_modules.
			const message = plain(test.failureMessages.join('\n'))
				.split('\n')
				.filter((line) => !/^\s*at .*(node_modules|node:internal)/.test(line));
			lines.push(...message.slice(0, FAILURE_LINES).map((line) => `    ${line}`));
		}
	}
	return lines;
}

function slowestFiles(results) {
	const durations = results.testResults
		.map((file) => ({
			where: file.testFilePath.replace(`${process.cwd()}/`, ''),
			seconds: (file.perfStats.end - file.perfStats.start) / 1000,
		}))
		.sort((a, b) => b.seconds - a.seconds);
	const wall = (Date.now() - results.startTime) / 1000;
	return [
		`Time: ${Math.round(wall)} s in all; slowest files:`,
		...durations
			.slice(0, SLOWEST_FILES)
			.map(({ where, seconds }) => `  ${String(Math.round(seconds)).padStart(5)} s  ${where}`),
	];
}

class SummaryReporter {
	onRunComplete(_contexts, results) {
		const failedSuites = results.numRuntimeErrorTestSuites;
		const failed = results.numFailedTests + failedSuites;
		const account = failureAccount(results);
		console.log(`\n${slowestFiles(results).join('\n')}`);
		if (account.length > 0) console.log(`\nFailures:\n${account.join('\n')}`);
		console.log(`\n${results.numPassedTests} passed, ${failed} failed`);
	}
}
module.exports = SummaryReporter;
